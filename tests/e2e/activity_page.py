"""Driving the Activity's page in real headless Chromium, through the fake Discord's client frame
and its `discordsays.com` proxy, against the real bot (``python -m bot``) serving the Activity.

What it is: ``ActivityBot`` (the fake with Activities, the bot booted with ``RUMMY_ACTIVITY_PORT``,
the proxy mapped to that port; ``restart`` boots it again on the same database and port) and
``TablePage`` (one Playwright page on ``fake.activity_frame_url``: the page lives in the frame's
``#activity`` iframe; it reads the contract's hooks, waits for them, and plays by taps, by mouse
drags and by touch drags, the latter as real touch input through the DevTools protocol, so
Chromium makes the pointer events a phone's webview would).
What it is not: a model of the page. Every wait is for a hook (``data-version``, ``data-state``,
``data-turn``, ``data-action``), never a sleep.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, custom_ids, new_lobby
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activity import ActivityInstance

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ROOT = "#app"
CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|JK)$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ActivityBot:
    """The fake Discord with Activities and the real bot serving the Activity on ``port``."""

    fake: FakeDiscord
    tmp: Path
    users: list[Any]
    port: int = field(default_factory=free_port)
    table: Table | None = None
    boots: int = 0

    @property
    def env(self) -> dict[str, str]:
        return {"RUMMY_FLOOD": "off", "RUMMY_ACTIVITY_PORT": str(self.port),
                "DISCORD_CLIENT_SECRET": self.fake.client_secret}

    async def start(self) -> Table:
        self.fake.enable_activities()
        bot = await boot(self.fake, self.tmp / "rummy.sqlite3", self.tmp / "bot.log", self.env)
        self.boots = 1
        self.fake.map_activity_url(f"http://127.0.0.1:{self.port}")
        self.table = Table(self.fake, bot, self.tmp / "rummy.sqlite3", self.users)
        return self.table

    async def restart(self) -> None:
        """Stop the bot and boot it again on the same database and port."""
        assert self.table is not None
        await self.table.bot.terminate()
        assert "Traceback" not in self.table.bot.log_text(), self.table.bot.log_text()[-3000:]
        self.boots += 1
        self.table.bot = await boot(self.fake, self.table.db_path, self.tmp / f"bot{self.boots}.log", self.env)

    async def stop(self) -> None:
        if self.table is not None and self.table.bot.returncode is None:
            await self.table.bot.terminate()

    async def lobby(self, variant: str, options: str = "", timer: int = 0) -> int:
        """``/rummy new`` by the first user, in chat: the lobby's game id."""
        t = self.table
        assert t is not None
        args: dict[str, Any] = {"variant": variant, "timer": timer}
        if options:
            args["options"] = options
        t.lobby = await new_lobby(self.fake, self.users[0], args, t.channel)
        t.game_id = int(custom_ids(t.lobby)[0].split(":")[2])
        return t.game_id

    def launch(self, user: Any, platform: str) -> ActivityInstance:
        """``user`` opens the Activity on the game (its *Open the table* custom_id)."""
        assert self.table is not None
        return self.fake.launch_activity(user, None, custom_id=f"rummy:activity:{self.table.game_id}",
                                         platform=platform)


