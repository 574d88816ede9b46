"""Moving a server's history from SQLite to PostgreSQL (``python -m bot --copy-to URL``).

What it is: ``copy_to_postgres(sqlite_path, url)`` migrates both databases to the current schema,
refuses a target that holds any row, copies every table (games, seats, actions, results,
seasons, season schedules, voided results, the audit log, skill ratings and the bot's own settings) in one
PostgreSQL transaction, moves the target's id sequences past the copied ids, and checks that every
table has as many rows on both sides before it commits. A community that outgrows one process
keeps its seasons, standings and games in play.
What it is not: no merging into a database in use, no copying back (``--backup`` copies SQLite).
"""

from __future__ import annotations

from pathlib import Path

import asyncpg

from .db import Database
from .postgres import PgDatabase

# Parents before children (foreign keys); each table with the columns that order its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("meta", "key"),
    ("games", "id"),
    ("seats", "game_id, position"),
    ("actions", "id"),
    ("seasons", "guild_id, number"),
    ("results", "game_id, user_id"),
    ("voided", "game_id"),
    ("season_schedules", "guild_id"),
    ("audit", "id"),
    ("ratings", "guild_id, variant, user_id"),
    ("rating_history", "game_id, user_id"),
    ("rating_resets", "guild_id"),
    ("server_settings", "guild_id"),
    ("server_options", "guild_id, variant, preset"),
    ("server_bans", "guild_id, user_id"),
    ("adjustments", "id"),
    ("season_standings", "guild_id, season, version"),
    ("season_variant_standings", "guild_id, season, version, variant"),
    ("drafts", "game_id, seat"),  # issue 13
    ("interaction_tokens", "interaction_id"),  # issue 24: live ones only
    ("token_messages", "message_id"),
    ("tournaments", "id"),  # issue 22
    ("tournament_entrants", "tournament_id, user_id"),
    ("tournament_tables", "tournament_id, round, number"),
)
SEQUENCES = ("games", "actions", "audit", "adjustments", "tournaments")  # tables whose ids PostgreSQL hands out


class CopyError(RuntimeError):
    """The copy was refused or failed; nothing was written. The message is for the person who ran it."""


async def copy_to_postgres(source: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``url``;
    returns the rows copied per table."""
    if not Path(source).is_file():
        raise CopyError(f"there is no database at {source}")
    src = await Database.open(source)
    try:
        try:
            dst = await PgDatabase.open(url)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise CopyError(f"could not open the PostgreSQL database: {exc}") from exc
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Database, dst: PgDatabase) -> dict[str, int]:
    counts: dict[str, int] = {}
    async with dst.transaction() as tx:
        for table, _ in TABLES:
            if await tx.fetchone(f"SELECT 1 FROM {table} LIMIT 1") is not None:
                raise CopyError(f"the target database is not empty (table {table} has rows); copy into a new one")
        for table, order in TABLES:
            rows = await src.fetchall(f"SELECT * FROM {table} ORDER BY {order}")
            counts[table] = len(rows)
            if rows:
                columns = list(rows[0].keys())
                marks = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
                await tx.conn.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    [tuple(r) for r in rows],
                )
        for table in SEQUENCES:
            await tx.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}"
            )
        for table, _ in TABLES:
            copied = await tx.fetchone(f"SELECT COUNT(*) AS n FROM {table}")
            if copied is None or int(copied["n"]) != counts[table]:
                raise CopyError(f"table {table}: {counts[table]} rows read but {copied} written; nothing was kept")
    return counts
