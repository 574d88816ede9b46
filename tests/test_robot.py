"""The computer player (``bot.robot``): always a legal move, and whole games end.

What a player would notice if these failed: a bot seat that freezes the game (no move, or an
illegal one the engine refuses), a bot that never goes out so a game never ends, a bot that plays
worse than picking moves at random.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import PLAYERS, VARIANTS, new_game
from bot.robot import choose

OPTIONS = {"basic": "", "wrotham": "", "gin": "target=50", "rami": "", "tradicional": "", "dummy": ""}


def play(variant: str, seats: int, seed: str, *, random_seats: tuple[str, ...] = (), deals: int = 3,
         rnd: random.Random | None = None) -> tuple[object, int]:
    game = new_game(variant, [f"p{i + 1}" for i in range(seats)], seed=seed, options=OPTIONS[variant])
    moves = 0
    played = 1
    while not game.game_over:
        if game.hand_over:
            if played >= deals:
                break
            game.next_deal()
            played += 1
            continue
        seat = game.actors[0]
        if seat in random_seats and rnd is not None:
            move = rnd.choice(game.legal_moves(seat))
        else:
            move = choose(game, seat)
            assert move in game.legal_moves(seat)
        game.play(seat, move)
        moves += 1
        assert moves < 5000, f"{variant}: the deal does not end"
    return game, played


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_whole_deals_of_every_variant(variant: str) -> None:
    lo, hi = PLAYERS[variant]
    for seats, seed in ((lo, "a"), (hi, "b"), (min(hi, lo + 1), "c")):
        game, played = play(variant, seats, f"{variant}-{seed}")
        assert played >= 1 and (game.game_over or game.hand_over)


def test_a_bot_beats_a_random_player_at_gin() -> None:
    wins = 0
    for k in range(30):
        game, _ = play("gin", 2, f"duel-{k}", random_seats=("p2",), deals=1, rnd=random.Random(k))
        res = game.result
        if res is not None and res.outcome != "void":
            wins += game.hand_points.get("p1", 0) > game.hand_points.get("p2", 0)
    assert wins >= 20
