"""The Activity's wing under load: pages of many games kept current (issue 38's measured goals).

    python bench/activity.py [--games G] [--moves M] [--pace S] [--no-browser]

The server's process holds the fake Discord (``tests/fakediscord``, for the logins), a real
``GameService`` on a SQLite file and the real ``ActivityServer`` on 127.0.0.1
(``tests/activity/server_world.py``). It opens G gin games, each in a channel of its own, and
logs four pages into each (its two players and two onlookers, every one through the code
exchange and ``api/token``). A second process (``--client``, started by the first) holds those
G x 4 sockets, so the pages' work is not the server's: in every game the player to move plays
from what their own page shows (draw, then discard the card drawn; the next deal when one ends),
one move every ``S`` seconds per game (all games at once), M moves per game.

Printed: the time from a move's frame to every page of its game holding the new version
(p50/p95/p99/max; goal p99 <= 150 ms), the longest the server's event loop was held (a 5 ms
ticker's worst lateness; goal: never over 50 ms), the Discord REST requests the Activity's wing
made per move (the chat's own figure is bench/load.py's, docs/performance.md), and then, in
headless Chromium at 390x844 through the fake Discord's frame and proxy, the page's first load:
bytes transferred (goal <= 300 KB compressed) and the time until it shows the table. Nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STATIC = ROOT / "activity" / "static"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def choose(frame: dict[str, Any]) -> str | None:
    """The move a page's player makes from what the page shows: draw (or pass the upcard), then
    discard the card drawn; None when it is not their turn."""
    verbs = frame.get("verbs") or []
    if "draw" in verbs:
        return "draw"
    if "pass" in verbs:
        return "pass"
    if "discard" in verbs and frame.get("hand"):
        return f"discard {frame.get('drawn') or frame['hand'][-1]}"
    return None


# ----------------------------------------------------------------------------- the pages' process


async def client(plan: dict[str, Any]) -> dict[str, Any]:
    """G x 4 sockets; each game's mover plays M moves at its pace; the fan-out times."""
    url, moves, pace = plan["url"], plan["moves"], plan["pace"]
    latencies: list[float] = []
    lost = 0
    # No cap on connections: aiohttp's default of 100 would hold the 101st socket back for ever.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:

        async def game(sessions: list[str]) -> None:
            nonlocal lost
            sockets = [await http.ws_connect(url.replace("http", "ws") + "/ws") for _ in sessions]
            latest: list[dict[str, Any]] = [{} for _ in sessions]
            changed = asyncio.Event()

            async def read(i: int) -> None:
                async for msg in sockets[i]:
                    frame = json.loads(msg.data)
                    if frame.get("op") == "state":
                        latest[i] = frame
                        changed.set()

            readers = [asyncio.create_task(read(i)) for i in range(len(sockets))]
            for ws, session in zip(sockets, sessions, strict=True):
                await ws.send_str(json.dumps({"op": "hello", "session": session, "custom_id": None}))

            async def until(test: Any, timeout: float = 10) -> bool:
                deadline = time.perf_counter() + timeout
                while not test():
                    changed.clear()
                    left = deadline - time.perf_counter()
                    if left <= 0:
                        return False
                    try:
                        await asyncio.wait_for(changed.wait(), left)
                    except TimeoutError:
                        return False
                return True

            await until(lambda: all(f.get("version") for f in latest))
            for n in range(moves):
                await asyncio.sleep(pace)
                version = max(f["version"] for f in latest)
                mover = next((i for i, f in enumerate(latest) if f.get("version") == version and choose(f)), None)
                if mover is None:  # a deal's end (or nobody to move yet): the next deal, from a player's page
                    if latest[0].get("result") is not None and not latest[0].get("over"):
                        await sockets[0].send_str(json.dumps({"op": "next_deal", "id": n, "version": version}))
                        await until(lambda v=version: all(f.get("version", 0) > v for f in latest))
                    if latest[0].get("over"):
                        break
                    continue
                move = choose(latest[mover])
                start = time.perf_counter()
                await sockets[mover].send_str(json.dumps({"op": "move", "id": n, "move": move, "version": version}))
                if await until(lambda v=version: all(f.get("version", 0) > v for f in latest)):
                    latencies.append(time.perf_counter() - start)
                else:
                    lost += 1
            for ws in sockets:
                await ws.close()
            for r in readers:
                r.cancel()

        await asyncio.gather(*(game(s) for s in plan["games"]))
    return {"latencies": latencies, "lost": lost}


