"""Self-tests of the fake Discord's user installs (issue 24): it refuses what Discord refuses.

What this is: the echo bot (echo_bot.py with ECHO_GLOBAL=1, so its global user-installable
commands are synced) used from group DMs, the bot's DM, DMs between users and servers that never
added the bot, plus raw HTTP against a bare fake for each rule: command contexts and install
types, `context` / `authorizing_integration_owners` / `app_permissions` on interactions (and the
installer's owners on a friend's click), 403 Missing Access on bot-token requests where the bot is
not, no gateway events from those places, 5 follow-ups per user-install interaction, token
lifetime, and forced-ephemeral replies without Use External Apps.

What this is not: tests of the rummy bot.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.fakediscord import ECHO_BOT, BotProcess, CommandNotShown, FakeDiscord, FakeUser, InteractionRecord
from tests.fakediscord.places import EXTERNAL_APP_PERMISSIONS, PRIVATE_CHANNEL_APP_PERMISSIONS
from tests.fakediscord.records import EPHEMERAL

pytestmark = pytest.mark.asyncio(loop_scope="module")

ATTACH_EMBED_MENTION = (1 << 15) | (1 << 14) | (1 << 17)


@dataclass
class Env:
    fake: FakeDiscord
    bot: BotProcess
    ana: FakeUser
    bea: FakeUser
    gdm: int


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("installs")
    fake = FakeDiscord()
    await fake.start()
    bot = BotProcess(fake, db_path=tmp / "echo.db", cmd=[sys.executable, "-P", ECHO_BOT],
                     log_path=tmp / "bot.log", env={"ECHO_GLOBAL": "1"})
    await bot.start()
    ana, bea = fake.add_user("Ana"), fake.add_user("Bea")
    fake.install_for_user(ana)
    e = Env(fake, bot, ana, bea, fake.add_group_dm(ana, bea, name="rami"))
    try:
        yield e
    finally:
        await bot.terminate()
        await fake.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def bare():
    """A fake with no bot and a 60 s token lifetime: tests answer interactions over HTTP."""
    fake = FakeDiscord(token_lifetime=60.0)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str | None = "ok", **params: str
) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers, params=params) as resp,
    ):
        text = await resp.text()
        return resp.status, (json.loads(text) if text else None)


async def respond(fake: FakeDiscord, rec: InteractionRecord, rtype: int, data: Any = None) -> tuple[int, Any]:
    body = {"type": rtype} if data is None else {"type": rtype, "data": data}
    return await call(fake, "POST", f"/interactions/{rec.id}/{rec.token}/callback", body, token=None,
                      with_response="1")


async def followup(fake: FakeDiscord, rec: InteractionRecord, body: dict[str, Any]) -> tuple[int, Any]:
    """A follow-up, sent again after retry_after when the token's webhook bucket is full (budget.py)."""
    while True:
        status, answer = await call(fake, "POST", f"/webhooks/{fake.application_id}/{rec.token}", body, token=None)
        if status != 429:
            return status, answer
        await asyncio.sleep(answer["retry_after"])


def events_about(fake: FakeDiscord, ident: int) -> list[str]:
    """Gateway events any session got whose payload names ``ident`` (a channel or guild id)."""
    found = []
    for session in fake.gateway.sessions.values():
        for _, name, data in session.events:
            if str(ident) in json.dumps(data):
                found.append(name)
    return found


GLOBAL_COMMANDS = [
    {"name": "play", "description": "Play anywhere", "integration_types": [0, 1], "contexts": [0, 1, 2]},
    {"name": "serveronly", "description": "Guild install", "integration_types": [0], "contexts": [0, 1, 2]},
    {"name": "unset", "description": "No contexts", "integration_types": [0, 1]},
]


async def register(fake: FakeDiscord) -> None:
    status, _ = await call(fake, "PUT", f"/applications/{fake.application_id}/commands", GLOBAL_COMMANDS)
    assert status == 200


# ---- against the real discord.py client -----------------------------------------------------------


