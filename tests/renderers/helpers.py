"""Shared helpers for the renderer tests: boxes, colours and a few standard games."""

from __future__ import annotations

from functools import cache

from bot.engine import Game, load_game
from renderers.draw import Box
from scripts.played import played_game

GIN_HAND = ('[Variant "gin"]\n[Seats "ana bea"]\n[Hand "ana" "3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D"]\n'
            '[Turn "ana"]\n[Phase "play"]\n')


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def close(c1: tuple[int, ...], c2: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c1, c2, strict=False))


@cache
def basic_game() -> Game:
    """A 4-seat basic deal stopped mid-way, with melds on the table (do not mutate)."""
    return played_game("basic", 4, seed=3, moves=34, options={"multiple_melds_per_turn": True})


def gin_hand_game() -> Game:
    return load_game(GIN_HAND)
