"""Self-tests of the fake Discord: an unmodified discord.py bot (echo_bot.py) against it, plus its rules.

What this is: the proof that the fake speaks enough Discord for discord.py 2.7 (login, gateway,
command sync, interactions of every kind, resume, restart with DynamicItem) and that each rule
it enforces is recorded and answered as Discord would, checked over raw HTTP.

What this is not: tests of the rummy bot (those use `BotProcess` with the default `python -m bot`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.fakediscord import ECHO_BOT, BotProcess, FakeDiscord, FakeUser
from tests.fakediscord.records import EPHEMERAL

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Env:
    fake: FakeDiscord
    bot: BotProcess
    user: FakeUser
    tmp: Any


def echo_bot(fake: FakeDiscord, tmp: Any, name: str) -> BotProcess:
    return BotProcess(fake, db_path=tmp / "echo.db", cmd=[sys.executable, "-P", ECHO_BOT], log_path=tmp / f"{name}.log")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("echo")
    fake = FakeDiscord()
    await fake.start()
    bot = echo_bot(fake, tmp, "bot1")
    await bot.start()
    e = Env(fake, bot, fake.add_user("Ana", locale="es-ES"), tmp)
    try:
        yield e
    finally:
        await e.bot.terminate()
        await fake.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def bare():
    """A fake with no bot: tests answer interactions themselves over HTTP."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str | None = "ok", **params: str
) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bot {fake.token if token == 'ok' else token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers, params=params) as resp,
    ):
        text = await resp.text()
        return resp.status, (json.loads(text) if text else None)


async def respond(fake: FakeDiscord, rec: Any, rtype: int, data: Any = None) -> tuple[int, Any]:
    body = {"type": rtype} if data is None else {"type": rtype, "data": data}
    return await call(fake, "POST", f"/interactions/{rec.id}/{rec.token}/callback", body, token=None, with_response="1")


# ---- against the real discord.py client -----------------------------------------------------------


async def test_login_ready_and_command_sync(env: Env):
    fake = env.fake
    assert fake.ready_count == 1 and fake.identify_count == 1
    assert fake.sync_count == 1
    names = {c["name"] for c in fake.commands(fake.guild_id)}
    assert names == {"echo", "secret", "slowdefer", "publicdefer", "late", "ask", "steps", "file"}
    assert fake.commands() == []
    echo = next(c for c in fake.commands(fake.guild_id) if c["name"] == "echo")
    assert echo["guild_id"] == str(fake.guild_id) and echo["options"][0]["autocomplete"] is True
    seen = {(r.method, r.path, r.status) for r in fake.requests}
    assert ("GET", "/users/@me", 200) in seen
    assert ("GET", "/oauth2/applications/@me", 200) in seen
    assert ("PUT", f"/applications/{fake.application_id}/guilds/{fake.guild_id}/commands", 200) in seen
    assert await call(fake, "GET", "/users/@me", token="wrong") == (401, {"message": "401: Unauthorized", "code": 0})
    assert "FAKEDISCORD GUARD" not in env.bot.log_text()
    await env.bot.wait_for_log(r"READY as RummyBot")  # on_ready comes ~2 s after GUILD_CREATE
    assert fake.violations == []


async def test_slash_gives_public_message_with_button(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "echo", {"text": "hola"})
    await rec.settled()
    assert rec.response_type == 4 and rec.response is not None and rec.response.elapsed < 3
    msg = rec.original
    assert msg is not None and msg.content == "hola" and msg.public and msg.visible_to is None
    assert msg.custom_ids == ["echo:0"] and msg.source == "response" and msg.interaction is rec
    assert msg.type == 20 and fake.latest_public() is msg
    click = await fake.click(env.user, msg, "echo:0")
    await click.settled()
    assert click.response_type == 7 and click.original is msg
    assert msg.content.startswith("hola | clicks: 1") and msg.custom_ids == ["echo:1"]
    assert [e.via for e in msg.edits] == ["update"] and msg.edits[0].before["content"] == "hola"
    assert fake.violations == []