async def test_global_sync_records_installs_and_contexts(env: Env):
    by_name = {c["name"]: c for c in env.fake.commands()}
    assert set(by_name) == {"anywhere", "followups", "poke", "inserver", "serveronly", "unset"}
    assert (by_name["anywhere"]["integration_types"], by_name["anywhere"]["contexts"]) == ([0, 1], [0, 1, 2])
    assert (by_name["inserver"]["integration_types"], by_name["inserver"]["contexts"]) == ([1], [0])
    assert by_name["unset"]["contexts"] is None
    assert env.fake.violations == []


async def test_group_dm_command_by_the_installer_and_a_friends_click(env: Env):
    fake, ana, bea = env.fake, env.ana, env.bea
    rec = await (await fake.slash(ana, "anywhere", {"text": "hola"}, channel=env.gdm)).settled()
    p = rec.payload
    assert (p["context"], p["authorizing_integration_owners"]) == (2, {"1": str(ana.id)})
    assert "guild_id" not in p and "member" not in p and p["user"]["id"] == str(ana.id)
    assert p["channel"]["type"] == 3 and "guild_id" not in p["channel"]
    assert {u["id"] for u in p["channel"]["recipients"]} == {str(ana.id), str(bea.id)}
    assert int(p["app_permissions"]) == ATTACH_EMBED_MENTION == PRIVATE_CHANNEL_APP_PERMISSIONS
    table = rec.original
    assert table is not None and table.public and table.content == "hola | user_integration=True"
    assert fake.public_messages(env.gdm) == [table] and table.channel_id == env.gdm
    click = await (await fake.click(bea, table, "anywhere:0")).settled()
    # A friend's click carries the installer's owners: is_user_integration() is False for Bea.
    assert click.payload["authorizing_integration_owners"] == {"1": str(ana.id)} and click.context == 2
    assert click.response_type == 7 and table.content == "hola | clicks: 1 user_integration=False"
    mine = await (await fake.click(ana, table, "anywhere:1")).settled()
    assert table.content == "hola | clicks: 2 user_integration=True" and mine.owners == {"1": str(ana.id)}
    assert events_about(fake, env.gdm) == ["INTERACTION_CREATE"] * 3  # no MESSAGE_CREATE/UPDATE
    assert fake.violations == [] and fake.refused_requests == []


async def test_commands_discord_would_not_show_are_refused(env: Env):
    fake, ana, bea = env.fake, env.ana, env.bea
    sent = len(fake.interactions)
    with pytest.raises(CommandNotShown, match="has not installed"):
        await fake.slash(bea, "anywhere", {"text": "x"}, channel=env.gdm)
    with pytest.raises(CommandNotShown, match="context 2"):
        await fake.slash(ana, "inserver", channel=env.gdm)
    with pytest.raises(CommandNotShown, match="leave out USER_INSTALL"):
        await fake.slash(ana, "serveronly", channel=env.gdm)
    with pytest.raises(CommandNotShown, match="context 2"):  # unset contexts never reach group DMs
        await fake.slash(ana, "unset", channel=env.gdm)
    with pytest.raises(CommandNotShown, match="not registered"):  # the echo command is a guild command
        await fake.slash(ana, "echo", {"text": "x"}, channel=env.gdm)
    with pytest.raises(CommandNotShown):
        await fake.autocomplete(bea, "anywhere", {"text": "x"}, focused="text", channel=env.gdm)
    with pytest.raises(ValueError, match="not a recipient"):
        await fake.slash(fake.owner, "anywhere", {"text": "x"}, channel=env.gdm)
    assert len(fake.interactions) == sent  # nothing reached the bot
    # In the bot's DM a command without contexts is shown; both installs authorize it there.
    rec = await (await fake.slash(ana, "unset", channel=fake.bot_dm(ana))).settled()
    assert rec.context == 1 and rec.owners == {"0": "0", "1": str(ana.id)}
    assert int(rec.payload["app_permissions"]) == ATTACH_EMBED_MENTION | (1 << 18)
    assert rec.original is not None and rec.original in fake.dm_messages(ana)
    # In a server with the bot, the server's install authorizes it (and the user's, declared too).
    rec = await (await fake.slash(ana, "anywhere", {"text": "srv"})).settled()
    assert rec.owners == {"0": str(fake.guild_id), "1": str(ana.id)} and rec.context == 0
    rec = await (await fake.slash(bea, "serveronly")).settled()
    assert rec.owners == {"0": str(fake.guild_id)}
    assert fake.violations == []