class TablePage:
    """One user's page in Chromium (``page``: the fake Discord's client frame; ``frame``: the Activity)."""

    def __init__(self, page: Any, user: Any, touch: bool) -> None:
        self.page = page
        self.user = user
        self.touch = touch
        self.app = page.frame_locator("#activity")
        self.frame: Any = None
        self._cdp: Any = None

    @classmethod
    async def open(cls, browser: Any, bot: ActivityBot, instance: ActivityInstance, user: Any, *, phone: bool,
                   state: str | None = "playing") -> TablePage:
        if phone:
            context = await browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=2)
        else:
            context = await browser.new_context(viewport=DESKTOP)
        page = await context.new_page()
        self = cls(page, user, touch=phone)
        await page.goto(bot.fake.activity_frame_url(instance, user, "mobile" if phone else "desktop"))
        handle = await page.wait_for_selector("#activity")
        for _ in range(200):
            self.frame = await handle.content_frame()
            url = "" if self.frame is None else self.frame.url
            if url and "/__fake_discord__/" not in url and url != "about:blank":
                break
            await asyncio.sleep(0.05)
        await self._wait("the page's first state", self.frame.wait_for_selector(f"{ROOT}[data-version]",
                                                                                timeout=20000))
        if state is not None:
            await self.wait_state(state)
        return self

    async def close(self) -> None:
        await self.page.context.close()

    # ------------------------------------------------------------------ reading the hooks
    def locator(self, selector: str) -> Any:
        return self.frame.locator(selector)

    async def root(self) -> dict[str, str | None]:
        return dict(await self.frame.eval_on_selector(
            ROOT, "el => ({state: el.getAttribute('data-state'), version: el.getAttribute('data-version'),"
                  " variant: el.getAttribute('data-variant'), conn: el.getAttribute('data-conn')})"))

    async def version(self) -> int:
        return int((await self.root())["version"] or -1)

    async def describe(self) -> str:
        """What the page shows, for a failure's message."""
        try:
            shown = f"{await self.root()} actions {await self.actions()} refusal {await self.refusal()!r}"
            return f"{self.user.name}: {shown}"
        except Exception as exc:  # the page is gone: say so
            return f"{self.user.name}: {exc!r}"

    async def _wait(self, what: str, waiting: Any) -> None:
        try:
            await waiting
        except Exception as exc:
            raise AssertionError(f"{what}: {exc.__class__.__name__}; {await self.describe()}") from None

    async def wait_version(self, at_least: int, timeout: float = 10) -> int:
        await self._wait(f"version >= {at_least}", self.frame.wait_for_function(
            "n => Number(document.querySelector('#app')?.getAttribute('data-version') ?? -1) >= n", arg=at_least,
            timeout=timeout * 1000))
        return await self.version()

    async def wait_exact(self, version: int, timeout: float = 10) -> None:
        await self._wait(f"version {version}", self.frame.wait_for_function(
            "n => document.querySelector('#app')?.getAttribute('data-version') === String(n)", arg=version,
            timeout=timeout * 1000))

    async def wait_for(self, selector: str, timeout: float = 5) -> None:
        await self._wait(selector, self.frame.wait_for_selector(selector, timeout=timeout * 1000))

    async def wait_state(self, state: str, timeout: float = 15) -> None:
        await self._wait(f"state {state}", self.frame.wait_for_selector(f"{ROOT}[data-state='{state}']",
                                                                         timeout=timeout * 1000))

    async def actions(self) -> list[str]:
        return [a for a in await self.frame.eval_on_selector_all(
            "button[data-action]", "els => els.filter(e => !e.disabled).map(e => e.getAttribute('data-action'))")]

    async def hand(self) -> list[str]:
        return list(await self.frame.eval_on_selector_all(
            "[data-zone='hand'] [data-card]", "els => els.map(e => e.getAttribute('data-card'))"))

    async def cards_shown(self) -> list[str]:
        """Every ``data-card`` in the page's DOM."""
        return list(await self.frame.eval_on_selector_all(
            "[data-card]", "els => els.map(e => e.getAttribute('data-card'))"))

    async def html(self) -> str:
        return str(await self.frame.content())

    async def refusal(self) -> str | None:
        el = self.locator("[role='alert'][data-refusal]")
        return None if await el.count() == 0 else str(await el.first.inner_text())

    # ------------------------------------------------------------------ acting
    async def tap(self, selector: str) -> None:
        el = self.locator(selector).first
        if self.touch:
            await el.tap()
        else:
            await el.click()

    async def center(self, selector: str, scroll: bool = True) -> tuple[float, float]:
        el = self.locator(selector).first
        if scroll:
            await el.scroll_into_view_if_needed()
        box = await el.bounding_box()
        size = self.page.viewport_size
        assert box is not None, f"{selector} is not shown"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert 0 <= x < size["width"] and 0 <= y < size["height"], f"{selector} is off the screen at {x}, {y}"
        return x, y

    async def drag(self, source: str, target: str) -> None:
        """Drag ``source`` onto ``target``: by the mouse on a desktop page, by a finger on a phone."""
        await self.locator(target).first.scroll_into_view_if_needed()
        await self.locator(source).first.scroll_into_view_if_needed()
        x1, y1 = await self.center(target, scroll=False)
        x0, y0 = await self.center(source, scroll=False)
        steps = 8
        if not self.touch:
            await self.page.mouse.move(x0, y0)
            await self.page.mouse.down()
            for i in range(1, steps + 1):
                await self.page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            await self.page.mouse.up()
            return
        if self._cdp is None:
            self._cdp = await self.page.context.new_cdp_session(self.page)

        async def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]
            await self._cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        await touch("touchStart", x0, y0)
        for i in range(1, steps + 1):
            await touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        # A finger rests before it lifts: lifted while moving, Chromium flings, and the next tap
        # only stops the fling (no click), as on a phone.
        for _ in range(3):
            await asyncio.sleep(0.04)
            await touch("touchMove", x1, y1)
        await touch("touchEnd", x1, y1)

    async def press(self, action: str) -> None:
        await self.tap(f"button[data-action='{action}']")

    async def session(self) -> str:
        """The page's own session (sessionStorage), as a forger in the page could read it."""
        return str(await self.frame.evaluate(
            "() => { for (let i = 0; i < sessionStorage.length; i++) { const k = sessionStorage.key(i);"
            " if (k && k.includes('session')) return sessionStorage.getItem(k); } return null; }"))


def frames_text(fake: FakeDiscord) -> list[str]:
    """Every WebSocket frame and HTTP answer body through the proxy, as text."""
    proxy = fake.activity_proxy
    out = [w.data if isinstance(w.data, str) else w.data.decode("utf-8", "replace") for w in proxy.ws_log]
    out += [h.body.decode("utf-8", "replace") for h in proxy.http_log if h.body]
    return out


def json_frames(fake: FakeDiscord, direction: str = "down") -> list[dict[str, Any]]:
    out = []
    for w in fake.activity_proxy.ws_log:
        if w.direction == direction and isinstance(w.data, str):
            try:
                out.append(json.loads(w.data))
            except ValueError:
                continue
    return out
