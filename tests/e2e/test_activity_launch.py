"""The Activity from chat (issue 38): a bot serving it keeps Discord's Entry Point command through
its command sync, offers *Open the table* on the lobby and the table, and the button launches
the Activity in that channel; the page is served with the application's id in it.

What a user would notice if this failed: the bot failing to start once the app's Activities are
switched on (Discord refuses a sync that drops the Entry Point command), or a button that does
nothing.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, custom_ids, new_lobby
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

LAUNCH_ACTIVITY = 12


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def served(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[tuple[Table, int]]:
    fake.enable_activities()  # before the bot starts: Discord made the Entry Point command already
    port = free_port()
    # No dev server: the commands are synced globally, where the Entry Point command lives.
    env = {"RUMMY_FLOOD": "off", "RUMMY_ACTIVITY_PORT": str(port), "DISCORD_CLIENT_SECRET": fake.client_secret,
           "RUMMY_DEV_GUILD": ""}
    users = [fake.add_user(n, locale=loc) for n, loc in [("Ana", "es-ES"), ("Bea", "en-US")]]
    bot = await boot(fake, tmp_path / "rummy.sqlite3", tmp_path / "bot.log", env)
    try:
        yield Table(fake, bot, tmp_path / "rummy.sqlite3", users), port
    finally:
        await bot.terminate()
        assert "Traceback" not in bot.log_text(), bot.log_text()[-3000:]


async def test_the_sync_keeps_the_entry_point_and_the_button_launches_the_activity(served: tuple[Table, int]) -> None:
    table, port = served
    fake, (ana, bea) = table.fake, table.users
    kinds = {(c["name"], c["type"]) for c in fake.commands()}
    assert ("launch", 4) in kinds and ("rummy", 1) in kinds  # synced beside the Entry Point, not over it
    assert fake.violations == []

    lobby = await new_lobby(fake, ana, {"variant": "gin", "timer": 0})
    gid = int(custom_ids(lobby)[0].split(":")[2])
    assert f"rummy:activity:{gid}" in custom_ids(fake.message(lobby.id))
    rec = await (await fake.click(bea, fake.message(lobby.id), f"rummy:activity:{gid}")).settled(timeout=15)
    assert rec.response is not None and rec.response.type == LAUNCH_ACTIVITY
    ((_, instance),) = [(r, i) for r, i in fake.activities.launches if r is rec]
    assert instance.channel_id == lobby.channel_id and bea.id in instance.users

    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as page:
        assert page.status == 200
        html = await page.text()
    assert "__RUMMY_CLIENT_ID__" not in html and str(fake.application_id) in html
    assert fake.violations == []
