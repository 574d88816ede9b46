"""The translation catalog: every word a player reads, in Spanish (the default), English and French.

What it is: ``translate(key, locale, **params)`` looks a flat key such as ``"table.stock"`` up in the
gettext catalog ``bot/words/locales/<locale>/LC_MESSAGES/rummy.po`` (the key is each message's
``msgctxt``, its ``msgid`` the Spanish source text, its ``msgstr`` the translation; read with Babel's
``read_po``, no compile step) and fills its ``{placeholders}``. A number that words agree with is
written as an ICU plural, ``{count, plural, one {carta} other {cartas}}``, whose branch is chosen by
the language's CLDR plural rule (Babel's ``Locale.plural_form``: French says "0 carte", English
"0 cards"); a translator may write every CLDR category of their language (``zero``, ``one``, ``two``,
``few``, ``many``, ``other``, or ``=N`` for an exact number), ``other`` is required, and ``#`` in a
branch stands for the number. ``format_number`` writes scores with Babel's CLDR number symbols.
Catalogs are loaded once, on first use. An unknown locale, or a message missing from a catalog
(absent, empty or fuzzy), falls back to Spanish; a key missing everywhere comes back as the key
itself, so a gap shows up on screen instead of crashing a render (``tests/test_i18n.py`` keeps the
catalogs complete).

Which languages there are is ``LANGUAGES``, one line each (the language and the Discord locales
that speak it); a fourth language is a line there and a new catalog (docs/translating.md).

What it is not: no Discord (``bot.client.CatalogTranslator`` names the commands from these
catalogs), no choice of whose language a message speaks (``cogs.base``), and no editing of the
catalogs (``scripts/catalogs.py`` extracts, updates and compiles them). Every text is in
the .po catalogs, the Activity's too (``activity.*``; its page receives ``activity.page.*``).

>>> translate("table.stock", "en", count=12)
'Stock: 12'
>>> translate("hand.count", "es", count=1), translate("hand.count", "en", count=0)
('1 carta', '0 cards')
>>> translate("hand.count", "fr", count=0)
'0 carte'
>>> format_number(Fraction(25, 2), "es"), format_number(Fraction(25, 2), "en")
('12,5', '12.5')
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

__all__ = [
    "DEFAULT_LOCALE",
    "LANGUAGES",
    "LOCALES",
    "catalog",
    "format_number",
    "has_key",
    "locale_of",
    "option_value",
    "placeholders",
    "plural_category",
    "translate",
]

LANGUAGES: dict[str, tuple[str, ...]] = {
    # language: the Discord locales that speak it (their commands and answers are in it)
    "es": ("es-ES", "es-419"),
    "en": ("en-US", "en-GB"),
    "fr": ("fr",),
}
LOCALES = tuple(LANGUAGES)
DEFAULT_LOCALE = "es"
DOMAIN = "rummy"
_DIR = Path(__file__).with_name("locales")
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# CLDR's minimumGroupingDigits, which Babel's number data leaves out: Spanish writes 1250 but 12.500.
_MIN_GROUPING = {"es": 2}


def po_path(locale: str) -> Path:
    """Where the catalog of ``locale`` lives."""
    return _DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(locale: str) -> dict[str, str]:
    """The flat ``key -> text`` catalog of one locale (read once): its translated messages, not
    the fuzzy or empty ones."""
    out: dict[str, str] = {}
    path = po_path(locale)
    if path.exists():
        with path.open("rb") as fh:
            po = read_po(fh, locale=locale, domain=DOMAIN)
        for message in po:
            if not message.context or message.fuzzy:
                continue
            text = message.string or (message.id if locale == DEFAULT_LOCALE else "")
            if isinstance(text, str) and text:
                out[message.context] = text
    return out


def locale_of(code: str | None) -> str:
    """Map a locale code (``"es"``, ``"es-419"``, ``"en-GB"``, ``"fr"``, None) onto a supported locale;
    anything else is Spanish."""
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
        loc = DEFAULT_LOCALE  # a Spanish text agrees with its numbers the Spanish way
    if not params:
        return text
    return _render(text, params, loc)


# ----------------------------------------------------------------------------- message syntax

_PLURAL = re.compile(r"\s*(\w+)\s*,\s*plural\s*,(.*)\Z", re.S)
_BRANCH = re.compile(r"\s*(=\d+|\w+)\s*\{")


def _close(text: str, start: int) -> int:
    """The index of the brace closing the one at ``start``, or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _pieces(text: str) -> list[tuple[str, str]]:
    """A message as ``("text", literal)`` and ``("field", body)`` pieces (a lone brace is literal)."""
    out, i = [], 0
    while i < len(text):
        start = text.find("{", i)
        if start < 0:
            out.append(("text", text[i:]))
            break
        if start > i:
            out.append(("text", text[i:start]))
        end = _close(text, start)
        if end < 0:
            out.append(("text", text[start:]))
            break
        out.append(("field", text[start + 1 : end]))
        i = end + 1
    return out


