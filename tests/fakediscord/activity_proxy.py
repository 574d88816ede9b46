"""The fake `<application id>.discordsays.com`: Discord's proxy in front of the Activity, and the
client frame (Discord's side of the Embedded App SDK's postMessage protocol).

What this is: an aiohttp server on 127.0.0.1 (its own port, `proxy.url`) that forwards every HTTP
request and WebSocket under `/` and `/.proxy/` (the prefix stripped) to the URL mapped with
`fake.map_activity_url(url)`, adds `Content-Security-Policy: default-src 'self'; connect-src
'self' ws: wss:` to every answer and drops the cache headers of `text/html` answers. It records
every request (`proxy.http_log`: method, path, status, body) and every WebSocket frame
(`proxy.ws_log`: direction "up" page→app or "down" app→page, text or bytes) for tests that scan
them for hidden cards.

The client frame: `fake.activity_frame_url(instance, user, platform=None)` is a page at
`/__fake_discord__/frame` that iframes the Activity at `/?frame_id=…&instance_id=…&platform=…
&channel_id=…&guild_id=…&custom_id=…` (same origin, so the SDK takes its messages). Its script
(frame.js, a file: the CSP forbids inline script) relays every message the Activity posts to
`/__fake_discord__/rpc`, where `FrameSession.answer` plays Discord: HANDSHAKE → READY; AUTHORIZE
→ a fresh code for the frame's user; AUTHENTICATE → the token's user, or ERROR; SUBSCRIBE /
UNSUBSCRIBE → {evt}; anything else → {} (listed in `FrameSession.other_commands`). Every message
both ways is in `FrameSession.received` / `.sent` (and in the page's `window.__fakeDiscord`).

What this is not: HTTPS, Discord's real CSP (undocumented), rate limits, or SDK events beyond READY.
"""

from __future__ import annotations

import asyncio
import html
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from . import payloads

if TYPE_CHECKING:
    from .activity import Activities, ActivityInstance
    from .records import FakeUser

CSP = "default-src 'self'; connect-src 'self' ws: wss:"
RESERVED = "/__fake_discord__"
CACHE_HEADERS = ("Cache-Control", "ETag", "Last-Modified", "Expires")
HOP = {"host", "connection", "upgrade", "keep-alive", "transfer-encoding", "content-length", "te", "trailer",
       "proxy-authorization", "proxy-connection", "accept-encoding", "sec-websocket-key", "sec-websocket-version",
       "sec-websocket-extensions", "sec-websocket-accept", "sec-websocket-protocol", "content-encoding"}  # fmt: skip
RPC_ERRORS = {"payload": 4000, "command": 4002, "client_id": 4007, "token": 4009, "oauth2": 5000}


@dataclass
class HttpLog:
    method: str
    path: str  # as the page asked for it (with /.proxy if it used it), query included
    status: int
    body: bytes
    content_type: str = ""


@dataclass
class WsLog:
    direction: str  # "up" (page → Activity) or "down" (Activity → page)
    data: str | bytes
    path: str = ""

    @property
    def text(self) -> str:
        return self.data if isinstance(self.data, str) else self.data.decode("utf-8", "replace")


