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

from bot.engine import Phase
from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks, shown_hand, table_turn_current
from tests.fakediscord import CommandNotShown, FakeDiscord
from tests.fakediscord.process import BotProcess


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
        if not table_turn_current(ids, self.game_id, self.row()["version"], game.hand_over):
            return False
        # A turn's start offers Draw (issue 36: only the moves the phase accepts, none mid-turn).
        return game.hand_over or game.phase != Phase.DRAW or f"rummy:draw:{self.game_id}:{self.row()['version']}" in ids

    async def open(self, variant: str, options: str = "", timer: int = 0) -> None:
        args: dict[str, Any] = {"variant": variant, "timer": timer}
        if options:
            args["options"] = options
        host = self.users[0]
        rec = await (await self.fake.slash(host, "rummy new", args, channel=self.channel)).settled(timeout=20)

        def lobbies() -> list[Any]:  # the public reply, once the lobby (and its picture) fills it
            return [m for m in answers(rec)
                    if not m.ephemeral and any(c.startswith("rummy:join:") for c in custom_ids(m))]

        await self.wait_until(lambda: bool(lobbies()), timeout=20)
        self.lobby = lobbies()[0]
        self.game_id = int(custom_ids(self.lobby)[0].split(":")[2])
        for n, user in enumerate(self.users[1:], start=2):
            rec = await (await self.fake.click(user, self.lobby, f"rummy:join:{self.game_id}")).settled(timeout=15)
            await self.wait_until(lambda n=n: self.seats() == n)
        await (await self.fake.click(host, self.lobby, f"rummy:start:{self.game_id}")).settled(timeout=15)
        await self.wait_until(lambda: self.row()["status"] == "playing")
        await self.wait_until(self.table_is_current, timeout=20)

    async def play_until_over(self, rnd: Any, max_moves: int = 2000, *, to_end: bool = True) -> None:
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
            private = [m for m in answers(rec) if m.ephemeral]  # the hand (the turn call after it is public)
            assert private and all(m.visible_to == user.id for m in private), rec.messages
            if self.row()["status"] == "playing":
                await self.wait_until(self.table_is_current, timeout=20)
        assert not to_end or self.row()["status"] == "finished", f"not finished after {self.moves} moves"
        if to_end:  # the table shows the end too
            await self.wait_until(self.table_is_current, timeout=20)


ENV = {"RUMMY_FLOOD": "off", "RUMMY_DEV_GUILD": ""}  # global commands: user installs


async def start(fake: FakeDiscord, tmp: Path, env: dict[str, str] | None = None) -> BotProcess:
    return await boot(fake, tmp / "rummy.sqlite3", tmp / "bot.log", {**ENV, **(env or {})})


def players(fake: FakeDiscord, n: int = 3) -> list[Any]:
    who = [("Ana", "es-ES"), ("Bea", "en-US"), ("Carlos", "es-ES")][:n]
    users = [fake.add_user(name, locale=loc) for name, loc in who]
    for user in users:
        fake.install_for_user(user)
    return users


def check_log(t: Anywhere) -> None:
    log = t.bot.log_text()
    assert "Traceback" not in log, log[-3000:]
    assert not any(r.token in log for r in t.fake.interactions), "an interaction token in the log"


@pytest.fixture
async def gdm(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Anywhere]:
    users = players(fake)
    t = Anywhere(fake, await start(fake, tmp_path), tmp_path / "rummy.sqlite3", users,
                 channel=fake.add_group_dm(*users, name="rami"))
    try:
        yield t
    finally:
        if t.bot.proc is not None and t.bot.returncode is None:
            await t.bot.terminate()
        check_log(t)


def clean(fake: FakeDiscord) -> None:
    assert fake.violations == [], fake.violations
    assert fake.refused_requests == [], fake.refused_requests


