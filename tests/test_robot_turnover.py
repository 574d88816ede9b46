"""The strong Basic/Wrotham player's knowledge of a turned-over stock (rules.md §1.4).

What a player would notice if this failed: a computer player that plans on cards the stock does
not hold, or one that knows the stock when nobody could. After a turnover the stock is the
discard pile turned face down unshuffled, so a seat that remembers the public discards knows it
card by card; ``known_stock`` rebuilds it from the seat's ``Sight`` alone, and it must match the
engine's real stock exactly, for every seat, at every point of the deal where it claims to know it.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import new_game
from bot.engine.cards import card_code
from bot.robot import see
from bot.robot.turnover import known_stock


@pytest.mark.parametrize("variant", ["basic", "wrotham"])
def test_the_stock_known_after_a_turnover_is_the_real_stock(variant: str) -> None:
    claims = 0
    for seed in range(6):
        rnd = random.Random(seed)
        game = new_game(variant, ["A", "B", "C"], seed=f"turnover-{seed}")
        for _ in range(250):
            if game.hand_over or game.game_over:
                break
            for seat in game.seats:
                stock = known_stock(see(game, seat))
                if stock is None:
                    continue
                claims += 1
                real = [card_code(c) for c in game.stock]
                if game.stock_count == 0:  # the next draw turns the pile over
                    real = list(reversed(game.discard_pile))
                assert len(stock) == len(real), (seed, seat)
                assert all(k is None or k == r for k, r in zip(stock, real, strict=True)), (seed, seat)
            seat = game.actors[0]
            # Draw from the stock only, and never go out: the deal runs until the stock turns over.
            moves = [m for m in game.legal_moves(seat) if not m.startswith(("take", "meld", "layoff"))]
            game.play(seat, rnd.choice(moves or game.legal_moves(seat)))
    assert claims > 0  # some deals did turn over, and the stock was known there