@dataclass(eq=False)
class FrameSession:
    """One client frame: one user looking at one instance."""

    frame_id: str
    instance: ActivityInstance
    user: FakeUser
    platform: str
    activities: Activities
    received: list[Any] = field(default_factory=list)  # every [opcode, payload] the Activity posted
    sent: list[Any] = field(default_factory=list)  # every message the frame posted back
    other_commands: list[str] = field(default_factory=list)  # commands answered with a bare {}
    codes: list[str] = field(default_factory=list)
    handshaken: bool = False

    def activity_path(self) -> str:
        inst = self.instance
        query: dict[str, str] = {"frame_id": self.frame_id, "instance_id": inst.instance_id,
                                 "platform": self.platform, "channel_id": str(inst.channel_id),
                                 "location_id": inst.location_id}  # fmt: skip
        if inst.guild_id is not None:
            query["guild_id"] = str(inst.guild_id)
        custom_id = inst.custom_ids.get(self.user.id, inst.custom_id)
        if custom_id is not None:
            query["custom_id"] = custom_id
        return "/?" + urlencode(query)

    def user_json(self) -> dict[str, Any]:
        return {"id": str(self.user.id), "username": payloads.user_json(self.user)["username"],
                "discriminator": "0", "avatar": None, "global_name": self.user.global_name or self.user.name,
                "public_flags": 0}  # fmt: skip

    def answer(self, message: Any) -> list[Any]:
        self.received.append(message)
        out = self._answer(message)
        self.sent.extend(out)
        return out

    def _answer(self, message: Any) -> list[Any]:
        if not isinstance(message, list) or len(message) != 2 or not isinstance(message[1], dict):
            return []
        opcode, body = message
        if opcode == 0:  # HANDSHAKE
            fake = self.activities.fake
            if str(body.get("client_id")) != str(fake.application_id) or body.get("frame_id") != self.frame_id:
                return [[2, {"code": RPC_ERRORS["client_id"], "message": "handshake: wrong client_id or frame_id"}]]
            self.handshaken = True
            return [[1, {"cmd": "DISPATCH", "evt": "READY", "nonce": None, "data": {
                "v": 1, "config": {"cdn_host": "cdn.discordapp.com", "api_endpoint": "//discord.com/api",
                                   "environment": "production"},
                # avatar absent: the SDK's schema takes a string or nothing (a null fails it)
                "user": {k: v for k, v in self.user_json().items() if k in ("id", "username", "discriminator")},
            }}]]  # fmt: skip
        if opcode != 1:
            return []
        cmd, nonce, args = body.get("cmd"), body.get("nonce"), body.get("args") or {}

        def ok(data: Any) -> list[Any]:
            return [[1, {"cmd": cmd, "evt": None, "nonce": nonce, "data": data}]]

        def err(kind: str, text: str) -> list[Any]:
            data = {"code": RPC_ERRORS[kind], "message": text}
            return [[1, {"cmd": cmd, "evt": "ERROR", "nonce": nonce, "data": data}]]

        if not self.handshaken:
            return err("payload", "command before the handshake")
        if cmd == "AUTHORIZE":
            return self._authorize(args, ok, err)
        if cmd == "AUTHENTICATE":
            user, tok = self.activities.token_user(str(args.get("access_token") or ""))
            if user is None or tok is None or user.id != self.user.id:
                return err("token", "Invalid access token")
            fake = self.activities.fake
            expires = datetime.fromtimestamp(fake.clock.wall() + (tok.expires_at - fake.now()), UTC).isoformat()
            return ok({"access_token": tok.token, "user": self.user_json(), "scopes": tok.scopes, "expires": expires,
                       "application": {"id": str(fake.application_id), "name": fake.bot_name, "icon": None,
                                       "description": "Fake application for tests", "rpc_origins": []}})  # fmt: skip
        if cmd in ("SUBSCRIBE", "UNSUBSCRIBE"):
            return ok({"evt": body.get("evt")})
        if cmd == "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
            users = [self.activities.fake.users[u] for u in self.instance.users if u in self.activities.fake.users]
            return ok({"participants": [{**payloads.user_json(u), "nickname": u.name, "flags": 0} for u in users]})
        self.other_commands.append(str(cmd))
        return ok({})

    def _authorize(self, args: dict[str, Any], ok: Any, err: Any) -> list[Any]:
        scope = args.get("scope") or []
        scopes = scope.split() if isinstance(scope, str) else [str(s) for s in scope]
        if str(args.get("client_id")) != str(self.activities.fake.application_id):
            return err("client_id", "Invalid client id")  # type: ignore[no-any-return]
        if args.get("response_type") != "code":
            return err("oauth2", f"response_type {args.get('response_type')!r} is not code")  # type: ignore[no-any-return]
        if "identify" not in scopes:
            return err("oauth2", f"scope {scopes!r} lacks identify")  # type: ignore[no-any-return]
        code = self.activities.issue_code(self.user, scopes)
        self.codes.append(code)
        return ok({"code": code})  # type: ignore[no-any-return]