async def test_bot_token_requests_where_the_bot_is_not_are_refused(env: Env):
    fake, ana = env.fake, env.ana
    rec = await (await fake.slash(ana, "poke", channel=env.gdm)).settled()
    assert [m.content for m in rec.followups] == ["refused 403 50001"]
    refused = fake.refused_requests
    assert [(r.method, r.path, r.status, r.code) for r in refused] == [
        ("POST", f"/channels/{env.gdm}/messages", 403, 50001)
    ]
    assert "group DM" in (refused[0].refused or "")
    assert fake.violations == []  # a refusal the bot must handle, not a broken rule
    ok = await (await fake.slash(ana, "poke")).settled()  # where the bot is, the post goes through
    assert [m.content for m in ok.followups] == ["posted"] and len(fake.refused_requests) == 1


def reported(rec: Any) -> bool:
    return rec.original is not None and rec.original.content.startswith("sent ")


async def test_five_follow_ups_per_user_install_interaction(env: Env):
    fake, ana = env.fake, env.ana
    # The 6th follow-up waits for the token's webhook bucket (5 per 5 s, budget.py) to refill.
    rec = await (await fake.slash(ana, "followups", {"n": 6}, channel=env.gdm)).settled(20, until=reported)
    assert rec.original is not None and rec.original.content == "sent 5 refused [40094]"
    assert len(rec.followups) == 5 and all(m.public and m.channel_id == env.gdm for m in rec.followups)
    found = fake.clear_violations()
    assert len(found) == 1 and "limit 5" in found[0]
    assert fake.refused_requests[-1].code == 40094
    # Where the server's install authorizes the interaction, there is no such limit.
    rec = await (await fake.slash(ana, "followups", {"n": 6})).settled(20, until=reported)
    assert rec.original is not None and rec.original.content == "sent 6 refused []"
    assert fake.violations == []


async def test_a_server_without_the_bot(env: Env):
    fake, ana = env.fake, env.ana
    before = len(fake.live_sessions()[0].events)
    away = fake.add_guild("Sin bot", bot_member=False)
    carla = fake.add_user("Carla", guild=away)
    fake.add_member(ana, away)
    side = fake.add_channel("otro", guild=away)
    await fake.post_user_message(carla, "hola", channel=side)
    assert not fake.bot_in_guild(away) and not fake.bot_in_channel(away.system_channel_id or 0)
    with pytest.raises(CommandNotShown, match="not in this server"):
        await fake.slash(carla, "serveronly", channel=away.system_channel_id)
    with pytest.raises(CommandNotShown, match="has not installed"):
        await fake.slash(carla, "anywhere", {"text": "x"}, channel=away.system_channel_id)
    rec = await (await fake.slash(ana, "anywhere", {"text": "fuera"}, channel=away.system_channel_id)).settled()
    p = rec.payload
    assert (p["context"], p["authorizing_integration_owners"], p["guild_id"]) == (0, {"1": str(ana.id)},
                                                                                 str(away.id))
    assert p["member"]["user"]["id"] == str(ana.id) and p["channel"]["guild_id"] == str(away.id)
    member_perms = int(p["member"]["permissions"])
    assert int(p["app_permissions"]) == member_perms & EXTERNAL_APP_PERMISSIONS
    assert not int(p["app_permissions"]) & (1 << 11)  # no Send Messages for an external app
    assert rec.original is not None and rec.original.public
    click = await (await fake.click(carla, rec.original, "anywhere:0")).settled()
    assert click.owners == {"1": str(ana.id)} and "user_integration=False" in rec.original.content
    # The bot heard nothing of this server but the interactions.
    assert set(events_about(fake, away.id)) == {"INTERACTION_CREATE"}
    assert len(fake.live_sessions()[0].events) == before + 2
    # Its token opens nothing there.
    for method, path in [("GET", f"/channels/{side}"), ("GET", f"/channels/{side}/messages"),
                         ("POST", f"/channels/{side}/typing"), ("GET", f"/guilds/{away.id}"),
                         ("GET", f"/guilds/{away.id}/members/{carla.id}")]:
        status, body = await call(fake, method, path)
        assert (status, body["code"] if body else None) == (403, 50001), (method, path)
    fake.invite_bot(away)  # an admin adds it: the server's install takes over
    rec = await (await fake.slash(carla, "serveronly", channel=away.system_channel_id)).settled()
    assert rec.owners == {"0": str(away.id)} and fake.bot_in_channel(side)
    assert "GUILD_CREATE" in events_about(fake, away.id)
    assert fake.violations == []