async def test_group_dm_rami_deal_and_its_standings(gdm: Anywhere):
    # A whole three-player rami deal (a whole gin game in a group DM, to its end: the restart test).
    await gdm.open("rami", options="rounds_per_game=1")
    await gdm.play_until_over(random.Random(24))
    clean(gdm.fake)
    scan_for_leaks(gdm.fake, gdm.users)
    # Per-place standings: the game counts under the group DM's own key, never a server's.
    assert gdm.row()["guild_id"] == -gdm.channel
    assert not gdm.query("SELECT 1 FROM games WHERE guild_id = ?", (gdm.fake.guild_id,))
    # /rummy scores there shows that place's standings (its players, by name); /rummy ladder its
    # ladder (empty: nobody has the 3 rated games a ladder asks for yet).
    rec = await (await gdm.fake.slash(gdm.users[0], "rummy scores", {}, channel=gdm.channel)).settled(timeout=15)
    shown = " ".join(m.content or "" for m in answers(rec))
    assert "Ana" in shown and "Bea" in shown, shown
    rec = await (await gdm.fake.slash(gdm.users[0], "rummy ladder", {}, channel=gdm.channel)).settled(timeout=15)
    ladder = " ".join(m.content or "" for m in answers(rec))
    assert "Nivel de juego" in ladder and "servidor" not in ladder, ladder  # a group DM is no server
    rec = await (await gdm.fake.slash(gdm.users[0], "rummy stats", {}, channel=gdm.channel)).settled(timeout=15)
    stats = " ".join(m.content or "" for m in answers(rec))
    assert "aquí" in stats and "servidor" not in stats, stats
    clean(gdm.fake)


async def test_server_without_the_bot(fake: FakeDiscord, tmp_path: Path):
    friends = fake.add_guild("Friends", bot_member=False)
    users = players(fake, 2)
    for user in users:
        fake.add_member(user, friends)
    channel = friends.system_channel_id
    assert channel is not None
    t = Anywhere(fake, await start(fake, tmp_path), tmp_path / "rummy.sqlite3", users, channel=channel)
    try:
        # A whole gin game there (the group DM's test plays a rami deal as well: the place, not
        # the variant, is what differs here).
        await t.open("gin", options="target=1")
        await t.play_until_over(random.Random(7))
        clean(fake)
        scan_for_leaks(fake, users)
        assert t.row()["guild_id"] == -channel  # the channel's own standings, not the server's
        # /rummy scores there shows that place's figures: the game just played.
        rec = await (await fake.slash(users[0], "rummy scores", {}, channel=channel)).settled(timeout=15)
        assert any(users[0].name in (m.content or "") or m.attachments for m in answers(rec)), rec.messages
        # A member without Use External Apps: their answers would be private, so no game starts.
        carlos = fake.add_user("Carlos", locale="en-US")
        fake.install_for_user(carlos)
        fake.add_member(carlos, friends)
        fake.set_use_external_apps(friends, carlos, False)
        games = len(t.query("SELECT id FROM games"))
        rec = await (await fake.slash(carlos, "rummy new", {"variant": "gin"}, channel=channel)).settled(timeout=15)
        reply = answers(rec)[-1]
        assert reply.ephemeral and "External Apps" in reply.content, reply.content
        assert len(t.query("SELECT id FROM games")) == games
        clean(fake)
    finally:
        await t.bot.terminate()
        check_log(t)


