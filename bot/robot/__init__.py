"""Computer players at three strengths: ``choose(game, seat, level=...)`` picks one legal ``Move``.

What it is: the one entry point the service, the hints, the benches and the tests call; it asks
the variant's strategy object (``bot.robot.strategy.STRATEGIES``, one per variant). ``"easy"``
is the plain heuristic. In gin ``"normal"`` counts deadwood and ``"strong"`` tracks cards, infers
the opponent's hand and looks ahead (``bot.robot.gin``); these and the heuristic read the game
only through ``bot.robot.sight.see(game, seat)`` (its hand, the table, the discard pile and the
public moves) and are never given the ``Game``. In basic, wrotham, rami, tradicional and dummy
the normal and strong levels are the variant's turn class in ``bot.robot.rummy`` (the strong
table search is ``bot.robot.rearrange``), given the seat's ``Sight`` too (with its ``Judge`` for table moves).
``tests/test_robot_sight.py`` checks every level of every variant for peeking.
What it is not: no Discord, no SQL, no clocks; deterministic for a given game and seat.
"""

from __future__ import annotations

from typing import Literal

from bot.engine import Game, Move

from .heuristic import connections, deadwood, value
from .rummy import all_seven_outs as _all_seven_outs
from .sight import Sight, see
from .strategy import STRATEGIES, Strategy

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

__all__ = [
    "LEVELS",
    "STRATEGIES",
    "Level",
    "Sight",
    "Strategy",
    "all_seven_outs",
    "choose",
    "choose_from",
    "connections",
    "deadwood",
    "see",
    "value",
]


def choose(game: Game, seat: str, *, level: str = "normal") -> Move:
    """One move from ``game.legal_moves(seat)`` for ``seat`` at ``level``, by the variant's strategy."""
    if level not in LEVELS and level != "yardstick":
        raise ValueError(f"unknown robot level {level!r}; one of {', '.join(LEVELS)}")
    return STRATEGIES[game.variant].choose(game, seat, level)


def choose_from(sight: Sight, level: str) -> Move:
    """The move of ``level`` given only what the seat sees (``"yardstick"``: the gin bench's EAAI
    simple player, not offered to hosts; the strong table search needs the sight's ``Judge``)."""
    return STRATEGIES[sight.variant].from_sight(sight, level)


def all_seven_outs(game: Game, seat: str, card: str) -> int | None:
    """Wrotham deals 4-6: the unseen cards (by copies) that would put ``seat``'s hand less
    ``card`` down all at once on the next draw, from what the seat sees; None in other deals."""
    return _all_seven_outs(see(game, seat), card)
