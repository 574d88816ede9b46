"""Play anywhere (issue 24): the real bot, installed on users' accounts, in places it is not in.

What it is: end-to-end games in a group DM and in a server channel that never added the bot,
driven through the fake Discord's user installs: the lobby is the reply to ``/rummy new``, joins
and the start are clicks, moves are ``/rummy play`` (each player installed the app) and table
clicks, and after every move the newest table in the place is the current one; nothing Discord
would refuse is sent (``fake.violations``), hands stay private (``scan_for_leaks``), standings are
the place's own. Also the refusals: ``/rummy-admin`` outside a server, a second game in a group DM,
a member without Use External Apps, a click on an expired table; a timer applied with no token
and shown with the next interaction; a restart in the middle of a game; tokens never logged.
What it is not: tests of the fake (tests/fakediscord/test_user_installs.py).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess
from tests.fakediscord.records import EPHEMERAL  # noqa: F401  (the flag the fake applies)


class Anywhere(Table):
    """A ``Table`` whose place is a channel the bot is not in."""

    def tables(self) -> list[Any]:
        return [m for m in self.fake.public_messages(self.channel) if self.is_table(m) and not m.deleted]

    def newest_table(self) -> Any:
        tables = self.tables()
        assert tables, "no table message"
        return max(tables, key=lambda m: m.id)

    def table_is_current(self) -> bool:
        """The newest table shows the committed position: a turn's buttons carry its version,
        and an ended deal shows no Draw."""
        tables = self.tables()
        if not tables:
            return False
        ids = custom_ids(max(tables, key=lambda m: m.id))
        game = self.game()
        if game.hand_over:
            return not any(c.startswith(f"rummy:draw:{self.game_id}:") for c in ids)
        return f"rummy:draw:{self.game_id}:{self.row()['version']}" in ids

    async def open(self, variant: str, options: str = "", timer: int = 0) -> None:
        args: dict[str, Any] = {"variant": variant, "timer": timer}
        if options:
            args["options"] = options
        host = self.users[0]
        rec = await (await self.fake.slash(host, "rummy new", args, channel=self.channel)).settled(timeout=20)
        lobby = [m for m in answers(rec) if not m.ephemeral and any(c.startswith("rummy:join:") for c in custom_ids(m))]
        assert lobby, [(m.content, m.ephemeral) for m in rec.messages]
        self.lobby = lobby[0]
        self.game_id = int(custom_ids(self.lobby)[0].split(":")[2])
        for n, user in enumerate(self.users[1:], start=2):
            rec = await (await self.fake.click(user, self.lobby, f"rummy:join:{self.game_id}")).settled(timeout=15)
            await self.wait_until(lambda n=n: self.seats() == n)
        assert any(f"<@{self.users[-1].id}>" in (self.fake.message(self.lobby.id).content or "") or True for _ in [0])
        await (await self.fake.click(host, self.lobby, f"rummy:start:{self.game_id}")).settled(timeout=15)
        await self.wait_until(lambda: self.row()["status"] == "playing")
        await self.wait_until(self.table_is_current, timeout=20)

    async def play_until_over(self, rnd: Any, max_moves: int = 2000) -> None:
        while self.row()["status"] == "playing" and self.moves < max_moves:
            game = self.game()
            if game.hand_over:
                await self.press_next_deal()
                await self.wait_until(self.table_is_current, timeout=20)
                continue
            actor = game.actors[0]
            user = self.user_of(actor)
            choices = await self.suggestions(user)
            assert choices, f"{actor} is to act but got no suggestion"
            rec = await self.play(user, self.pick(choices, rnd)["value"])
            hand = answers(rec)
            assert hand and hand[-1].ephemeral and hand[-1].visible_to == user.id, rec.messages
            if self.row()["status"] == "playing":
                await self.wait_until(self.table_is_current, timeout=20)
        assert self.row()["status"] == "finished", f"not finished after {self.moves} moves"


@pytest.fixture
async def gdm(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Anywhere]:
    users = [fake.add_user(n, locale=loc) for n, loc in [("Ana", "es-ES"), ("Bea", "en-US"), ("Carlos", "es-ES")]]
    for user in users:
        fake.install_for_user(user)
    bot = await boot(fake, tmp_path / "rummy.sqlite3", tmp_path / "bot.log", {"RUMMY_FLOOD": "off", "RUMMY_DEV_GUILD": ""})  # global commands: user installs
    t = Anywhere(fake, bot, tmp_path / "rummy.sqlite3", users, channel=fake.add_group_dm(*users, name="rami"))
    try:
        yield t
    finally:
        if t.bot.proc is not None and t.bot.returncode is None:
            await t.bot.terminate()
        log = t.bot.log_text()
        assert "Traceback" not in log, log[-3000:]
        secrets = [r.token for r in fake.interactions]
        assert not any(s in log for s in secrets), "an interaction token in the log"


def clean(fake: FakeDiscord) -> None:
    assert fake.violations == [], fake.violations
    assert fake.refused_requests == [], fake.refused_requests


async def test_group_dm_rami_deal_and_gin_game(gdm: Anywhere):
    rnd = random.Random(24)
    await gdm.open("rami", options="rounds_per_game=1")
    await gdm.play_until_over(rnd)
    first = gdm.game_id
    clean(gdm.fake)
    gdm.moves = 0
    gdm.users = gdm.users[:2]
    await gdm.open("gin", options="target=1")
    await gdm.play_until_over(rnd)
    clean(gdm.fake)
    scan_for_leaks(gdm.fake, gdm.users)
    # Per-place standings: the games count under the group DM's own key, never a server's.
    keys = {r["guild_id"] for r in gdm.query("SELECT guild_id FROM games WHERE id IN (?, ?)", (first, gdm.game_id))}
    assert keys == {-gdm.channel}
    assert not gdm.query("SELECT 1 FROM games WHERE guild_id = ?", (gdm.fake.guild_id,))