async def test_forced_ephemeral_without_use_external_apps(env: Env):
    fake = env.fake
    away = fake.add_guild("Estricto", bot_member=False)
    dani = fake.add_user("Dani", guild=away)
    fake.install_for_user(dani)
    fake.set_use_external_apps(away, dani, False)
    rec = await (await fake.slash(dani, "followups", {"n": 2}, channel=away.system_channel_id)).settled()
    assert not int(rec.payload["member"]["permissions"]) & (1 << 50) and rec.forced_ephemeral
    assert rec.original is not None and rec.original.ephemeral and rec.original.visible_to == dani.id
    assert all(m.ephemeral and m.visible_to == dani.id for m in rec.followups) and len(rec.followups) == 2
    assert fake.public_messages(away.system_channel_id) == []
    fake.set_use_external_apps(away, dani, True)
    rec = await (await fake.slash(dani, "anywhere", {"text": "ya"}, channel=away.system_channel_id)).settled()
    assert rec.original is not None and rec.original.public and not rec.forced_ephemeral
    fake.set_use_external_apps(fake.guild, env.bea, False)  # the bot is in this server: no effect
    rec = await (await fake.slash(env.bea, "serveronly")).settled()
    assert rec.original is not None and rec.original.public
    assert fake.violations == []


async def test_dm_between_users_is_a_private_channel(env: Env):
    fake, ana, bea = env.fake, env.ana, env.bea
    dm = fake.add_user_dm(ana, bea)
    rec = await (await fake.slash(ana, "anywhere", {"text": "dm"}, channel=dm)).settled()
    assert rec.context == 2 and rec.payload["channel"]["type"] == 1 and rec.owners == {"1": str(ana.id)}
    assert rec.original is not None and rec.original.public and fake.public_messages(dm) == [rec.original]
    assert events_about(fake, dm) == ["INTERACTION_CREATE"]
    assert fake.violations == []


# ---- rules, over raw HTTP ---------------------------------------------------------------------------


