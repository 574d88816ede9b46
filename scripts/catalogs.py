"""The translator's tools for the gettext catalogs in bot/words/locales (docs/translating.md).

    python -m scripts.catalogs extract      # es.po -> rummy.pot, the template every language translates
    python -m scripts.catalogs update       # the template -> each language's .po (new, changed, gone)
    python -m scripts.catalogs compile      # each .po -> .mo, and how complete each language is
    python -m scripts.catalogs check        # exit 1 unless every language is complete and well formed
    python -m scripts.catalogs import-json  # the old JSON catalogs -> .po (rerunnable; --delete removes them)

What it is: Spanish is the source language. A message is keyed by its ``msgctxt`` (the flat key the
code asks for, ``table.stock``); its ``msgid`` is the Spanish text, copied from ``es.po``'s
``msgstr`` by ``update``, so a translator's tool (Poedit, Weblate, Lokalize) shows the Spanish beside
their translation, and a Spanish text that changes marks its translations fuzzy (the old Spanish kept
as ``#| msgid``) until a translator looks at them again. Plurals are ICU plural fields inside the text
(``{count, plural, one {carta} other {cartas}}``), chosen by each language's CLDR rule at run time.

What it is not: the bot does not need ``compile`` (it reads the .po files with Babel); the .mo
files are for tools that want them and are not kept in git. No machine translation, no network.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.words.i18n import DEFAULT_LOCALE, DOMAIN, LOCALES, PLURAL_CATEGORIES, branches, placeholders, po_path

ROOT = Path(__file__).resolve().parents[1]
LOCALE_DIR = ROOT / "bot" / "words" / "locales"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
DATE = datetime(2025, 1, 1, tzinfo=UTC)  # a fixed header date: a rerun changes only what changed
LEGACY = re.compile(r"\{(\w+)\|([^|{}]+)\|([^|{}]+)\}")

Entry = tuple[str, str, str, bool, str | None]  # key, msgid, msgstr, fuzzy, previous msgid


# ----------------------------------------------------------------------------- reading and writing


def read(path: Path, locale: str) -> dict[str, Message]:
    """A catalog's live messages by key (msgctxt)."""
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        po = read_po(fh, locale=locale, domain=DOMAIN)
    return {m.context: m for m in po if m.context}


def flags_of(text: str) -> list[str]:
    if any(branches(body) for body in re.findall(r"\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", text)):
        return ["icu-message-format"]
    return ["python-brace-format"] if "{" in text else []


def write(path: Path, locale: str | None, entries: list[Entry]) -> None:
    catalog = Catalog(locale=locale, domain=DOMAIN, project="rummy-discord", version="1",
                      copyright_holder="rummy-discord", msgid_bugs_address="", creation_date=DATE,
                      revision_date=DATE, language_team=f"{locale or 'LANGUAGE'} <rummy-discord>",
                      last_translator="rummy-discord", fuzzy=False)
    for key, msgid, msgstr, fuzzy, previous in entries:
        if not msgid:
            raise SystemExit(f"{key}: an empty Spanish text cannot be a msgid")
        flags = flags_of(msgid) + (["fuzzy"] if fuzzy else [])
        catalog.add(msgid, string=msgstr, context=key, flags=flags,
                    previous_id=previous if fuzzy and previous else ())
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=100, include_previous=True, sort_output=False, omit_header=False)


# ----------------------------------------------------------------------------- the commands


def extract() -> dict[str, str]:
    """es.po's texts as the template, in es.po's order; keys named in the code but absent are listed."""
    source = {k: m.string or m.id for k, m in read(po_path(DEFAULT_LOCALE), DEFAULT_LOCALE).items()}
    write(TEMPLATE, None, [(k, str(v), "", False, None) for k, v in source.items()])
    code = "\n".join(p.read_text(encoding="utf-8") for d in ("bot", "cogs", "renderers", "activity")
                     for p in (ROOT / d).rglob("*.py") if "node_modules" not in p.parts)
    named = set(re.findall(r'translate\(\s*"([a-z_][a-z0-9_.]*)"', code))
    missing = sorted(named - set(source) - set(_json_keys(DEFAULT_LOCALE)))
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(source)} messages")
    for key in missing:
        print(f"  named in the code but not in es.po: {key}")
    return {k: str(v) for k, v in source.items()}


def update() -> None:
    """The template into every language: es.po's msgids follow its msgstrs; elsewhere a new key is
    empty, a changed Spanish text is fuzzy (its old msgid kept), a key gone is dropped."""
    source = extract()
    for locale in LOCALES:
        old = read(po_path(locale), locale)
        entries: list[Entry] = []
        for key, spanish in source.items():
            if locale == DEFAULT_LOCALE:
                entries.append((key, spanish, spanish, False, None))
                continue
            had = old.get(key)
            if had is None:
                entries.append((key, spanish, "", False, None))
            else:
                changed = had.id != spanish
                previous = list(had.previous_id or [])
                entries.append((key, spanish, str(had.string), had.fuzzy or changed,
                                str(had.id) if changed else (str(previous[0]) if previous else None)))
        write(po_path(locale), locale, entries)
        print(f"{po_path(locale).relative_to(ROOT)}: {len(entries)} messages, {len(set(old) - set(source))} dropped")


