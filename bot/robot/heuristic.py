"""The plain heuristic: every variant's easy level, and the normal and strong levels outside gin.

What it is: a pure, deterministic heuristic over the moves the seat's ``Sight`` lists (its hand,
the discard pile, the table; ``bot.robot.sight``), so it sees nothing a person in that seat could
not. It takes a discard only when the card fits its hand (two or more partners), melds as much
as it can (the longest meld move first), lays off, knocks in gin as soon as it may (the engine
lists its knocks best first), and discards the card that fits least, highest value first. In
windows it passes; it never asks for a cut-in and never rearranges the table. Gin at the normal
and strong levels is ``bot.robot.gin``.
What it is not: a deep player or a game-tree search; no Discord, no SQL.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Move, Phase, Verb
from bot.engine.cards import parse_card
from bot.engine.search import LOW_VALUES, mask_of, min_deadwood

from .reading import bare, card_of, of_verb
from .sight import Sight

RANKS = "A23456789TJQK"
VALUES = {r: i + 1 for i, r in enumerate(RANKS)} | {"T": 10, "J": 10, "Q": 10, "K": 10}


def choose(sight: Sight) -> Move:
    """One of ``sight.moves`` (which must not be empty)."""
    moves = list(sight.moves)
    if not moves:
        raise ValueError(f"{sight.seat} has no legal move")
    plain = bare(moves)
    verbs = {m.verb for m in moves}
    hand = list(sight.hand)
    if sight.phase == Phase.WINDOW:
        for calm in (Verb.PASS, Verb.ALLOW):
            if calm in plain:
                return plain[calm]
        return moves[0]
    for quick in (Verb.KNOCK, Verb.AUTO):
        if quick in verbs:
            return next(m for m in moves if m.verb is quick)  # listed best first
    if Verb.DRAW in verbs or Verb.PASS in verbs:  # the start of a turn: the discard pile or the stock
        pile = sight.discard_pile
        takes = of_verb(moves, Verb.TAKE)
        if takes and pile and connections(pile[-1], hand) >= 2:
            return plain.get(Verb.TAKE, takes[0])
        return plain[Verb.DRAW] if Verb.DRAW in plain else plain[Verb.PASS]
    melds = [m for m in moves if m.verb is Verb.MELD and m.cards]
    if melds:
        # the meld move with most words (its cards and the "|" between its melds)
        return max(melds, key=lambda m: (len(m.cards) + len(m.melds), -moves.index(m)))
    layoffs = [m for m in moves if m.verb is Verb.LAYOFF and m.cards]
    if layoffs:
        return layoffs[0]
    cards = {m: card_of(m) for m in of_verb(moves, Verb.DISCARD) if m.card}
    if cards:
        return min(cards, key=lambda m: (connections(cards[m], hand), -value(cards[m]), m))
    for ending in (Verb.DONE, Verb.TAKE):
        if ending in plain:
            return plain[ending]
    odd = (Verb.TABLE, Verb.SWAP, Verb.CUT, Verb.CLAIM, Verb.RESIGN)
    simple = [m for m in moves if m.verb not in odd]
    return (simple or moves)[0]


def deadwood(cards: list[str]) -> int:
    """Least gin deadwood of a one-deck hand without jokers (rules.md §2.1 values, ace low)."""
    return min_deadwood(mask_of(parse_card(c) for c in cards), "low", LOW_VALUES)


def value(code: str) -> int:
    return 0 if code == "JK" else VALUES.get(code[0], 0)


def connections(code: str, hand: Sequence[str]) -> int:
    """How many cards of ``hand`` could share a meld with ``code`` (jokers with anything)."""
    if code == "JK":
        return 99
    rank, suit = RANKS.index(code[0]), code[1]
    n = 0
    seen_self = False
    for c in hand:
        if c == code and not seen_self:
            seen_self = True  # the card itself, if it is in the hand
            continue
        if c == "JK" or c[0] == code[0] or (c[1] == suit and abs(RANKS.index(c[0]) - rank) <= 2):
            n += 1
    return n
