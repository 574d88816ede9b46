"""Options people can find and read (issue 12): every option of a variant in words, in the
reader's language, for the lobby, ``/rummy rules`` and the ``options:`` suggestions.

What it is: pure functions over the engine's option metadata (``bot.engine.options``:
``OPTION_SPECS``, and ``BOT_OPTIONS`` for the bot's own) and the catalog
(``option.*`` in ``bot/words/locales/<locale>/LC_MESSAGES/rummy.po``: one short phrase per option).
``option_notes`` says where one chosen option rules out or includes another (rules.md §4.6, §4.7.5).
What it is not: no validation (the engine's ``make_rules`` refuses what is not allowed) and no
Discord.
"""

from __future__ import annotations

from bot.engine.options import BOT_OPTIONS, OPTION_SPECS, OptionSpec
from bot.words.i18n import option_value, translate

# Where a chosen option changes what another means: (variant, option, value) -> the note's key.
NOTES: dict[tuple[str, str, str], str] = {
    ("tradicional", "opt5_two_turns", "true"): "option.note.opt5_no_rummy_double",  # §4.7.5
    ("tradicional", "opt4_continuous", "true"): "option.note.opt4_includes_opt3",  # §4.6
    ("rami", "identities", "true"): "option.note.identities_decks",  # §3.11
}
CHOICE = 100  # an autocomplete choice's name and value, at most (Discord)


def _pairs(options: str) -> list[tuple[str, str]]:
    return [(n, v) for n, eq, v in (w.partition("=") for w in options.split()) if eq]




def option_words(options: str, locale: str) -> str:
    """A lobby's stored options in words: ``Points of new melds needed to open: 40 · ...``."""
    return " · ".join(translate("lobby.option_item", locale, label=translate(f"option.{n}", locale),
                                value=option_value(n, v, locale)) for n, v in _pairs(options))


def option_notes(variant: str, options: str, locale: str) -> list[str]:
    """What the chosen options rule out or include, one line each (empty when nothing)."""
    return [translate(NOTES[(variant, n, v)], locale) for n, v in _pairs(options) if (variant, n, v) in NOTES]


def option_lines(variant: str, locale: str) -> list[str]:
    """``/rummy rules``: every option of ``variant`` with its default, its values and what it does."""
    lines = []
    for spec in OPTION_SPECS[variant]:
        default = OptionSpec.write(spec.default)
        lines.append(f"`{spec.name}` · {translate('option.default', locale, value=f'`{default}`')} · "
                     f"{translate('option.allowed', locale, allowed=spec.allowed())} — "
                     f"{translate(f'option.{spec.name}', locale)}")
    lo, hi = BOT_OPTIONS["window"]
    if variant in ("tradicional", "dummy"):
        lines.append(f"`window` · {translate('option.allowed', locale, allowed=f'{lo}..{hi}')} — "
                     f"{translate('option.window', locale)}")
    return lines


def _values(spec: OptionSpec) -> list[str]:
    """The values worth suggesting: every choice; an int's default and bounds; a pattern's forms
    with the default's number in place of ``N``."""
    default = OptionSpec.write(spec.default)
    if spec.kind == "bool":
        return ["true", "false"]
    if spec.kind == "int":
        return list(dict.fromkeys([default, str(spec.low), str(spec.high)]))
    number = "".join(ch for ch in default if ch.isdigit()) or "1"
    forms = [c.replace("N", number) for c in spec.choices if "," not in c]
    return list(dict.fromkeys([default, *forms]))


def option_suggestions(variant: str | None, typed: str, locale: str) -> list[tuple[str, str]]:
    """``options:`` suggestions while typing: (shown, value) pairs. The words already typed stay;
    the last one is completed to ``name=value``, each with what the option does. A variant not
    chosen yet suggests every variant's options."""
    words = typed.split()
    last = "" if typed.endswith(" ") or not words else words.pop()
    head = " ".join(words)
    used = {w.partition("=")[0] for w in words}
    name_part, eq, value_part = last.partition("=")
    specs: dict[str, OptionSpec] = {}
    for v, group in OPTION_SPECS.items():
        if variant in (None, "", v):
            for spec in group:
                specs.setdefault(spec.name, spec)
    out: list[tuple[str, str]] = []
    for name, spec in specs.items():
        if name in used or not (name == name_part if eq else name.startswith(name_part.lower())):
            continue
        default = OptionSpec.write(spec.default)
        for value in _values(spec):
            if eq and not value.startswith(value_part):
                continue
            full = f"{head} {name}={value}".strip()
            mark = f" ({translate('option.is_default', locale)})" if value == default else ""
            shown = f"{name}={value}{mark} — {translate(f'option.{name}', locale)}"
            if len(full) <= CHOICE:
                out.append((shown[:CHOICE], full))
    if eq and not out and value_part:  # a value of one's own (a number, a pattern): kept as typed
        out.append((f"{last}"[:CHOICE], f"{head} {last}".strip()[:CHOICE]))
    return out[:25]
