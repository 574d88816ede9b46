"""``bot.store``: the database the games live in.

What a user would notice if these failed: a bot that loses or half-applies a move after an error
or a cancelled interaction, a bot that wedges ("cannot start a transaction within a transaction")
and stops answering everyone, a bot that re-runs its migrations on every start or happily writes
to a database made by a newer version of itself, or one that never exits after refusing to start.
Every test uses a real file in ``tmp_path`` (WAL needs one); the transaction tests run once more
on a real PostgreSQL (the ``opener`` fixture), with the same assertions.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading

import pytest

from bot.service import GameService
from bot.store import SCHEMA_VERSION, Database, DatabaseTooNew, Duplicate, open_database
from bot.store import db as dbmod
from bot.store.schema import MIGRATIONS


async def open_db(tmp_path, name: str = "rummy.db") -> Database:
    return await Database.open(tmp_path / name)


def schema_of(path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as c:
        return sorted(c.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def user_version(path) -> int:
    with sqlite3.connect(path) as c:
        return c.execute("PRAGMA user_version").fetchone()[0]


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request, tmp_path):
    """Opens the same database each call: a SQLite file, or a real PostgreSQL database."""
    target = str(tmp_path / "rummy.db") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    return lambda: open_database(target)


async def meta_keys(db) -> set[str]:
    return {r["key"] for r in await db.fetchall("SELECT key FROM meta")}


# ---------------------------------------------------------------------------------- migrations
async def test_new_database_is_migrated_to_the_current_schema(tmp_path):
    db = await open_db(tmp_path)
    try:
        assert await db.user_version() == SCHEMA_VERSION
        tables = {r["name"] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"meta", "games", "seats", "actions", "results", "ratings", "rating_history", "rating_resets",
                "server_settings", "server_options", "server_bans", "adjustments", "season_standings"} <= tables
    finally:
        await db.close()
    assert user_version(tmp_path / "rummy.db") == SCHEMA_VERSION


async def test_reopening_does_not_rerun_migrations_and_keeps_data(tmp_path, monkeypatch):
    db = await open_db(tmp_path)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('kept', 'yes')")
    await db.close()
    before = schema_of(tmp_path / "rummy.db")

    ran: list[str] = []
    real = dbmod.Tx.executescript_in_tx

    async def spy(self, script):
        ran.append(script)
        await real(self, script)

    monkeypatch.setattr(dbmod.Tx, "executescript_in_tx", spy)
    db = await open_db(tmp_path)
    try:
        assert ran == []  # a second CREATE TABLE would have failed anyway; nothing was even tried
        assert await db.user_version() == SCHEMA_VERSION
        assert await meta_keys(db) == {"kept"}
    finally:
        await db.close()
    assert schema_of(tmp_path / "rummy.db") == before


async def test_database_from_a_newer_bot_is_refused_untouched(tmp_path):
    path = tmp_path / "rummy.db"
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE future (x)")
        c.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    threads = threading.active_count()
    with pytest.raises(DatabaseTooNew) as refused:  # kept, as a bot logging the error would
        await Database.open(path)
    assert user_version(path) == SCHEMA_VERSION + 1
    assert [n for _, n, _ in schema_of(path)] == ["future"]  # nothing created, nothing dropped
    # The refused connection is closed: its worker thread would otherwise keep the process alive.
    for _ in range(100):
        if threading.active_count() <= threads:
            break
        await asyncio.sleep(0.01)
    assert threading.active_count() <= threads, refused.value


async def test_failed_migration_leaves_version_and_data_unchanged(tmp_path, monkeypatch):
    db = await open_db(tmp_path)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('kept', 'yes')")
    await db.close()
    path = tmp_path / "rummy.db"
    before = schema_of(path)

    broken = "CREATE TABLE half_done (x INTEGER); INSERT INTO meta (key, value) VALUES ('half', 'done'); SELECT nope"
    monkeypatch.setattr(dbmod, "MIGRATIONS", [*MIGRATIONS, broken])
    monkeypatch.setattr(dbmod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path)
    assert user_version(path) == SCHEMA_VERSION
    assert schema_of(path) == before
    with sqlite3.connect(path) as c:
        assert c.execute("SELECT key FROM meta").fetchall() == [("kept",)]


async def test_migrating_from_every_past_version_gives_the_fresh_schema(tmp_path):
    fresh = await open_db(tmp_path, "fresh.db")
    await fresh.close()
    for start in range(SCHEMA_VERSION):
        path = tmp_path / f"from{start}.db"
        with sqlite3.connect(path) as c:
            for script in MIGRATIONS[:start]:
                c.executescript(script)
            c.execute(f"PRAGMA user_version = {start}")
        db = await Database.open(path)
        await db.close()
        assert schema_of(path) == schema_of(tmp_path / "fresh.db")
        assert user_version(path) == SCHEMA_VERSION


async def test_pragmas_wal_foreign_keys_full_sync(tmp_path):
    db = await open_db(tmp_path)
    try:
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
        assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # FULL
        assert (await db.fetchone("PRAGMA busy_timeout"))[0] >= 1000
        with pytest.raises(sqlite3.IntegrityError):  # a seat of a game that does not exist
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO seats (game_id, position, user_id, seat, name) VALUES (999, 0, 1, 'p1', 'a')"
                )
    finally:
        await db.close()


# ---------------------------------------------------------------------------------- transactions
async def test_transaction_that_raises_leaves_nothing_and_connection_usable(opener):
    db = await opener()
    try:
        with pytest.raises(RuntimeError, match="boom"):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
                await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")
                raise RuntimeError("boom")
        assert await meta_keys(db) == set()
        assert not db.in_transaction
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('c', '3')")
        assert await meta_keys(db) == {"c"}
    finally:
        await db.close()


async def test_sql_error_mid_transaction_rolls_back_the_earlier_statements(opener):
    db = await opener()
    try:
        with pytest.raises(Duplicate):  # the store's own error, never the driver's
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '2')")  # duplicate key
        assert await meta_keys(db) == set()
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '3')")
        assert await meta_keys(db) == {"a"}
    finally:
        await db.close()


async def test_cancelled_while_beginning_does_not_wedge_the_connection(tmp_path):
    """A task cancelled while its ``BEGIN IMMEDIATE`` is on the worker thread: the BEGIN still runs
    there, so the transaction must be rolled back, or every later transaction fails with "cannot
    start a transaction within a transaction" and the bot stops answering (R22)."""
    db = await open_db(tmp_path)
    try:
        entered = asyncio.Event()

        async def writer():
            async with db.transaction() as tx:
                entered.set()
                await tx.execute("INSERT INTO meta (key, value) VALUES ('never', '1')")

        task = asyncio.create_task(writer())
        await asyncio.sleep(0)  # the task took the lock and now awaits its BEGIN on the worker thread
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not entered.is_set()
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('after', '1')")
        assert await meta_keys(db) == {"after"}
        assert not db.conn.in_transaction
    finally:
        await db.close()


