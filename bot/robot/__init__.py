"""Computer players at three strengths: ``choose(game, seat, level=...)`` picks one legal move.

What it is: the one entry point the service, the hints, the benches and the tests call. ``"easy"``
is the plain heuristic. In gin ``"normal"`` counts deadwood and ``"strong"`` tracks cards, infers
the opponent's hand and looks ahead (``bot.robot.gin``); these and the heuristic read the game
only through ``bot.robot.sight.see(game, seat)`` (its hand, the table, the discard pile and the
public moves) and are never given the ``Game``. In basic, wrotham, rami, tradicional and dummy
the normal and strong levels are ``bot.robot.rummy`` (the strong table search is
``bot.robot.rearrange``), given the seat's ``Sight`` too (with its ``Judge`` for table moves).
``tests/test_robot_sight.py`` checks every level of every variant for peeking.
What it is not: no Discord, no SQL, no clocks; deterministic for a given game and seat.
"""

from __future__ import annotations

from typing import Literal

from bot.engine import Game

from . import gin, yardstick
from .heuristic import choose as _heuristic
from .heuristic import connections, deadwood, value
from .rummy import VARIANTS as _RUMMY
from .rummy import choose as _rummy
from .sight import Sight, see

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

__all__ = ["LEVELS", "Level", "Sight", "choose", "choose_from", "connections", "deadwood", "see", "value"]


def choose(game: Game, seat: str, *, level: str = "normal") -> str:
    """One move from ``game.legal_moves(seat)`` for ``seat`` at ``level``."""
    if level not in LEVELS and level != "yardstick":
        raise ValueError(f"unknown robot level {level!r}; one of {', '.join(LEVELS)}")
    if level in ("normal", "strong") and game.variant in _RUMMY:
        return _rummy(see(game, seat, judge=level == "strong"), strong=level == "strong")
    return choose_from(see(game, seat), level)


def choose_from(sight: Sight, level: str) -> str:
    """The move of ``level`` given only what the seat sees, in gin (``"yardstick"``: the gin
    bench's EAAI simple player, not offered to hosts) or at the easy level."""
    if sight.variant == "gin":
        if level == "strong":
            return gin.choose_strong(sight)
        if level == "normal":
            return gin.choose_normal(sight)
        if level == "yardstick":
            return yardstick.choose(sight)
    return _heuristic(sight)
