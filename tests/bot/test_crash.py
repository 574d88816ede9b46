"""R2: a move whose COMMIT fails, and a bot process killed inside a move's transaction.

What a user would notice if these failed: a move the bot refused (its write failed) still showing
up in the game, or half of it (a new version without its action, a card moved without the turn
passing); a game that no longer loads or a database that no longer opens after a crash; a game
stuck after such a failure because its next move is refused as "already done" or waits forever on
a lock the dead process held.

How: (a) the database itself refuses the COMMIT (SQLite: a deferred foreign key that only fails at
COMMIT; PostgreSQL: a deferred constraint trigger that raises at COMMIT) or runs out of room
(SQLite's ``max_page_count``, the disk-full error); (b) a child process (``crash_child.py``) plays a
move through the real service and store and is SIGKILLed after each statement of that move's
transaction, then once after it committed. Both run on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.store import Database, open_database, repo
from tests.bot.helpers import T0, Clock, choose, snapshot, started, uid
from tests.e2e.helpers import PgReader, replay_action_log

ROOT = Path(__file__).resolve().parents[2]


def _backend(env) -> str:
    return "sqlite" if isinstance(env.db, Database) else "postgresql"


async def _arm_commit_failure(env, game_id: int) -> None:
    """From now on, a transaction that logs an action of ``game_id`` fails at COMMIT, and only there:
    every statement in it succeeds."""
    async with env.db.transaction() as tx:
        if _backend(env) == "sqlite":
            # A deferred foreign key is checked when the transaction commits (sqlite.org/foreignkeys.html).
            await tx.execute(
                "CREATE TABLE commit_bomb (game_id INTEGER REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED)")
            await tx.execute(
                f"CREATE TRIGGER commit_bomb_arm AFTER INSERT ON actions WHEN NEW.game_id = {game_id} "
                "BEGIN INSERT INTO commit_bomb VALUES (-1); END")
        else:
            # A deferred constraint trigger runs at COMMIT (PostgreSQL "CREATE CONSTRAINT TRIGGER").
            await tx.execute(
                "CREATE FUNCTION commit_bomb() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'commit refused'; END $$")
            await tx.execute(
                "CREATE CONSTRAINT TRIGGER commit_bomb AFTER INSERT ON actions DEFERRABLE INITIALLY DEFERRED "
                f"FOR EACH ROW WHEN (NEW.game_id = {game_id}) EXECUTE FUNCTION commit_bomb()")


async def _disarm(env) -> None:
    async with env.db.transaction() as tx:
        if _backend(env) == "sqlite":
            await tx.execute("DROP TRIGGER commit_bomb_arm")
        else:
            await tx.execute("DROP TRIGGER commit_bomb ON actions")


def _commit_error(env) -> type[BaseException]:
    if _backend(env) == "sqlite":
        return sqlite3.IntegrityError
    import asyncpg

    return asyncpg.RaiseError


async def test_a_move_whose_commit_fails_changes_nothing_and_the_game_goes_on(env):
    row = await started(env.svc, "basic", 2, seed="commit")
    seat = env.svc.core.engine(row).current_seat
    await _arm_commit_failure(env, row.id)
    before = await snapshot(env.db, row.id)

    # Twice: the failed COMMIT must not leave a transaction open that the second attempt joins.
    for _ in range(2):
        with pytest.raises(_commit_error(env)):
            await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=501, version=row.version)
        assert not env.db.in_transaction
        assert await snapshot(env.db, row.id) == before
        fresh = await env.svc.core.get(row.id)
        assert fresh == row
        assert env.svc.core.engine(fresh).record() == row.record  # the failed move is not in the cached game

    # Other games are written meanwhile (the database is not stuck in the failed transaction).
    other = await started(env.svc, "gin", 2, channel=200, seed="other")
    assert other.version > 1

    await _disarm(env)
    # The same click again (same interaction id): it was never recorded, so it is a move, not "already done".
    change = await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=501, version=row.version)
    assert change.game.version == row.version + 1
    assert await repo.action_count(env.db, row.id) == change.game.version
    assert env.svc.core.engine(await env.svc.core.get(row.id)).record() == change.engine.record()
    nxt = choose(change.engine, seat, random.Random(1))
    assert (await env.svc.acting.play(row.id, uid(row, seat), nxt, version=change.game.version)).game.version == (
        row.version + 2)
    if _backend(env) == "sqlite":
        assert (await env.db.fetchone("PRAGMA integrity_check"))[0] == "ok"


async def test_a_full_disk_refuses_the_move_that_needs_room_and_the_game_goes_on(tmp_path):
    """SQLite's disk-full error (SQLITE_FULL), made real with ``max_page_count``: the file may not
    grow by one page. Moves are played until one needs a new page; that move raises and changes
    nothing, and once there is room again it goes through."""
    db = await Database.open(tmp_path / "rummy.db")
    try:
        svc = GameService(db, clock=Clock())
        row = await started(svc, "basic", 2, "game_end=hands:9", seed="full")
        pages = (await db.fetchone("PRAGMA page_count"))[0]
        await db.conn.execute(f"PRAGMA max_page_count = {pages}")
        rng = random.Random(5)
        for _ in range(2000):
            game = svc.core.engine(row)
            if game.hand_over:
                move_of = None
            else:
                seat = rng.choice(game.actors)
                move = choose(game, seat, rng)
                move_of = (uid(row, seat), move)
            before = await snapshot(db, row.id)
            try:
                if move_of is None:
                    row = (await svc.acting.next_deal(row.id, 1, version=row.version)).game
                else:
                    row = (await svc.acting.play(row.id, *move_of, version=row.version)).game
            except sqlite3.OperationalError as exc:
                assert "full" in str(exc)
                break
            assert row.status == "playing", "the game ended before the disk filled up"
        else:
            raise AssertionError("the disk never filled up")
        assert not db.in_transaction
        assert await snapshot(db, row.id) == before
        assert await svc.core.get(row.id) == row
        await db.conn.execute(f"PRAGMA max_page_count = {pages * 100}")  # room again
        change = await (svc.acting.next_deal(row.id, 1, version=row.version) if move_of is None
                        else svc.acting.play(row.id, *move_of, version=row.version))
        assert change.game.version == row.version + 1
        assert await repo.action_count(db, row.id) == change.game.version
        assert (await db.fetchone("PRAGMA integrity_check"))[0] == "ok"
    finally:
        await db.close()


# ------------------------------------------------------------------------------------------ killed mid-transaction
async def _run_child(target: str, row, user_id: int, move: str, interaction_id: int, stop_at: int) -> str:
    """Start the child, wait until it stops where asked (or commits), SIGKILL it; returns its word."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.crash_child", target, str(row.id), str(user_id), move, str(row.version),
        str(interaction_id), str(T0 + 60), str(stop_at),
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
        if not line:
            err = await proc.stderr.read()
            raise AssertionError(f"the child died on its own: {err.decode()[-2000:]}")
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return line.decode().strip()


