"""Self-tests of the fake Discord's sharding, driven by discord.py's own AutoShardedClient.

What this is: the proof that the fake routes like Discord's gateway — GET /gateway/bot recommends
the shard count, READY echoes the `[shard_id, num_shards]` pair and lists only that shard's guilds,
guild events and interactions reach only the sessions of `(guild_id >> 22) % num_shards` (DMs
only shard 0), wrong shards are refused with 4010/4011, duplicate shard sessions both get their
shard's events, and IDENTIFY pacing is recorded (and refused with op 9 when asked). In-process
clients (one client holding shards 0 and 1; two clients holding one shard each) and two
`BotProcess` echo bots (the shape of the coming e2e tests), plus raw websockets for the refusals.

What this is not: tests of the rummy bot's sharding (those live in tests/e2e).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import warnings
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yarl

with warnings.catch_warnings():  # discord.py imports audioop, deprecated since Python 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    import discord
    from discord.gateway import DiscordWebSocket

from tests.fakediscord import ECHO_BOT, BotProcess, FakeDiscord, FakeGuild, GatewaySession, shard_for


class ShardClient(discord.AutoShardedClient):
    """An AutoShardedClient that notes what reached it and answers every interaction with its label."""

    def __init__(self, label: str, *, pace: bool = False, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.2, **options)
        self.label = label
        self.pace = pace
        self.interaction_guilds: list[int | None] = []
        self.message_guilds: list[int | None] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if self.pace:  # discord.py's own pacing: 5 s before every IDENTIFY but the first
            await super().before_identify_hook(shard_id, initial=initial)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interaction_guilds.append(interaction.guild_id)
        shard = interaction.guild.shard_id if interaction.guild else None
        await interaction.response.send_message(f"{self.label} on shard {shard}")

    async def on_message(self, message: discord.Message) -> None:
        self.message_guilds.append(message.guild.id if message.guild else None)


@pytest.fixture
def point_discord_at(monkeypatch: pytest.MonkeyPatch):
    def point(fake: FakeDiscord) -> None:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))

    return point


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, *clients: discord.Client) -> AsyncIterator[None]:
    tasks = [asyncio.ensure_future(c.start(fake.token)) for c in clients]
    try:
        yield
    finally:
        for client in clients:
            await client.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await asyncio.wait_for(task, 10)


async def wait_for(condition: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("condition never held")
        await asyncio.sleep(0.05)


def two_guild_fake(**options: Any) -> tuple[FakeDiscord, FakeGuild, FakeGuild]:
    fake = FakeDiscord(shard_count=2, guild_shard=0, **options)
    other = fake.add_guild("Shard One Server", shard=1)
    return fake, fake.guild, other


def message_guilds(session: GatewaySession) -> list[str | None]:
    return [data.get("guild_id") for _, name, data in session.events if name == "MESSAGE_CREATE"]


# ---- pure helpers ---------------------------------------------------------------------------------


def test_ids_land_on_the_chosen_shard():
    fake = FakeDiscord(shard_count=4, guild_shard=3)
    assert fake.shard_of(fake.guild) == 3 and fake.guild.shard(4) == 3 and fake.shard_of(None) == 0
    last = 0
    for count in (1, 2, 3, 5, 16):
        for shard in range(count):
            gid = fake.guild_id_on_shard(shard, count)
            assert (gid >> 22) % count == shard == shard_for(gid, count) and gid > last
            last = gid
    assert fake.snowflakes.next() > last  # later ids stay larger
    with pytest.raises(ValueError):
        fake.guild_id_on_shard(2, 2)


# ---- REST and raw gateway ---------------------------------------------------------------------------


@dataclass
class Raw:
    """A bare gateway connection after one IDENTIFY (GUILDS | GUILD_MESSAGES intents)."""

    http: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse
    code: int | None  # the close code, if the fake closed the socket
    first: dict[str, Any] | None  # the first packet after IDENTIFY

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()


async def raw_identify(fake: FakeDiscord, shard: Any = None) -> Raw:
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
    await ws.receive_json()  # HELLO
    d: dict[str, Any] = {"token": fake.token, "intents": 513, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    await ws.send_json({"op": 2, "d": d})
    msg = await ws.receive(timeout=5)
    first = json.loads(msg.data) if msg.type is aiohttp.WSMsgType.TEXT else None
    return Raw(http, ws, None if first is not None else ws.close_code, first)


async def test_gateway_bot_recommends_the_shard_count(point_discord_at):
    async with FakeDiscord(shard_count=3, max_concurrency=2) as fake:
        point_discord_at(fake)
        client = discord.Client(intents=discord.Intents.default())
        try:
            await client.login(fake.token)
            shards, url, limit = await client.http.get_bot_gateway()
        finally:
            await client.close()
        assert (shards, url) == (3, fake.gateway_url)
        assert limit == {"total": 1000, "remaining": 1000, "reset_after": 14400000, "max_concurrency": 2}


@pytest.mark.parametrize(
    ("shard", "code"),
    [
        (None, 4011),  # no shard while the fake needs 2
        ([0, 1], 4011),  # fewer shards than needed
        ([2, 2], 4010),  # id outside 0..count-1
        ([-1, 2], 4010),
        ([0, 0], 4010),
        ([0], 4010),
        (["0", "2"], 4010),
        ([True, 2], 4010),
    ],
)
async def test_wrong_shard_is_refused_with_discords_close_code(shard: Any, code: int):
    async with FakeDiscord(shard_count=2) as fake:
        raw = await raw_identify(fake, shard)
        await raw.close()
        assert raw.code == code
        assert [r.outcome for r in fake.identifies] == [str(code)] and fake.live_sessions() == []
        assert fake.identify_count == 0


async def test_more_shards_than_recommended_route_by_their_own_count():
    async with FakeDiscord(shard_count=2) as fake:
        g3 = fake.add_guild("on 2 of 3", shard=2, shard_count=3)
        raw = await raw_identify(fake, [2, 3])
        await raw.close()
        assert raw.first is not None and raw.first["t"] == "READY" and raw.first["d"]["shard"] == [2, 3]
        expected = [str(g.id) for g in fake.guilds.values() if shard_for(g.id, 3) == 2]
        assert str(g3.id) in expected and [g["id"] for g in raw.first["d"]["guilds"]] == expected
    async with FakeDiscord(shard_count=2, large_bot_sharding=True) as strict:
        refused, accepted = await raw_identify(strict, [0, 3]), await raw_identify(strict, [3, 4])
        await refused.close()
        await accepted.close()
        assert refused.code == 4010  # large bots: a multiple of the shard number Discord gave
        assert accepted.first is not None and accepted.first["d"]["shard"] == [3, 4]


async def test_duplicate_shard_sessions_both_get_its_events():
    fake, _, one = two_guild_fake()
    async with fake:
        first, second = await raw_identify(fake, [1, 2]), await raw_identify(fake, [1, 2])
        try:
            assert first.first and second.first and first.first["d"]["session_id"] != second.first["d"]["session_id"]
            assert len(fake.live_sessions(shard=1)) == 2 and fake.live_sessions(shard=0) == []
            user = fake.add_user("Bea", guild=one)
            rec = await fake.slash(user, "ping", channel=one.system_channel_id)
            assert rec.delivered and len(rec.delivered_to) == 2
            for raw in (first, second):
                names = []
                while "INTERACTION_CREATE" not in names:
                    names.append((await raw.ws.receive_json(timeout=5))["t"])
                assert names == ["GUILD_CREATE", "INTERACTION_CREATE"]  # no member events without the intent
            path = f"/interactions/{rec.id}/{rec.token}/callback"
            async with aiohttp.ClientSession() as http:
                for expected in (200, 400):  # both sessions answer: Discord takes the first
                    body = {"type": 4, "data": {"content": "pong"}}
                    async with http.post(fake.api_base + path, json=body) as resp:
                        assert resp.status == expected
            assert "second initial response" in fake.clear_violations()[0]
            # two sessions of one bucket within 5 s: recorded, not refused (enforce_identify_pacing is off)
            assert [(r.shard, r.bucket, r.too_fast) for r in fake.identifies] == [((1, 2), 0, False), ((1, 2), 0, True)]
        finally:
            await first.close()
            await second.close()


# ---- discord.py's AutoShardedClient ---------------------------------------------------------------


async def test_one_client_holds_both_shards(point_discord_at):
    fake, zero, one = two_guild_fake(max_concurrency=2)
    async with fake:
        point_discord_at(fake)
        ana, bea = fake.add_user("Ana"), fake.add_user("Bea", guild=one)
        client = ShardClient("both", shard_count=2, shard_ids=[0, 1])
        async with running(fake, client):
            sessions = await fake.wait_shards_ready([0, 1])
            await asyncio.wait_for(client.wait_until_ready(), 15)
            by_shard = fake.sessions_by_shard()
            assert sorted(by_shard) == [0, 1] and [len(v) for v in by_shard.values()] == [1, 1]
            for shard, guild in ((0, zero), (1, one)):
                session = sessions[shard]
                seq, name, ready = session.events[0]
                assert (seq, name, ready["shard"]) == (1, "READY", [shard, 2])
                assert [g["id"] for g in ready["guilds"]] == [str(guild.id)] and session.guild_ids == [guild.id]
                assert session.event_names()[1:] == ["GUILD_CREATE"]
            assert sorted(client.shards) == [0, 1] and client.shard_count == 2
            assert {g.id: g.shard_id for g in client.guilds} == {zero.id: 0, one.id: 1}
            assert fake.identify_breaches() == []  # max_concurrency 2: shards 0 and 1 are two buckets

            for user, guild, shard in ((ana, zero, 0), (bea, one, 1)):
                rec = await fake.slash(user, "ping", channel=guild.system_channel_id)
                await rec.settled()
                assert rec.delivered_to == [sessions[shard]]
                assert rec.original is not None and rec.original.content == f"both on shard {shard}"
            await fake.post_user_message(bea, "hola", channel=one.system_channel_id)
            await fake.post_user_message(bea, "psst", channel=fake._dm_channel(bea.id).id)
            await wait_for(lambda: len(client.message_guilds) == 4)
            assert message_guilds(sessions[0]) == [str(zero.id), None]  # its answer, then the DM
            assert message_guilds(sessions[1]) == [str(one.id), str(one.id)]  # its answer, then "hola"

            # Drop shard 1's socket only: it RESUMEs, gets what it missed, shard 0 never notices.
            resumes, ws0 = fake.resume_count, sessions[0].ws
            assert await fake.disconnect(shard=1)
            rec = await fake.slash(bea, "ping", channel=one.system_channel_id)
            await fake.wait_resumed(after=resumes)
            await rec.settled(timeout=15)
            assert rec.original is not None and rec.original.content == "both on shard 1"
            assert sessions[1].resumes == 1 and sessions[0].resumes == 0 and sessions[0].ws is ws0
            assert fake.identify_count == 2
        assert fake.violations == []


async def test_two_clients_each_get_only_their_shard(point_discord_at):
    fake, zero, one = two_guild_fake(max_concurrency=2)
    async with fake:
        point_discord_at(fake)
        ana, bea = fake.add_user("Ana"), fake.add_user("Bea", guild=one)
        first = ShardClient("first", shard_count=2, shard_ids=[0])
        second = ShardClient("second", shard_count=2, shard_ids=[1])
        async with running(fake, first, second):
            sessions = await fake.wait_shards_ready([0, 1])
            await asyncio.wait_for(asyncio.gather(first.wait_until_ready(), second.wait_until_ready()), 15)
            assert [g.id for g in first.guilds] == [zero.id] and [g.id for g in second.guilds] == [one.id]
            for user, guild, label in ((ana, zero, "first"), (bea, one, "second"), (ana, zero, "first")):
                rec = await fake.slash(user, "ping", channel=guild.system_channel_id)
                await rec.settled()
                assert rec.original is not None and rec.original.content.startswith(label)
            assert first.interaction_guilds == [zero.id, zero.id] and second.interaction_guilds == [one.id]
            await fake.post_user_message(bea, "hola", channel=one.system_channel_id)
            await fake.post_user_message(bea, "psst", channel=fake._dm_channel(bea.id).id)
            await wait_for(lambda: len(first.message_guilds) == 3 and len(second.message_guilds) == 2)
            assert first.message_guilds == [zero.id, zero.id, None]  # its two answers, then the DM
            assert second.message_guilds == [one.id, one.id]  # its answer, then "hola"
            assert sessions[0].shard == [0, 2] and sessions[1].shard == [1, 2]
        assert fake.violations == []


async def test_discord_py_surfaces_the_refusals(point_discord_at):
    async with FakeDiscord(shard_count=2) as fake:
        point_discord_at(fake)
        unsharded = discord.Client(intents=discord.Intents.default())
        with pytest.raises(discord.ConnectionClosed) as closed:
            await asyncio.wait_for(unsharded.start(fake.token), 15)
        assert closed.value.code == 4011
        stray = ShardClient("stray", shard_count=2, shard_ids=[2])
        with pytest.raises(discord.ConnectionClosed) as closed:
            await asyncio.wait_for(stray.start(fake.token), 15)
        assert closed.value.code == 4010
        assert [r.outcome for r in fake.identifies] == ["4011", "4010"] and fake.live_sessions() == []


async def test_identify_pacing_is_refused_with_op_9_when_enforced(point_discord_at):
    """Two cluster processes starting at once with max_concurrency 1: the second IDENTIFY gets op 9,
    discord.py waits its 5 s and identifies again; the record shows the breach."""
    fake, _, _ = two_guild_fake(enforce_identify_pacing=True)
    async with fake:
        point_discord_at(fake)
        first = ShardClient("first", pace=True, shard_count=2, shard_ids=[0])
        second = ShardClient("second", pace=True, shard_count=2, shard_ids=[1])
        async with running(fake, first, second):
            await fake.wait_shards_ready([0, 1], timeout=20)
            won, refused, retried = fake.identifies  # which shard wins the race is up to the loop
            assert (won.outcome, won.too_fast) == ("ready", False)
            assert (refused.outcome, refused.too_fast) == ("rate_limited", True)
            assert {won.shard, refused.shard} == {(0, 2), (1, 2)} and won.bucket == refused.bucket == 0
            assert (retried.shard, retried.outcome, retried.too_fast) == (refused.shard, "ready", False)
            assert retried.at - won.at >= 5.0 and fake.identify_breaches() == [refused]


# ---- two bot processes (the shape of the e2e cluster tests) ---------------------------------------


async def test_two_shard_processes_answer_their_own_guilds(tmp_path: Path):
    fake, zero, one = two_guild_fake(max_concurrency=2)
    async with fake:
        users = {zero.id: fake.add_user("Ana"), one.id: fake.add_user("Bea", guild=one)}
        bots = [
            BotProcess(
                fake,
                db_path=tmp_path / f"echo{k}.db",
                cmd=[sys.executable, "-P", ECHO_BOT],
                env={"ECHO_SHARDS": f"{k}/2"},
                log_path=tmp_path / f"shard{k}.log",
            )
            for k in (0, 1)
        ]
        try:
            await asyncio.gather(*(bot.start(shards=[k]) for k, bot in enumerate(bots)))
            assert sorted(fake.sessions_by_shard()) == [0, 1]
            button = {"type": 2, "style": 1, "label": "go", "custom_id": "echo:0"}
            headers = {"Authorization": f"Bot {fake.token}"}
            for k, guild in enumerate((zero, one)):
                body = {"content": f"table {k}", "components": [{"type": 1, "components": [button]}]}
                url = f"{fake.api_base}/channels/{guild.system_channel_id}/messages"
                async with aiohttp.ClientSession() as http, http.post(url, json=body, headers=headers) as resp:
                    table = fake.message(int((await resp.json())["id"]))
                click = await fake.click(users[guild.id], table, "echo:0")
                await click.settled(timeout=15)
                assert table.content == f"table {k} | clicks: 1 (pid {bots[k].pid})"
            await bots[1].kill()
            await wait_for(lambda: [s.shard_id for s in fake.live_sessions()] == [0])
            await bots[1].start(shards=[1])  # the restarted shard process identifies anew
            assert [s.shard for s in fake.live_sessions(shard=1)] == [[1, 2]]
            assert fake.identifies[-1].shard == (1, 2) and fake.identifies[-1].outcome == "ready"
            assert fake.violations == []
        finally:
            for bot in bots:
                await bot.terminate()