async def test_webhooks_work_in_a_group_dm_and_count_follow_ups(bare: FakeDiscord):
    await register(bare)
    ana, bea = bare.add_user("Ana"), bare.add_user("Bea")
    bare.install_for_user(ana)
    gdm = bare.add_group_dm(ana, bea)
    rec = await bare.slash(ana, "play", channel=gdm)
    button = {"type": 1, "components": [{"type": 2, "style": 1, "label": "go", "custom_id": "go"}]}
    status, body = await respond(bare, rec, 4, {"content": "table", "components": [button]})
    assert status == 200 and body["resource"]["message"]["interaction_metadata"]["authorizing_integration_owners"] \
        == {"1": str(ana.id)}
    hook = f"/webhooks/{bare.application_id}/{rec.token}"
    assert (await call(bare, "GET", f"{hook}/messages/@original", token=None))[0] == 200
    assert (await call(bare, "PATCH", f"{hook}/messages/@original", {"content": "table 2"}, token=None))[0] == 200
    posted = []
    for i in range(5):
        status, body = await followup(bare, rec, {"content": f"f{i}", "components": [button] if i == 0 else []})
        assert status == 200
        posted.append(int(body["id"]))
    # Edits of follow-ups do not count; a 6th follow-up is refused with Discord's code.
    assert (await call(bare, "PATCH", f"{hook}/messages/{posted[1]}", {"content": "f1b"}, token=None))[0] == 200
    status, body = await followup(bare, rec, {"content": "f5"})
    assert (status, body["code"]) == (400, 40094) and len(rec.followups) == 5
    assert "limit 5" in bare.clear_violations()[0]
    assert (await call(bare, "DELETE", f"{hook}/messages/{posted[4]}", token=None))[0] == 204
    # A click on a follow-up of X carries X's owners; its type 7 and follow-ups have their own count.
    msg = bare.message(posted[0])
    click = await bare.click(bea, msg, "go")
    assert click.owners == {"1": str(ana.id)} and click.payload["message"]["id"] == str(msg.id)
    assert (await respond(bare, click, 7, {"content": "updated"}))[0] == 200 and msg.content == "updated"
    for i in range(5):
        assert (await followup(bare, click, {"content": f"c{i}", "flags": EPHEMERAL}))[0] == 200
    assert (await followup(bare, click, {"content": "c5"}))[0] == 400
    assert all(m.ephemeral and m.visible_to == bea.id for m in click.followups)
    bare.clear_violations()
    assert [m.content for m in bare.public_messages(gdm)] == ["table 2", "updated", "f1b", "f2", "f3"]


async def test_bot_token_routes_answer_missing_access(bare: FakeDiscord):
    ana, bea = bare.add_user("Ana"), bare.add_user("Bea")
    gdm = bare.add_group_dm(ana, bea)
    away = bare.add_guild("Sin bot", bot_member=False)
    chan = away.system_channel_id
    paths = [
        ("GET", f"/channels/{gdm}"), ("GET", f"/channels/{gdm}/messages"), ("POST", f"/channels/{gdm}/messages"),
        ("POST", f"/channels/{gdm}/typing"), ("PATCH", f"/channels/{gdm}/messages/1"),
        ("DELETE", f"/channels/{gdm}/messages/1"), ("POST", f"/channels/{gdm}/messages/1/threads"),
        ("POST", f"/channels/{chan}/messages"), ("GET", f"/guilds/{away.id}/channels"),
        ("PUT", f"/applications/{bare.application_id}/guilds/{away.id}/commands"),
    ]
    for method, path in paths:
        body = [] if method == "PUT" else {"content": "x", "name": "t"}
        status, answer = await call(bare, method, path, body)
        assert (status, answer) == (403, {"message": "Missing Access", "code": 50001}), (method, path)
    assert len(bare.refused_requests) == len(paths) and bare.violations == []
    assert bare.messages == []


async def test_token_lifetime_knob(bare: FakeDiscord):
    await register(bare)
    ana, bea = bare.add_user("Ana"), bare.add_user("Bea")
    bare.install_for_user(ana)
    rec = await bare.slash(ana, "play", channel=bare.add_group_dm(ana, bea))
    assert (await respond(bare, rec, 5))[0] == 200
    bare.advance(59)
    assert (await call(bare, "PATCH", f"/webhooks/{bare.application_id}/{rec.token}/messages/@original",
                       {"content": "in time"}, token=None))[0] == 200
    bare.advance(2)
    for method, path, body in [("POST", "", {"content": "late"}), ("PATCH", "/messages/@original", {"content": "x"}),
                               ("GET", "/messages/@original", None), ("DELETE", "/messages/@original", None)]:
        status, answer = await call(bare, method, f"/webhooks/{bare.application_id}/{rec.token}{path}", body,
                                    token=None)
        assert (status, answer["code"]) == (401, 50027)
    assert all("minutes old (max 1)" in v for v in bare.clear_violations())
    assert [r.code for r in bare.refused_requests] == [50027] * 4
    late = await bare.slash(ana, "play")  # the initial callback still has 3 s
    bare.advance(3.5)
    assert (await respond(bare, late, 4, {"content": "late"}))[0] == 404
    bare.clear_violations()