# ----------------------------------------------------------------------------- the server's process


async def first_load(world: Any, fake: Any) -> tuple[int, float] | None:
    """Bytes the page's first load transferred and the time until it shows the table, at 390x844."""
    try:
        from playwright.async_api import async_playwright  # noqa: F401
    except ImportError:
        return None
    from tests.browser import chromium

    fake.map_activity_url(world.url)
    ana = world.ana
    inst = fake.launch_activity(ana, fake.channel_id)
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Network.enable")
        sizes: dict[str, float] = {}

        def finished(event: dict[str, Any]) -> None:
            sizes[event["requestId"]] = event.get("encodedDataLength", 0)

        cdp.on("Network.loadingFinished", finished)
        start = time.perf_counter()
        await page.goto(fake.activity_frame_url(inst, ana, "mobile"))
        frame = None
        while frame is None and time.perf_counter() - start < 30:
            frame = next((f for f in page.frames if f != page.main_frame), None)
            await asyncio.sleep(0.02)
        assert frame is not None, "the page's frame never opened"
        await frame.wait_for_selector("[data-state]:not([data-state=''])", timeout=30_000)
        shown = time.perf_counter() - start
        await asyncio.sleep(0.3)  # the socket's first frames and any late asset
        return int(sum(sizes.values())), shown


async def server(games: int, moves: int, pace: float, browser: bool) -> None:
    from tests.activity.server_world import World
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord(rate_limits=None)
    await fake.start()
    fake.enable_activities()
    with tempfile.TemporaryDirectory() as tmp:
        world = World(fake, Path(tmp))
        world.static = STATIC
        await world.start(flood=None)  # many pages of the same four users: the bench is not a flood test
        world.svc.core.member_games = world.svc.core.server_games = games + 1  # the same two play every game
        dani = fake.add_user("Dani", locale="es-419")
        plan: dict[str, Any] = {"url": world.url, "moves": moves, "pace": pace, "games": []}
        for g in range(games):
            channel = fake.add_channel(f"mesa-{g}")
            await world.new_gin(world.ana, world.bea, channel=channel, seed=f"bench-{g}")
            plan["games"].append([await world.login(u, channel=channel) for u in (world.ana, world.bea,
                                                                                  world.carlos, dani)])
        held: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                held.append(time.perf_counter() - t - 0.005)

        requests_before = len(fake.requests)
        tick = asyncio.create_task(ticker())
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=str(ROOT))
        out, _ = await proc.communicate(json.dumps(plan).encode())
        stop.set()
        await tick
        requests = len(fake.requests) - requests_before
        result = json.loads(out)
        lat = [x * 1000 for x in result["latencies"]]
        print(f"Activity fan-out: {games} gin games x 4 pages (2 players, 2 onlookers), one move per game every "
              f"{pace:g} s, {len(lat)} moves measured, {result['lost']} not seen by every page within 10 s")
        if lat:
            print(f"  move -> every page of its game updated: p50 {pct(lat, .5):.1f} ms  p95 {pct(lat, .95):.1f} ms  "
                  f"p99 {pct(lat, .99):.1f} ms  max {max(lat):.1f} ms   (goal p99 <= 150 ms)")
        print(f"  event loop held: worst {max(held) * 1000:.1f} ms, p99 {pct(held, .99) * 1000:.1f} ms over "
              f"{len(held)} ticks   (goal: never over 50 ms)")
        print(f"  Discord REST requests by the Activity's wing: {requests} for {len(lat)} moves "
              f"({requests / max(1, len(lat)):.3f} a move; the chat's announcements are counted by bench/load.py)")
        if browser:
            loaded = await first_load(world, fake)
            if loaded is None:
                print("first load: not measured (playwright is not installed)")
            else:
                size, shown = loaded
                print(f"  first load at 390x844 through the proxy: {size / 1024:.1f} KB transferred "
                      f"(goal <= 300 KB compressed), the table shown after {shown * 1000:.0f} ms "
                      f"(login, api/token and the socket's first state included)")
        await world.stop()
    await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a game's moves")
    parser.add_argument("--no-browser", action="store_true", help="skip the first-load measurement")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        plan = json.loads(sys.stdin.read())
        sys.stdout.write(json.dumps(asyncio.run(client(plan))))
        return
    os.environ.setdefault("RUMMY_LOG_LEVEL", "WARNING")
    asyncio.run(server(args.games, args.moves, args.pace, not args.no_browser))


if __name__ == "__main__":
    main()