async def test_ephemeral_is_visible_only_to_its_user(env: Env):
    fake = env.fake
    other = fake.add_user("Bea")
    rec = await fake.slash(env.user, "secret")
    await rec.settled()
    msg = rec.original
    assert msg is not None and msg.ephemeral and msg.visible_to == env.user.id and msg.flags & EPHEMERAL
    assert msg not in fake.public_messages() and msg in fake.ephemeral_messages(env.user)
    assert fake.ephemeral_messages(other) == []
    with pytest.raises(PermissionError):
        await fake.click(other, msg, "secret:pick")
    pick = await fake.select(env.user, msg, "secret:pick", ["b"])
    await pick.settled()
    assert pick.payload["message"]["flags"] & EPHEMERAL
    assert pick.response_type == 7 and msg.content == "picked b" and msg.ephemeral
    status, _ = await call(fake, "GET", f"/channels/{msg.channel_id}/messages/{msg.id}")
    assert status == 404 and "not reachable" in fake.clear_violations()[0]


async def test_public_defer_then_ephemeral_followup_is_public(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "publicdefer")
    await rec.settled()
    assert rec.response_type == 5
    msg = rec.original
    assert msg is not None and msg.content == "public after all" and not msg.loading
    assert msg.public and not msg.ephemeral and rec.followups == [msg]
    assert [e.via for e in msg.edits] == ["followup"]
    assert fake.violations == []


async def test_ephemeral_defer_then_followup_stays_ephemeral(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "slowdefer")
    await rec.settled()
    msg = rec.original
    assert msg is not None and msg.content == "slow done" and msg.ephemeral and msg.visible_to == env.user.id
    assert fake.violations == []


async def test_autocomplete_returns_choices(env: Env):
    choices = await env.fake.autocomplete(env.user, "echo", {"text": "ab"}, focused="text")
    assert [c["value"] for c in choices] == ["ab-0", "ab-1", "ab-2"]
    with pytest.raises(ValueError, match="no option"):
        await env.fake.slash(env.user, "echo", {"txt": "x"})
    with pytest.raises(ValueError, match="missing required"):
        await env.fake.slash(env.user, "echo")
    assert env.fake.violations == []


async def test_modal_roundtrip(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "ask")
    await rec.settled()
    assert rec.response_type == 9 and rec.modal is not None
    assert (rec.modal.custom_id, rec.modal.title, rec.modal.fields) == ("ask:modal", "Who are you?", {"name": "Ada"})
    sub = await fake.submit_modal(env.user, "ask:modal", {"name": "Bob"})
    await sub.settled()
    assert sub.original is not None and sub.original.content == "hello Bob" and sub.original.public
    with pytest.raises(ValueError, match="at most 20"):
        await fake.submit_modal(env.user, "ask:modal", {"name": "x" * 21})
    assert fake.violations == []


async def test_webhook_and_channel_message_routes(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "steps")
    await rec.settled()
    original = rec.original
    assert original is not None and original.content == "step 1" and [e.via for e in original.edits] == ["webhook"]
    step2, gone = rec.followups
    assert step2.content == "step 2b" and step2.public and step2.source == "followup"
    assert gone.deleted and gone.ephemeral
    posted = fake.latest_public()
    assert posted is not None and posted.source == "channel" and posted.content == "step 3b after step 1"
    assert posted in rec.messages  # written through the channel while the interaction was open
    methods = [(r.method, r.path.split("/")[-1]) for r in rec.requests]
    assert methods == [
        ("POST", "callback"),
        ("PATCH", "@original"),
        ("GET", "@original"),
        ("POST", rec.token),
        ("PATCH", str(step2.id)),
        ("POST", rec.token),
        ("DELETE", str(gone.id)),
    ]
    assert fake.violations == []


async def test_attachment_bytes_are_kept(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "file")
    await rec.settled()
    msg = rec.original
    assert msg is not None and [(a.filename, a.data) for a in msg.attachments] == [("hello.txt", b"hello bytes")]
    async with aiohttp.ClientSession() as session, session.get(msg.attachments[0].url) as resp:
        assert await resp.read() == b"hello bytes"
    assert fake.violations == []