async def test_command_definitions_and_unknown_places(bare: FakeDiscord):
    path = f"/applications/{bare.application_id}/commands"
    bad = [{"name": "x", "description": "x", "contexts": [3]},
           {"name": "y", "description": "y", "integration_types": []}]
    status, _ = await call(bare, "PUT", path, bad)
    assert status == 400 and "contexts" in bare.clear_violations()[0]
    ana, bea = bare.add_user("Ana"), bare.add_user("Bea")
    bare.install_for_user(ana)
    with pytest.raises(CommandNotShown, match="not registered"):  # nothing synced: nothing to show
        await bare.slash(ana, "play", channel=bare.add_group_dm(ana, bea))
    with pytest.raises(ValueError, match="2 to 10"):
        bare.add_group_dm(ana)
    await register(bare)
    rec = await bare.slash(bea, "unset")  # the first guild, the bot in it: unset contexts include servers
    assert rec.owners == {"0": str(bare.guild_id)} and rec.context == 0
    assert (await respond(bare, rec, 4, {"content": "ok", "flags": EPHEMERAL}))[0] == 200
    assert bare.violations == []


async def test_autocomplete_select_and_modal_in_a_group_dm(bare: FakeDiscord):
    command = {"name": "pick", "description": "Pick", "integration_types": [1], "contexts": [2],
               "options": [{"type": 3, "name": "q", "description": "q", "autocomplete": True}]}
    assert (await call(bare, "PUT", f"/applications/{bare.application_id}/commands", [command]))[0] == 200
    ana, bea = bare.add_user("Ana"), bare.add_user("Bea")
    bare.install_for_user(ana)
    gdm = bare.add_group_dm(ana, bea)
    with pytest.raises(CommandNotShown, match="context 0"):  # declared for private channels only
        await bare.slash(ana, "pick", {"q": "x"})
    rec = await bare.slash(ana, "pick", {"q": "x"}, channel=gdm)
    rows = [{"type": 1, "components": [{"type": 5, "custom_id": "who"}]},
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "ask", "custom_id": "ask"}]}]
    assert (await respond(bare, rec, 4, {"content": "menu", "components": rows}))[0] == 200
    assert rec.original is not None
    chosen = await bare.select(bea, rec.original, "who", [ana])
    assert chosen.owners == {"1": str(ana.id)} and chosen.context == 2 and "user" in chosen.payload
    assert chosen.data["resolved"]["users"][str(ana.id)]["id"] == str(ana.id)
    assert "members" not in chosen.data["resolved"]  # no guild, no members
    assert (await respond(bare, chosen, 6))[0] == 200
    click = await bare.click(bea, rec.original, "ask")
    modal = {"custom_id": "m", "title": "Name", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "name", "label": "Name", "style": 1}]}]}
    assert (await respond(bare, click, 9, modal))[0] == 200
    submit = await bare.submit_modal(bea, "m", {"name": "Bea"})
    assert submit.owners == {"1": str(ana.id)} and submit.context == 2 and submit.channel_id == gdm
    assert (await respond(bare, submit, 4, {"content": "hi Bea"}))[0] == 200
    assert submit.original is not None and submit.original in bare.public_messages(gdm)
    auto_task = asyncio.ensure_future(bare.autocomplete(ana, "pick", {"q": "a"}, focused="q", channel=gdm))
    await asyncio.sleep(0.05)
    auto = bare.interactions[-1]
    assert auto.kind == "autocomplete" and auto.owners == {"1": str(ana.id)}
    assert (await respond(bare, auto, 8, {"choices": [{"name": "a", "value": "a"}]}))[0] == 200
    assert [c["value"] for c in await auto_task] == ["a"]
    assert bare.violations == [] and bare.refused_requests == []
