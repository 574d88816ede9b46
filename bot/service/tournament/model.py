"""The plain shapes a tournament's pairing and standings work on.

What it is: frozen dataclasses (an ``Entrant``, a ``Table`` to be played, the ``Outcome`` of one
played table), the points a table gives each seat (``table_points``: a win 1, a draw ½, a loss 0,
and for tables of more than two the share of the other seats a player finished ahead of), and the
event seed's deterministic draw (``draw_key``) that breaks every tie the standings leave.
What it is not: no I/O, no database rows, no Discord; nothing here knows which variant is played.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

__all__ = ["BYE_POINTS", "Entrant", "Format", "Outcome", "Table", "draw_key", "pairwise", "table_points"]

BYE_POINTS = Fraction(1)  # a bye scores as a win (the usual full-point bye)


class Format(StrEnum):
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    LEAGUE = "league"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the event: ``id`` (a Discord user id; computer players negative), their
    ``rating`` (knockout seeding and the first Swiss round), ``dropped`` (paired no more)."""

    id: int
    rating: float = 0.0
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: ``players`` in seat order; a single player is a bye."""

    round: int
    number: int
    players: tuple[int, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one table gave: ``places`` per player (1 the best; equal places a draw between them),
    ``game_points`` per player where the variant's scores give them (else empty), ``forfeit``: the
    last-placed did not play (a no-show or a drop), ``void``: a manager voided it (no points, but
    the players still met, so nothing already played is paired again)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] = ()
    game_points: tuple[int, ...] = ()
    forfeit: bool = False
    void: bool = False
    table: int = 0
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    def place_of(self, player: int) -> int:
        return self.places[self.players.index(player)] if self.places else 1


def pairwise(outcome: Outcome, a: int, b: int) -> Fraction:
    """What ``a`` scored against ``b`` at this table: 1 ahead of them, ½ level, 0 behind."""
    pa, pb = outcome.place_of(a), outcome.place_of(b)
    return Fraction(1) if pa < pb else Fraction(1, 2) if pa == pb else Fraction(0)


def table_points(outcome: Outcome) -> dict[int, Fraction]:
    """The points each player of ``outcome`` scores: a bye 1; two seats: win 1, draw ½, loss 0;
    more seats: the share of the other seats finished ahead of (a draw with one counts half), so a
    four-seat table gives 1, ⅔, ⅓, 0. A voided table gives nothing."""
    if outcome.void:
        return {p: Fraction(0) for p in outcome.players}
    if outcome.bye:
        return {outcome.players[0]: BYE_POINTS}
    n = len(outcome.players)
    return {p: sum((pairwise(outcome, p, q) for q in outcome.players if q != p), Fraction(0)) / (n - 1)
            for p in outcome.players}


def draw_key(seed: str, player: int) -> str:
    """The event seed's draw for ``player``: the same seed always orders the same players the same way."""
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()
