"""The world the Activity server's tests run in: a fake Discord with Activities, a real
``GameService`` on a temporary SQLite file, and a real ``ActivityServer`` on 127.0.0.1 port 0,
all in the test's own process (no bot process: the server is what is tested; the lead's client
wires it to the chat).

What it is: ``World`` (users Ana, Bea, Carlos; ``new_gin`` starts a seated game in the guild's
channel; ``login`` exchanges a code for a session as the page does; ``page`` opens a socket and
says ``hello``) and ``Page`` (a socket's frames, collected as they come; ``wait`` for one that
matches, never a sleep). What it is not: tests.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from activity import ActivityServer
from bot.service import Change, GameRow, GameService
from bot.store import Database
from tests.bot.helpers import Clock
from tests.fakediscord import FakeDiscord, FakeUser

INDEX = '<!doctype html><html><head><script type="module" src="assets/app-1a2b.js"></script></head>' \
        '<body data-client="__RUMMY_CLIENT_ID__"></body></html>'


def write_static(root: Path) -> Path:
    """A tiny stand-in for the page helper's build: index.html and one asset."""
    (root / "assets").mkdir(parents=True, exist_ok=True)
    (root / "index.html").write_text(INDEX, encoding="utf-8")
    (root / "assets" / "app-1a2b.js").write_text("console.log('table')", encoding="utf-8")
    return root


class Page:
    """One page's socket: every frame the server sent, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self._changed = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(msg.data)
                self.frames.append(json.loads(msg.data))
                self._changed.set()
        self._changed.set()

    async def send(self, **frame: Any) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def wait(self, match: Callable[[dict[str, Any]], bool], timeout: float = 2.0,
                   after: int = 0) -> dict[str, Any]:
        """The first frame (from index ``after``) that ``match``es, waiting up to ``timeout`` s."""
        async def found() -> dict[str, Any]:
            while True:
                for frame in self.frames[after:]:
                    if match(frame):
                        return frame
                if self.ws.closed and self._reader.done():
                    raise AssertionError(f"socket closed; frames: {self.frames}")
                self._changed.clear()
                await self._changed.wait()
        return await asyncio.wait_for(found(), timeout)

    async def op(self, op: str, timeout: float = 2.0, after: int = 0, **fields: Any) -> dict[str, Any]:
        return await self.wait(lambda f: f.get("op") == op and all(f.get(k) == v for k, v in fields.items()),
                               timeout, after)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("op") == "state"]

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


class World:
    def __init__(self, fake: FakeDiscord, tmp: Path) -> None:
        self.fake = fake
        self.tmp = tmp
        self.static = write_static(tmp / "static")
        self.clock = Clock(time.time())
        self.ana = fake.add_user("Ana", locale="es-ES")
        self.bea = fake.add_user("Bea", locale="en-US")
        self.carlos = fake.add_user("Carlos", locale="es-ES")
        self.announced: list[Change] = []
        self.db: Database | None = None
        self.service: GameService | None = None
        self.server: ActivityServer | None = None
        self.http: aiohttp.ClientSession | None = None
        self.pages: list[Page] = []

    async def start(self, *, flood: tuple[float, int] | None = (2.0, 8)) -> None:
        self.db = await Database.open(self.tmp / "rummy.db")
        self.service = GameService(self.db, clock=self.clock)
        self.http = aiohttp.ClientSession()
        await self.start_server(flood=flood)

    async def start_server(self, *, flood: tuple[float, int] | None = (2.0, 8)) -> ActivityServer:
        async def announce(change: Change) -> None:
            self.announced.append(change)

        assert self.service is not None
        fake = self.fake
        self.server = ActivityServer(self.service, api_base=fake.api_base, application_id=fake.application_id,
                                     client_secret=fake.client_secret, bot_token=fake.token, host="127.0.0.1",
                                     port=0, announce=announce, static_dir=self.static, flood=flood)
        await self.server.start()
        return self.server

    async def stop(self) -> None:
        for page in self.pages:
            await page.close()
        if self.server is not None:
            await self.server.stop()
        if self.http is not None:
            await self.http.close()
        if self.db is not None:
            await self.db.close()

    @property
    def svc(self) -> GameService:
        assert self.service is not None
        return self.service

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}"

    async def new_gin(self, *players: FakeUser, channel: int | None = None, seed: str = "7") -> GameRow:
        players = players or (self.ana, self.bea)
        host = players[0]
        change = await self.svc.games.open_lobby(
            guild_id=self.fake.guild_id, channel_id=channel or self.fake.channel_id, host_id=host.id,
            host_name=host.name, variant="gin", timer_minutes=5)
        for user in players[1:]:
            await self.svc.games.join(change.game.id, user.id, user.name)
        return (await self.svc.games.start(change.game.id, host.id, seed=seed)).game

    async def post_token(self, user: FakeUser, instance_id: str) -> tuple[int, dict[str, Any]]:
        assert self.http is not None
        code = self.fake.activities.issue_code(user)
        async with self.http.post(self.url + "/api/token", json={"code": code, "instance_id": instance_id}) as r:
            return r.status, await r.json()

    async def login(self, user: FakeUser, custom_id: str | None = None, channel: int | None = None) -> str:
        """The page's login: the user launches (or joins) the channel's instance, the SDK's code is
        exchanged at ``api/token``; the session."""
        inst = self.fake.launch_activity(user, channel or self.fake.channel_id, custom_id=custom_id)
        status, body = await self.post_token(user, inst.instance_id)
        assert status == 200, body
        return str(body["session"])

    async def open_socket(self, path: str = "/ws") -> Page:
        assert self.http is not None
        page = Page(await self.http.ws_connect(self.url.replace("http", "ws") + path))
        self.pages.append(page)
        return page

    async def page(self, user: FakeUser, custom_id: str | None = None, *, session: str | None = None) -> Page:
        """A page of ``user`` that said hello and was shown its first state."""
        session = session or await self.login(user, custom_id)
        page = await self.open_socket()
        await page.send(op="hello", session=session, custom_id=custom_id)
        await page.op("welcome")
        await page.op("state")
        return page
