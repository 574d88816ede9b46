"""Storage: the only package with SQL (aiosqlite; migrations on ``PRAGMA user_version``).

``Database`` (``db.py``) owns the connection and its transactions, ``schema.py`` the migrations and
``repo.py`` the queries; the rows it hands out are the typed ones of ``bot.rows``. Nothing here
knows the rules or Discord.
"""

from __future__ import annotations

from bot.rows import GameRow, SeatRow

from .db import BackupError, Database, DatabaseTooNew, Duplicate, Tx, backup
from .schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION", "BackupError", "Database", "DatabaseTooNew", "Duplicate", "GameRow", "SeatRow", "Tx", "backup",
]
