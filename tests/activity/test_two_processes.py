"""Two shard processes on one PostgreSQL database (issue 38: "any process may serve a page;
changes reach every page within a second, whichever process made them"): two services, each with
its own pool and its own ``ActivityServer``, as two processes of a cluster have. A move committed
by one reaches a page served by the other through that server's poll of versions (it is never
woken by the other's commits), and a page of either process plays its moves.

What a user would notice if this failed: on a bot run as several processes, a page that freezes
until reloaded whenever the move was made on another process (a chat move on another shard, a
computer player's move, the clock's).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import open_database
from tests.activity.server_world import World
from tests.fakediscord import FakeDiscord


async def on_postgres(world: World, url: str) -> None:
    """``world.start`` on the shared PostgreSQL database instead of a SQLite file of its own."""
    import aiohttp

    world.db = await open_database(url)  # type: ignore[assignment]
    world.service = GameService(world.db, clock=world.clock)
    world.http = aiohttp.ClientSession()
    await world.start_server()


@pytest.fixture
async def two(tmp_path: Path, pg_url: str) -> AsyncIterator[tuple[World, World]]:
    fake = FakeDiscord()
    await fake.start()
    fake.enable_activities()
    one, other = World(fake, tmp_path / "one"), World(fake, tmp_path / "two")
    other.ana, other.bea, other.carlos = one.ana, one.bea, one.carlos  # the same people, one Discord
    for w in (one, other):
        await on_postgres(w, pg_url)
    try:
        yield one, other
    finally:
        for w in (one, other):
            await w.stop()
        await fake.stop()
    assert fake.violations == []


async def test_a_move_on_one_process_reaches_a_page_of_the_other(two: tuple[World, World]) -> None:
    one, other = two
    row = await one.new_gin()
    bea_there = await other.page(other.bea)  # served by the other process
    ana_here = await one.page(one.ana)
    assert bea_there.states()[-1]["game"] == row.id
    # A move straight through the first process's service (a chat move on its shard): the second
    # is never told, and its page still shows it within a second.
    state = ana_here.states()[-1]
    mover = one.ana if state["verbs"] else one.bea
    seen = len(bea_there.frames)
    started = time.monotonic()
    await one.svc.acting.play(row.id, mover.id, "pass")
    moved = await bea_there.wait(lambda f: f.get("op") == "state" and f["version"] == row.version + 1,
                                 timeout=1.0, after=seen)
    assert time.monotonic() - started < 1.0 and moved["last"]["move"] == "pass"
    # And the other way: a move from the second process's page reaches the first's page.
    page = bea_there if mover is one.ana else await other.page(other.ana)
    latest = page.states()[-1]
    assert latest["verbs"], latest
    after = len(ana_here.frames)
    await page.send(op="move", id="m", move="pass" if "pass" in latest["verbs"] else "draw",
                    version=latest["version"])
    await page.op("done", id="m")
    await ana_here.wait(lambda f: f.get("op") == "state" and f["version"] == row.version + 2, timeout=1.0, after=after)
