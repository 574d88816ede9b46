"""The local cost of a turn, in one process without Discord (figures for docs/performance.md).

    python bench/turn.py [--turns N] [--games G] [--bursts B] [--render-threads T] [--seed S]

A turn is what the bot does between receiving a move and having the new table ready to send:
``GameService.acting.play`` (the game's lock, load, the engine's move, one ``BEGIN IMMEDIATE ...
COMMIT`` on a real database file with WAL and ``synchronous=FULL``), then ``game.public_view()`` on the loop
and ``renderers.render_table(view, names=...)`` (draw + palette PNG) in a thread through
``asyncio.to_thread``, as the cogs do. The players are random (legal moves, half the time the
engine's first suggestion), four seats of basic rummy; a finished game is followed by a new one.

1. Alone: N turns one after another (after 20 unmeasured ones); p50, p99 and max of the whole
   turn and of its two halves (the service's commit, the render).
2. Burst: G games each receive one interaction at the same moment, B times. A gateway reader
   hands them out one by one (decoding each payload, yielding to the loop between frames, as
   discord.py's reader does) and each interaction gets its own task, like discord.py's
   dispatch. The acknowledgement is the moment a handler reaches the ``await`` that would send
   its defer: how long the loop takes to get there while the other handlers commit and render
   (renders off the loop, at most T at once through a semaphore). Also printed: the time until
   each handler's table is ready.

Goals (issue "bench/turn.py"): alone p50 <= 25 ms and p99 <= 60 ms; acknowledgement p99 under
100 ms in the burst. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import PIL  # noqa: E402

from bot.engine import Game  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Database, GameRow  # noqa: E402
from renderers import render_table, warm_up  # noqa: E402

VARIANT, SEATS = "basic", 4
WARM_TURNS = 20
INTERACTION_IDS = itertools.count(1)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def line(label: str, ms: list[float], goal: str = "") -> None:
    print(
        f"  {label:46} p50 {statistics.median(ms):6.1f}  p99 {pct(ms, 0.99):6.1f}  max {max(ms):6.1f}"
        f"  min {min(ms):5.1f} ms  (n={len(ms)}){'  ' + goal if goal else ''}"
    )


class Table:
    """One 4-seat game and the random player choosing its next move."""

    def __init__(self, svc: GameService, channel: int, rng: random.Random) -> None:
        self.svc, self.channel, self.rng = svc, channel, rng
        # The game's row and its engine: both None before the first game, then set together.
        self.row: GameRow | None = None
        self.game: Game | None = None
        self.games = 0

    async def new(self) -> None:
        users = [self.channel * 10 + i for i in range(1, SEATS + 1)]
        change = await self.svc.games.open_lobby(
            guild_id=1, channel_id=self.channel, host_id=users[0], host_name="Ana", variant=VARIANT, timer_minutes=5
        )
        for u, name in zip(users[1:], ("Bea", "Carmen", "Dani"), strict=True):
            await self.svc.games.join(change.game.id, u, name)
        change = await self.svc.games.start(change.game.id, users[0], seed=f"{self.channel}-{self.games}")
        self.row, self.game = change.game, change.engine
        self.games += 1

    def engine(self) -> Game:
        """The engine of the game being played (``start``, ``next_deal`` and ``play`` return it)."""
        assert self.game is not None
        return self.game

    async def ready(self) -> None:
        """Make sure a move is possible: deal the next hand, or start a new game."""
        while self.row is None or self.row.status != "playing" or self.engine().hand_over:
            if self.row is None or self.row.status != "playing":
                await self.new()
            else:
                change = await self.svc.acting.next_deal(self.row.id, None)
                self.row, self.game = change.game, change.engine

    def choose(self) -> tuple[int, str]:
        assert self.row is not None  # after ready()
        game = self.engine()
        seat = self.rng.choice(game.actors)
        moves = game.legal_moves(seat)
        move = moves[0] if self.rng.random() < 0.5 else self.rng.choice(moves)
        player = self.row.by_seat(seat)
        assert player is not None  # every actor sits at the table
        return player.user_id, move


class Turn:
    def __init__(self, render_threads: int) -> None:
        self.threads = render_threads
        self.sem = asyncio.Semaphore(render_threads)

    async def __call__(self, svc: GameService, table: Table, user: int, move: str) -> tuple[float, float, int]:
        """One turn: commit, then render off the loop. Returns (commit ms, render ms, bytes)."""
        assert table.row is not None  # after table.ready()
        t0 = time.perf_counter()
        change = await svc.acting.play(
            table.row.id, user, move, interaction_id=next(INTERACTION_IDS), version=table.row.version
        )
        t1 = time.perf_counter()
        assert change.engine is not None  # a move played returns the game's engine
        view = change.engine.public_view()
        async with self.sem:
            rendered = await asyncio.to_thread(render_table, view, names=change.game.names, locale=change.game.locale)
        t2 = time.perf_counter()
        table.row, table.game = change.game, change.engine
        return (t1 - t0) * 1000, (t2 - t1) * 1000, len(rendered.data)


async def alone(svc: GameService, turns: int, turn: Turn, rng: random.Random) -> None:
    table = Table(svc, 1, rng)
    total, commit, render, sizes = [], [], [], []
    for i in range(WARM_TURNS + turns):
        await table.ready()
        user, move = table.choose()
        c, r, size = await turn(svc, table, user, move)
        if i >= WARM_TURNS:
            commit.append(c)
            render.append(r)
            total.append(c + r)
            sizes.append(size)
    print(
        f"Alone: {turns} turns of 4-seat {VARIANT} one after another (games played: {table.games}; "
        f"tables of {min(sizes) // 1024}-{max(sizes) // 1024} KB)"
    )
    line("turn (commit + render)", total, "goal: p50 <= 25, p99 <= 60")
    line("  service.play (lock, load, engine, commit)", commit)
    line("  public_view + render_table (thread)", render)


INTERACTION = json.dumps(
    {  # the size and shape of an INTERACTION_CREATE payload (decoded per frame)
        "t": "INTERACTION_CREATE",
        "s": 42,
        "op": 0,
        "d": {
            "id": "1",
            "application_id": "2",
            "type": 3,
            "token": "x" * 180,
            "version": 1,
            "locale": "es-ES",
            "guild_id": "3",
            "channel_id": "4",
            "app_permissions": "2248473465835073",
            "member": {
                "user": {"id": "5", "username": "ana", "global_name": "Ana", "avatar": "a" * 32},
                "roles": [str(i) for i in range(5)],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "permissions": "2248473465835073",
                "nick": None,
            },
            "message": {
                "id": "6",
                "channel_id": "4",
                "content": "",
                "embeds": [],
                "attachments": [{"id": "7", "filename": "table.png", "size": 60000, "url": "https://cdn/x.png"}],
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"rummy:move:1:{i}:v12"}
                            for i in range(5)
                        ],
                    }
                ],
            },
            "data": {"custom_id": "rummy:draw:1:v12", "component_type": 2},
        },
    }
)


async def burst(svc: GameService, games: int, bursts: int, turn: Turn, rng: random.Random) -> None:
    tables = [Table(svc, 100 + g, random.Random(rng.random())) for g in range(games)]
    for t in tables:
        await t.ready()
        for _ in range(rng.randrange(8)):  # not all at the very start of a game
            user, move = t.choose()
            await turn(svc, t, user, move)
            await t.ready()
    acks: list[float] = []
    ready: list[float] = []
    walls: list[float] = []

    async def handler(table: Table, user: int, move: str, received: float) -> None:
        acks.append((time.perf_counter() - received) * 1000)
        await asyncio.sleep(0)  # the defer: an HTTP request the handler awaits
        await turn(svc, table, user, move)
        ready.append((time.perf_counter() - received) * 1000)

    for _ in range(bursts):
        for t in tables:
            await t.ready()
        clicks = [(t, *t.choose()) for t in tables]  # what each player clicked (not timed)
        received = time.perf_counter()
        tasks = []
        for t, user, move in clicks:  # the gateway reader: one frame at a time
            json.loads(INTERACTION)
            tasks.append(asyncio.create_task(handler(t, user, move, received)))
            await asyncio.sleep(0)  # the reader awaits the next frame: the loop runs other handlers
        await asyncio.gather(*tasks)
        walls.append((time.perf_counter() - received) * 1000)
        await asyncio.sleep(0.05)
    print(
        f"Burst: {games} games receive one interaction each at the same moment, {bursts} times "
        f"(renders: at most {turn.threads} threads at once)"
    )
    line("acknowledgement (receipt -> defer)", acks, "goal: p99 < 100")
    line("table ready (receipt -> committed + rendered)", ready)
    print(f"  whole burst: p50 {statistics.median(walls):.0f} ms, max {max(walls):.0f} ms")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--bursts", type=int, default=10)
    ap.add_argument("--render-threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    load = os.getloadavg()
    print(
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, Pillow {PIL.__version__}, "
        f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    await asyncio.to_thread(warm_up)  # as the bot does at start-up
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        try:
            mode_row = await db.fetchone("PRAGMA journal_mode")
            sync_row = await db.fetchone("PRAGMA synchronous")
            assert mode_row is not None and sync_row is not None  # a PRAGMA query answers with one row
            mode, sync = mode_row[0], sync_row[0]
            print(f"Database: {tmp}/bench.db, journal_mode={mode}, synchronous={sync} (2 = FULL)")
            svc = GameService(db)
            await alone(svc, args.turns, Turn(args.render_threads), rng)
            await burst(svc, args.games, args.bursts, Turn(args.render_threads), rng)
        finally:
            await db.close()
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
