"""``tenv``: a temporary database (SQLite, and PostgreSQL where a test asks for ``pg``), a fake
clock and a service with no pauses, for the tournament service tests."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.service import GameService
from bot.store import Database, open_database
from tests.bot.helpers import Clock


@pytest.fixture(params=["sqlite", "postgresql"])
async def tenv(request, tmp_path):
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else None

    async def open_again():  # another process's handle on the same database
        return await Database.open(tmp_path / "rummy.db") if url is None else await open_database(url)

    db = await open_again()
    clock = Clock()
    ns = SimpleNamespace(db=db, clock=clock, path=tmp_path / "rummy.db", open_again=open_again,
                         svc=GameService(db, clock=clock, bot_delay=0, deal_pause=1))
    yield ns
    await ns.db.close()
