"""Why a move was refused and why points moved, in the player's language.

What it is: ``refusal_text(err, locale)``, the sentence for an engine ``IllegalMove`` (its ``code``
and ``params``), and ``ledger_text(entry, locale)``, the reason of one ``game.ledger`` line, both
through the catalog ``bot.words.i18n`` (keys ``error.*`` and ``ledger.*`` in
``bot/words/locales/<locale>/LC_MESSAGES/rummy.po``), Spanish first, English and French too; ``placeholders`` lists
the fields a catalog sentence needs. Cards go through ``bot.words.cards``, numbers through
``bot.words.i18n.format_number``.

What it is not: no rules (the engine decides what is refused and what is scored; this only puts
it in words), no move labels or typed moves (``bot.words.moves``), no Discord, no database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.engine import IllegalMove
from bot.words.cards import cards_text
from bot.words.i18n import format_number, has_key, locale_of, placeholders, translate

__all__ = ["ledger_text", "placeholders", "refusal_text"]


def _join_or(items: Sequence[str], locale: str) -> str:
    """``«a», «b» o «c»`` / ``“a”, “b” or “c”``."""
    left, right = ("«", "»") if locale == "es" else ("“", "”")
    quoted = [f"{left}{item}{right}" for item in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + f" {translate('moves.or', locale)} " + quoted[-1]


def _verb_name(verb: str, locale: str) -> str:
    """A verb as the player would type it: the Spanish word in Spanish, the RGN verb in English."""
    if locale == "es" and has_key(f"verb.{verb}"):
        return translate(f"verb.{verb}", locale).lower()
    return verb


def _number(value: Any, locale: str) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | Fraction | float):
        return None
    return format_number(value, locale)


def _prepare(params: Mapping[str, Any], locale: str, names: Mapping[str, str] | None) -> dict[str, str]:
    """Every parameter of a refusal or a ledger line written for people."""
    out: dict[str, str] = {}
    for key, value in params.items():
        number = _number(value, locale)
        if number is not None:
            out[key] = number
        elif value is None:
            out[key] = ""
        elif key in ("card", "cards", "meld"):
            out[key] = cards_text(value if isinstance(value, str) else " ".join(map(str, value)))
        elif key == "readings":
            out[key] = _join_or([cards_text(str(r)) for r in value], locale)
        elif key in ("seat", "turn", "loser", "winner"):
            out[key] = names.get(str(value), str(value)) if names else str(value)
        elif key == "verb":
            out[key] = _verb_name(str(value), locale)
        elif key == "variant":
            out[key] = translate(f"variant.{value}", locale) if has_key(f"variant.{value}") else str(value)
        elif key == "valid" and isinstance(value, list | tuple):
            if all(has_key(f"verb.{v}") for v in value):
                out[key] = ", ".join(_verb_name(str(v), locale) for v in value)
            elif all(has_key(f"variant.{v}") for v in value):
                out[key] = ", ".join(translate(f"variant.{v}", locale) for v in value)
            else:
                out[key] = ", ".join(map(str, value))
        elif key == "phase" and has_key(f"phase.{value}"):
            out[key] = translate(f"phase.{value}", locale)
        elif isinstance(value, list | tuple):
            out[key] = ", ".join(map(str, value))
        else:
            out[key] = str(value)
    return out


# ----------------------------------------------------------------------------- refusals

_NOT_OPENED = {
    "take from the discard pile": "take",
    "lay off": "layoff",
    "retrieve a joker": "swap",
    "rearrange the table": "table",
}
_DETAIL_WHEN_PRESENT = {
    "ambiguous_wild": "number",
    "keep_a_discard": "card",
    "knock_too_high": "card",
    "bad_move": "verb",
    "unknown_move": "valid",
}


def _refusal_key(code: str, params: Mapping[str, Any]) -> str:
    """``error.<code>``, or a more precise ``error.<code>.<detail>`` when the params allow one."""
    base = f"error.{code}"
    detail: str | None = None
    if code == "wrong_phase":
        detail = str(params.get("phase") or "")
    elif code == "not_opened":
        detail = _NOT_OPENED.get(str(params.get("what")))
    elif code == "not_your_turn":
        turn = params.get("turn")
        detail = "turn" if turn and turn != params.get("seat") else None
    elif code in _DETAIL_WHEN_PRESENT and params.get(_DETAIL_WHEN_PRESENT[code]):
        detail = _DETAIL_WHEN_PRESENT[code]
    if detail and has_key(f"{base}.{detail}"):
        return f"{base}.{detail}"
    return base


def refusal_text(err: IllegalMove, locale: str, names: Mapping[str, str] | None = None) -> str:
    """The sentence that tells a player why the engine refused a move, in ``locale``.

    ``names`` maps seat ids to display names (for ``{seat}``/``{turn}``). A code the catalog does
    not know (or whose sentence needs a parameter the refusal lacks) falls back to the engine's
    English ``message`` in English and to a generic Spanish sentence naming the code in Spanish.

    >>> refusal_text(IllegalMove("not_in_hand", "TH is not in your hand", {"card": "TH"}), "es")
    'No tienes 10♥ en la mano.'
    """
    loc = locale_of(locale)
    key = _refusal_key(err.code, err.params)
    if has_key(key):
        params = _prepare(err.params, loc, names)
        template = translate(key, loc)
        if placeholders(template) <= set(params):
            return translate(key, loc, **params)
    if loc == "en" and err.message:
        return err.message
    return translate("moves.unknown_error", loc, code=err.code)


# ----------------------------------------------------------------------------- ledger


def ledger_text(entry: Sequence[Any], locale: str, names: Mapping[str, str] | None = None) -> str:
    """The reason of one ``game.ledger`` line ``(seat, points, code, params)`` (the points are the
    caller's to show), e.g. ``"Cartas que le quedaron a bea: 12 puntos"``."""
    loc = locale_of(locale)
    code = str(entry[2])
    params: Mapping[str, Any] = entry[3] if len(entry) > 3 and isinstance(entry[3], Mapping) else {}
    key = f"ledger.{code}"
    if code == "penalty" and has_key(f"{key}.{params.get('reason')}"):
        key = f"{key}.{params.get('reason')}"
    elif code == "rami_bonus" and params.get("own_only"):
        key += ".own_only"
    elif code == "hand_left" and params.get("multiplier", 1) != 1:
        key += ".multiplier"
    if not has_key(key):
        return translate("moves.unknown_ledger", loc, code=code)
    prepared = _prepare(params, loc, names)
    if not placeholders(translate(key, loc)) <= set(prepared):
        return translate("moves.unknown_ledger", loc, code=code)
    text = translate(key, loc, **prepared)
    if params.get("doubled"):
        text = translate("ledger.doubled", loc, text=text)
    return text
