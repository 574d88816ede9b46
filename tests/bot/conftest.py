"""Fixtures shared by the service tests: ``env`` (a temporary database, a fake clock, a service).

The helpers the tests call by hand are in ``tests/bot/helpers.py``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.service import GameService
from bot.store import Database
from tests.bot.helpers import Clock


@pytest.fixture
async def env(tmp_path):
    path = tmp_path / "rummy.db"
    db = await Database.open(path)
    clock = Clock()
    ns = SimpleNamespace(db=db, path=path, clock=clock, svc=GameService(db, clock=clock))
    yield ns
    await ns.db.close()
