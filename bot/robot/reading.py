"""Reading the seat's legal moves through the engine's typed ``Move`` (issue 20: one vocabulary).

What it is: small helpers the levels share to pick moves by verb and to name a move's card, all
through ``bot.engine.Move`` and its ``Verb`` (the engine's one list of verbs), so no computer
player takes an RGN move apart by hand.
What it is not: a judge of legality (the engine lists the legal moves) or a player.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import Move, Verb

__all__ = ["card_of", "of_verb", "verb_of"]


def verb_of(move: str) -> Verb:
    return Move.parse(move).verb


def card_of(move: str) -> str:
    """The one card of a discard, knock or claim."""
    card = Move.parse(move).card
    assert card is not None, move
    return card


def of_verb(moves: Iterable[str], *verbs: Verb) -> list[str]:
    """The moves of ``moves`` (in order) whose verb is one of ``verbs``."""
    return [m for m in moves if Move.parse(m).verb in verbs]