async def test_gateway_disconnect_then_resume_still_answers(env: Env):
    fake = env.fake
    identifies, resumes = fake.identify_count, fake.resume_count
    assert await fake.disconnect()
    rec = await fake.slash(env.user, "echo", {"text": "after resume"})  # buffered, replayed on RESUME
    await fake.wait_resumed(after=resumes)
    await rec.settled(timeout=15)
    assert rec.original is not None and rec.original.content == "after resume"
    assert fake.identify_count == identifies and fake.resume_count == resumes + 1
    assert await fake.send_reconnect()  # op 7: the client reconnects and resumes too
    await fake.wait_resumed(after=resumes + 1)
    assert fake.identify_count == identifies
    assert fake.violations == []


async def test_button_still_answered_after_sigkill_and_restart(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "echo", {"text": "persist"})
    await rec.settled()
    old_pid, identifies, syncs = env.bot.pid, fake.identify_count, fake.sync_count
    assert await env.bot.kill() == -9 and env.bot.returncode == -9
    env.bot = echo_bot(fake, env.tmp, "bot2")
    await env.bot.start()
    assert fake.identify_count == identifies + 1 and fake.sync_count == syncs + 1
    assert rec.original is not None
    click = await fake.click(env.user, rec.original, "echo:0")
    await click.settled()
    assert click.response_type == 7 and f"(pid {env.bot.pid})" in rec.original.content and env.bot.pid != old_pid
    assert fake.violations == []


async def test_late_ack_is_a_violation(env: Env):
    fake = env.fake
    rec = await fake.slash(env.user, "late")
    await rec.settled(timeout=10)
    assert rec.response is None and rec.responses[0].status == 404 and rec.responses[0].elapsed > 3
    found = fake.clear_violations()
    assert len(found) == 1 and "after dispatch (limit 3 s)" in found[0]


# ---- rules, over raw HTTP ---------------------------------------------------------------------------