async def test_a_process_killed_inside_a_move_leaves_the_game_whole(env, request):
    """R2: the bot process dies (SIGKILL) after each statement of one move's transaction in turn,
    then once after the COMMIT. Each time the database passes its integrity check, the game loads
    and is exactly as before the move (or, after the COMMIT, exactly after it), and a new process
    plays the same move and the next one."""
    row = await started(env.svc, "basic", 2, seed="kill")
    seat = env.svc.core.engine(row).current_seat
    user = uid(row, seat)
    before = await snapshot(env.db, row.id)
    target = str(env.path) if _backend(env) == "sqlite" else request.getfixturevalue("pg_url")

    words = []
    for stop_at in range(1, 20):
        word = await _run_child(target, row, user, "draw", 700 + stop_at, stop_at)
        words.append(word)
        if _backend(env) == "sqlite":
            with sqlite3.connect(env.path) as c:
                assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",), word
        if word.startswith("committed"):
            break
        assert word.startswith(f"stopped {stop_at}")
        assert await snapshot(env.db, row.id) == before, word
    else:
        raise AssertionError(f"the move never committed: {words}")
    # Killed inside the transaction at least after the version bump and after the action row.
    assert sum(w.endswith("in transaction") for w in words) >= 2, words

    # A new process on the same database (a restarted bot): the move that committed is there, once.
    db = await open_database(target)
    try:
        svc = GameService(db, clock=Clock(T0 + 120))
        after = await svc.core.get(row.id)
        assert after is not None and after.version == row.version + 1
        actions = await db.fetchall("SELECT version, interaction_id FROM actions WHERE game_id = ? ORDER BY id",
                                    (row.id,))
        assert [tuple(a) for a in actions][-1] == (row.version + 1, 700 + len(words))
        assert len(actions) == after.version
        game = svc.core.engine(after)
        assert game.phase == "play" and game.current_seat == seat
        nxt = choose(game, seat, random.Random(2))
        change = await svc.acting.play(row.id, user, nxt, interaction_id=999, version=after.version)
        assert change.game.version == row.version + 2
    finally:
        await db.close()


