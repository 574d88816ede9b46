"""Moves in people's words: refusals explained, RGN moves labelled, typed moves made readable to the engine.

What it is: the pure glue between ``/rummy play`` and ``bot.engine``, in the player's language
(Spanish first, English too), through the catalog ``bot.words.i18n`` (keys ``error.*``, ``ledger.*``,
``verb.*``, ``describe.*`` in ``bot/words/locales/engine.<locale>.json``):

* ``refusal_text(err, locale)``: the sentence for an ``IllegalMove`` (its ``code`` and ``params``);
* ``ledger_text(entry, locale)``: the reason of one ``game.ledger`` line;
* ``describe_move(move, locale)``: a short label of an RGN move for autocomplete (<= 100 characters);
* ``normalize_move(text)``: what a player typed (Spanish verbs, ``a``/``en`` for ``to``, suit
  symbols, any case) as RGN for ``game.play``;
* ``rank_moves(moves, typed)``: the legal moves worth showing for what has been typed so far.

Cards are shown with suit symbols everywhere (``K♠``, ``10♥``, ``🃏`` for a joker, ``🃏=8♥`` /
``2♣=7`` for a wild card and what it stands for); numbers go through ``bot.words.i18n.format_number``.

What it is not: no rules (the engine judges every move; nothing here decides what is legal), no
Discord, no database, no game state: every function takes plain strings and returns plain strings.
``normalize_move`` never refuses anything and never turns what was typed into ``timeout``.

>>> describe_move("layoff 7H to 3", "es")
'Añadir 7♥ a la combinación 3'
>>> normalize_move("  añadir 7h a 3 ")
'layoff 7H to 3'
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bot.engine import IllegalMove, Move, Verb
from bot.words.i18n import format_number, has_key, locale_of, translate

__all__ = [
    "LABEL_LIMIT",
    "VERBS",
    "card_text",
    "cards_text",
    "describe_move",
    "ledger_text",
    "normalize_move",
    "rank_moves",
    "refusal_text",
]

LABEL_LIMIT = 100
"""Discord's limit for an autocomplete choice's name (counted here in UTF-16 units, the stricter count)."""

VERBS = tuple(str(verb) for verb in Verb)
"""Every RGN verb (notation.md "Moves"), as the engine lists them."""

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_LETTERS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_RANKS = "A23456789TJQK"
_JOKER = "🃏"
_JOKER_WORDS = frozenset({"jk", "joker", "comodin"})  # folded spellings of a joker typed by a player
_ELLIPSIS = "…"

# ----------------------------------------------------------------------------- cards


def _rank(text: str) -> str | None:
    t = "T" if text == "10" else text
    return t if len(t) == 1 and t in _RANKS else None


def _one_card(code: str) -> str | None:
    """``KS`` -> ``K♠``, ``TH``/``10H`` -> ``10♥``, ``JK`` -> ``🃏``; None when it is no card."""
    if code == "JK":
        return _JOKER
    rank = _rank(code[:-1]) if len(code) >= 2 else None
    if rank is None or code[-1] not in _SUITS:
        return None
    return ("10" if rank == "T" else rank) + _SUITS[code[-1]]


def card_text(code: str) -> str:
    """A card code as people read it: ``K♠``, ``10♥``, ``🃏``, ``🃏=8♥``, ``2♣=7``; other text unchanged.

    >>> card_text("TH"), card_text("jk=8h"), card_text("2C=7"), card_text("foo")
    ('10♥', '🃏=8♥', '2♣=7', 'foo')
    """
    own, eq, stands = code.strip().upper().partition("=")
    shown = _one_card(own)
    if shown is None:
        return code
    if not eq:
        return shown
    rank = _rank(stands)
    if rank is not None:
        return f"{shown}={'10' if rank == 'T' else rank}"
    target = _one_card(stands)
    return f"{shown}={target}" if target is not None and target != _JOKER else code


def cards_text(text: str | Iterable[str]) -> str:
    """Space-separated card codes (or a list of them) shown with suit symbols; ``|`` becomes ``·``."""
    words = text.split() if isinstance(text, str) else [str(w) for w in text]
    return " ".join("·" if w == "|" else card_text(w) for w in words)


def _melds_text(text: str) -> str:
    """``5C 6C 7C | 9D 9S 9H`` -> ``5♣ 6♣ 7♣ · 9♦ 9♠ 9♥``."""
    return " · ".join(cards_text(group) for group in text.split("|") if group.strip())


# ----------------------------------------------------------------------------- words


def _fold(text: str) -> str:
    """Case- and accent-insensitive form for matching (``Añadir`` -> ``anadir``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _fit(text: str, limit: int = LABEL_LIMIT) -> str:
    """``text`` cut at a word boundary with ``…`` so that it is at most ``limit`` long."""
    text = " ".join(text.split())
    if _utf16_len(text) <= limit:
        return text
    cut = text
    while cut and _utf16_len(cut) + 1 > limit:
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ·:,;") + _ELLIPSIS


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


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


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
        if _placeholders(template) <= set(params):
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
    if not _placeholders(translate(key, loc)) <= set(prepared):
        return translate("moves.unknown_ledger", loc, code=code)
    text = translate(key, loc, **prepared)
    if params.get("doubled"):
        text = translate("ledger.doubled", loc, text=text)
    return text


# ----------------------------------------------------------------------------- describing moves


def _meld_groups(melds: Sequence[Sequence[str]]) -> str:
    """``(("5C", "6C", "7C"), ("9D", "9S", "9H"))`` -> ``5♣ 6♣ 7♣ · 9♦ 9♠ 9♥``."""
    return " · ".join(cards_text(meld) for meld in melds)


def _describe(move: str, locale: str, table: Sequence[Sequence[str]] | None) -> str:
    try:
        typed = Move.parse(move)
    except IllegalMove:  # an empty move, or a verb the engine does not know: shown as written
        return cards_text(move) if move.strip() else move.strip()
    verb, cards = typed.verb, typed.cards
    if verb.needs_target and cards:
        shown = cards_text(cards)
        return translate(f"describe.{verb}", locale, cards=shown, card=shown, number=str(typed.target))
    if verb is Verb.KNOCK and cards:
        if typed.melds:
            return translate("describe.knock_with", locale, card=cards_text(cards), melds=_meld_groups(typed.melds))
        return translate("describe.knock", locale, card=cards_text(cards))
    if verb is Verb.TAKE and cards:
        return translate("describe.take_card", locale, card=cards_text(cards))
    if verb in (Verb.DISCARD, Verb.CLAIM) and cards:
        return translate(f"describe.{verb}", locale, card=cards_text(cards))
    if verb is Verb.MELD and typed.melds:
        return translate("describe.meld", locale, melds=_meld_groups(typed.melds))
    if verb is Verb.TABLE and typed.melds:
        added = _added_cards(typed.melds, table) if table is not None else None
        if added:
            return translate("describe.table_with", locale, cards=cards_text(added), melds=_meld_groups(typed.melds))
        return translate("describe.table", locale, melds=_meld_groups(typed.melds))
    if not cards and not typed.melds and typed.target is None:
        template = translate(f"describe.{verb}", locale)
        return template if not _placeholders(template) else translate(f"verb.{verb}", locale)
    return cards_text(move)


def _base_card(word: str) -> str:
    own = word.upper().partition("=")[0]
    return "T" + own[2:] if own.startswith("10") else own


def _added_cards(melds: Sequence[Sequence[str]], table: Sequence[Sequence[str]]) -> list[str]:
    """The hand cards a ``table`` move puts down: its cards minus the cards on the table now."""
    new = Counter(_base_card(w) for meld in melds for w in meld)
    old = Counter(_base_card(w) for meld in table for w in meld)
    return sorted((new - old).elements(), key=lambda c: (c == "JK", "SHDC".find(c[-1:]), _RANKS.find(c[:1])))


@lru_cache(maxsize=8192)
def _describe_cached(move: str, locale: str) -> str:
    return _fit(_describe(move, locale, None))


def describe_move(move: str, locale: str, table: Sequence[Sequence[str]] | None = None) -> str:
    """A short label of an RGN move (without the seat) in ``locale``, at most 100 characters.

    ``table`` (optional, ``game.table``) lets a ``table`` move name the hand cards it puts down.
    A verb this module does not know is shown as written, its cards with suit symbols.

    >>> describe_move("meld 5C 6C 7C | 9D 9S 9H", "es")
    'Bajar 5♣ 6♣ 7♣ · 9♦ 9♠ 9♥'
    >>> describe_move("knock KD", "en")
    'Knock, discarding K♦'
    """
    loc = locale_of(locale)
    if table is None:
        return _describe_cached(move, loc)
    return _fit(_describe(move, loc, table))


# ----------------------------------------------------------------------------- what players type

_SPANISH_WORDS = {
    "draw": "robar roba robo",
    "take": "tomar toma tomo coger coge cojo",
    "pass": "pasar paso pasa",
    "meld": "bajar bajo baja combinar",
    "layoff": "anadir agregar colocar coloco lay-off",
    "swap": "cambiar intercambiar cambio",
    "table": "mesa reorganizar rearrange",
    "discard": "descartar descarto tirar tiro",
    "knock": "cerrar cierro tocar toco",
    "done": "listo lista terminar termino hecho",
    "auto": "automatico",
    "cut": "cortar corto",
    "allow": "permitir permito",
    "claim": "reclamar reclamo",
}
_ALIASES: dict[str, str] = {v: v for v in VERBS} | {
    word: verb for verb, words in _SPANISH_WORDS.items() for word in words.split()
}
"""Folded words (lower case, no accents) a player may type for a verb. ``timeout`` maps only to itself."""

_TO_WORDS = frozenset({"to", "a", "en"})
_MELD_FILLERS = frozenset({"la", "el", "combinacion", "meld", "n", "no", "num", "numero"})


def _typed_card(word: str) -> str:
    """A typed card as a card code: suit symbols to letters, ``comodín`` to ``JK``, upper case."""
    out = "".join(_SUIT_LETTERS.get(ch, ch) for ch in word.strip())
    own, eq, stands = out.partition("=")
    if _fold(own) in _JOKER_WORDS:
        own = "JK"
    return (own + eq + stands).upper()


def _meld_number(words: list[str]) -> str | None:
    """``["la", "combinación", "#3"]`` -> ``"3"``; None unless the words name one meld number."""
    rest = [w for w in (_fold(x).lstrip("#").removeprefix("nº").removeprefix("n°") for x in words) if w]
    rest = [w for w in rest if w not in _MELD_FILLERS]
    return rest[0] if len(rest) == 1 and rest[0].isdigit() else None


def _to_move(verb: str, words: list[str]) -> str:
    """``layoff``/``swap``: ``CARDS to N`` from ``CARDS a N``, ``CARDS en la combinación N``, ``CARDS N``."""
    folded = [_fold(w) for w in words]
    sep = max((i for i, w in enumerate(folded) if w in _TO_WORDS), default=None)
    if sep is not None and sep > 0:
        number = _meld_number(words[sep + 1 :])
        if number is not None:
            return f"{verb} {' '.join(_typed_card(w) for w in words[:sep])} to {number}"
    elif sep is None and len(words) >= 2:
        number = _meld_number(words[-1:])
        if number is not None:
            return f"{verb} {' '.join(_typed_card(w) for w in words[:-1])} to {number}"
    return " ".join([verb, *(w if _fold(w) in _TO_WORDS else _typed_card(w) for w in words)])


def normalize_move(text: str) -> str:
    """What a player typed as RGN for ``game.play`` (it never raises; the engine judges the result).

    Spaces are collapsed, the verb is matched case- and accent-insensitively (Spanish words too:
    ``robar``, ``bajar``, ``añadir``, ``descartar``, ``cerrar``…), cards are upper-cased with
    suit symbols and ``comodín`` understood (``10H`` is left for the engine to read), ``|`` and
    ``:`` are spaced, and layoffs/swaps accept ``a``/``en`` for ``to`` (``añadir 7H a 3``).
    ``timeout`` is only lower-cased, never produced from anything else: the bot must refuse it.
    A verb it does not know passes through as typed, for the engine to refuse with its own code.

    >>> normalize_move("Bajar 5c 6c 7c|9d 9s 9h")
    'meld 5C 6C 7C | 9D 9S 9H'
    """
    spaced = re.sub(r"\s*([|:])\s*", r" \1 ", text)
    words = spaced.split()
    if not words:
        return ""
    head, rest = _fold(words[0]), words[1:]
    if head == "lay" and rest and _fold(rest[0]) == "off":
        head, rest = "layoff", rest[1:]
    verb = _ALIASES.get(head)
    if verb is None:
        return " ".join(text.split())
    if verb == "timeout":
        return " ".join([verb, *text.split()[1:]])
    if verb in ("layoff", "swap"):
        return _to_move(verb, rest)
    return " ".join([verb, *(w if w in ("|", ":") else _typed_card(w) for w in rest)])


def _canon_token(word: str) -> str:
    """A typed word as it would appear in an RGN move: ``10H`` as ``th``, ``7♥`` as ``7h``, folded."""
    card = _typed_card(word)
    own, eq, stands = card.partition("=")
    if own.startswith("10") and own[2:] in _SUITS:
        own = "T" + own[2:]
    return _fold(own + eq + stands)


def _typed_verbs(word: str) -> set[str] | None:
    """The verbs a first typed word names: a whole alias (``descartar``), or the verbs of every alias
    it begins (``descar``, ``co`` -> take, meld, layoff, cut) when it is two letters or more; None
    when it names no verb (a card, a number, one letter)."""
    folded = _fold(word)
    if folded in _ALIASES:
        return {_ALIASES[folded]}
    if len(folded) < 2:
        return None
    return {verb for alias, verb in _ALIASES.items() if alias.startswith(folded)} or None


def _token_hit(word: str, rgn_words: list[str], hay: str) -> bool:
    """Whether one typed word occurs in a move: a word of two letters or more anywhere in its RGN or
    its labels; a single letter or digit only at the start of an RGN word (``k`` for ``KS``, ``knock``)."""
    alternatives = {_fold(word), _canon_token(word)}
    if len(_fold(word)) == 1 and word.isalnum():
        return any(w.startswith(a) for a in alternatives for w in rgn_words)
    return any(a in hay for a in alternatives)


def rank_moves(moves: list[str], typed: str, limit: int = 25) -> list[str]:
    """At most ``limit`` of ``moves`` (``game.legal_moves(seat)``, most useful first) for autocomplete.

    Empty input keeps the first ``limit``. Otherwise a move is kept when the typed text read as a
    move (``normalize_move``: Spanish verbs, ``a`` for ``to``…) begins it, or when the typed words
    match it: a first word that is a verb or begins one (``descar``, ``bajar``, ``lay``) keeps only
    moves of that verb, and every other word must occur in the move or in its Spanish or English
    label (case, accents, suit symbols and ``10``/``T`` ignored). The engine's order is kept.

    >>> rank_moves(["draw", "discard KS", "discard TH", "knock KS"], "tirar 10")
    ['discard TH']
    """
    if limit <= 0:
        return []
    words = typed.split()
    if not words:
        return list(moves[:limit])
    whole = _fold(normalize_move(typed))
    verbs = _typed_verbs(words[0])
    rest = words[1:] if verbs is not None else words
    out: list[str] = []
    for move in moves:
        rgn = _fold(move)
        rgn_words = rgn.split()
        keep = rgn.startswith(whole)
        if not keep and (verbs is None or (rgn_words and rgn_words[0] in verbs)):
            hay = " ".join((rgn, _fold(describe_move(move, "es")), _fold(describe_move(move, "en"))))
            keep = all(_token_hit(w, rgn_words, hay) for w in rest)
        if keep:
            out.append(move)
            if len(out) >= limit:
                break
    return out
