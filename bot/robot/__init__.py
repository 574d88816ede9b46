"""Computer players at three strengths: ``choose(game, seat, level=...)`` picks one legal move.

What it is: the one entry point the service, the benches and the tests call. ``"easy"`` is the
plain heuristic; ``"normal"`` counts (gin deadwood, wilds, contracts); ``"strong"`` searches
(gin inference and expected value, table rearrangement in Rami and Tradicional). Every level is
given the engine's ``Game`` but reads only what its seat could see: its hand, the table, the
discard pile and the public moves (``bot.robot.sight``).
In basic, wrotham, rami, tradicional and dummy the normal and strong levels are
``bot.robot.rummy`` (the strong table search is ``bot.robot.rearrange``); easy is the heuristic.
What it is not: no Discord, no SQL, no clocks; deterministic for a given game and seat.
"""

from __future__ import annotations

from typing import Literal

from bot.engine import Game

from .heuristic import choose as _heuristic
from .heuristic import connections, deadwood, value
from .rummy import VARIANTS as _RUMMY
from .rummy import choose as _rummy

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

__all__ = ["LEVELS", "Level", "choose", "connections", "deadwood", "value"]


def choose(game: Game, seat: str, *, level: str = "normal") -> str:
    """One move from ``game.legal_moves(seat)`` for ``seat`` at ``level``."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}; one of {', '.join(LEVELS)}")
    if level != "easy" and game.variant in _RUMMY:
        return _rummy(game, seat, strong=level == "strong")
    return _heuristic(game, seat, plain=level == "easy")
