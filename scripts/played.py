"""Games played out by a seeded random driver, for pictures: the gallery, the renderer tests and
the render bench.

What it is: ``played_game`` (a game of an engine variant played by a driver that melds and lays
off whenever it can, so the table fills up) and ``played_view`` (its public view). Deterministic
from the seed. What it is not: used by the bot, or a computer player (``bot.robot`` is).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from bot.engine import Game, PublicView, Verb, new_game
from renderers.samples import SEATS

__all__ = ["played_game", "played_view"]


def played_game(variant: str, seats: int, seed: int = 5, moves: int | None = None, melds_first: bool = True,
                options: Mapping[str, object] | None = None) -> Game:
    """A game of an engine variant played by a seeded random driver that melds and lays off
    whenever it can (so the table fills up), stopped after ``moves`` moves or at the deal's end."""
    game = new_game(variant, list(SEATS[:seats]), seed=seed, options=options)
    rng = random.Random(seed)
    n = 0
    while not game.hand_over and (moves is None or n < moves):
        seat = game.actors[0]
        legal = game.legal_moves(seat)
        verbs = [m.verb for m in legal]
        knocks = [m for m, v in zip(legal, verbs, strict=True) if v is Verb.KNOCK]
        melds = [m for m, v in zip(legal, verbs, strict=True) if v in (Verb.MELD, Verb.LAYOFF)] if melds_first else []
        game.play(seat, (knocks or melds or [rng.choice(legal)])[0] if knocks or melds else rng.choice(legal))
        n += 1
    return game


def played_view(variant: str, seats: int, seed: int = 5, moves: int | None = None,
                options: Mapping[str, object] | None = None) -> PublicView:
    return played_game(variant, seats, seed, moves, options=options).public_view()


