"""The yardstick for gin: the "simple" player of the EAAI 2021 Gin Rummy challenge.

What it is: a fixed, weak-but-sensible opponent that ``bench/robot.py`` and the strength tests
measure the levels against, written from the challenge's description (issue 11):

* it takes the upcard or the discard only if that card completes a meld in its hand (the card
  and two or more of its cards form a run or a set); otherwise it draws from the stock;
* it discards the unmelded card with the most deadwood (in its best arrangement, never the card
  it just took);
* it knocks as soon as it may (the engine lists the lowest-deadwood knock first);
* as the defender it lays off whatever lowers its deadwood (``auto``).

Ties between equal cards go to the higher rank, then the later suit, so it is deterministic.
What it is not: a level the host can pick, or a player of other variants.
"""

from __future__ import annotations

from bot.engine import Move, Verb
from bot.engine.cards import card_code, parse_card
from bot.engine.search import LOW_VALUES, best_melds, candidate_melds, mask_of

from .reading import bare, card_of, of_verb
from .sight import Sight

__all__ = ["choose", "completes", "highest_loose"]


def choose(sight: Sight) -> Move:
    moves = list(sight.moves)
    if not moves:
        raise ValueError(f"{sight.seat} has no legal move")
    plain = bare(moves)
    hand = mask_of(parse_card(c) for c in sight.hand)
    if Verb.TAKE in plain and sight.discard_pile and completes(hand, parse_card(sight.discard_pile[-1])):
        return plain[Verb.TAKE]
    for verb in (Verb.DRAW, Verb.PASS, Verb.AUTO):
        if verb in plain:
            return plain[verb]
    knocks = of_verb(moves, Verb.KNOCK)
    if knocks:
        return knocks[0]
    discards = of_verb(moves, Verb.DISCARD)
    if not discards:
        return moves[0]
    _, melds = best_melds(hand, "low", LOW_VALUES)
    melded = 0
    for m in melds:
        melded |= m
    allowed = mask_of(parse_card(card_of(m)) for m in discards)
    return Move.of(Verb.DISCARD, [card_code(highest_loose(allowed, melded))])


def highest_loose(allowed: int, melded: int) -> int:
    """The discard among ``allowed`` (a card mask): the card with the most deadwood outside the
    ``melded`` cards of the best arrangement, or among all of them if every one is melded."""
    loose = allowed & ~melded or allowed
    cards = [c for c in range(52) if (loose >> c) & 1]
    return max(cards, key=lambda c: (LOW_VALUES[c % 13], c % 13, c))


def completes(hand: int, card: int) -> bool:
    """Whether ``card`` and cards of ``hand`` (a card mask) form a meld (a run or a set of three or more)."""
    bit = 1 << card
    return any(m & bit for m in candidate_melds(hand | bit, "low"))

