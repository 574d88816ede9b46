"""Games whose record no longer loads (issue 15, hole 1; reliability R23).

What a user would notice if these failed: one damaged game (a row edited by hand, a record an
engine change no longer reads) stopping the timers, computer moves and deals of every other game
on the bot, a paused game that answers clicks with "something failed" forever, or a game nobody
can end.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest

from bot.service import ChangeKind, GameService, GameStatus, Refusal
from tests.bot.helpers import started


async def _damage(env, game_id: int) -> None:
    async with env.db.transaction() as tx:
        await tx.execute("UPDATE games SET record = ? WHERE id = ?", ("garbage", game_id))


async def test_a_damaged_game_is_quarantined_at_start_up_and_the_others_keep_their_clock(env):
    damaged = await started(env.svc, "basic", 2, timer=1, seed="a", channel=100)
    healthy = await started(env.svc, "basic", 2, timer=1, seed="b", channel=200)
    await _damage(env, damaged.id)
    env.clock.t = max(damaged.turn_deadline, healthy.turn_deadline) + 1
    fresh = GameService(env.db, clock=env.clock)  # a restart: nothing cached
    assert sorted(await fresh.clock.due()) == sorted([damaged.id, healthy.id])

    [change] = await fresh.clock.check_records()
    assert change.kind == ChangeKind.QUARANTINE and change.game.id == damaged.id
    assert change.game.quarantined_at == env.clock() and change.game.status == GameStatus.PLAYING
    reason = await env.db.fetchone("SELECT quarantine_reason FROM games WHERE id = ?", (damaged.id,))
    assert "garbage" in reason[0]
    assert await fresh.clock.check_records() == []  # quarantined once: announced once
    assert await fresh.clock.due() == [healthy.id]
    assert await fresh.reading.running_games() == [healthy.id]  # nothing to resume either

    seat = fresh.core.engine(healthy).current_seat
    [timeout] = await fresh.clock.tick(healthy.id)
    assert timeout.kind == ChangeKind.TIMEOUT and timeout.seat == seat


async def test_the_clock_quarantines_a_game_whose_record_stopped_loading_once(env, caplog):
    damaged = await started(env.svc, "basic", 2, timer=1, seed="a")
    await _damage(env, damaged.id)
    env.clock.t = damaged.turn_deadline + 1
    fresh = GameService(env.db, clock=env.clock)
    [change] = await fresh.clock.tick(damaged.id)  # no exception: the game is set aside
    assert change.kind == ChangeKind.QUARANTINE and change.game.quarantined_at is not None
    caplog.clear()
    assert await fresh.clock.tick(damaged.id) == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # set aside: not retried
    assert await fresh.clock.due() == []
    assert await fresh.clock.next_deadline() is None


async def test_a_quarantined_game_refuses_moves_and_a_manager_can_cancel_it(env):
    damaged = await started(env.svc, "basic", 2, timer=1, seed="a")
    await _damage(env, damaged.id)
    fresh = GameService(env.db, clock=env.clock)
    await fresh.clock.check_records()
    row = await fresh.core.get(damaged.id)
    assert row is not None and row.quarantined_at is not None
    with pytest.raises(Refusal) as refused:
        await fresh.acting.play(row.id, 1, "draw", version=row.version)
    assert refused.value.code == "quarantined"
    with pytest.raises(Refusal) as refused:
        fresh.core.engine(row)
    assert refused.value.code == "quarantined"

    change = await fresh.games.cancel(row.id, 999, is_admin=True)
    assert change.kind == ChangeKind.CANCEL and change.game.status == GameStatus.CANCELLED
    assert await fresh.reading.in_channel(row.channel_id) is None  # the channel is free for a new game


async def test_one_games_failing_tick_stops_neither_the_other_games_nor_the_seasons(caplog):
    """The client's clock pass: each game's tick (and its announcement) fails alone."""
    from bot.client import RummyBot

    done: list[object] = []

    async def tick(game_id: int) -> list[object]:
        if game_id == 1:
            raise RuntimeError("a game that fails in a way nobody foresaw")
        return [f"change of {game_id}"]

    async def announce(change: object) -> None:
        if change == "change of 2":
            raise RuntimeError("an announcement that fails")
        done.append(change)

    async def new_seasons() -> None:
        done.append("seasons")
        bot.stopping = True

    async def due() -> list[int]:
        return [1, 2, 3]

    async def ready() -> None:
        return None

    async def a_second() -> float:
        return 1.0

    async def archive_threads() -> None:
        done.append("threads")

    async def tournaments() -> None:
        done.append("tournaments")

    async def doze(_: float) -> None:
        return None

    bot = SimpleNamespace(stopping=False, wait_until_ready=ready,
                          service=SimpleNamespace(clock=SimpleNamespace(due=due, tick=tick)),
                          announcer=SimpleNamespace(announce=announce), _new_seasons=new_seasons,
                          _archive_threads=archive_threads, _until_next_deadline=a_second, _doze=doze,
                          _tournaments=tournaments)
    # One pass (the seasons stop it); a pass that never reaches the seasons would loop forever.
    await asyncio.wait_for(RummyBot._clock(bot), 5)  # type: ignore[arg-type]
    assert done == ["change of 3", "tournaments", "seasons", "threads"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [
        "clock tick of game 1 failed", "clock tick of game 2 failed"]