async def test_many_concurrent_transactions_with_some_cancelled(opener):
    """R22: 100 coroutines each write two rows in one transaction on the shared connection, with
    awaits in between; a third are cancelled at random moments and some raise. Every transaction
    is all-or-nothing, nobody's statement lands in someone else's transaction, and the connection
    is left idle and usable."""
    db = await opener()
    rng = random.Random(22)
    outcome: dict[int, str] = {}

    async def writer(i: int, fail: bool):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'a')", (f"{i}a",))
            await asyncio.sleep(rng.random() * 0.002)
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'b')", (f"{i}b",))
            if fail:
                raise ValueError(i)
        outcome[i] = "committed"

    try:
        tasks = {i: asyncio.create_task(writer(i, fail=i % 7 == 3)) for i in range(100)}
        victims = rng.sample(sorted(tasks), 33)
        for i in victims:
            await asyncio.sleep(rng.random() * 0.003)
            tasks[i].cancel()
        results = await asyncio.gather(*tasks.values(), return_exceptions=True)
        for i, r in zip(tasks, results, strict=True):
            if isinstance(r, BaseException):
                assert isinstance(r, asyncio.CancelledError | ValueError), repr(r)
                outcome[i] = type(r).__name__
        keys = await meta_keys(db)
        for i in range(100):
            pair = {f"{i}a", f"{i}b"} & keys
            if outcome[i] == "committed":
                assert pair == {f"{i}a", f"{i}b"}
            elif outcome[i] == "ValueError":
                assert pair == set(), f"transaction {i} raised but left {pair}"
            else:  # cancelled: rolled back, or cancelled while its COMMIT was already on its way
                assert pair in (set(), {f"{i}a", f"{i}b"}), f"transaction {i} left half: {pair}"
        assert 0 < list(outcome.values()).count("committed") < 100
        assert any(v == "CancelledError" and f"{i}a" not in keys for i, v in outcome.items())
        assert not db.in_transaction
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('after', '1')")
        assert "after" in await meta_keys(db)
        if isinstance(db, Database):
            assert (await db.fetchone("PRAGMA integrity_check"))[0] == "ok"
    finally:
        await db.close()


async def test_committed_transaction_survives_reopening(opener):
    db = await opener()
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('durable', '1')")
    await db.close()
    db = await opener()
    try:
        assert await meta_keys(db) == {"durable"}
    finally:
        await db.close()


