"""The translation catalog: every word a player reads, in Spanish (the default) and English.

What it is: ``translate(key, locale, **params)`` looks a flat key such as ``"table.stock"`` up in
``bot/words/locales/<locale>.json`` (plus every ``bot/words/locales/<part>.<locale>.json``) and fills its
``{placeholders}``; a placeholder written ``{count|carta|cartas}`` is the word that agrees with
the number ``count`` (the first form for exactly one, ±1, the second otherwise, as both Spanish
and English count), so no text reads "1 puntos"; ``format_number`` writes scores the
way each language does. Catalogs are loaded once, on first use. An unknown locale or a key missing
from a catalog falls back to Spanish; a key missing everywhere comes back as the key itself, so a
gap shows up on screen instead of crashing a render (``tests/test_i18n.py`` keeps the catalogs
complete).

What it is not: no plural rules beyond that one/other choice, no gettext, no Discord locale
negotiation; callers pass "es" or "en" (``locale_of`` maps Discord's ``es-ES``/``en-US`` style codes onto these).

>>> translate("table.stock", "en", count=12)
'Stock: 12'
>>> translate("hand.count", "es", count=1), translate("hand.count", "en", count=3)
('1 carta', '3 cards')
>>> format_number(Fraction(25, 2), "es"), format_number(Fraction(25, 2), "en")
('12,5', '12.5')
"""

from __future__ import annotations

import json
import string
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "catalog",
    "format_number",
    "has_key",
    "locale_of",
    "option_value",
    "placeholders",
    "translate",
]

LOCALES = ("es", "en")
DEFAULT_LOCALE = "es"
_DIR = Path(__file__).with_name("locales")


@cache
def catalog(locale: str) -> dict[str, str]:
    """The flat ``key -> text`` catalog of one locale (read once)."""
    out: dict[str, str] = {}
    # ``<locale>.json`` holds the renderers' words; ``<part>.<locale>.json`` files (the bot's
    # messages, the engine's refusals) are merged in. A key defined twice is a mistake.
    for path in [_DIR / f"{locale}.json", *sorted(_DIR.glob(f"*.{locale}.json"))]:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
        twice = set(out) & set(data)
        if twice:
            raise ValueError(f"{path.name} redefines {sorted(twice)[:5]}")
        out.update({str(k): str(v) for k, v in data.items()})
    return out


def locale_of(code: str | None) -> str:
    """Map a locale code (``"es"``, ``"es-ES"``, ``"en-GB"``, None) onto a supported locale."""
    if not code:
        return DEFAULT_LOCALE
    base = code.replace("_", "-").split("-", 1)[0].lower()
    return base if base in LOCALES else DEFAULT_LOCALE


def has_key(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Whether ``key`` has a text in ``locale`` itself (no fallback)."""
    return key in catalog(locale_of(locale))


def option_value(name: str, value: str, locale: str = DEFAULT_LOCALE) -> str:
    """A game option's value in words (``winner_collects`` -> "el ganador cobra", ``target:250`` ->
    "al llegar a 250 puntos"): ``option.value.<name>.<value>``, or for a value with a number
    ``option.value.<name>.<form>`` with ``{n}``; yes/no for switches. A value of one's own the
    catalog has no words for (a number, custom card values) is shown as written."""
    if value in ("true", "false"):
        return translate(f"option.{value}", locale)
    if has_key(f"option.value.{name}.{value}", DEFAULT_LOCALE):
        return translate(f"option.value.{name}.{value}", locale)
    head, colon, n = value.partition(":")
    if colon and n.isdigit() and has_key(f"option.value.{name}.{head}", DEFAULT_LOCALE):
        return translate(f"option.value.{name}.{head}", locale, n=n)
    return value


def translate(key: str, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """The text of ``key`` in ``locale`` (falling back to Spanish), with ``params`` filled in.

    A placeholder the caller did not pass stays as written (``{name}``) rather than raising.
    """
    loc = locale_of(locale)
    text = catalog(loc).get(key)
    if text is None:
        text = catalog(DEFAULT_LOCALE).get(key, key)
    if not params:
        return text
    return text.format_map(_Keep(params))


def placeholders(text: str) -> set[str]:
    """The parameter names a catalog text uses (``{count|carta|cartas}`` uses ``count``)."""
    return {name.partition("|")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def format_number(value: int | Fraction | float, locale: str = DEFAULT_LOCALE) -> str:
    """A score as people write it: halves with one decimal (``12,5`` in Spanish, ``12.5`` in
    English), thousands grouped (``12.500`` / ``12,500``; Spanish groups from five digits)."""
    loc = locale_of(locale)
    frac = Fraction(value).limit_denominator(1000)
    negative = frac < 0
    frac = abs(frac)
    whole, rest = divmod(frac.numerator, frac.denominator)
    decimal = ""
    if rest:
        tenths = round(Fraction(rest, frac.denominator) * 10)
        if tenths == 10:
            whole, tenths = whole + 1, 0
        decimal = ("," if loc == "es" else ".") + str(tenths)
    digits = str(whole)
    if (loc == "en" and len(digits) > 3) or (loc == "es" and len(digits) > 4):
        sep = "." if loc == "es" else ","
        groups = []
        while len(digits) > 3:
            groups.append(digits[-3:])
            digits = digits[:-3]
        digits = sep.join([digits, *reversed(groups)])
    return ("\u2212" if negative else "") + digits + decimal


class _Keep(dict[str, Any]):
    """``format_map`` helper: ``{name|one|other}`` picks the word that agrees with ``name``;
    unknown placeholders are written back unchanged."""

    def __missing__(self, key: str) -> str:
        name, bar, forms = key.partition("|")
        if bar and name in self:
            one, _, other = forms.partition("|")
            return one if _is_one(self[name]) else other
        return "{" + key + "}"


def _is_one(value: Any) -> bool:
    """Whether a count (a number, or one already written by ``format_number``) is exactly ±1."""
    return str(value).strip().lstrip("+-\u2212") == "1"


def timer_text(minutes: float, locale: str = DEFAULT_LOCALE, *, key: str = "timer") -> str:
    """A turn timer as people say it: ``30 s`` under a minute, else ``5 min`` / ``1,5 min``."""
    if minutes < 1:
        return translate(f"{key}.seconds", locale, seconds=round(minutes * 60))
    return translate(f"{key}.minutes", locale, minutes=format_number(minutes, locale))

