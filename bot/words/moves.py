"""Moves in words, both ways: RGN moves labelled for people, typed moves made readable to the engine.

What it is: the pure glue between ``/rummy play`` and ``bot.engine``, in the player's language
(Spanish first, English and French too), through the catalog ``bot.words.i18n`` (keys ``verb.*`` and
``describe.*`` in ``bot/words/locales/<locale>/LC_MESSAGES/rummy.po``):

* ``describe_move(move, locale)``: a short label of an RGN move for autocomplete (<= 100 characters);
* ``normalize_move(text)``: what a player typed (Spanish and French verbs, ``a``/``en`` for ``to``, suit
  symbols, any case) as RGN for ``game.play``;
* ``rank_moves(moves, typed)``: the legal moves worth showing for what has been typed so far;
* ``VERBS``: every RGN verb.

Cards are shown and fitted by ``bot.words.cards``.

What it is not: no rules (the engine judges every move; nothing here decides what is legal), no
refusals or ledger lines (``bot.words.refusals``), no Discord, no database, no game state: every
function takes plain strings and returns plain strings. ``normalize_move`` never refuses anything
and never turns what was typed into ``timeout``.

>>> describe_move("layoff 7H to 3", "es")
'Añadir 7♥ a la combinación 3'
>>> normalize_move("  añadir 7h a 3 ")
'layoff 7H to 3'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.engine import IllegalMove, Move, Verb
from bot.words.cards import RANKS, SUIT_LETTERS, SUITS, cards_text, fit, fold
from bot.words.i18n import LOCALES, locale_of, translate
from bot.words.refusals import placeholders

__all__ = [
    "VERBS",
    "describe_move",
    "normalize_move",
    "rank_moves",
]

VERBS = tuple(str(verb) for verb in Verb)
"""Every RGN verb (notation.md "Moves"), as the engine lists them."""

_JOKER_WORDS = frozenset({"jk", "joker", "comodin"})  # folded spellings of a joker typed by a player

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
        return template if not placeholders(template) else translate(f"verb.{verb}", locale)
    return cards_text(move)


def _base_card(word: str) -> str:
    own = word.upper().partition("=")[0]
    return "T" + own[2:] if own.startswith("10") else own


def _added_cards(melds: Sequence[Sequence[str]], table: Sequence[Sequence[str]]) -> list[str]:
    """The hand cards a ``table`` move puts down: its cards minus the cards on the table now."""
    new = Counter(_base_card(w) for meld in melds for w in meld)
    old = Counter(_base_card(w) for meld in table for w in meld)
    return sorted((new - old).elements(), key=lambda c: (c == "JK", "SHDC".find(c[-1:]), RANKS.find(c[:1])))


@lru_cache(maxsize=8192)
def _describe_cached(move: str, locale: str) -> str:
    return fit(_describe(move, locale, None))


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
    return fit(_describe(move, loc, table))


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
_FRENCH_WORDS = {  # the words of French rami: piocher, poser, ajouter, défausser…
    "draw": "piocher pioche",
    "take": "prendre prends",
    "pass": "passer passe",
    "meld": "poser pose",
    "layoff": "ajouter ajoute",
    "swap": "echanger echange",
    "discard": "defausser defausse",
    "knock": "frapper frappe",
    "done": "fini finir",
    "cut": "couper coupe",
    "allow": "laisser laisse",
}
_ALIASES: dict[str, str] = {v: v for v in VERBS} | {
    word: verb for table in (_SPANISH_WORDS, _FRENCH_WORDS) for verb, words in table.items() for word in words.split()
}
"""Folded words (lower case, no accents) a player may type for a verb. ``timeout`` maps only to itself."""

_TO_WORDS = frozenset({"to", "a", "en", "sur"})
_MELD_FILLERS = frozenset({"la", "el", "combinacion", "combinaison", "meld", "n", "no", "num", "numero"})


def _typed_card(word: str) -> str:
    """A typed card as a card code: suit symbols to letters, ``comodín`` to ``JK``, upper case."""
    out = "".join(SUIT_LETTERS.get(ch, ch) for ch in word.strip())
    own, eq, stands = out.partition("=")
    if fold(own) in _JOKER_WORDS:
        own = "JK"
    return (own + eq + stands).upper()


def _meld_number(words: list[str]) -> str | None:
    """``["la", "combinación", "#3"]`` -> ``"3"``; None unless the words name one meld number."""
    rest = [w for w in (fold(x).lstrip("#").removeprefix("nº").removeprefix("n°") for x in words) if w]
    rest = [w for w in rest if w not in _MELD_FILLERS]
    return rest[0] if len(rest) == 1 and rest[0].isdigit() else None


def _to_move(verb: str, words: list[str]) -> str:
    """``layoff``/``swap``: ``CARDS to N`` from ``CARDS a N``, ``CARDS en la combinación N``, ``CARDS N``."""
    folded = [fold(w) for w in words]
    sep = max((i for i, w in enumerate(folded) if w in _TO_WORDS), default=None)
    if sep is not None and sep > 0:
        number = _meld_number(words[sep + 1 :])
        if number is not None:
            return f"{verb} {' '.join(_typed_card(w) for w in words[:sep])} to {number}"
    elif sep is None and len(words) >= 2:
        number = _meld_number(words[-1:])
        if number is not None:
            return f"{verb} {' '.join(_typed_card(w) for w in words[:-1])} to {number}"
    return " ".join([verb, *(w if fold(w) in _TO_WORDS else _typed_card(w) for w in words)])


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
    head, rest = fold(words[0]), words[1:]
    if head == "lay" and rest and fold(rest[0]) == "off":
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
    if own.startswith("10") and own[2:] in SUITS:
        own = "T" + own[2:]
    return fold(own + eq + stands)


def _typed_verbs(word: str) -> set[str] | None:
    """The verbs a first typed word names: a whole alias (``descartar``), or the verbs of every alias
    it begins (``descar``, ``co`` -> take, meld, layoff, cut) when it is two letters or more; None
    when it names no verb (a card, a number, one letter)."""
    folded = fold(word)
    if folded in _ALIASES:
        return {_ALIASES[folded]}
    if len(folded) < 2:
        return None
    return {verb for alias, verb in _ALIASES.items() if alias.startswith(folded)} or None


def _token_hit(word: str, rgn_words: list[str], hay: str) -> bool:
    """Whether one typed word occurs in a move: a word of two letters or more anywhere in its RGN or
    its labels; a single letter or digit only at the start of an RGN word (``k`` for ``KS``, ``knock``)."""
    alternatives = {fold(word), _canon_token(word)}
    if len(fold(word)) == 1 and word.isalnum():
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
    whole = fold(normalize_move(typed))
    verbs = _typed_verbs(words[0])
    rest = words[1:] if verbs is not None else words
    out: list[str] = []
    for move in moves:
        rgn = fold(move)
        rgn_words = rgn.split()
        keep = rgn.startswith(whole)
        if not keep and (verbs is None or (rgn_words and rgn_words[0] in verbs)):
            hay = " ".join((rgn, *(fold(describe_move(move, loc)) for loc in LOCALES)))
            keep = all(_token_hit(w, rgn_words, hay) for w in rest)
        if keep:
            out.append(move)
            if len(out) >= limit:
                break
    return out
