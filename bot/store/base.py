"""The store's interface: what the service may ask of a database, whichever backend holds it.

What it is: two ``Protocol``\\ s. ``Store`` is an open database (SQLite's ``Database`` in ``db.py``
or PostgreSQL's ``PgDatabase`` in ``postgres.py``); ``Transaction`` is one open transaction of it.
Queries are written once, with ``?`` placeholders (``repo.py``); rows come back as mappings that
``repo.py`` turns into the typed rows of ``bot.store.rows``. Both raise the errors of ``errors.py``.
What it is not: no SQL and no driver; nothing outside ``bot.store`` sees a driver's types.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Transaction(Protocol):
    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int: ...
    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int: ...
    async def update(self, sql: str, params: Iterable[Any] = ()) -> int: ...
    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any: ...
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    async def lock_game(self, game_id: int) -> None:
        """Hold the game's row until the transaction ends (other processes' moves wait)."""

    async def lock_name(self, name: str) -> None:
        """Serialize the transactions that lock the same name (a check no unique key expresses)."""


class Store(Protocol):
    path: str

    def transaction(self) -> AbstractAsyncContextManager[Transaction]: ...
    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any: ...
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...
    async def user_version(self) -> int: ...
    async def close(self) -> None: ...

    @property
    def in_transaction(self) -> bool: ...