async def test_double_initial_response_is_rejected(bare: FakeDiscord):
    user = bare.add_user("Ana")
    rec = await bare.slash(user, "rummy new", {"variant": "gin", "timer": 0})
    assert not rec.delivered and rec.data["options"][0]["options"][1] == {"name": "timer", "type": 4, "value": 0}
    status, body = await respond(bare, rec, 4, {"content": "hi"})
    assert status == 200 and body["resource"]["message"]["content"] == "hi"
    assert body["interaction"]["response_message_id"] == str(rec.original.id)
    status, body = await respond(bare, rec, 4, {"content": "again"})
    assert (status, body["code"]) == (400, 40060)
    assert bare.violations == [
        f"slash interaction {rec.id} (/rummy new): second initial response (type 4) after type 4"
    ]


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(cid: str, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": cid}


def _select(cid: str, n: int, *, dup: bool = False, label: str = "o") -> dict[str, Any]:
    options = [{"label": label, "value": "v" if dup else f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": cid, "options": options}


BAD_MESSAGES = {
    "content over 2000": ({"content": "x" * 2001}, "2001 characters"),
    "six action rows": ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "6 action rows"),
    "six buttons in a row": ({"components": [_row(*[_button(f"b{i}") for i in range(6)])]}, "6 buttons"),
    "select not alone": ({"components": [_row(_select("s", 2), _button("b"))]}, "alone"),
    "26 options": ({"components": [_row(_select("s", 26))]}, "26 select options"),
    "option values repeat": ({"components": [_row(_select("s", 2, dup=True))]}, "not unique"),
    "custom_id over 100": ({"components": [_row(_button("c" * 101))]}, "101 characters"),
    "custom_id twice": ({"components": [_row(_button("same")), _row(_button("same"))]}, "used twice"),
    "button label over 80": ({"components": [_row(_button("b", "L" * 81))]}, "label is 81"),
    "option label over 100": ({"components": [_row(_select("s", 1, label="L" * 101))]}, "label must be 1-100"),
}


@pytest.mark.parametrize("case", list(BAD_MESSAGES))
async def test_message_limits(bare: FakeDiscord, case: str):
    payload, expected = BAD_MESSAGES[case]
    status, body = await call(bare, "POST", f"/channels/{bare.channel_id}/messages", payload)
    assert (status, body["code"]) == (400, 50035)
    assert len(bare.violations) == 1 and expected in bare.violations[0]
    assert bare.messages == []


async def test_mentions_are_recorded_but_sent(bare: FakeDiscord):
    path = f"/channels/{bare.channel_id}/messages"
    assert (await call(bare, "POST", path, {"content": "@everyone play"}))[0] == 200
    assert (await call(bare, "POST", path, {"content": "hi <@&1>", "allowed_mentions": {"parse": ["roles"]}}))[0] == 200
    silent = {"content": "@here <@&1>", "allowed_mentions": {"parse": []}}
    assert (await call(bare, "POST", path, silent))[0] == 200
    found = bare.clear_violations()
    assert len(found) == 2 and "@everyone" in found[0] and "role 1" in found[1]


async def test_deferred_update_then_ephemeral_followup_is_a_new_ephemeral(bare: FakeDiscord):
    user = bare.add_user("Ana")
    status, posted = await call(
        bare, "POST", f"/channels/{bare.channel_id}/messages", {"content": "table", "components": [_row(_button("go"))]}
    )
    table = bare.message(int(posted["id"]))
    rec = await bare.click(user, table, "go")
    assert rec.payload["message"]["id"] == str(table.id) and rec.payload["member"]["permissions"]
    assert (await respond(bare, rec, 6))[0] == 200
    hook = f"/webhooks/{bare.application_id}/{rec.token}"
    status, body = await call(bare, "POST", hook, {"content": "your hand", "flags": 64}, token=None, wait="1")
    hand = bare.message(int(body["id"]))
    assert status == 200 and hand.ephemeral and hand.visible_to == user.id and hand is not table
    status, _ = await call(bare, "PATCH", f"{hook}/messages/@original", {"content": "table 2"}, token=None)
    assert status == 200 and table.content == "table 2" and table.public and [e.via for e in table.edits] == ["webhook"]
    assert bare.violations == []


async def test_token_expiry_and_old_channel_edit(bare: FakeDiscord):
    user = bare.add_user("Ana")
    rec = await bare.slash(user, "ping")
    assert (await respond(bare, rec, 5, {"flags": 64}))[0] == 200
    assert rec.original is not None and rec.original.loading and rec.original.ephemeral
    bare.advance(15 * 60 + 1)
    status, body = await call(
        bare, "POST", f"/webhooks/{bare.application_id}/{rec.token}", {"content": "x"}, token=None
    )
    assert (status, body["code"]) == (401, 50027)
    assert "minutes old" in bare.clear_violations()[0]
    status, posted = await call(bare, "POST", f"/channels/{bare.channel_id}/messages", {"content": "old"})
    bare.advance(3601)
    status, _ = await call(bare, "PATCH", f"/channels/{bare.channel_id}/messages/{posted['id']}", {"content": "new"})
    assert status == 200 and "over 1 hour" in bare.clear_violations()[0]


async def test_late_ack_via_fake_clock_and_unanswered(bare: FakeDiscord):
    user = bare.add_user("Ana")
    rec = await bare.slash(user, "ping")
    bare.advance(3.5)
    status, body = await respond(bare, rec, 4, {"content": "late"})
    assert (status, body["code"]) == (404, 10062) and rec.dead
    other = await bare.slash(user, "ping")
    bare.advance(4)
    found = bare.clear_violations()
    assert len(found) == 2 and re.search(r"3\.5\ds after dispatch", found[0]) and str(other.id) in found[1]


async def test_autocomplete_limits(bare: FakeDiscord):
    user = bare.add_user("Ana")
    rec = await bare.slash(user, "x")
    auto_task = asyncio.ensure_future(bare.autocomplete(user, "play", {"move": "d"}, focused="move"))
    await asyncio.sleep(0.05)
    auto = bare.interactions[-1]
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    status, body = await respond(bare, auto, 8, {"choices": choices})
    assert (status, body["code"]) == (400, 50035) and len(await auto_task) == 26
    assert "26 choices" in bare.clear_violations()[0]
    assert (await respond(bare, rec, 8, {"choices": []}))[0] == 400  # type 8 answers only autocomplete
    assert "not valid" in bare.clear_violations()[0]


async def test_fail_next_and_unknown_routes(bare: FakeDiscord):
    path = f"/channels/{bare.channel_id}/messages"
    bare.fail_next("POST", r"/channels/\d+/messages", 404, 10008)
    status, body = await call(bare, "POST", path, {"content": "a"})
    assert (status, body["code"], body["message"]) == (404, 10008, "Unknown Message")
    bare.fail_next("*", r"/channels/.*", 429, retry_after=0.25)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            bare.api_base + path, json={"content": "b"}, headers={"Authorization": f"Bot {bare.token}"}
        ) as resp,
    ):
        assert resp.status == 429 and resp.headers["Via"] and (await resp.json())["retry_after"] == 0.25
    assert (await call(bare, "POST", path, {"content": "c"}))[0] == 200
    assert [r.status for r in bare.requests] == [404, 429, 200] and bare.violations == []
    assert (await call(bare, "PUT", "/channels/1/pins/2"))[0] == 404
    assert bare.clear_violations() == ["unknown route PUT /channels/1/pins/2"]