def branches(body: str) -> tuple[str, dict[str, str]] | None:
    """An ICU plural field's number name and its branches (``count``, ``{"one": …, "other": …}``),
    or None if ``body`` is not one."""
    match = _PLURAL.match(body)
    if not match:
        return None
    name, rest = match.group(1), match.group(2)
    out: dict[str, str] = {}
    i = 0
    while rest[i:].strip():
        head = _BRANCH.match(rest, i)
        if not head:
            return None
        end = _close(rest, head.end() - 1)
        if end < 0:
            return None
        out[head.group(1)] = rest[head.end() : end]
        i = end + 1
    return (name, out) if out else None


def _render(text: str, params: dict[str, Any], loc: str) -> str:
    out = []
    for kind, body in _pieces(text):
        if kind == "text":
            out.append(body)
            continue
        plural = branches(body)
        if plural is not None:
            name, forms = plural
            if name not in params:
                out.append("{" + body + "}")
                continue
            value = params[name]
            chosen = _choose(forms, value, loc)
            out.append(_render(chosen.replace("#", str(value)), params, loc))
            continue
        if body in params:
            out.append(format(params[body]))
        else:
            out.append("{" + body + "}")
    return "".join(out)


def _choose(forms: dict[str, str], value: Any, loc: str) -> str:
    number = _as_number(value, loc)
    if number is not None:
        exact = forms.get(f"={number.normalize():f}") if number == number.to_integral_value() else None
        if exact is not None:
            return exact
    category = plural_category(value, loc)
    return forms.get(category, forms.get("other", ""))


def placeholders(text: str) -> set[str]:
    """The parameter names a catalog text uses (``{count, plural, one {carta} other {cartas}}`` uses
    ``count``), inside plural branches too."""
    names: set[str] = set()
    for kind, body in _pieces(text):
        if kind != "field":
            continue
        plural = branches(body)
        if plural is not None:
            names.add(plural[0])
            for branch in plural[1].values():
                names |= placeholders(branch)
        else:
            names.add(body)
    return names


# ----------------------------------------------------------------------------- CLDR: plurals and numbers


@cache
def _locale(loc: str) -> Locale:
    return Locale.parse(loc)


def plural_category(value: Any, locale: str = DEFAULT_LOCALE) -> str:
    """The CLDR plural category (``one``, ``many``, ``other``…) of a count in ``locale``: a number, or
    one already written by ``format_number`` (``"1,5"``: its visible decimals count, as CLDR says)."""
    loc = locale if locale in LOCALES else locale_of(locale) if "-" in locale or "_" in locale else locale
    number = _as_number(value, loc)
    if number is None:
        return "other"
    return str(_locale(loc).plural_form(abs(number)))


def _as_number(value: Any, loc: str) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Decimal):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    text = str(value).strip().replace("\u2212", "-")
    for space in (" ", "\u00a0", "\u202f"):
        text = text.replace(space, "")
    text = text.replace(get_group_symbol(loc), "").replace(get_decimal_symbol(loc), ".")
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def format_number(value: int | Fraction | float, locale: str = DEFAULT_LOCALE) -> str:
    """A score as people write it (CLDR, through Babel): halves with one decimal (``12,5`` in
    Spanish and French, ``12.5`` in English), thousands grouped (``12.500`` / ``12,500`` /
    ``12 500``; Spanish groups from five digits), a minus sign (U+2212) before a loss."""
    loc = locale_of(locale)
    frac = Fraction(value).limit_denominator(1000)
    number = abs(Decimal(frac.numerator) / Decimal(frac.denominator))
    digits = len(str(int(number)))
    pattern = "#,##0.#" if digits >= 3 + _MIN_GROUPING.get(loc, 1) else "0.#"
    text = format_decimal(number, format=pattern, locale=loc)
    return ("\u2212" if frac < 0 else "") + text


def timer_text(minutes: float, locale: str = DEFAULT_LOCALE, *, key: str = "timer") -> str:
    """A turn timer as people say it: ``30 s`` under a minute, else ``5 min`` / ``1,5 min``."""
    if minutes < 1:
        return translate(f"{key}.seconds", locale, seconds=round(minutes * 60))
    return translate(f"{key}.minutes", locale, minutes=format_number(minutes, locale))
