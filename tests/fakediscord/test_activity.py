"""Self-tests of the fake Discord's Activities (activity.py, activity_proxy.py): it refuses what
Discord refuses and its proxy and client frame behave as Discord's do.

What this is: raw HTTP against a bare fake (no bot process): the OAuth2 code exchange (a code works
once, the client secret, no redirect_uri, form bodies only), Bearer tokens on /users/@me, activity
instances (404 once the last user left), LAUNCH_ACTIVITY (only with Activities, only from a command,
button or modal), the Entry Point rule of bulk overwrites, the proxy (CSP, no cache headers on HTML,
/.proxy/, WebSockets both ways, logs) against a tiny aiohttp app, the frame's SDK protocol answered
in Python, and one browser test: headless Chromium opens the client frame on a page that loads the
real Embedded App SDK bundle (skipped without its node_modules; tests/browser.py says when it fails
instead).

What this is not: tests of the rummy bot's Activity.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.activity import ENTRY_POINT_CODE, LAUNCH_ACTIVITY
from tests.fakediscord.activity_proxy import CSP, FrameSession
from tests.fakediscord.records import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT

ROOT = Path(__file__).resolve().parents[2]
# The SDK's dist (`npm ci --prefix activity/web` puts it there); FAKE_DISCORD_SDK names another copy.
SDK = Path(os.environ.get("FAKE_DISCORD_SDK")
           or ROOT / "activity" / "web" / "node_modules" / "@discord" / "embedded-app-sdk" / "output")


async def exchange(fake: FakeDiscord, code: str, *, secret: str | None = None, extra: dict[str, str] | None = None,
                   as_json: bool = False, prefix: bool = True) -> tuple[int, Any]:  # fmt: skip
    form = {"client_id": str(fake.application_id), "client_secret": secret or fake.client_secret,
            "grant_type": "authorization_code", "code": code, **(extra or {})}  # fmt: skip
    url = (fake.api_base if prefix else fake.base_url) + "/oauth2/token"
    async with aiohttp.ClientSession() as s:
        kw: dict[str, Any] = {"json": form} if as_json else {"data": form}
        async with s.post(url, **kw) as r:
            return r.status, await r.json(content_type=None)


async def get(fake: FakeDiscord, path: str, auth: str | None) -> tuple[int, Any]:
    headers = {"Authorization": auth} if auth else {}
    async with aiohttp.ClientSession() as s, s.get(fake.api_base + path, headers=headers) as r:
        return r.status, await r.json(content_type=None)


async def callback(fake: FakeDiscord, rec: Any, body: dict[str, Any]) -> tuple[int, Any]:
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=true"
    async with aiohttp.ClientSession() as s, s.post(url, json=body) as r:
        return r.status, await r.json(content_type=None)


@pytest.fixture
async def fake():
    f = FakeDiscord()
    await f.start()
    try:
        yield f
    finally:
        await f.stop()


@pytest.fixture
def ana(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Ana")


# ---- OAuth2 -----------------------------------------------------------------------------------------


async def test_code_exchanges_once_for_a_bearer_token_of_its_user(fake: FakeDiscord, ana: FakeUser) -> None:
    code = fake.activities.issue_code(ana)
    status, body = await exchange(fake, code)
    assert status == 200, body
    assert body["token_type"] == "Bearer" and body["expires_in"] == 604800 and body["scope"] == "identify"
    assert body["refresh_token"]
    status, me = await get(fake, "/users/@me", f"Bearer {body['access_token']}")
    assert status == 200 and me["id"] == str(ana.id)
    status, again = await exchange(fake, code)
    assert (status, again["error"]) == (400, "invalid_grant")
    status, unknown = await exchange(fake, "no-such-code")
    assert (status, unknown["error"]) == (400, "invalid_grant")
    assert len(fake.refused_requests) == 2 and fake.violations == []  # a replayed code is no bot bug


async def test_token_endpoint_refuses_wrong_secret_json_and_redirect_uri(fake: FakeDiscord, ana: FakeUser) -> None:
    code = fake.activities.issue_code(ana)
    status, body = await exchange(fake, code, secret="wrong")
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await exchange(fake, code, as_json=True)
    assert status == 400
    status, body = await exchange(fake, code, extra={"redirect_uri": "https://example.org/cb"})
    assert (status, body["error"]) == (400, "invalid_grant")
    assert len(fake.clear_violations()) == 3
    status, body = await exchange(fake, code, prefix=False)  # none of those used the code up
    assert status == 200, body
    assert [r.status for r in fake.refused_requests] == [401, 400, 400]
    assert all(r.body is None or r.body.get("client_secret") == "<secret>" for r in fake.requests
               if isinstance(r.body, dict))  # fmt: skip


async def test_bearer_users_me_and_the_bot_token_still_work(fake: FakeDiscord, ana: FakeUser) -> None:
    assert (await get(fake, "/users/@me", "Bearer nope"))[0] == 401
    assert (await get(fake, "/users/@me", None))[0] == 401
    status, bot = await get(fake, "/users/@me", f"Bot {fake.token}")
    assert status == 200 and bot["id"] == str(fake.bot_user_id)
    token = fake.activities.issue_token(ana)
    fake.advance(604801)
    assert (await get(fake, "/users/@me", f"Bearer {token}"))[0] == 401


# ---- instances, LAUNCH_ACTIVITY, the Entry Point --------------------------------------------------


async def test_instance_lists_its_users_and_ends_with_the_last(fake: FakeDiscord, ana: FakeUser) -> None:
    bea = fake.add_user("Bea")
    inst = fake.launch_activity(ana, fake.channel_id, custom_id="table:7")
    assert fake.launch_activity(bea) is inst  # the channel's running instance
    path = f"/applications/{fake.application_id}/activity-instances/{inst.instance_id}"
    status, body = await get(fake, path, f"Bot {fake.token}")
    assert status == 200
    assert body["users"] == [str(ana.id), str(bea.id)] and body["launch_id"]
    assert body["location"] == {"id": inst.location_id, "kind": "gc", "channel_id": str(fake.channel_id),
                                "guild_id": str(fake.guild_id)}  # fmt: skip
    assert (await get(fake, path, "Bearer x"))[0] == 401
    inst.leave(ana)
    assert (await get(fake, path, f"Bot {fake.token}"))[1]["users"] == [str(bea.id)]
    inst.leave(bea)
    assert (await get(fake, path, f"Bot {fake.token}"))[0] == 404
    gdm = fake.add_group_dm(ana, bea)
    status, body = await get(fake, f"/applications/{fake.application_id}/activity-instances/"
                             f"{fake.launch_activity(ana, gdm).instance_id}", f"Bot {fake.token}")  # fmt: skip
    assert body["location"]["kind"] == "pc" and "guild_id" not in body["location"]
    assert fake.violations == []


async def test_launch_activity_needs_activities_and_a_command_button_or_modal(fake: FakeDiscord, ana: FakeUser) -> None:
    button = await fake._interact(MESSAGE_COMPONENT, "component", ana, {"custom_id": "table:3", "component_type": 2},
                                  channel=fake.channel_id)  # fmt: skip
    status, body = await callback(fake, button, {"type": LAUNCH_ACTIVITY})
    assert (status, body["code"]) == (400, 50035)
    assert len(fake.clear_violations()) == 1
    fake.enable_activities()
    auto = await fake._interact(AUTOCOMPLETE, "autocomplete", ana, {"name": "x", "type": 1, "options": []},
                                channel=fake.channel_id)  # fmt: skip
    assert (await callback(fake, auto, {"type": LAUNCH_ACTIVITY}))[0] == 400
    assert len(fake.clear_violations()) == 1
    button = await fake._interact(MESSAGE_COMPONENT, "component", ana, {"custom_id": "table:3", "component_type": 2},
                                  channel=fake.channel_id)  # fmt: skip
    status, body = await callback(fake, button, {"type": LAUNCH_ACTIVITY})
    assert status == 200, body
    inst = fake.activities.instance(body["resource"]["activity_instance"]["id"])
    assert inst is not None and inst.users == [ana.id] and inst.custom_id == "table:3"
    assert (await callback(fake, button, {"type": LAUNCH_ACTIVITY}))[0] == 400  # acknowledged already
    fake.clear_violations()
    bea = fake.add_user("Bea")
    slash = await fake._interact(APPLICATION_COMMAND, "slash", bea, {"name": "mesa", "type": 1},
                                 channel=fake.channel_id)  # fmt: skip
    status, body = await callback(fake, slash, {"type": LAUNCH_ACTIVITY})
    assert status == 200 and body["resource"]["activity_instance"]["id"] == inst.instance_id
    assert inst.users == [ana.id, bea.id]
    assert FrameSession("f", inst, bea, "mobile", fake.activities).activity_path().count("custom_id=table%3A3") == 1


async def test_bulk_overwrite_must_keep_the_entry_point(fake: FakeDiscord) -> None:
    fake.enable_activities()
    (entry,) = fake.commands()
    assert (entry["type"], entry["name"], entry["handler"]) == (4, "launch", 2)
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    slash = {"type": 1, "name": "rummy", "description": "Play rummy"}
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as s:
        async with s.put(url, json=[slash]) as r:
            assert r.status == 400 and (await r.json())["code"] == ENTRY_POINT_CODE
        assert fake.refused_requests[-1].code == ENTRY_POINT_CODE and len(fake.clear_violations()) == 1
        keep = {"type": 4, "name": "launch", "description": "Open the table", "handler": 2}
        async with s.put(url, json=[slash, keep]) as r:
            assert r.status == 200, await r.text()
            stored = await r.json()
    assert {c["name"] for c in fake.commands()} == {"rummy", "launch"}
    assert next(c for c in stored if c["type"] == 4)["id"] == entry["id"]
    guild_url = f"{url[: -len('/commands')]}/guilds/{fake.guild_id}/commands"
    async with aiohttp.ClientSession(headers=headers) as s, s.put(guild_url, json=[slash]) as r:
        assert r.status == 200  # guild commands are not bound by it
    assert fake.violations == []


# ---- the proxy --------------------------------------------------------------------------------------


@pytest.fixture
async def target():
    """A tiny Activity server: an HTML page with cache headers, an asset, an echoing WebSocket."""
    seen: list[str] = []

    async def page(request: web.Request) -> web.StreamResponse:
        seen.append(request.path_qs)
        return web.Response(text="<!doctype html><p>table</p>", content_type="text/html",
                            headers={"Cache-Control": "max-age=60", "ETag": '"x"', "Last-Modified": "Mon, 01 Jan 2024 "
                                     "00:00:00 GMT", "Expires": "0", "Content-Security-Policy": "default-src *"})

    async def asset(request: web.Request) -> web.StreamResponse:
        seen.append(request.path_qs)
        return web.Response(body=b"console.log(1)", content_type="application/javascript",
                            headers={"Cache-Control": "max-age=31536000, immutable"})

    async def post(request: web.Request) -> web.StreamResponse:
        return web.json_response({"got": await request.json()})

    async def ws(request: web.Request) -> web.StreamResponse:
        sock = web.WebSocketResponse()
        await sock.prepare(request)
        await sock.send_str(json.dumps({"op": "hello-from-app"}))
        async for msg in sock:
            if msg.type == aiohttp.WSMsgType.TEXT:
                if msg.data == "bye":
                    await sock.close(code=4001)
                    break
                await sock.send_str("echo:" + msg.data)
            elif msg.type == aiohttp.WSMsgType.BINARY:
                await sock.send_bytes(msg.data[::-1])
        return sock

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/assets/app-1.js", asset)
    app.router.add_post("/api/token", post)
    app.router.add_get("/ws", ws)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}", seen
    finally:
        await runner.cleanup()


async def test_proxy_forwards_with_csp_and_drops_html_cache_headers(fake: FakeDiscord, target: Any) -> None:
    url, seen = target
    fake.map_activity_url(url)
    proxy = fake.activity_proxy
    async with aiohttp.ClientSession() as s:
        async with s.get(proxy.url + "/?frame_id=1&instance_id=i") as r:
            assert r.status == 200 and "table" in await r.text()
            assert r.headers["Content-Security-Policy"] == CSP
            assert not {"Cache-Control", "ETag", "Last-Modified", "Expires"} & set(r.headers)
        async with s.get(proxy.url + "/.proxy/assets/app-1.js") as r:
            assert r.status == 200 and r.headers["Cache-Control"] == "max-age=31536000, immutable"
            assert r.headers["Content-Security-Policy"] == CSP
        async with s.post(proxy.url + "/.proxy/api/token", json={"code": "c"}) as r:
            assert (await r.json()) == {"got": {"code": "c"}}
    assert seen == ["/?frame_id=1&instance_id=i", "/assets/app-1.js"]
    assert [(h.method, h.path, h.status) for h in proxy.http_log] == [
        ("GET", "/?frame_id=1&instance_id=i", 200), ("GET", "/.proxy/assets/app-1.js", 200),
        ("POST", "/.proxy/api/token", 200)]  # fmt: skip
    assert proxy.http_log[1].body == b"console.log(1)"


async def test_proxy_forwards_websockets_both_ways_and_logs_frames(fake: FakeDiscord, target: Any) -> None:
    fake.map_activity_url(target[0])
    proxy = fake.activity_proxy
    async with aiohttp.ClientSession() as s, s.ws_connect(proxy.url.replace("http", "ws") + "/.proxy/ws") as ws:
        assert json.loads(await ws.receive_str()) == {"op": "hello-from-app"}
        await ws.send_str("hi")
        assert await ws.receive_str() == "echo:hi"
        await ws.send_bytes(b"\x01\x02")
        assert await ws.receive_bytes() == b"\x02\x01"
        await ws.send_str("bye")
        msg = await ws.receive()
        assert msg.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4001
    assert [(w.direction, w.data) for w in proxy.ws_log] == [
        ("down", '{"op": "hello-from-app"}'), ("up", "hi"), ("down", "echo:hi"), ("up", b"\x01\x02"),
        ("down", b"\x02\x01"), ("up", "bye")]  # fmt: skip


# ---- the client frame (its protocol, in Python) -----------------------------------------------------


async def test_frame_answers_the_sdk_protocol(fake: FakeDiscord, ana: FakeUser) -> None:
    inst = fake.launch_activity(ana, custom_id="table:1")
    frame = fake.activity_proxy.open_frame(inst, ana, "desktop")
    assert "frame_id=" + frame.frame_id in frame.activity_path() and "platform=desktop" in frame.activity_path()
    app = str(fake.application_id)
    assert frame.answer([1, {"cmd": "AUTHORIZE", "args": {}, "nonce": "0"}])[0][1]["evt"] == "ERROR"  # no handshake
    ((op, ready),) = frame.answer([0, {"v": 1, "encoding": "json", "client_id": app, "frame_id": frame.frame_id}])
    assert op == 1 and ready["evt"] == "READY" and ready["data"]["user"]["id"] == str(ana.id)
    bad = frame.answer([1, {"cmd": "AUTHORIZE", "nonce": "1", "args": {"client_id": app, "response_type": "code",
                                                                       "scope": ["guilds"]}}])  # fmt: skip
    assert bad[0][1]["evt"] == "ERROR"
    ((_, auth),) = frame.answer([1, {"cmd": "AUTHORIZE", "nonce": "2", "args": {
        "client_id": app, "response_type": "code", "scope": ["identify"], "prompt": "none"}}])  # fmt: skip
    assert auth["nonce"] == "2" and auth["evt"] is None
    status, tok = await exchange(fake, auth["data"]["code"])
    assert status == 200
    authenticate = {"cmd": "AUTHENTICATE", "nonce": "3", "args": {"access_token": tok["access_token"]}}
    ((_, who),) = frame.answer([1, authenticate])
    assert who["data"]["user"]["id"] == str(ana.id) and who["data"]["scopes"] == ["identify"]
    forged = {"cmd": "AUTHENTICATE", "nonce": "4", "args": {"access_token": "x"}}
    assert frame.answer([1, forged])[0][1]["evt"] == "ERROR"
    ((_, sub),) = frame.answer([1, {"cmd": "SUBSCRIBE", "evt": "VOICE_STATE_UPDATE", "nonce": "5", "args": {}}])
    assert sub["data"] == {"evt": "VOICE_STATE_UPDATE"}
    assert frame.answer([1, {"cmd": "CAPTURE_LOG", "nonce": "6", "args": {}}])[0][1]["data"] == {}
    assert frame.other_commands == ["CAPTURE_LOG"] and len(frame.received) == len(frame.sent) == 8


# ---- the client frame in a real browser, with the real SDK ------------------------------------------


async def test_frame_in_chromium_with_the_real_sdk(fake: FakeDiscord, ana: FakeUser, tmp_path: Path) -> None:
    from tests.browser import chromium

    if not (SDK / "index.mjs").exists():
        pytest.skip(f"no Embedded App SDK bundle at {SDK} (npm ci --prefix activity/web)")
    app_id = str(fake.application_id)
    page_js = (
        "import { DiscordSDK } from './sdk/index.mjs';\n"
        f"const sdk = new DiscordSDK({json.dumps(app_id)});\n"
        "window.__result = (async () => {\n"
        "  await sdk.ready();\n"
        f"  const {{ code }} = await sdk.commands.authorize({{ client_id: {json.dumps(app_id)},"
        " response_type: 'code', state: '', prompt: 'none', scope: ['identify'] });\n"
        "  const r = await fetch('api/token', { method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({ code }) });\n"
        "  const { access_token } = await r.json();\n"
        "  const auth = await sdk.commands.authenticate({ access_token });\n"
        "  document.body.setAttribute('data-user', auth.user.id);\n"
        "  return { user: auth.user.id, instance: sdk.instanceId, custom: sdk.customId };\n"
        "})();\n"
    )

    async def index(request: web.Request) -> web.StreamResponse:
        return web.Response(text='<!doctype html><html><head><script type="module" src="page.js"></script>'
                            "</head><body></body></html>", content_type="text/html")  # fmt: skip

    async def page(request: web.Request) -> web.StreamResponse:
        return web.Response(text=page_js, content_type="application/javascript")

    async def token(request: web.Request) -> web.StreamResponse:  # the app's server: the code exchange
        code = (await request.json())["code"]
        status, body = await exchange(fake, code)
        return web.json_response(body, status=status)

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/page.js", page)
    app.router.add_post("/api/token", token)
    app.router.add_static("/sdk", SDK)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        fake.map_activity_url(f"http://127.0.0.1:{runner.addresses[0][1]}")
        inst = fake.launch_activity(ana, custom_id="table:9", platform="desktop")
        url = fake.activity_frame_url(inst, ana)
        async with chromium() as browser:
            tab = await browser.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda e: errors.append(str(e)))
            await tab.goto(url)
            frame = tab.frame_locator("#activity")
            await frame.locator(f"body[data-user='{ana.id}']").wait_for(state="attached", timeout=15000)
            child = tab.frames[1]
            result = await child.evaluate("window.__result")
            log = await tab.evaluate("window.__fakeDiscord")
        assert result == {"user": str(ana.id), "instance": inst.instance_id, "custom": "table:9"}, errors
        assert [m[0] for m in log["received"]][:1] == [0]
        cmds = [m[1]["cmd"] for m in log["received"] if m[0] == 1 and m[1]["cmd"] != "CAPTURE_LOG"]
        assert cmds == ["AUTHORIZE", "AUTHENTICATE"], cmds
        assert not errors
        assert any(h.path.startswith("/?frame_id=") for h in fake.activity_proxy.http_log)
        assert fake.violations == []
    finally:
        await runner.cleanup()
