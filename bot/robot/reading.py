"""Reading the seat's legal moves through the engine's typed ``Move`` (issue 20: one vocabulary).

What it is: small helpers the levels share to pick moves by their parts: by verb (``of_verb``),
the verbs listed alone (``bare``: ``take``, not rami's ``take 7H``), and a move's one card
(``card_of``). The moves are the engine's ``Move`` objects, so no computer player takes an RGN
move's text apart, and what a level returns is one of them (or a ``Move`` built from parts).
What it is not: a judge of legality (the engine lists the legal moves) or a player.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import Move, Verb

__all__ = ["bare", "card_of", "is_bare", "of_verb"]


def is_bare(move: Move) -> bool:
    """The verb alone: no cards, no meld number, no melds (``draw``, ``take``, ``pass``...)."""
    return not move.cards and not move.melds and move.target is None


def bare(moves: Iterable[Move]) -> dict[Verb, Move]:
    """The listed moves that are their verb alone, by verb: ``bare(moves).get(Verb.TAKE)`` is the
    plain ``take`` if listed (rami may list only ``take 7H``, the discard named)."""
    return {m.verb: m for m in moves if is_bare(m)}


def card_of(move: Move) -> str:
    """The one card of a discard, knock or claim."""
    card = move.card
    assert card is not None, move
    return card


def of_verb(moves: Iterable[Move], *verbs: Verb) -> list[Move]:
    """The moves of ``moves`` (in order) whose verb is one of ``verbs``."""
    return [m for m in moves if m.verb in verbs]
