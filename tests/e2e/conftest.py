"""Fixtures of the end-to-end tests: a fake Discord on 127.0.0.1 and the real bot against it.

``table``: four users (Ana es-ES, Bea en-US, Carlos es-ES, Dani es-419) and a started bot process.
Markers: ``flood`` keeps the per-user flood limit on (our robot players click faster than people,
so it is off otherwise); ``bot_env({...})`` adds environment variables for the bot process;
``failure_logged(text)``: the test provokes one failure the bot logs with a traceback (no other).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.helpers import Table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess


async def boot(fake: FakeDiscord, db: Path, log: Path, env: dict[str, str] | None = None) -> BotProcess:
    # patch_gateway=False: the bot itself points discord.py at the fake (RUMMY_DISCORD_GATEWAY).
    bot = BotProcess(fake, db_path=db, log_path=log, patch_gateway=False, env=env)
    await bot.start(ready_timeout=60)
    return bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Table]:
    users = [fake.add_user(n, locale=loc) for n, loc in
             [("Ana", "es-ES"), ("Bea", "en-US"), ("Carlos", "es-ES"), ("Dani", "es-419")]]
    env = {} if request.node.get_closest_marker("flood") else {"RUMMY_FLOOD": "off"}
    extra = request.node.get_closest_marker("bot_env")
    if extra:
        env.update(extra.args[0])
    bot = await boot(fake, tmp_path / "rummy.sqlite3", tmp_path / "bot.log", env)
    t = Table(fake, bot, tmp_path / "rummy.sqlite3", users)
    try:
        yield t
    finally:
        if t.bot.proc is not None and t.bot.returncode is None:
            await t.bot.terminate()
        log = t.bot.log_text()
        expected = request.node.get_closest_marker("failure_logged")
        if expected:  # the one traceback the test provoked, and no other
            assert log.count("Traceback") == 1 and expected.args[0] in log, log[-3000:]
        else:
            assert "Traceback" not in log, log[-3000:]
