"""``cogs.render_pool``: finished deals' replays drawn once and kept within a bound of bytes, and drawn in
a slot of their own so that a hand or a table never waits behind one (issue 15, hole 5).

What a user would notice if these failed: every ``/rummy replay`` of the same deal costing seconds
of CPU again, the bot's memory growing with every replay asked for, or a player's hand picture
arriving seconds late because somebody asked for replays.
"""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from cogs.render_pool import Renders, ReplayCache
from renderers import Rendered


def picture(size: int, tag: str = "x") -> Rendered:
    return Rendered(data=tag.encode()[:1] * size, format="gif", width=1, height=1, name="replay")


class Drawer:
    """A replay renderer that counts its calls."""

    def __init__(self, size: int = 4) -> None:
        self.calls: list[tuple[str, int]] = []
        self.size = size

    def __call__(self, record: str, *, deal: int) -> Rendered:
        self.calls.append((record, deal))
        return picture(self.size, record)


# ---------------------------------------------------------------------- the cache
def test_the_cache_keeps_the_least_recently_used_out_first_within_its_bytes() -> None:
    cache = ReplayCache(max_bytes=10)
    a, b, c = picture(4, "a"), picture(4, "b"), picture(4, "c")
    cache.put((1, 1, 0), a)
    cache.put((1, 2, 0), b)
    assert cache.get((1, 1, 0)) is a  # a is now the most recently used
    cache.put((2, 1, 0), c)  # 12 bytes > 10: b, the least recently used, goes
    assert (1, 2, 0) not in cache and cache.get((1, 2, 0)) is None
    assert cache.get((1, 1, 0)) is a and cache.get((2, 1, 0)) is c
    assert cache.size == 8 and len(cache) == 2


def test_the_cache_never_holds_more_than_its_bound() -> None:
    cache = ReplayCache(max_bytes=100)
    for deal in range(1, 50):
        cache.put((7, deal, 0), picture(deal % 13 + 1))
        assert cache.size <= 100
        assert cache.size == sum(len(i.data) for i in cache._items.values())
    cache.put((7, 1, 0), picture(10))  # the same key again: replaced, not counted twice
    cache.put((7, 1, 0), picture(10))
    assert cache.size == sum(len(i.data) for i in cache._items.values()) <= 100
    kept = len(cache)
    cache.put((8, 1, 0), picture(101))  # larger than the whole bound: not kept, nothing dropped for it
    assert (8, 1, 0) not in cache and len(cache) == kept


# ---------------------------------------------------------------------- replays through Renders
async def test_a_second_replay_of_the_same_deal_renders_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cogs.render_pool")
    renders = Renders()
    draw = Drawer()
    first = await renders.replay((3, 1, 0), draw, "r", deal=1)
    second = await renders.replay((3, 1, 0), draw, "r", deal=1)
    assert second.data == first.data and draw.calls == [("r", 1)]
    assert "replay of game 3 deal 1 served from cache" in caplog.text
    await renders.replay((3, 2, 0), draw, "r", deal=2)  # another deal is another picture
    await renders.replay((4, 1, 0), draw, "s", deal=1)  # and so is another game's
    assert draw.calls == [("r", 1), ("r", 2), ("s", 1)]
    # The last deal of a game between deals, stamped with the version: a resignation (a new
    # version) may have added a frame, so it is drawn again.
    await renders.replay((5, 1, 12), draw, "t", deal=1)
    await renders.replay((5, 1, 12), draw, "t", deal=1)
    await renders.replay((5, 1, 13), draw, "u", deal=1)
    assert draw.calls[3:] == [("t", 1), ("u", 1)]


async def test_a_replay_dropped_from_the_cache_is_drawn_again() -> None:
    renders = Renders(cache_bytes=10)
    draw = Drawer(size=4)
    for deal in (1, 2, 3):  # 12 bytes: deal 1 goes
        await renders.replay((1, deal, 0), draw, "r", deal=deal)
    await renders.replay((1, 3, 0), draw, "r", deal=3)
    assert len(draw.calls) == 3
    await renders.replay((1, 1, 0), draw, "r", deal=1)
    assert draw.calls[-1] == ("r", 1) and len(draw.calls) == 4


async def test_asks_for_the_same_deal_at_once_draw_it_once() -> None:
    renders = Renders()
    draw = Drawer()
    images = await asyncio.gather(*(renders.replay((9, 2, 0), draw, "r", deal=2) for _ in range(5)))
    assert draw.calls == [("r", 2)] and len({i.data for i in images}) == 1


# ---------------------------------------------------------------------- hands before replays
async def test_a_hand_render_proceeds_while_replays_hold_their_slot() -> None:
    """Replays draw one at a time in a slot of their own; the render slots stay free for hands."""
    renders = Renders()
    release = threading.Event()
    started: list[int] = []

    def slow_replay(record: str, *, deal: int) -> Rendered:
        started.append(deal)
        assert release.wait(timeout=30), "never released"
        return picture(4)

    replays = [asyncio.create_task(renders.replay((1, deal, 0), slow_replay, "r", deal=deal)) for deal in (1, 2, 3)]
    try:
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while not started and loop.time() < end:
            await asyncio.sleep(0.01)
        assert started == [1]
        # The replay slot is held and two more replays wait for it: a hand is drawn all the same.
        hand = await asyncio.wait_for(renders.render(lambda: "hand picture"), timeout=10)
        assert hand == "hand picture"
        assert started == [1]  # at most one replay drawn at a time
    finally:
        release.set()
        await asyncio.gather(*replays)
    assert sorted(started) == [1, 2, 3]
