"""The Activity's web server: the page, its assets, the token exchange and the sockets, on the
bot's own event loop (docs/activity.md).

What it is: ``ActivityServer``, what the bot's client starts when ``RUMMY_ACTIVITY_PORT`` is set.
Its routes, each at ``/`` and under ``/.proxy/`` (every URL the page uses is relative):
``GET /`` (``static/index.html`` with ``__RUMMY_CLIENT_ID__`` replaced by the application id,
never cached), ``GET assets/<name>`` (content-hashed names, cached for a year), ``POST api/token``
(``{code, instance_id}`` -> ``{access_token, session, user, locale}``, ``activity.login``) and
``GET ws`` (``activity.sockets``). ``wake(game_id)`` is how a commit of this process reaches the
pages at once; the hub's poll brings every other change.
What it is not: no rules, no checks and no SQL (the service's), no Discord library: Discord is
reached over HTTP at the same API base as discord.py's, so a test's fake Discord serves both.
"""

from __future__ import annotations

import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from bot.ops.ratelimit import CLICK_BURST, CLICK_RATE, FloodGate
from bot.service import Change, GameService
from bot.service.activity_reads import ActivityReads
from bot.words.i18n import DEFAULT_LOCALE, translate

from .hub import Hub
from .login import Login, LoginRefused
from .sockets import Sockets

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
CLIENT_ID_MARK = "__RUMMY_CLIENT_ID__"
ASSET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}(?:/[A-Za-z0-9][A-Za-z0-9._-]{0,200}){0,4}")
YEAR = "public, max-age=31536000, immutable"  # assets' names change with their content
MAX_TOKEN_BODY = 4096


class ActivityServer:
    """The page, its assets, the code exchange and the sockets of one bot process."""

    def __init__(self, service: GameService, *, api_base: str, application_id: int, client_secret: str,
                 bot_token: str, host: str, port: int, announce: Callable[[Change], Awaitable[None]],
                 static_dir: Path | None = None, flood: tuple[float, int] | None = (CLICK_RATE, CLICK_BURST),
                 poll: float | None = None) -> None:
        self.service = service
        self.application_id = application_id
        self.host = host
        self.port = port
        self.static_dir = static_dir or STATIC
        self.reads = ActivityReads(service.core, service.acting, service.reading)
        self.hub = Hub(service, self.reads) if poll is None else Hub(service, self.reads, poll=poll)
        self.login = Login(api_base=api_base, application_id=application_id, client_secret=client_secret,
                           bot_token=bot_token, clock=service.core.now)
        self.sockets = Sockets(service, self.reads, self.hub, self.login, announce,
                               FloodGate(*flood) if flood else None)
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ running
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_TOKEN_BODY)
        for base in ("", "/.proxy"):
            app.router.add_get(f"{base}/", self.index)
            app.router.add_get(f"{base}/assets/{{name:.+}}", self.asset)
            app.router.add_post(f"{base}/api/token", self.token)
            app.router.add_get(f"{base}/ws", self.sockets.handle)
        return app

    async def start(self) -> None:
        """Bind and serve (``port`` 0: any free one, then ``self.port`` is the one bound)."""
        await self.login.start()
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        bound = runner.addresses
        if bound:
            self.port = int(bound[0][1])
        await self.hub.start()
        log.info("the Activity is served on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        await self.hub.stop()
        await self.sockets.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.login.close()

    async def drain(self, timeout: float) -> int:
        """Stopping: no new frame is taken; wait for those in hand (``Sockets.drain``)."""
        return await self.sockets.drain(timeout)

    def wake(self, game_id: int) -> None:
        """A commit of this process changed ``game_id``: its pages get a fresh state now."""
        self.hub.wake(game_id)

    # ------------------------------------------------------------------ routes
    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page, with the application id the SDK needs; never cached (its assets are)."""
        path = self.static_dir / "index.html"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            log.error("the Activity's page is missing: %s (build activity/web)", path)
            return web.Response(status=503, text="The table's page is not built.",
                                headers={"Cache-Control": "no-store"})
        return web.Response(text=text.replace(CLIENT_ID_MARK, str(self.application_id)), content_type="text/html",
                            charset="utf-8", headers={"Cache-Control": "no-store"})

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        root = (self.static_dir / "assets").resolve()
        if not ASSET_NAME.fullmatch(name) or ".." in name:
            raise web.HTTPNotFound()
        path = (root / name).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise web.HTTPNotFound()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return web.Response(body=path.read_bytes(), content_type=kind,
                            headers={"Cache-Control": YEAR, "X-Content-Type-Options": "nosniff"})

    async def token(self, request: web.Request) -> web.StreamResponse:
        """``{code, instance_id}`` -> ``{access_token, session, user: {id, name}, locale}``; a
        refused code is 401, an unknown instance 404, a user not in it 403 (``{error, reason}``)."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return self._refused(LoginRefused(400, "bad_request"))
        try:
            access, who = await self.login.exchange(body.get("code"), body.get("instance_id"))
        except LoginRefused as exc:
            return self._refused(exc)
        return web.json_response({"access_token": access, "session": self.login.seal(who),
                                  "user": {"id": str(who.user_id), "name": who.name}, "locale": who.locale},
                                 headers={"Cache-Control": "no-store"})

    @staticmethod
    def _refused(exc: LoginRefused) -> web.Response:
        key = f"activity.login.{exc.code}"
        reason = translate(key if exc.code != "discord" else "refusal.error", DEFAULT_LOCALE)
        return web.json_response({"error": exc.code, "reason": reason}, status=exc.status,
                                 headers={"Cache-Control": "no-store"})
