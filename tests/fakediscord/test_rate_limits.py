"""The fake Discord's request budget (budget.py): what each request cost, and Discord's rate limits.

What this is: the proof, with the real discord.py client where a bot would use it, that the fake
counts requests by token kind and route, keeps the per-channel and global limits as Discord
answers them (headers, 429 bodies), that discord.py reads those answers and waits instead of
failing, and that a client which ignores a 429's retry_after is caught as a violation.

What this is not: a measure of the rummy bot's own spending (tests/e2e does that).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket

from tests.fakediscord import FakeDiscord
from tests.fakediscord.budget import DISCORD_ROUTES, Bucket, RateLimits, summary

pytestmark = pytest.mark.filterwarnings("ignore:'audioop' is deprecated:DeprecationWarning")

POST_MESSAGE = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "POST /webhooks/{application_id}/{token}"
EDIT_ORIGINAL = "PATCH /webhooks/{application_id}/{token}/messages/@original"


@pytest.fixture
def point_discord_at(monkeypatch: pytest.MonkeyPatch) -> Callable[[FakeDiscord], None]:
    def point(fake: FakeDiscord) -> None:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))

    return point


@contextlib.asynccontextmanager
async def logged_in(fake: FakeDiscord, *, gateway: bool = False, **handlers: Any) -> AsyncIterator[discord.Client]:
    """A real discord.py client logged in to `fake` (and connected to its gateway if asked), with
    `handlers` as its event handlers (on_interaction=...)."""
    client = discord.Client(intents=discord.Intents.default())
    for name, handler in handlers.items():
        setattr(client, name, handler)
    await client.login(fake.token)
    connected = asyncio.create_task(client.connect(reconnect=False)) if gateway else None
    try:
        if connected is not None:
            await asyncio.wait_for(client.wait_until_ready(), 20)
        yield client
    finally:
        await client.close()
        if connected is not None:
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await asyncio.wait_for(connected, 20)


async def until(condition: Callable[[], Any], what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def post(session: aiohttp.ClientSession, fake: FakeDiscord, channel_id: int,
               content: str) -> tuple[int, dict[str, str], Any]:
    """One raw bot-token message post on `session` (one kept-alive connection): status, headers, body."""
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with session.post(url, json={"content": content}, headers=auth) as resp:
        text = await resp.text()
        return resp.status, dict(resp.headers), (json.loads(text) if text else None)


def contents(fake: FakeDiscord, channel_id: int) -> list[str]:
    return [m.content for m in fake.public_messages(channel_id)]


# ---- counting ---------------------------------------------------------------------------------------


async def test_requests_are_counted_by_token_kind_and_route(point_discord_at: Callable[[FakeDiscord], None]):
    """A message posted with the bot token, then an interaction answered, followed up and its
    @original edited through the interaction's token: one request each, under the right kind."""
    async with FakeDiscord() as fake:
        point_discord_at(fake)
        user = fake.add_user("Ana")
        done = asyncio.Event()

        async def on_interaction(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hola")
            await interaction.followup.send("más")
            await interaction.edit_original_response(content="hola de nuevo")
            done.set()

        async with logged_in(fake, gateway=True, on_interaction=on_interaction) as client:
            start = len(fake.requests)
            channel = client.get_partial_messageable(fake.channel_id)
            await channel.send("mesa 1")
            rec = await fake.slash(user, "ping")
            await asyncio.wait_for(done.wait(), 20)
            counts = fake.request_counts(start)
            totals = fake.request_totals(start)
        print("\n" + summary(counts))
        assert counts == {
            ("bot", POST_MESSAGE): 1,
            ("interaction", CALLBACK): 1,
            ("interaction", FOLLOWUP): 1,
            ("interaction", EDIT_ORIGINAL): 1,
        }
        assert totals == {"bot": 1, "interaction": 3, "none": 0}
        assert rec.original is not None and rec.original.content == "hola de nuevo"
        assert contents(fake, fake.channel_id)[0] == "mesa 1"
        kinds = {(r.token_kind, r.route) for r in fake.requests[:start]}
        assert ("bot", "GET /users/@me") in kinds  # the login paid with the bot token too
        assert fake.request_counts(len(fake.requests)) == {}
        assert fake.rate_limited == [] and fake.violations == []


async def test_routes_name_their_ids_and_interaction_routes_are_known_by_their_path():
    from tests.fakediscord.budget import kind_of, major_of, route_of

    assert route_of("PATCH", "/channels/1/messages/22") == "PATCH /channels/{channel_id}/messages/{message_id}"
    assert route_of("POST", "/webhooks/3/tok-en/messages/@original") == (
        "POST /webhooks/{application_id}/{token}/messages/@original")
    assert route_of("POST", "/interactions/4/abc/callback") == CALLBACK
    assert route_of("PUT", "/applications/5/guilds/6/commands") == (
        "PUT /applications/{application_id}/guilds/{guild_id}/commands")
    assert route_of("GET", "/users/@me") == "GET /users/@me"
    assert kind_of("/webhooks/3/tok", "Bot x") == "interaction"  # the token in the path pays, not the header
    assert kind_of("/interactions/4/abc/callback", None) == "interaction"
    assert kind_of("/channels/1/messages", "Bot x") == "bot"
    assert kind_of("/channels/1/messages", None) == "none"
    assert major_of("/channels/1/messages/22") == "channel:1"
    assert major_of("/applications/5/guilds/6/commands") == "guild:6"
    assert major_of("/webhooks/3/tok/messages/@original") == "webhook:3/tok"
    assert major_of("/users/@me") == ""


# ---- per-route limits -------------------------------------------------------------------------------


async def test_one_client_reads_the_headers_and_waits_before_its_sixth_post(
    point_discord_at: Callable[[FakeDiscord], None],
):
    """Six posts into one channel from one discord.py client: it reads X-RateLimit-Remaining and
    Reset-After, holds the sixth until the 5-second bucket refills, and never meets a 429."""
    async with FakeDiscord() as fake:
        point_discord_at(fake)
        async with logged_in(fake) as client:
            channel = client.get_partial_messageable(fake.channel_id)
            await asyncio.gather(*(channel.send(f"mensaje {i}") for i in range(6)))
        posts = [r for r in fake.requests if r.route == POST_MESSAGE]
        assert sorted(contents(fake, fake.channel_id)) == [f"mensaje {i}" for i in range(6)]
        assert [r.status for r in posts] == [200] * 6 and fake.rate_limited == []
        assert posts[5].at >= posts[0].at + 5.0  # the sixth went into the bucket's next window
        assert fake.violations == []


async def test_a_second_client_that_knows_no_bucket_meets_a_429_and_waits_it_out(
    point_discord_at: Callable[[FakeDiscord], None],
):
    """Five posts from one process fill the channel's bucket; the sixth, from another process with
    the same token (a second shard, a restart) gets a 429 with retry_after, and discord.py sleeps
    and sends it again: all six land, the 429 is recorded, and nobody broke a rule."""
    async with FakeDiscord() as fake:
        point_discord_at(fake)
        async with logged_in(fake) as first, logged_in(fake) as second:
            channel = first.get_partial_messageable(fake.channel_id)
            # discord.py returns from the post that empties a bucket only once the bucket is
            # full again, so the second process posts while the first still waits.
            firsts = asyncio.gather(*(channel.send(f"uno {i}") for i in range(5)))
            await until(lambda: len(contents(fake, fake.channel_id)) == 5, "the first process's five posts")
            await second.get_partial_messageable(fake.channel_id).send("dos")
            await firsts
        assert sorted(contents(fake, fake.channel_id)) == ["dos", *(f"uno {i}" for i in range(5))]
        [limited] = fake.rate_limited
        assert (limited.route, limited.kind, limited.is_global) == (POST_MESSAGE, "bot", False)
        assert limited.major == f"channel:{fake.channel_id}" and 0 < limited.retry_after <= 5.0
        assert not limited.ignored_earlier
        posts = [r for r in fake.requests if r.route == POST_MESSAGE]
        assert [r.status for r in posts] == [200] * 5 + [429, 200]
        assert posts[-1].at >= posts[-2].at + limited.retry_after - 0.005  # it waited as told
        assert fake.violations == []


async def test_429_and_bucket_headers_and_a_client_that_ignores_retry_after():
    """Raw HTTP, one kept-alive connection: five posts carry the bucket's headers counting down;
    the sixth is a 429 shaped as Discord's; a seventh sent at once (retry_after ignored) is a
    violation; one sent after retry_after lands."""
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        cid = fake.channel_id
        answers = [await post(session, fake, cid, f"m{i}") for i in range(5)]
        assert [a[0] for a in answers] == [200] * 5
        assert [a[1]["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
        assert {a[1]["X-RateLimit-Limit"] for a in answers} == {"5"}
        assert len({a[1]["X-RateLimit-Bucket"] for a in answers}) == 1
        assert all(0 < float(a[1]["X-RateLimit-Reset-After"]) <= 5.0 for a in answers)
        status, headers, body = await post(session, fake, cid, "m5")
        assert status == 429 and body["message"] == "You are being rate limited." and body["global"] is False
        assert 0 < body["retry_after"] <= 5.0 and headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Remaining"] == "0" and headers["Via"] and int(headers["Retry-After"]) >= 1
        assert "X-RateLimit-Global" not in headers and fake.violations == []
        status, _, _ = await post(session, fake, cid, "m6")  # at once: the 429 ignored
        assert status == 429
        [violation] = fake.violations
        assert POST_MESSAGE in violation and "retry_after" in violation
        assert [r.ignored_earlier for r in fake.rate_limited] == [False, True]
        fake.clear_violations()
        await asyncio.sleep(fake.rate_limited[-1].retry_after)
        status, headers, _ = await post(session, fake, cid, "m7")
        assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
        other = fake.add_channel("otra")
        assert (await post(session, fake, other, "x"))[0] == 200  # another channel, another bucket
        assert contents(fake, cid) == ["m0", "m1", "m2", "m3", "m4", "m7"] and fake.violations == []


async def test_interaction_callbacks_have_no_bucket_and_a_second_answer_is_refused_as_before():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        user = fake.add_user("Ana")
        records = [await fake.slash(user, "ping") for _ in range(8)]
        for rec in records:  # eight answers at once: no limit of their own, none in the global one
            url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
            async with session.post(url, json={"type": 4, "data": {"content": "pong"}}) as resp:
                assert resp.status in (200, 204) and "X-RateLimit-Limit" not in resp.headers
        url = f"{fake.api_base}/interactions/{records[0].id}/{records[0].token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        hook = f"{fake.api_base}/webhooks/{fake.application_id}/{records[0].token}"
        statuses = []
        for i in range(6):  # follow-ups through one token: that token's webhook bucket
            async with session.post(hook, json={"content": f"f{i}"}, params={"wait": "true"}) as resp:
                statuses.append(resp.status)
                assert resp.status == 429 or resp.headers["X-RateLimit-Limit"] == "5"
        assert statuses == [200] * 5 + [429]
        assert fake.rate_limited[-1].major == f"webhook:{fake.application_id}/{records[0].token}"
        assert fake.request_totals()["interaction"] == 15 and fake.request_totals()["bot"] == 0
        [violation] = fake.violations  # the second answer; the follow-ups' 429 was waited for (no retry)
        assert "second initial response" in violation, violation


# ---- the global limit -------------------------------------------------------------------------------


async def test_the_global_limit_holds_bot_requests_over_many_channels_and_discord_py_waits(
    point_discord_at: Callable[[FakeDiscord], None],
):
    """Eighty posts at once into eighty channels: no channel's bucket binds, the global limit does
    (429, global true), discord.py stops and resumes, every post lands, and no window of the
    global limit held more than 50 of the bot's requests."""
    async with FakeDiscord() as fake:
        point_discord_at(fake)
        channels = [fake.add_channel(f"mesa-{i}") for i in range(80)]
        async with logged_in(fake) as client:
            await asyncio.gather(*(client.get_partial_messageable(c).send(f"mesa {i}")
                                   for i, c in enumerate(channels)))
        assert all(contents(fake, c) == [f"mesa {i}"] for i, c in enumerate(channels))
        limited = fake.rate_limited
        assert limited and all(r.is_global and r.kind == "bot" and r.route == POST_MESSAGE for r in limited)
        assert max_per_window([r.at for r in fake.requests if r.token_kind == "bot" and r.status != 429]) == 50
        assert fake.violations == []


def max_per_window(times: list[float], period: float = 1.0) -> int:
    """The most requests one window held, windows opening with their first request (budget.py)."""
    best, start, held = 0, None, 0
    for t in sorted(times):
        if start is None or t >= start + period:
            start, held = t, 0
        held += 1
        best = max(best, held)
    return best


async def test_interaction_token_requests_are_outside_the_global_limit(
    point_discord_at: Callable[[FakeDiscord], None],
):
    """With the bot's 50 spent (in a window long enough not to depend on this machine's speed),
    an interaction is still answered, followed up and edited; the bot's next request is a global
    429 shaped as Discord's."""
    limits = RateLimits(global_limit=50, global_period=60.0)
    async with FakeDiscord(rate_limits=limits) as fake:
        point_discord_at(fake)
        user = fake.add_user("Ana")
        channels = [fake.add_channel(f"mesa-{i}") for i in range(50)]
        answered: list[str] = []

        async def on_interaction(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hola")
            await interaction.followup.send("más")
            await interaction.edit_original_response(content="hola de nuevo")
            answered.append("done")

        async with logged_in(fake, gateway=True, on_interaction=on_interaction) as client:
            left = 50 - fake.request_totals()["bot"]
            await asyncio.gather(*(client.get_partial_messageable(c).send("x") for c in channels[:left]))
            assert fake.request_totals()["bot"] == 50 and fake.rate_limited == []
            rec = await fake.slash(user, "ping")
            await until(lambda: answered, "the interaction's answers")
            assert [r.status for r in rec.requests] == [200, 200, 200]
            async with aiohttp.ClientSession() as session:
                status, headers, body = await post(session, fake, channels[-1], "one too many")
        assert status == 429 and body == {"message": "You are being rate limited.",
                                          "retry_after": body["retry_after"], "global": True}
        assert 0 < body["retry_after"] <= 60.0
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        [limited] = fake.rate_limited
        assert limited.is_global and limited.kind == "bot"
        assert fake.request_totals()["interaction"] == 3 and fake.violations == []


# ---- turning them off or changing them --------------------------------------------------------------


async def limited_posts(fake: FakeDiscord, n: int) -> list[int]:
    async with aiohttp.ClientSession() as session:
        return [(await post(session, fake, fake.channel_id, f"m{i}"))[0] for i in range(n)]


async def test_limits_can_be_turned_off_or_changed_for_one_test():
    async with FakeDiscord(rate_limits=None) as fake:
        assert await limited_posts(fake, 60) == [200] * 60
        assert fake.rate_limited == [] and fake.request_totals()["bot"] == 60
    tight = RateLimits(routes={**DISCORD_ROUTES, POST_MESSAGE: Bucket("channel message create", 2, 5.0)})
    async with FakeDiscord(rate_limits=tight) as fake:
        assert await limited_posts(fake, 3) == [200, 200, 429]
        fake.clear_violations()
    few = dataclasses.replace(tight, global_limit=3, global_period=60.0)
    async with FakeDiscord(rate_limits=few) as fake, aiohttp.ClientSession() as session:
        channels = [fake.add_channel(f"mesa-{i}") for i in range(4)]
        answers = [await post(session, fake, c, "x") for c in channels]
        assert [a[0] for a in answers] == [200, 200, 200, 429] and answers[-1][2]["global"] is True