async def test_refusals_in_a_group_dm(gdm: Anywhere):
    gdm.users = gdm.users[:2]  # gin seats two; Carlos watches
    await gdm.open("gin", options="target=1")
    games = len(gdm.query("SELECT id FROM games"))
    # A second game where one runs: refused privately, nothing opened.
    rec = await (await gdm.fake.slash(gdm.users[1], "rummy new", {"variant": "rami"}, channel=gdm.channel)).settled(
        timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == gdm.users[1].id, reply.content
    assert len(gdm.query("SELECT id FROM games")) == games
    # /rummy-admin is a server's install, for servers only: Discord does not even offer it here.
    with pytest.raises(CommandNotShown):
        await gdm.fake.slash(gdm.users[0], "rummy-admin season", {}, channel=gdm.channel)
    clean(gdm.fake)


async def test_restart_in_the_middle_and_expired_table(fake: FakeDiscord, tmp_path: Path):
    users = players(fake, 2)
    t = Anywhere(fake, await start(fake, tmp_path), tmp_path / "rummy.sqlite3", users,
                 channel=fake.add_group_dm(*users, name="gin"))
    try:
        rnd = random.Random(3)
        await t.open("gin", options="target=1")
        await t.play_until_over(rnd, max_moves=4, to_end=False)
        old_table = t.newest_table()
        await t.bot.terminate()
        t.bot = await start(fake, tmp_path)
        # The first move after the restart posts a fresh table; a few more go on from it (the
        # whole games are test_server_without_the_bot's and the group DM's).
        await t.play_until_over(rnd, max_moves=t.moves + 6, to_end=False)
        clean(fake)
        assert t.newest_table().id != old_table.id
        # The table from before the restart is out of date: a click there is refused privately.
        version = t.row()["version"]
        rec = await (await fake.click(users[0], old_table, custom_ids(old_table)[0])).settled(timeout=15)
        private = [m for m in answers(rec) if m.ephemeral and m.visible_to == users[0].id]
        assert any(str(t.newest_table().id) in (m.content or "") for m in private), answers(rec)
        assert t.row()["version"] == version
        clean(fake)
    finally:
        await t.bot.terminate()
        check_log(t)


async def test_timer_without_a_token_is_shown_with_the_next_click(tmp_path: Path):
    fake = FakeDiscord(token_lifetime=10.0)  # the shortest RUMMY_TOKEN_LIFETIME the bot accepts
    await fake.start()
    users = players(fake, 2)
    t = Anywhere(fake, await start(fake, tmp_path, {"RUMMY_TOKEN_LIFETIME": "10"}), tmp_path / "rummy.sqlite3",
                 users, channel=fake.add_group_dm(*users, name="gin"))
    try:
        await t.open("gin", options="target=1", timer=0.3)
        version = t.row()["version"]
        table = t.newest_table()
        # Nobody clicks: the turn times out at its time (18 s), though no token lives to show it.
        await t.wait_until(lambda: t.row()["version"] > version, timeout=40)
        assert any(a["kind"] == "timeout" for a in t.query(
            "SELECT kind FROM actions WHERE game_id = ?", (t.game_id,)))
        assert not t.table_is_current()
        # The next interaction anyone makes in that game shows it.
        rec = await (await fake.click(users[1], table, f"rummy:hand:{t.game_id}")).settled(timeout=15)
        assert any(m.ephemeral and m.visible_to == users[1].id for m in answers(rec))  # the hand, privately
        await t.wait_until(t.table_is_current, timeout=15)
        clean(fake)
    finally:
        await t.bot.terminate()
        check_log(t)
        await fake.stop()


async def test_friends_who_never_installed_the_app_join_and_play_by_clicks(fake: FakeDiscord, tmp_path: Path):
    """Only the host installed the app: the others join the lobby and play every move by clicking
    the table's Draw and their private hand's select and Discard (Discord shows them the
    installer's components, whose owners are the installer's)."""
    users = players(fake)
    for friend in users[1:]:
        fake.uninstall_for_user(friend)
    channel = fake.add_group_dm(*users)
    t = Anywhere(fake, await start(fake, tmp_path), tmp_path / "rummy.sqlite3", users, channel=channel)
    try:
        await t.open("basic")
        hands: dict[int, int] = {}  # each player's one private hand (issue 36)
        for _ in range(6):  # two whole rounds of the table
            game = t.game()
            user = t.user_of(game.actors[0])
            version = t.row()["version"]
            draw = f"rummy:draw:{t.game_id}:{version}"
            await t.wait_until(lambda d=draw: d in custom_ids(t.newest_table()), timeout=20)
            rec = await (await fake.click(user, t.newest_table(), draw)).settled(timeout=20)
            hand = await shown_hand(fake, rec, user, hands, t.game_id, version + 1)
            assert hand.ephemeral and hand.visible_to == user.id and hand.attachments
            assert t.row()["version"] == version + 1
            select = next(c for c in custom_ids(hand) if c.startswith("rummy:s0:"))
            await (await fake.select(user, hand, select, ["0"])).settled(timeout=20)
            discard = next(c for c in custom_ids(hand) if c.startswith("rummy:hv:discard:"))  # one pick (issue 36)
            await (await fake.select(user, hand, discard, ["0"])).settled(timeout=20)
            await t.wait_until(lambda v=version: t.row()["version"] == v + 2, timeout=20)
            await t.wait_until(t.table_is_current, timeout=20)
        assert not any(fake.has_installed(friend) for friend in users[1:])
        clean(fake)
        scan_for_leaks(fake, users)
    finally:
        await t.bot.terminate()
        check_log(t)