class ActivityProxy:
    """`<app>.discordsays.com` on 127.0.0.1 (`url`), forwarding to `target` (map_activity_url)."""

    def __init__(self, activities: Activities) -> None:
        self.activities = activities
        self.target: str | None = None
        self.http_log: list[HttpLog] = []
        self.ws_log: list[WsLog] = []
        self.frames: dict[str, FrameSession] = {}
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(f"{RESERVED}/frame", self.frame_page)
        app.router.add_get(f"{RESERVED}/frame.js", self.frame_script)
        app.router.add_post(f"{RESERVED}/rpc", self.rpc)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(auto_decompress=True, cookie_jar=aiohttp.DummyCookieJar())
        return self._session

    # ---- the client frame ------------------------------------------------------------------------

    def open_frame(self, instance: ActivityInstance, user: FakeUser, platform: str | None = None) -> FrameSession:
        if user.id not in instance.users:
            instance.join(user)
        frame = FrameSession(secrets.token_hex(8), instance, user, platform or instance.platform, self.activities)
        self.frames[frame.frame_id] = frame
        return frame

    def frame_url(self, instance: ActivityInstance, user: FakeUser, platform: str | None = None) -> str:
        frame = self.open_frame(instance, user, platform)
        return f"{self.url}{RESERVED}/frame?frame={frame.frame_id}"

    async def frame_page(self, request: web.Request) -> web.StreamResponse:
        frame = self.frames.get(request.query.get("frame", ""))
        if frame is None:
            return self._csp(web.Response(status=404, text="unknown frame"))
        src = html.escape(frame.activity_path(), quote=True)
        page = (
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>fake Discord frame</title>"
            f"<script src=\"{RESERVED}/frame.js\"></script></head>"
            f"<body><iframe id=\"activity\" data-frame=\"{frame.frame_id}\" data-src=\"{src}\""
            " allow=\"autoplay; clipboard-write\"></iframe></body></html>"
        )
        return self._csp(web.Response(text=page, content_type="text/html"))

    async def frame_script(self, request: web.Request) -> web.StreamResponse:
        return self._csp(web.Response(text=FRAME_JS, content_type="application/javascript"))

    async def rpc(self, request: web.Request) -> web.StreamResponse:
        data = await request.json()
        frame = self.frames.get(str(data.get("frame")))
        if frame is None:
            return self._csp(web.json_response({"replies": []}, status=404))
        return self._csp(web.json_response({"replies": frame.answer(data.get("message"))}))

    # ---- the proxy -------------------------------------------------------------------------------

    def _csp(self, response: web.StreamResponse) -> web.StreamResponse:
        response.headers["Content-Security-Policy"] = CSP
        return response

    async def forward(self, request: web.Request) -> web.StreamResponse:
        path = request.rel_url.path_qs
        upstream = request.rel_url.path
        if upstream == "/.proxy" or upstream.startswith("/.proxy/"):
            upstream = upstream[len("/.proxy") :] or "/"
        if self.target is None:
            self.http_log.append(HttpLog(request.method, path, 502, b""))
            return self._csp(web.Response(status=502, text="no URL mapping (fake.map_activity_url)"))
        query = request.rel_url.query_string
        url = self.target.rstrip("/") + upstream + (f"?{query}" if query else "")
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._websocket(request, url, headers, path)
        body = await request.read()
        try:
            async with self.session().request(request.method, url, headers=headers, data=body or None,
                                              allow_redirects=False) as up:  # fmt: skip
                data = await up.read()
                out = web.Response(status=up.status, body=data)
                for k, v in up.headers.items():
                    if k.lower() not in HOP and k.lower() != "content-security-policy":
                        out.headers.add(k, v)
                ctype = up.headers.get("Content-Type", "")
        except aiohttp.ClientError as exc:
            self.http_log.append(HttpLog(request.method, path, 502, b""))
            return self._csp(web.Response(status=502, text=f"upstream unreachable: {exc}"))
        if ctype.startswith("text/html"):
            for h in CACHE_HEADERS:
                out.headers.popall(h, None)
        self.http_log.append(HttpLog(request.method, path, up.status, data, ctype))
        return self._csp(out)

    async def _websocket(
        self, request: web.Request, url: str, headers: dict[str, str], path: str,
    ) -> web.StreamResponse:
        protocols = [p.strip() for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",") if p.strip()]
        headers.pop("Origin", None)
        try:
            up = await self.session().ws_connect(url.replace("http", "ws", 1), headers=headers, protocols=protocols,
                                                 autoclose=False, autoping=True)  # fmt: skip
        except (aiohttp.ClientError, aiohttp.WSServerHandshakeError):
            self.http_log.append(HttpLog(request.method, path, 502, b""))
            return self._csp(web.Response(status=502, text="upstream WebSocket refused"))
        down = web.WebSocketResponse(protocols=[up.protocol] if up.protocol else (), autoclose=False)
        self._csp(down)
        await down.prepare(request)
        self.http_log.append(HttpLog(request.method, path, 101, b""))

        async def pump(src: Any, dst: Any, direction: str) -> None:
            async for msg in src:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    self.ws_log.append(WsLog(direction, msg.data, path))
                    await dst.send_str(msg.data)
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    self.ws_log.append(WsLog(direction, msg.data, path))
                    await dst.send_bytes(msg.data)
                elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED,
                                  aiohttp.WSMsgType.ERROR):
                    break
            if not dst.closed:
                code = src.close_code if src.close_code is not None else 1000
                await dst.close(code=code if code not in (1005, 1006) else 1000)

        tasks = [asyncio.ensure_future(pump(down, up, "up")), asyncio.ensure_future(pump(up, down, "down"))]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            await asyncio.wait(tasks, timeout=2)
        finally:
            for t in tasks:
                t.cancel()
            if not up.closed:
                await up.close()
            if not down.closed:
                await down.close()
        return down


FRAME_JS = r"""// The fake Discord client frame: relays the Activity's postMessage protocol to the fake.
(function () {
  "use strict";
  var log = { received: [], sent: [], errors: [] };
  window.__fakeDiscord = log;
  function start() {
    var iframe = document.getElementById("activity");
    var frameId = iframe.getAttribute("data-frame");
    iframe.style.border = "0";
    iframe.style.width = "100%";
    iframe.style.height = "100vh";
    document.body.style.margin = "0";
    var queue = Promise.resolve();
    window.addEventListener("message", function (event) {
      if (event.source !== iframe.contentWindow) { return; }
      var message = event.data;
      if (typeof message === "string") {
        try { message = JSON.parse(message); } catch (e) { log.errors.push(String(e)); return; }
      }
      log.received.push(message);
      queue = queue.then(function () {
        return fetch("/__fake_discord__/rpc", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ frame: frameId, message: message })
        }).then(function (r) { return r.json(); }).then(function (answer) {
          (answer.replies || []).forEach(function (reply) {
            log.sent.push(reply);
            iframe.contentWindow.postMessage(reply, window.location.origin);
          });
        }).catch(function (e) { log.errors.push(String(e)); });
      });
    });
    iframe.src = iframe.getAttribute("data-src");
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
"""
