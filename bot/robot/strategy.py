"""One strategy object per variant: what ``bot.robot.choose`` asks to pick a move.

What it is: the ``Strategy`` protocol (``choose(game, seat, level)`` from the game, and
``from_sight(sight, level)`` from what the seat sees) and ``STRATEGIES``, the registry keyed by
variant. Gin's strategy plays its own levels (``bot.robot.gin``: normal and strong; the
``yardstick`` the benches measure against); the other variants' strategy plays their normal and
strong levels through the variant's turn class (``bot.robot.rummy.TURNS``). Every variant's easy
level is the plain heuristic. Each level reads the game only through the seat's ``Sight``.
What it is not: no Discord, no SQL, no clocks; no test of a variant's name (the registry is it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine import Game, Move

from . import gin, yardstick
from .heuristic import choose as heuristic
from .rummy import TURNS, RummyTurn
from .sight import Sight, see

__all__ = ["STRATEGIES", "GinStrategy", "RummyStrategy", "Strategy"]


class Strategy(Protocol):
    """How the computer players of one variant pick a move."""

    def choose(self, game: Game, seat: str, level: str) -> Move:
        """One move from ``game.legal_moves(seat)`` at ``level`` (a known level)."""
        ...

    def from_sight(self, sight: Sight, level: str) -> Move:
        """The same move given only what the seat sees (without a ``Judge``)."""
        ...


class GinStrategy:
    """Gin (rules.md §2): easy is the heuristic, normal counts deadwood, strong tracks cards and
    looks ahead; ``yardstick`` is the EAAI simple player (not offered to hosts)."""

    def choose(self, game: Game, seat: str, level: str) -> Move:
        return self.from_sight(see(game, seat), level)

    def from_sight(self, sight: Sight, level: str) -> Move:
        if level == "strong":
            return gin.choose_strong(sight)
        if level == "normal":
            return gin.choose_normal(sight)
        if level == "yardstick":
            return yardstick.choose(sight)
        return heuristic(sight)


@dataclass(frozen=True)
class RummyStrategy:
    """Basic, wrotham, rami, tradicional and dummy: normal and strong play the variant's turn
    class (strong with the sight's ``Judge`` for table moves); easy is the heuristic."""

    turn: type[RummyTurn]

    def choose(self, game: Game, seat: str, level: str) -> Move:
        if level not in ("normal", "strong"):
            return heuristic(see(game, seat))
        return self.from_sight(see(game, seat, judge=level == "strong"), level)

    def from_sight(self, sight: Sight, level: str) -> Move:
        if level not in ("normal", "strong"):
            return heuristic(sight)
        if not sight.moves:
            raise ValueError(f"{sight.seat} has no legal move")
        return self.turn(sight, level == "strong").pick()


STRATEGIES: dict[str, Strategy] = {"gin": GinStrategy(), **{v: RummyStrategy(t) for v, t in TURNS.items()}}
