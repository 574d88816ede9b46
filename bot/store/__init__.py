"""Storage: the only package with SQL (aiosqlite; migrations on ``PRAGMA user_version``).

``Database`` (``db.py``) owns the connection and its transactions, ``schema.py`` the migrations and
``repo.py`` the queries; the rows it hands out are the typed ones of ``bot.store.rows``. Nothing here
knows the rules or Discord.
"""

from __future__ import annotations

from bot.store.rows import GameRow, SeatRow

from .base import Store, Transaction
from .db import BackupError, Database, Tx, backup
from .errors import DatabaseTooNew, Duplicate, VersionConflict
from .schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION", "BackupError", "Database", "DatabaseTooNew", "Duplicate", "GameRow", "SeatRow", "Store",
    "Transaction", "Tx", "VersionConflict", "backup", "open_database",
]


async def open_database(target: str) -> Store:
    """The store for ``target``: a ``postgresql://`` URL opens PostgreSQL (several bot processes can
    share it), anything else is a SQLite file path (the embedded default)."""
    if target.startswith(("postgresql://", "postgres://")):
        from .postgres import PgDatabase

        return await PgDatabase.open(target)
    return await Database.open(target)
