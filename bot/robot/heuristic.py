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

from bot.engine import Phase
from bot.engine.cards import parse_card
from bot.engine.search import LOW_VALUES, mask_of, min_deadwood

from .sight import Sight

RANKS = "A23456789TJQK"
VALUES = {r: i + 1 for i, r in enumerate(RANKS)} | {"T": 10, "J": 10, "Q": 10, "K": 10}


def choose(sight: Sight) -> str:
    """One of ``sight.moves`` (which must not be empty)."""
    moves = list(sight.moves)
    if not moves:
        raise ValueError(f"{sight.seat} has no legal move")
    verbs = {m.split()[0] for m in moves}
    hand = list(sight.hand)
    if sight.phase == Phase.WINDOW:
        for calm in ("pass", "allow"):
            if calm in moves:
                return calm
        return moves[0]
    for quick in ("knock", "auto"):
        if quick in verbs:
            return next(m for m in moves if m.split()[0] == quick)  # listed best first
    if "draw" in verbs or "pass" in verbs:  # the start of a turn: the discard pile or the stock
        pile = sight.discard_pile
        takes = [m for m in moves if m.split()[0] == "take"]
        if takes and pile and connections(pile[-1], hand) >= 2:
            return "take" if "take" in moves else takes[0]
        return "draw" if "draw" in moves else "pass"
    melds = [m for m in moves if m.startswith("meld ")]
    if melds:
        return max(melds, key=lambda m: (len(m.split()), -moves.index(m)))
    layoffs = [m for m in moves if m.startswith("layoff ")]
    if layoffs:
        return layoffs[0]
    discards = [m for m in moves if m.startswith("discard ")]
    if discards:
        return min(discards, key=lambda m: (connections(m.split()[1], hand), -value(m.split()[1]), m))
    for ending in ("done", "take"):
        if ending in moves:
            return ending
    simple = [m for m in moves if m.split()[0] not in ("table", "swap", "cut", "claim", "resign")]
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