async def test_backup_while_games_are_being_written_is_whole_and_restores(tmp_path):
    db = await open_db(tmp_path)
    stop = asyncio.Event()
    written = 0

    async def writer() -> None:
        # Each transaction: a game and its seat. A torn copy would show a game without its seat.
        nonlocal written
        while not stop.is_set():
            async with db.transaction() as tx:
                gid = await tx.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, variant, status, created_at, updated_at) "
                    "VALUES (1, ?, 1, 'gin', 'finished', 0, 0)", (1000 + written,))
                await tx.execute(
                    "INSERT INTO seats (game_id, position, user_id, seat, name) VALUES (?, 0, 1, 'p1', 'a')", (gid,))
            written += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(writer())
    while written < 50:
        await asyncio.sleep(0.01)
    copies = []
    for i in range(3):
        target = tmp_path / f"copy{i}.db"
        games = await asyncio.to_thread(dbmod.backup, tmp_path / "rummy.db", target)
        copies.append((target, games))
    stop.set()
    await task
    await db.close()
    for target, games in copies:
        with sqlite3.connect(target) as c:
            assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert c.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games > 0
            orphans = c.execute("SELECT COUNT(*) FROM games WHERE id NOT IN (SELECT game_id FROM seats)").fetchone()
            assert orphans[0] == 0
        assert schema_of(target) == schema_of(tmp_path / "rummy.db")
        restored = await Database.open(target)  # restoring = opening the copy
        try:
            assert await restored.user_version() == SCHEMA_VERSION
        finally:
            await restored.close()
    with pytest.raises(dbmod.BackupError, match="already exists"):
        dbmod.backup(tmp_path / "rummy.db", copies[0][0])
    with pytest.raises(dbmod.BackupError, match="no database"):
        dbmod.backup(tmp_path / "missing.db", tmp_path / "x.db")


async def test_processes_opening_a_new_file_together_migrate_it_once(tmp_path):
    """Migrations read the version inside SQLite's write lock: connections opening one new file at
    the same moment wait for each other instead of racing to create the same tables. The switch to
    WAL before it is refused at once to one of two connections making it together (SQLite's
    deadlock rule; about one round in twenty before the retry): twenty rounds of six."""
    for round_ in range(20):
        path = tmp_path / f"shared{round_}.db"
        dbs = await asyncio.gather(*(Database.open(path) for _ in range(6)), return_exceptions=True)
        opened = [db for db in dbs if isinstance(db, Database)]
        try:
            assert len(opened) == 6, [db for db in dbs if not isinstance(db, Database)]
            assert [await db.user_version() for db in opened] == [SCHEMA_VERSION] * 6
        finally:
            for db in opened:
                await db.close()


async def test_migration_5_rebuilds_games_and_keeps_every_row_and_link(tmp_path):
    """Migration 5 rebuilds ``games`` (SQLite cannot alter its status CHECK): a database full of
    games, seats, actions and results comes out with the same rows, its foreign keys intact, old
    ended games counted as announced (nothing re-posted on start) and 'abandoned' allowed."""
    path = tmp_path / "v4.db"
    with sqlite3.connect(path) as c:
        for script in MIGRATIONS[:4]:
            c.executescript(script)
        c.execute("PRAGMA user_version = 4")
        c.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, variant, status, record, created_at, updated_at) "
            "VALUES (1, 2, 3, 'gin', 'finished', 'rec', 10, 20), (1, 4, 3, 'rami', 'playing', 'rec2', 10, 30)"
        )
        c.execute(
            "INSERT INTO seats (game_id, position, user_id, seat, name) "
            "VALUES (1, 0, 3, 'p1', 'a'), (2, 0, 3, 'p1', 'a')"
        )
        c.execute("INSERT INTO actions (game_id, version, kind, at) VALUES (1, 1, 'move', 5)")
        c.execute(
            "INSERT INTO results (game_id, guild_id, variant, user_id, score, place, finished_at) "
            "VALUES (1, 1, 'gin', 3, '10', 1, 20)"
        )
    db = await Database.open(path)
    try:
        games = await db.fetchall("SELECT id, status, record, final_announced_at FROM games ORDER BY id")
        assert [tuple(g) for g in games] == [(1, "finished", "rec", 20.0), (2, "playing", "rec2", None)]
        assert (await db.fetchone("SELECT COUNT(*) FROM seats"))[0] == 2
        assert (await db.fetchone("SELECT rated FROM results"))[0] == 1
        for table in ("ratings", "rating_history", "rating_resets", "server_settings", "server_options",
                      "server_bans", "adjustments", "season_standings"):  # issue 12: empty, ready
            assert (await db.fetchone(f"SELECT COUNT(*) FROM {table}"))[0] == 0
        # The server with results is replayed once on start (a one-seat game rates nobody).
        assert [r[0] for r in await db.fetchall("SELECT key FROM meta")] == ["ratings-replay:1"]
        assert await GameService(db).ratings.replay_pending_ratings() == 1
        assert await GameService(db).ratings.replay_pending_ratings() == 0
        assert await db.fetchall("SELECT key FROM meta") == []
        async with db.transaction() as tx:
            await tx.execute("UPDATE games SET status = 'abandoned' WHERE id = 2")
        with pytest.raises(sqlite3.IntegrityError):  # the rebuilt table still checks its links
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO seats (game_id, position, user_id, seat, name) VALUES (99, 0, 1, 'p1', 'a')"
                )
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
    finally:
        await db.close()
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert c.execute("PRAGMA foreign_key_check").fetchall() == []


async def test_the_copy_to_postgresql_names_every_table_of_the_schema(tmp_path):
    """``python -m bot --copy-to`` copies the tables it names: a table the schema gains and the
    copy forgets would be lost in the move to PostgreSQL, silently."""
    from bot.store.copy import TABLES

    db = await Database.open(tmp_path / "all.db")
    try:
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    finally:
        await db.close()
    assert sorted(r[0] for r in rows) == sorted(name for name, _ in TABLES)