def problems(locale: str) -> list[str]:
    """What keeps ``locale``'s catalog from being complete and well formed."""
    source = read(po_path(DEFAULT_LOCALE), DEFAULT_LOCALE)
    messages = read(po_path(locale), locale)
    needed = {c for c in PLURAL_CATEGORIES if c in Locale.parse(locale).plural_form.tags} | {"other"}
    out = []
    for key, spanish in source.items():
        mine = messages.get(key)
        if mine is None or not mine.string:
            out.append(f"{key}: untranslated")
            continue
        if mine.fuzzy:
            out.append(f"{key}: fuzzy (the Spanish changed)")
        text = str(mine.string)
        if placeholders(text) != placeholders(str(spanish.string or spanish.id)):
            out.append(f"{key}: placeholders {sorted(placeholders(text))}")
        out += [f"{key}: {problem}" for problem in plural_problems(text, needed)]
    return out


def plural_problems(text: str, needed: set[str]) -> list[str]:
    """Plural fields without a CLDR category of the language, or with one it does not have."""
    out = []
    for body in _fields(text):
        plural = branches(body)
        if plural is None:
            if "plural" in body or "|" in body:
                out.append(f"malformed field {{{body}}}")
            continue
        name, forms = plural
        named = {f for f in forms if not f.startswith("=")}
        if needed - named:
            out.append(f"{{{name}, plural}} lacks {sorted(needed - named)}")
        if named - set(PLURAL_CATEGORIES):
            out.append(f"{{{name}, plural}} has unknown {sorted(named - set(PLURAL_CATEGORIES))}")
        for branch in forms.values():
            out += plural_problems(branch, needed)
    return out


def _fields(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    return out


def compile_all() -> None:
    for locale in LOCALES:
        with po_path(locale).open("rb") as fh:
            po = read_po(fh, locale=locale, domain=DOMAIN)
        with po_path(locale).with_suffix(".mo").open("wb") as fh:
            write_mo(fh, po, use_fuzzy=False)
        print(f"{locale}: {len(problems(locale))} problems; {po_path(locale).with_suffix('.mo').relative_to(ROOT)}")


def check() -> int:
    bad = {locale: problems(locale) for locale in LOCALES}
    for locale, found in bad.items():
        for line in found[:50]:
            print(f"{locale}: {line}")
    return 1 if any(bad.values()) else 0


# ----------------------------------------------------------------------------- from the JSON catalogs


def _json_files(locale: str) -> list[Path]:
    files = [LOCALE_DIR / f"{locale}.json", *sorted(LOCALE_DIR.glob(f"*.{locale}.json"))]
    return [p for p in files if p.exists()]


def _json_keys(locale: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in LOCALE_DIR.glob(f"*.{locale}.json"):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def icu(text: str, locale: str) -> str:
    """The old ``{count|carta|cartas}`` as an ICU plural with every CLDR category of ``locale``:
    where CLDR has ``many`` (a million: "1 000 000 de cartes") a noun right after its number takes
    "de"; elsewhere ``many`` says what ``other`` says."""
    tags = Locale.parse(locale).plural_form.tags

    def one(match: re.Match[str]) -> str:
        name, singular, plural = match.groups()
        forms = {"one": singular, "other": plural}
        if "many" in tags:
            after_number = text[: match.start()].endswith("{" + name + "} ")
            de = ("d'" if plural[:1].lower() in "aeiouhéèê" else "de ") if locale == "fr" else "de "
            forms = {"one": singular, "many": (de + plural) if after_number else plural, "other": plural}
        return "{" + name + ", plural, " + " ".join(f"{k} {{{v}}}" for k, v in forms.items()) + "}"

    return LEGACY.sub(one, text)


def import_json(delete: bool) -> None:
    """Every JSON catalog merged into the .po files, JSON winning; rerunnable."""
    texts: dict[str, dict[str, str]] = {}
    for locale in LOCALES:
        current = {k: str(m.string) for k, m in read(po_path(locale), locale).items() if m.string}
        for path in _json_files(locale):
            for key, value in json.loads(path.read_text(encoding="utf-8")).items():
                current[key] = icu(value, locale)
        texts[locale] = current
    spanish = texts[DEFAULT_LOCALE]
    for locale in LOCALES:
        entries: list[Entry] = [(k, spanish[k], texts[locale].get(k, ""), False, None) for k in spanish]
        write(po_path(locale), locale, entries)
        print(f"{po_path(locale).relative_to(ROOT)}: {sum(1 for e in entries if e[2])} of {len(entries)} translated")
    extract()
    if delete:
        for locale in LOCALES:
            for path in _json_files(locale):
                path.unlink()
                print(f"removed {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.catalogs", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("extract", "update", "compile", "check"):
        sub.add_parser(name)
    imp = sub.add_parser("import-json")
    imp.add_argument("--delete", action="store_true", help="remove the JSON files once converted")
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract()
    elif args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    elif args.command == "check":
        return check()
    else:
        import_json(args.delete)
    return 0


if __name__ == "__main__":
    sys.exit(main())
