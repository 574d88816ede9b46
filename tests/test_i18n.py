"""The translation catalogs: es, en and fr complete and in step (every key, its placeholders, every
CLDR plural category of each language), numbers by CLDR, every key the renderers use present."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from babel import Locale

from bot.words.i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    PLURAL_CATEGORIES,
    branches,
    catalog,
    format_number,
    has_key,
    locale_of,
    placeholders,
    plural_category,
    po_path,
    translate,
)

ROOT = Path(__file__).resolve().parents[1]
LOCALE_DIR = ROOT / "bot" / "words" / "locales"


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != DEFAULT_LOCALE])
def test_every_catalog_has_the_spanish_keys_and_placeholders(locale):
    es, other = catalog("es"), catalog(locale)
    missing = set(es) - set(other)
    assert not missing and not set(other) - set(es), (sorted(missing)[:20], sorted(set(other) - set(es))[:20])
    for key in set(es) & set(other):
        assert placeholders(es[key]) == placeholders(other[key]), key


@pytest.mark.parametrize("locale", LOCALES)
def test_each_catalog_is_a_gettext_catalog_the_tools_accept(locale):
    from scripts.catalogs import problems

    assert po_path(locale).exists()
    assert problems(locale) == []  # translated, not fuzzy, same placeholders, every CLDR category
    text = po_path(locale).read_text(encoding="utf-8")
    assert not re.search(r"\{\w+\|[^|{}]+\|[^|{}]+\}", text), "the old {n|one|other} form is gone from the .po"


def test_no_words_are_kept_as_json_any_more():
    assert not list(LOCALE_DIR.glob("*.json")), "every text is in the .po catalogs (the Activity's too)"
    assert all(any(k.startswith("activity.page.") for k in catalog(loc)) for loc in LOCALES)


def test_translate_fills_placeholders_and_falls_back():
    assert translate("table.stock", count=3) == "Mazo: 3"
    assert translate("table.stock", "en", count=3) == "Stock: 3"
    assert translate("table.stock", "fr", count=3) == "Pioche\u00a0: 3"
    assert translate("table.stock", "de", count=3) == "Mazo: 3"  # unknown locale: Spanish
    assert translate("table.stock", "en-GB", count=3) == "Stock: 3"
    assert translate("no.such.key", "en") == "no.such.key"
    assert translate("table.stock", "en") == "Stock: {count}"  # a missing parameter stays visible
    assert locale_of(None) == "es" and locale_of("EN_us") == "en"
    assert [locale_of(c) for c in ("fr", "es-ES", "es-419", "en-US", "en-GB", "pt-BR", "de")] == [
        "fr", "es", "es", "en", "en", "es", "es"]


@pytest.mark.parametrize(("value", "es", "en", "fr"), [
    (0, "0", "0", "0"), (42, "42", "42", "42"), (Fraction(25, 2), "12,5", "12.5", "12,5"),
    (-10, "\u221210", "\u221210", "\u221210"), (1250, "1250", "1,250", "1\u202f250"),
    (12500, "12.500", "12,500", "12\u202f500"), (Fraction(-3, 2), "\u22121,5", "\u22121.5", "\u22121,5"),
])
def test_numbers_are_written_the_local_way(value, es, en, fr):
    assert (format_number(value, "es"), format_number(value, "en"), format_number(value, "fr")) == (es, en, fr)


# ----------------------------------------------------------------------------- plurals by CLDR


def samples(locale: str) -> dict[str, list[object]]:
    """For each CLDR plural category of ``locale``, numbers Babel's rule puts in it: integers, the
    millions (French and Spanish "many"), and the halves a score can be (CLDR counts visible decimals)."""
    rule = Locale.parse(locale).plural_form
    candidates: list[object] = [*range(0, 120), *(10**k for k in range(3, 8)), 2 * 10**6,
                                *(format_number(Fraction(n, 2), locale) for n in (1, 3, 5, 21))]
    out: dict[str, list[object]] = {}
    for n in candidates:
        out.setdefault(plural_category(n, locale), [])
        if len(out[plural_category(n, locale)]) < 4:
            out[plural_category(n, locale)].append(n)
    assert set(out) == set(rule.tags) | {"other"}, (locale, out)  # every category has samples
    return out


def _plural_messages(locale: str) -> dict[str, str]:
    return {k: t for k, t in catalog(locale).items() if "plural," in t}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_form_of_every_language_renders_on_its_samples(locale):
    messages = _plural_messages(locale)
    assert len(messages) >= 25
    checked = set()
    for category, numbers in samples(locale).items():
        for key, text in messages.items():
            names = placeholders(text)
            for n in numbers:
                out = translate(key, locale, **dict.fromkeys(names, n))
                assert "{" not in out and "}" not in out, (key, n, out)
                for body in re.findall(r"\{(\w+, plural,.*?\}\s*)\}", text):
                    _, forms = branches(body) or ("", {})
                    expected = forms.get(category, forms.get("other", ""))
                    assert expected.replace("#", str(n)).split("{")[0] in out, (key, category, n, out)
                checked.add(category)
    assert checked == set(Locale.parse(locale).plural_form.tags) | {"other"}


def test_french_counts_zero_and_one_in_the_singular():
    assert translate("hand.count", "fr", count=0) == "0 carte"
    assert translate("hand.count", "fr", count=1) == "1 carte"
    assert translate("hand.count", "fr", count=2) == "2 cartes"
    assert translate("hand.count", "fr", count=1_000_000) == "1000000 de cartes"
    assert translate("hand.count", "fr", count=format_number(Fraction(3, 2), "fr")) == "1,5 carte"
    assert translate("hand.count", "en", count=format_number(Fraction(3, 2), "en")) == "1.5 cards"
    assert translate("hand.count", "es", count=1_000_000) == "1000000 de cartas"
    assert [plural_category(n, "fr") for n in (0, 1, 2, 10**6)] == ["one", "one", "other", "many"]
    assert set(PLURAL_CATEGORIES) >= set(Locale.parse("fr").plural_form.tags)


def test_a_translator_may_write_every_cldr_form():
    # Polish has one, few, many and other: the syntax carries them, and Babel's rule chooses.
    from bot.words.i18n import _render

    text = "{n} {n, plural, one {karta} few {karty} many {kart} other {karty}}"
    assert [_render(text, {"n": n}, "pl") for n in (1, 3, 5, 22)] == ["1 karta", "3 karty", "5 kart", "22 karty"]
    assert _render("{n, plural, =0 {none} one {# card} other {# cards}}", {"n": 0}, "en") == "none"


def test_every_key_the_renderers_name_exists():
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "renderers").glob("*.py"))
    literal = set(re.findall(r'translate\(\s*"([a-z_.]+)"', source))
    literal |= set(re.findall(r'translate\("([a-z_.]+)" if', source))
    assert literal, "the scan found no keys"
    for key in literal:
        for locale in LOCALES:
            assert has_key(key, locale), (key, locale)
    # Keys built from view data: every value the engine or a variant can produce.
    families = {
        "variant": ["basic", "wrotham", "gin", "rami", "tradicional", "dummy"],
        "phase": ["upcard", "draw", "play", "layoff", "window"],
        "move": ["draw", "take", "take_card", "pass", "meld", "layoff", "swap", "table", "discard", "knock", "done",
                 "auto", "cut", "allow", "claim", "timeout", "resign"],
        "result.outcome": ["gin", "knock", "undercut", "tie", "void", "out", "blocked", "resigned"],
        "hand.group": ["run", "set", "deadwood"],
        "hand.sort": ["suit", "rank", "melds"],
        "seat.opened": ["rami", "dummy"],
    }
    for prefix, values in families.items():
        for value in values:
            for locale in LOCALES:
                assert has_key(f"{prefix}.{value}", locale), (prefix, value, locale)


PLURALS = (r"(points|cartes|parties|donnes|jours|"
           r"puntos|cartas|partidas|manos|rondas|días|veces|points|cards|games|deals|rounds|days|times)")
SINGULARS = r"(partie|donne|jour|punto|carta|partida|mano|ronda|día|vez|point|card|game|deal|round|day|time)"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_count_of_one_takes_the_singular_noun(locale):
    # Every text with a one/other choice, filled with 1, with 2 and with a formatted 1.5.
    words = catalog(locale)
    chosen = _plural_messages(locale)
    assert len(chosen) >= 20
    for key in chosen:
        names = placeholders(words[key])
        one = translate(key, locale, **dict.fromkeys(names, 1))
        two = translate(key, locale, **dict.fromkeys(names, 2))
        half = translate(key, locale, **dict.fromkeys(names, format_number(Fraction(3, 2), locale)))
        assert "{" not in one + two + half, key
        assert not re.search(rf"\b1 {PLURALS}\b", one), (key, one)
        assert not re.search(rf"\b2 {SINGULARS}\b", two), (key, two)
        if locale == "fr":  # French: 1,5 is singular ("1,5 point")
            assert not re.search(rf"\b1,5 {PLURALS}\b", half), (key, half)
        else:
            assert not re.search(rf"\b1[,.]5 {SINGULARS}\b", half), (key, half)


def test_the_singular_reads_naturally_in_the_texts_players_see():
    assert translate("hint.why.knock", "es", after=1) == "Te queda 1 punto suelto: puedes cerrar."
    assert translate("hint.why.knock", "es", after=7) == "Te quedan 7 puntos sueltos: puedes cerrar."
    assert translate("hand.count", "es", count=1) == "1 carta"
    assert translate("hand.count", "en", count=1) == "1 card"
    assert translate("hand.count", "en", count=0) == "0 cards"
    assert translate("tournament.rounds", "es", count=1) == "1 ronda"
    assert translate("game.idle_ended", "es", days=1).endswith("nadie jugó en 1 día.")


@pytest.mark.parametrize(("locale", "expected"), [("es", "1 punto"), ("en", "1 point"), ("fr", "1 point")])
def test_a_ledger_line_of_one_point_is_written_out(locale, expected):
    # The ledger goes through the refusal formatter, which checks the placeholders it can fill.
    from bot.words.refusals import ledger_text

    text = ledger_text(("ana", 1, "hand_left", {"count": 1}), locale)
    assert text.endswith(expected), text
    assert ledger_text(("ana", 1, "hand_left", {"count": -1}), locale).endswith(expected.replace("1", "\u22121"))