async def test_a_process_killed_at_random_moments_of_a_burst_leaves_every_game_whole(env, request):
    """R2 at random points: a child plays two games as fast as it can and is SIGKILLed at a random
    moment, five times, each time while it is writing (so also inside SQLite's own COMMIT, or while
    PostgreSQL commits). After each kill: the file passes its integrity check, every move the child
    had acknowledged is stored, each game's version equals its logged actions, the log replays to
    the stored record (R10), and the next child plays on from there."""
    rows = [await started(env.svc, "basic", 2, "game_end=hands:50", channel=300 + i, seed=f"burst{i}")
            for i in range(2)]
    target = str(env.path) if _backend(env) == "sqlite" else request.getfixturevalue("pg_url")
    child_target = target
    if _backend(env) == "postgresql":  # named, so that the parent can see when its sessions are gone
        child_target += ("&" if "?" in target else "?") + f"application_name={CHILD}"
    acked = {r.id: r.version for r in rows}
    rng = random.Random(8)
    query, close = _reader(env, target)
    for round_ in range(5):
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bot.crash_child", "burst", child_target, ",".join(str(r.id) for r in rows),
            f"seed{round_}", cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        try:
            for _ in range(rng.randint(5, 30)):
                line = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
                if not line:
                    raise AssertionError(f"the child died on its own: {(await proc.stderr.read()).decode()[-2000:]}")
                _, game_id, version = line.decode().split()
                acked[int(game_id)] = max(acked[int(game_id)], int(version))
            if _backend(env) == "postgresql":
                assert await _child_sessions(env) > 0  # the name reaches the server (else the wait below is void)
            await asyncio.sleep(rng.random() * 0.02)  # the child goes on writing meanwhile
        finally:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        if _backend(env) == "sqlite":
            with sqlite3.connect(env.path) as c:
                assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",), round_
        else:
            # A COMMIT the child sent just before it died is still the server's to finish (or roll
            # back): wait until the server has closed the dead child's sessions, then read.
            await _wait_for(lambda: _child_sessions(env), 0)
        for r in rows:
            stored = await env.svc.core.get(r.id)
            assert stored is not None and stored.version >= acked[r.id], (round_, stored and stored.version, acked)
            assert await repo.action_count(env.db, r.id) == stored.version
        replay_action_log(query)
    close()
    assert all(acked[r.id] > r.version + 5 for r in rows), acked  # the children did play



CHILD = "rummy_crash_child"


async def _child_sessions(env) -> int:
    row = await env.db.fetchone("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = ?", (CHILD,))
    return int(row["n"])


async def _wait_for(read: Any, value: Any, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (got := await read()) != value:
        assert loop.time() < end, f"still {got!r}, waited for {value!r}"
        await asyncio.sleep(0.02)


def _reader(env, target: str) -> tuple[Any, Any]:
    """A synchronous ``query(sql, params)`` for ``replay_action_log`` and what closes it."""
    if _backend(env) == "postgresql":
        reader = PgReader(target)
        return reader.query, reader.close

    def query(sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with contextlib.closing(sqlite3.connect(f"file:{env.path}?mode=ro", uri=True)) as c:
            c.row_factory = sqlite3.Row
            return list(c.execute(sql, params))

    return query, lambda: None
