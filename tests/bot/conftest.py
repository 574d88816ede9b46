"""Fixtures shared by the service tests: ``env`` (a temporary database, a fake clock, a service),
once on SQLite and once on a real PostgreSQL: the same tests, the same assertions, both backends.

The helpers the tests call by hand are in ``tests/bot/helpers.py``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.service import GameService
from bot.store import Database, open_database
from tests.bot.helpers import Clock


@pytest.fixture(params=["sqlite", "postgresql"])
async def env(request, tmp_path):
    path = tmp_path / "rummy.db"
    if request.param == "sqlite":
        db = await Database.open(path)
    else:
        db = await open_database(request.getfixturevalue("pg_url"))
    clock = Clock()
    ns = SimpleNamespace(db=db, path=path, clock=clock, svc=GameService(db, clock=clock))
    yield ns
    await ns.db.close()
