"""The SQLite connection: opening, pragmas, migrations and transactions.

What it is: ``Database.open(path)`` opens one aiosqlite connection (WAL, ``synchronous=FULL``,
foreign keys on, a busy timeout), migrates it on ``PRAGMA user_version`` and hands out
transactions. All writes share that one connection, so ``transaction()`` holds an
``asyncio.Lock`` from ``BEGIN IMMEDIATE`` to ``COMMIT``/``ROLLBACK``: no other coroutine's statement
can land inside it (aiosqlite shares one thread per connection, omnilib/aiosqlite#19), and a
cancelled coroutine rolls back in ``finally``.
What it is not: no queries about games (``bot.store.repo``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import DatabaseTooNew, Duplicate
from .schema import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger(__name__)

BUSY_SECONDS = 5.0  # how long a statement waits for another connection's lock (busy_timeout)


async def _switch_to_wal(conn: aiosqlite.Connection) -> None:
    """Put the file in WAL mode (once set, it stays with the file). The switch reads the file and
    then needs it to itself; two connections doing that at the same moment would wait for each
    other forever, so SQLite answers one of them "database is locked" at once, without the busy
    timeout (its deadlock rule). That one tries again until the busy timeout's time is up."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_SECONDS
    pause = 0.01
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() >= give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.2)


class BackupError(RuntimeError):
    """A backup could not be made; the message is one sentence for the person who asked."""


def backup(source: str | Path, target: str | Path) -> int:
    """Copy the database to ``target`` while the bot may be writing to it (SQLite's online backup:
    one consistent snapshot, reliability.md R23), then check the copy with ``integrity_check``.
    Returns how many games the copy holds. Never overwrites a file. Restoring is starting the bot
    with ``RUMMY_DB`` pointing at the copy (it is migrated on open like any database)."""
    try:
        return _backup(source, target)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy {source}: {exc}") from exc


def _backup(source: str | Path, target: str | Path) -> int:
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if target.exists():
        raise BackupError(f"{target} already exists; choose a new file name")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # all pages in one step: a single read snapshot of the source
            if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"the copy at {target} failed its integrity check")
            has_games = dst.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone()
            return int(dst.execute("SELECT COUNT(*) FROM games").fetchone()[0]) if has_games else 0
        finally:
            dst.close()
    finally:
        src.close()


class Database:
    """One writer connection and the lock that makes its transactions whole."""

    tx_class: type[Tx]

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # The busy timeout comes first: switching a new file to WAL takes its write lock, and
            # processes opening one file together must wait for each other there too.
            await conn.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            await _switch_to_wal(conn)
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            db = cls(conn, path)
            await db.migrate()
        except BaseException:
            await conn.close()  # its worker thread is not a daemon: left open, the process never exits
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            await self.conn.close()

    async def user_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply every pending migration, each in one transaction with its version bump. The
        version is read inside that write transaction (``BEGIN IMMEDIATE`` holds SQLite's write
        lock), so processes opening one file together migrate it once: the others wait on the lock
        and then find the work done."""
        # Foreign keys are off while migrating (a pragma that only changes outside a transaction),
        # so a migration may rebuild a parent table, and are checked before each COMMIT instead:
        # SQLite's own procedure for schema changes ALTER TABLE cannot make.
        await self.conn.execute("PRAGMA foreign_keys=OFF")
        try:
            while True:
                async with self.transaction() as tx:
                    current = await tx.user_version()
                    if current > SCHEMA_VERSION:
                        raise DatabaseTooNew(f"{self.path} is at schema {current}; this bot knows {SCHEMA_VERSION}")
                    if current == SCHEMA_VERSION:
                        return
                    await tx.executescript_in_tx(MIGRATIONS[current])
                    broken = await tx.fetchall("PRAGMA foreign_key_check")
                    if broken:
                        raise RuntimeError(f"migration {current + 1} broke {len(broken)} foreign keys")
                    await tx.execute(f"PRAGMA user_version = {current + 1}")
                log.info("database migrated to schema %d", current + 1)
        finally:
            await self.conn.execute("PRAGMA foreign_keys=ON")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception (cancellation included) rolls back."""
        async with self._lock:
            try:
                # Inside the try: a task cancelled while awaiting BEGIN has still queued it on the
                # worker thread, and the ROLLBACK queued after it must close that transaction.
                await self.conn.execute("BEGIN IMMEDIATE")
                yield Tx(self.conn)
            except BaseException:
                await self._rollback()
                raise
            else:
                try:
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self._rollback()  # a failed COMMIT leaves the transaction open
                    raise

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open on the connection (after a failed one: never)."""
        return bool(self.conn.in_transaction)

    async def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.OperationalError):  # "no transaction is active"
            await self.conn.execute("ROLLBACK")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock, self.conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self._lock, self.conn.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()


class Tx:
    """The statements of one open transaction (only valid inside ``Database.transaction``). A write
    that breaks a unique key raises the store's ``Duplicate``, never the driver's error."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; returns SQLite's last row id (portable code uses ``insert``)."""
        return await self._lastrowid(sql, params)

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one INSERT into a table with an ``id`` column; returns the new row's id."""
        return await self._lastrowid(sql, params)

    async def _lastrowid(self, sql: str, params: Iterable[Any]) -> int:
        with _mapped():
            async with self.conn.execute(sql, tuple(params)) as cur:
                return int(cur.lastrowid or 0)

    async def update(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one UPDATE or DELETE; returns how many rows it changed."""
        with _mapped():
            async with self.conn.execute(sql, tuple(params)) as cur:
                return int(cur.rowcount)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self.conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def lock_game(self, game_id: int) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the whole file's write lock."""

    async def lock_name(self, name: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already serializes every writer of the file."""

    async def user_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def executescript_in_tx(self, script: str) -> None:
        """Run a migration's statements one by one (``executescript`` would COMMIT first)."""
        for statement in _split_sql(script):
            await self.conn.execute(statement)


@contextlib.contextmanager
def _mapped() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"):
            raise Duplicate(str(exc)) from exc
        raise


def _split_sql(script: str) -> list[str]:
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


Database.tx_class = Tx