async def test_network_guard_in_bot_processes(bare: FakeDiscord, tmp_path):
    """The child's guard blocks non-loopback DNS and connects (checked installed before trying) and reports them."""
    code = (
        "import socket, sys\n"
        "import discord.gateway as g\n"
        "assert socket.getaddrinfo.__module__ == 'sitecustomize', 'guard not installed'\n"
        "assert socket.socket.connect.__module__ == 'sitecustomize', 'guard not installed'\n"
        "print('gateway', g.DiscordWebSocket.DEFAULT_GATEWAY)\n"
        "try:\n    socket.getaddrinfo('gateway.discord.gg', 443)\nexcept socket.gaierror as e:\n    print('dns', e)\n"
        "s = socket.socket()\n"
        "try:\n    s.connect(('192.0.2.1', 9))\nexcept OSError as e:\n    print('connect', e)\n"
        "print('local', socket.getaddrinfo('127.0.0.1', 80)[0][4])\n"
    )
    proc = BotProcess(bare, db_path=tmp_path / "x.db", cmd=[sys.executable, "-c", code])
    result = await asyncio.to_thread(
        subprocess.run, proc.cmd, env=proc.environment(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert f"gateway {bare.gateway_url}" in result.stdout
    assert "fakediscord guard: lookup of 'gateway.discord.gg' blocked" in result.stdout
    assert "fakediscord guard: connection to ('192.0.2.1', 9) blocked" in result.stdout
    assert "local ('127.0.0.1', 80)" in result.stdout
    found = bare.clear_violations()
    assert len(found) == 2 and "gateway.discord.gg" in found[0] and "192.0.2.1" in found[1]
    assert os.environ.get("FAKEDISCORD_GUARD") is None


async def test_dm_history_and_command_permissions(bare: FakeDiscord):
    user, mod = bare.add_user("Ana"), bare.add_user("Mod", manage_guild=True)
    status, dm = await call(bare, "POST", "/users/@me/channels", {"recipient_id": str(user.id)})
    assert status == 200 and dm["type"] == 1 and dm["recipients"][0]["id"] == str(user.id)
    assert (await call(bare, "POST", f"/channels/{dm['id']}/messages", {"content": "your hand"}))[0] == 200
    assert [m.content for m in bare.dm_messages(user)] == ["your hand"] and bare.public_messages() == []
    for text in ("one", "two"):
        await call(bare, "POST", f"/channels/{bare.channel_id}/messages", {"content": text})
    status, history = await call(bare, "GET", f"/channels/{bare.channel_id}/messages", limit="10")
    assert [m["content"] for m in history] == ["two", "one"]
    admin = {"name": "admin", "description": "Admin tools", "default_member_permissions": "32"}
    path = f"/applications/{bare.application_id}/guilds/{bare.guild_id}/commands"
    status, stored = await call(bare, "PUT", path, [admin])
    assert status == 200 and bare.sync_count == 1 and stored[0]["id"]
    with pytest.raises(PermissionError):
        await bare.slash(user, "admin")
    rec = await bare.slash(mod, "admin")
    assert int(rec.payload["member"]["permissions"]) & 0x20 and rec.data["id"] == stored[0]["id"]
    bad = {"name": "Bad Name", "description": ""}
    assert (await call(bare, "PUT", path, [bad]))[0] == 400
    assert "command sync rejected" in bare.clear_violations()[0]


@pytest.mark.filterwarnings("ignore:'audioop' is deprecated:DeprecationWarning")
async def test_in_process_client_login_and_application_emojis(bare: FakeDiscord, monkeypatch: pytest.MonkeyPatch):
    import discord

    monkeypatch.setattr(discord.http.Route, "BASE", bare.api_base)
    client = discord.Client(intents=discord.Intents.default())
    try:
        await client.login(bare.token)
        assert client.user is not None and client.user.id == bare.bot_user_id
        assert client.application is not None and client.application.owner.id == bare.owner.id
        emoji = await client.create_application_emoji(name="card_ah", image=b"\x89PNG\r\n\x1a\n" + bytes(20))
        assert [e.name for e in await client.fetch_application_emojis()] == ["card_ah"]
        await emoji.delete()
        assert await client.fetch_application_emojis() == []
    finally:
        await client.close()
    assert bare.violations == []


async def test_threads_from_messages_archiving_and_their_permissions(bare: FakeDiscord):
    """Start Thread from Message, posting in a thread and archiving it, answered as Discord does."""
    user = bare.add_user("Ana")
    cid = bare.channel_id
    status, posted = await call(bare, "POST", f"/channels/{cid}/messages", {"content": "lobby"})
    path = f"/channels/{cid}/messages/{posted['id']}/threads"
    roles = [bare.guild.roles[bare.guild.id], bare.guild.roles[bare.guild.bot_role_id]]
    full = [r.permissions for r in roles]
    for role in roles:
        role.permissions &= ~(1 << 35)  # no Create Public Threads
    status, body = await call(bare, "POST", path, {"name": "partida 1"})
    assert (status, body["code"]) == (403, 50013)
    for role, value in zip(roles, full, strict=True):
        role.permissions = value
    status, thread = await call(bare, "POST", path, {"name": "partida 1", "auto_archive_duration": 10080})
    assert status == 201 and thread["id"] == posted["id"] and thread["type"] == 11
    assert thread["parent_id"] == str(cid) and thread["owner_id"] == str(bare.bot_user_id)
    assert thread["thread_metadata"]["auto_archive_duration"] == 10080
    status, body = await call(bare, "POST", path, {"name": "again"})
    assert (status, body["code"]) == (400, 160004)
    tid = int(thread["id"])
    status, _ = await call(bare, "POST", f"/channels/{tid}/messages", {"content": "table"})
    assert status == 200 and bare.public_messages(tid)[-1].content == "table"
    status, edited = await call(bare, "PATCH", f"/channels/{tid}", {"archived": True})
    assert status == 200 and edited["thread_metadata"]["archived"] and bare.channels[tid].archived
    status, body = await call(bare, "PATCH", f"/channels/{tid}/messages/{bare.public_messages(tid)[-1].id}",
                              {"content": "late"})
    assert (status, body["code"]) == (400, 50083)
    bare.clear_violations()
    status, _ = await call(bare, "POST", f"/channels/{tid}/messages", {"content": "again"})
    assert status == 200 and not bare.channels[tid].archived  # a post reopens an archived thread
    theirs = bare.add_thread(cid, "de Ana")
    bare.channels[theirs].owner_id = user.id  # someone else's thread: archiving it needs Manage Threads
    status, body = await call(bare, "PATCH", f"/channels/{theirs}", {"archived": True})
    assert (status, body["code"]) == (403, 50013)
    for role in roles:
        role.permissions &= ~(1 << 38)  # no Send Messages in Threads
    status, body = await call(bare, "POST", f"/channels/{tid}/messages", {"content": "x"})
    assert (status, body["code"]) == (403, 50013)
    voice = bare.add_channel("voz", type=2)
    status, posted = await call(bare, "POST", f"/channels/{voice}/messages", {"content": "v"})
    status, body = await call(bare, "POST", f"/channels/{voice}/messages/{posted['id']}/threads", {"name": "x"})
    assert (status, body["code"]) == (400, 50024)
    assert bare.violations == []


async def test_a_nonce_with_enforce_nonce_returns_the_first_message_for_a_few_minutes(bare: FakeDiscord):
    """Create Message's ``nonce`` (25 characters at most) with ``enforce_nonce``: a second post with
    the same nonce returns the first message and makes none; without enforce_nonce, or once the
    window has passed, a new message is made."""
    cid = bare.channel_id
    path = f"/channels/{cid}/messages"
    status, first = await call(bare, "POST", path, {"content": "mesa 1", "nonce": "table-7", "enforce_nonce": True})
    assert status == 200 and first["nonce"] == "table-7"
    status, again = await call(bare, "POST", path, {"content": "mesa 1", "nonce": "table-7", "enforce_nonce": True})
    assert status == 200 and again["id"] == first["id"]
    assert [m.content for m in bare.public_messages(cid)] == ["mesa 1"]
    status, loose = await call(bare, "POST", path, {"content": "mesa 1", "nonce": "table-7"})
    assert status == 200 and loose["id"] != first["id"]  # not enforced: a second message
    status, other = await call(bare, "POST", path, {"content": "mesa 2", "nonce": "table-8", "enforce_nonce": True})
    assert status == 200 and other["id"] != first["id"]
    bare.advance(121)  # past the fake's reading of "the past few minutes"
    status, late = await call(bare, "POST", path, {"content": "mesa 1", "nonce": "table-7", "enforce_nonce": True})
    assert status == 200 and late["id"] not in (first["id"], loose["id"])
    status, body = await call(bare, "POST", path, {"content": "x", "nonce": "n" * 26, "enforce_nonce": True})
    assert (status, body["code"]) == (400, 50035)
    assert len(bare.public_messages(cid)) == 4
    bare.clear_violations()


@pytest.mark.filterwarnings("ignore:'audioop' is deprecated:DeprecationWarning")
async def test_a_table_post_repeated_after_a_stop_makes_one_message_and_one_thread(
    bare: FakeDiscord, monkeypatch: pytest.MonkeyPatch
):
    """``ChannelDelivery`` through the real discord.py client: a post keyed with ``once`` and its
    thread, both tried twice (a process stopped before it stored the thread), leave one of each."""
    async with channel_delivery(bare, monkeypatch) as seam:
        cid, gid = bare.channel_id, bare.guild.id
        first = await seam.post(cid, "Ronda 1 · mesa 1", once="table-12")
        thread = await seam.start_thread(cid, first, "Torneo · R1 · 1", guild_id=gid)
        again = await seam.post(cid, "Ronda 1 · mesa 1", once="table-12")
        assert again == first
        assert await seam.start_thread(cid, again, "Torneo · R1 · 1", guild_id=gid) == thread
        assert [m.content for m in bare.public_messages(cid)] == ["Ronda 1 · mesa 1"]
        assert [c.id for c in bare.channels.values() if c.parent_id == cid] == [thread]
        other = await seam.post(cid, "Ronda 1 · mesa 2", once="table-13")
        assert other != first and len(bare.public_messages(cid)) == 2
    assert bare.violations == []


@pytest.mark.filterwarnings("ignore:'audioop' is deprecated:DeprecationWarning")
async def test_a_table_post_repeated_after_a_long_stop_adopts_the_first_message(
    bare: FakeDiscord, monkeypatch: pytest.MonkeyPatch
):
    """A stop longer than Discord remembers ``once``: the repeat (``adopt_after``) finds our own
    earlier post with the same text in the channel and takes it, so its thread is found too; a
    message posted before ``adopt_after``, or with other text, is not taken."""
    import time

    async with channel_delivery(bare, monkeypatch) as seam:
        cid, gid = bare.channel_id, bare.guild.id
        since = time.time() - 60
        first = await seam.post(cid, "Ronda 2 · mesa 1", once="table-21")
        thread = await seam.start_thread(cid, first, "Torneo · R2 · 1", guild_id=gid)
        bare.advance(300)  # Discord no longer remembers the key
        again = await seam.post(cid, "Ronda 2 · mesa 1", once="table-21", adopt_after=since)
        assert again == first
        assert await seam.start_thread(cid, again, "Torneo · R2 · 1", guild_id=gid) == thread
        other = await seam.post(cid, "Ronda 2 · mesa 2", once="table-22", adopt_after=since)
        late = await seam.post(cid, "Ronda 2 · mesa 1", once="table-21", adopt_after=time.time() + 3600)
        assert len({first, other, late}) == 3
        assert [m.content for m in bare.public_messages(cid) if m.author_id == bare.bot_user_id] == [
            "Ronda 2 · mesa 1", "Ronda 2 · mesa 2", "Ronda 2 · mesa 1"]
    assert bare.violations == []


@contextlib.asynccontextmanager
async def channel_delivery(bare: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """The bot's ``ChannelDelivery`` on a real discord.py client connected to ``bare``, with the
    server known as in the bot; the client is closed and its gateway task awaited afterwards."""
    import discord
    import yarl

    from cogs.delivery import ChannelDelivery

    monkeypatch.setattr(discord.http.Route, "BASE", bare.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(bare.gateway_url))
    client = discord.Client(intents=discord.Intents.default())
    await client.login(bare.token)
    connected = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 20)
        yield ChannelDelivery(client)
    finally:
        await client.close()
        await asyncio.wait_for(connected, 20)


async def test_embeds_are_dropped_where_the_bot_lacks_embed_links(bare: FakeDiscord):
    """Discord drops a bot's embeds where it may not embed links, and posts the rest: channel
    posts and edits by the bot's permissions, interaction answers by their ``app_permissions``
    (strict; in DMs those include Embed Links) (issue 36)."""
    user = bare.add_user("Ana")
    cid = bare.channel_id
    embed = {"title": "Mano 1", "fields": [{"name": "Ana: +25", "value": "+25 · Combinación"}]}
    status, posted = await call(bare, "POST", f"/channels/{cid}/messages", {"content": "end", "embeds": [embed]})
    assert status == 200 and bare.message(int(posted["id"])).embeds[0]["title"] == "Mano 1"
    assert bare.suppressed_embeds == []
    roles = [bare.guild.roles[bare.guild.id], bare.guild.roles[bare.guild.bot_role_id]]
    full = [r.permissions for r in roles]
    for role in roles:
        role.permissions &= ~(1 << 14)  # no Embed Links
    try:
        status, posted = await call(bare, "POST", f"/channels/{cid}/messages", {"content": "end", "embeds": [embed]})
        message = bare.message(int(posted["id"]))
        assert status == 200 and message.content == "end" and message.embeds == [] and posted["embeds"] == []
        status, only = await call(bare, "POST", f"/channels/{cid}/messages", {"embeds": [embed]})
        assert status == 200 and bare.message(int(only["id"])).embeds == []  # posted, and shows empty
        status, _ = await call(bare, "PATCH", f"/channels/{cid}/messages/{message.id}",
                               {"content": "end 2", "embeds": [embed]})
        assert status == 200 and message.content == "end 2" and message.embeds == []
        rec = await bare.slash(user, "rummy new", {"variant": "gin", "timer": 0})
        status, body = await respond(bare, rec, 4, {"content": "rules", "embeds": [embed], "flags": 64})
        assert status == 200 and rec.original.embeds == [] and rec.original.content == "rules"
        hook = f"/webhooks/{bare.application_id}/{rec.token}"
        status, body = await call(bare, "POST", hook, {"content": "more", "embeds": [embed]}, token=None, wait="1")
        assert status == 200 and bare.message(int(body["id"])).embeds == []
        assert len(bare.suppressed_embeds) == 5
    finally:
        for role, value in zip(roles, full, strict=True):
            role.permissions = value
    assert len(bare.suppressed_embeds) == 5 and bare.violations == []
