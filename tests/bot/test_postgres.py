"""PostgreSQL with several processes: what only a shared server can show.

Each "process" here is its own ``PgDatabase`` (its own pool of connections) and its own
``GameService`` (its own in-process locks and cache), so nothing is shared but the database: the
database must be the referee. Runs against a real PostgreSQL 16 (``tests/postgres.py``).
"""

from __future__ import annotations

import asyncio
import random

import asyncpg
import pytest

from bot.engine import IllegalMove, load_game
from bot.service import GameService, Refusal, Stale
from bot.store import SCHEMA_VERSION, DatabaseTooNew, Duplicate, open_database, repo
from tests.bot.helpers import Clock, check_results, choose, started, uid


async def test_processes_starting_together_migrate_once(pg_url):
    dbs = await asyncio.gather(*(open_database(pg_url) for _ in range(6)))
    try:
        assert [await db.user_version() for db in dbs] == [SCHEMA_VERSION] * 6
        rows = await dbs[0].fetchall("SELECT version FROM schema_version")
        assert [r["version"] for r in rows] == [SCHEMA_VERSION]
        # Migration 5's rating tables (issue 12), with 64-bit floats: a replay equals the updates.
        types = await dbs[0].fetchall(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'ratings'")
        assert {r["column_name"]: r["data_type"] for r in types}["mu"] == "double precision"
        assert (await dbs[0].fetchone("SELECT COUNT(*) FROM rating_history"))[0] == 0
    finally:
        for db in dbs:
            await db.close()


async def test_a_database_newer_than_the_code_is_refused_untouched(pg_url):
    db = await open_database(pg_url)
    async with db.transaction() as tx:
        await tx.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
        await tx.execute("INSERT INTO meta (key, value) VALUES ('kept', 'yes')")
    await db.close()
    with pytest.raises(DatabaseTooNew, match=f"schema {SCHEMA_VERSION + 1}; this bot knows {SCHEMA_VERSION}"):
        await open_database(pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == SCHEMA_VERSION + 1
        assert await conn.fetchval("SELECT value FROM meta WHERE key = 'kept'") == "yes"
    finally:
        await conn.close()


async def test_a_broken_unique_key_is_the_stores_own_error(pg_url):
    db = await open_database(pg_url)
    try:
        with pytest.raises(Duplicate):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '2')")
        assert await db.fetchall("SELECT * FROM meta WHERE key = 'a'") == []
        assert not db.in_transaction
    finally:
        await db.close()


async def test_one_click_delivered_to_two_processes_applies_once(pg_url):
    clock = Clock()
    a, b = await open_database(pg_url), await open_database(pg_url)
    try:
        one, two = GameService(a, clock=clock), GameService(b, clock=clock)
        row = await started(one, "basic", 2, seed="twice")
        seat = one.core.engine(row).current_seat
        outcomes = await asyncio.gather(
            one.acting.play(row.id, uid(row, seat), "draw", interaction_id=4242),
            two.acting.play(row.id, uid(row, seat), "draw", interaction_id=4242),
            return_exceptions=True,
        )
        applied = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(applied) == 1, outcomes
        assert isinstance(refused[0], Refusal), refused  # already_done, or stale: never applied twice
        final = await one.core.get(row.id)
        assert final.version == row.version + 1
        assert await repo.action_count(a, row.id) == final.version
    finally:
        await a.close()
        await b.close()


async def test_two_processes_racing_on_one_game_lose_no_move_and_score_once(pg_url):
    """Two services on two separate pools play the same game at the same time, every move raced
    by both: one wins each race; the other is refused (stale, or no longer legal). The stored game
    is exactly its action log replayed, and the result is written once."""
    clock = Clock()
    a, b = await open_database(pg_url), await open_database(pg_url)
    try:
        one, two = GameService(a, clock=clock), GameService(b, clock=clock)
        row = await started(one, "gin", 2, "target=1", seed="race")
        rng = random.Random(5)
        races = 0
        while row.status == "playing":
            assert races < 3000, "the game did not end"
            game = one.core.engine(row)
            if game.hand_over:
                row = (await one.acting.next_deal(row.id, 1)).game
                continue
            seat = rng.choice(game.actors)
            move = choose(game, seat, rng)
            outcomes = await asyncio.gather(
                one.acting.play(row.id, uid(row, seat), move, version=row.version),
                two.acting.play(row.id, uid(row, seat), move, version=row.version),
                return_exceptions=True,
            )
            applied = [o for o in outcomes if not isinstance(o, BaseException)]
            refused = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(applied) == 1, outcomes
            assert isinstance(refused[0], (Stale, Refusal, IllegalMove)), refused
            row = applied[0].game
            races += 1
        stored = await one.core.get(row.id)
        assert stored.version == row.version
        assert await repo.action_count(a, row.id) == stored.version
        replayed = load_game(stored.record or "")
        assert replayed.game_over and replayed.record() == stored.record
        await check_results(a, stored)
        results = await a.fetchall("SELECT COUNT(*) AS n FROM results WHERE game_id = ?", (row.id,))
        assert results[0]["n"] == len(stored.seats)
        assert races > 10
    finally:
        await a.close()
        await b.close()


# ------------------------------------------------------------------------------------------ the clock
async def _two_processes(pg_url, clock, shards=None):
    a, b = await open_database(pg_url), await open_database(pg_url)
    return (a, b), (GameService(a, clock=clock, shards=shards), GameService(b, clock=clock, shards=shards))


async def _tick_both(one: GameService, two: GameService) -> list:
    """Both processes' clocks serve every due game at the same moment; the changes they announce."""
    due = sorted(set(await one.clock.due()) | set(await two.clock.due()))
    changes = await asyncio.gather(*(svc.clock.tick(gid) for gid in due for svc in (one, two)))
    return [c for batch in changes for c in batch]


async def test_each_deadline_fires_once_when_two_processes_serve_it(pg_url):
    """A rolling deploy: for a moment two processes hold the same shard. Turn reminder, turn timer,
    lobby expiry and a season boundary each fire exactly once between them."""
    clock = Clock()
    dbs, (one, two) = await _two_processes(pg_url, clock)
    try:
        row = await started(one, "basic", 2, seed="clock", timer=1)
        lobby = await one.games.open_lobby(guild_id=7, channel_id=999, host_id=50, host_name="h", variant="gin")
        await one.records.set_season_schedule(7, 50, "week", channel_id=999, locale="es")
        clock.advance(50)  # past the reminder (80% of a minute)
        kinds = [c.kind for c in await _tick_both(one, two)]
        assert kinds.count("remind") == 1, kinds
        clock.advance(15)  # past the turn's deadline
        kinds = [c.kind for c in await _tick_both(one, two)]
        assert kinds.count("timeout") == 1, kinds
        seat = (await one.core.get(row.id)).by_seat(one.core.engine(row).current_seat)
        assert (await one.core.get(row.id)).seats[seat.position].timeouts == 1
        clock.advance(30 * 60 + 8 * 24 * 3600)  # the lobby's half hour, and a week's boundary
        kinds = [c.kind for c in await _tick_both(one, two)]
        assert kinds.count("expire") == 1, kinds
        assert (await one.core.get(lobby.game.id)).status == "expired"
        due = sorted(set(await one.records.due_seasons()) | set(await two.records.due_seasons()))
        rolled = await asyncio.gather(*(svc.records.scheduled_season(g) for g in due for svc in (one, two)))
        assert len([r for r in rolled if r is not None]) == 1, rolled
        assert (await one.records.season(7)).number == 2
    finally:
        for db in dbs:
            await db.close()


async def test_each_process_serves_only_its_own_shards(pg_url):
    """Guild 7 is on shard 0 of 2 and guild 1 << 22 on shard 1: the process of shard 0 neither
    times out nor resumes the other's games, and the other's clock fires them."""
    clock = Clock()
    a, b = await open_database(pg_url), await open_database(pg_url)
    try:
        shard0 = GameService(a, clock=clock, shards=(2, (0,)))
        shard1 = GameService(b, clock=clock, shards=(2, (1,)))
        games = {}
        for svc, guild in ((shard0, 7), (shard1, 1 << 22)):
            lobby = await svc.games.open_lobby(guild_id=guild, channel_id=guild + 1, host_id=1, host_name="a",
                                               variant="gin", timer_minutes=1)
            await svc.games.join(lobby.game.id, 2, "b")
            games[guild] = (await svc.games.start(lobby.game.id, 1, seed="s")).game.id
        assert await shard0.reading.running_games() == [games[7]]
        assert await shard1.reading.running_games() == [games[1 << 22]]
        clock.advance(120)
        assert await shard0.clock.due() == [games[7]]
        assert await shard1.clock.due() == [games[1 << 22]]
        everyone = GameService(a, clock=clock)  # one process holding every shard
        assert sorted(await everyone.clock.due()) == sorted(games.values())
    finally:
        await a.close()
        await b.close()


# ------------------------------------------------------------------------------------------ --copy-to
async def _history(svc: GameService) -> dict:
    """Everything a server's members can look up: standings of every season, records, history."""
    out: dict = {}
    for number in (1, 2, 3):
        season, table, games = await svc.history.scores(7, number)
        out[f"season{number}"] = (season.number, season.ended_at, table, games)
    out["stats"] = [await svc.records.stats(7, u) for u in (1, 2, 3)]
    out["history"] = await svc.records.finished_games(7, 50)
    out["audit"] = await svc.records.audit(7, 50)
    out["schedule"] = await svc.records.season_schedule(7)
    return out


async def test_copy_to_postgres_keeps_every_season_and_refuses_a_used_target(tmp_path, pg_url):
    from bot.store.copy import CopyError, copy_to_postgres
    from tests.bot.helpers import play_to_the_end

    clock = Clock()
    path = tmp_path / "rummy.db"
    src = await open_database(str(path))
    svc = GameService(src, clock=clock)
    rng = random.Random(11)
    for season in range(2):  # two finished seasons, then a third one with a game in play
        for channel in (100, 101):
            row = await started(svc, "gin", 2, "target=1", channel=channel, seed=f"{season}{channel}")
            await play_to_the_end(svc, row, rng)
            clock.advance(60)
        ending = (await svc.records.season(7)).number
        await svc.records.new_season(7, 99, ending=ending)
    await svc.records.void_result(7, row.id, 99, "test", closed_ok=True)  # season 2's amended standings go along too
    await svc.records.set_season_schedule(7, 99, "month", channel_id=100, locale="es")
    playing = await started(svc, "basic", 3, channel=102, seed="live")
    before = await _history(svc)
    assert before["season1"][2] and before["season2"][2] and before["history"]  # something to compare
    ladder = await svc.ratings.ladder(7)
    assert len(ladder) == 2  # the skill ratings (issue 12) go along
    await src.close()

    counts = await copy_to_postgres(path, pg_url)
    assert counts["games"] == 5 and counts["results"] == 8 and counts["seasons"] >= 3
    dst = await open_database(pg_url)
    try:
        moved = GameService(dst, clock=clock)
        assert await _history(moved) == before
        assert await moved.ratings.ladder(7) == ladder and counts["ratings"] == 4 and counts["rating_history"] == 6
        assert (await moved.core.get(playing.id)).record == playing.record
        # The game in play goes on, and new rows get new ids after the copied ones.
        nxt = await moved.acting.play(playing.id, uid(playing, moved.core.engine(playing).current_seat), "draw")
        assert nxt.game.version == playing.version + 1
        fresh = await moved.games.open_lobby(guild_id=7, channel_id=200, host_id=70, host_name="n", variant="gin")
        assert fresh.game.id == playing.id + 1
    finally:
        await dst.close()
    with pytest.raises(CopyError, match="not empty"):
        await copy_to_postgres(path, pg_url)
