"""The real bot under load, through our fake Discord on 127.0.0.1 (reliability.md R17).

    python bench/load.py [--games G] [--rounds R] [--seats S] [--variant V]
                         [--database-url URL|pgserver] [--processes N] [--lockstep]

Starts the fake Discord (``tests/fakediscord``) and the unmodified bot (``python -m bot``, its
own process and database: SQLite by default; ``--database-url`` a PostgreSQL URL, or ``pgserver``
for a throwaway local PostgreSQL 16), opens G lobbies in G channels with S players each, starts them, then
plays R moves in each: the player to move asks for suggestions (autocomplete) and plays one
through ``/rummy play``, all G games at the same time. Each move makes the bot
commit, answer with the player's hand picture (rendered) and refresh the table picture, so the
renderer is busy while acknowledgements are due.

Each game plays its R moves as fast as the bot answers it (``--lockstep``: every game's move of
a round at the same moment, then the next round), so the bot's process is the bottleneck: what
it commits a second is its ceiling on this machine, not the bench's pace.

Printed, over every ``/rummy play`` interaction: the acknowledgement (dispatch → the bot's first
callback, what Discord's 3-second rule is about; goal p99 < 1 s), the answer (dispatch → the
last request the bot made with the interaction's token: the hand picture delivered), and the
autocomplete answer; then the moves committed against the moves sent (nothing may be lost), and
how many "heartbeat blocked" warnings discord.py logged (the event loop stalled). Then Discord's
request budget (issue 37), as the fake Discord counted it once the bot had gone quiet: requests a
move with the bot's token (Discord allows a bot 50 a second over all its processes) and with
interaction tokens (outside that budget), each by route, the moves a second one bot could
sustain under the 50, and the 429s: how many, and how many were not waited out. At the end it
reads the bot's own ``/metrics`` (``RUMMY_METRICS_PORT``, summed over its processes) and prints
them beside the bench's figures: its acknowledgement and whole-turn histograms, moves committed,
interactions by outcome, transaction time and conflicts, render time, clock lag. With
``--processes N`` (PostgreSQL only) the bot runs as N shard processes of one cluster, the fake
Discord has a guild on each shard and the games are spread over them. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import load_game
from tests.e2e.helpers import PgReader, custom_ids, new_lobby
from tests.fakediscord import FakeDiscord
from tests.fakediscord.budget import totals
from tests.fakediscord.process import BotProcess

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
GLOBAL_LIMIT = 50  # Discord's requests a second with one bot token, over all its shards and processes
ACK_DEADLINE = 3.0  # seconds Discord gives an interaction's first answer
# Not a game's: the gateway, the bot's own user and the command sync at its start.
NOT_A_GAMES = ("GET /gateway", "GET /users/@me", "/applications/", "/commands")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{name:<34} n={len(ms):>4}  p50 {statistics.median(ms):7.1f} ms  p90 {pct(ms, 0.9):7.1f} ms  "
            f"p99 {pct(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def scrape(ports: list[int]) -> Samples:
    """Every sample of the bots' /metrics, summed over the processes (Prometheus's text parser)."""
    from prometheus_client.parser import text_string_to_metric_families

    out: Samples = defaultdict(float)
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            text = r.read().decode()
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                if not s.name.endswith("_created"):
                    out[(s.name, frozenset(s.labels.items()))] += s.value
    return out


def summed(found: Samples, name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= ls)


def quantile(found: Samples, name: str, q: float, **labels: str) -> float:
    """The upper bound of the histogram bucket holding the q-quantile (what the bot can tell)."""
    buckets: dict[float, float] = defaultdict(float)
    for (n, ls), v in found.items():
        if n == f"{name}_bucket" and set(labels.items()) <= ls:
            buckets[float(dict(ls)["le"])] += v
    if not buckets or not buckets[max(buckets)]:
        return float("nan")
    total = buckets[max(buckets)]
    return next(le for le in sorted(buckets) if buckets[le] >= q * total)


def metrics_lines(found: Samples, acks: list[float], committed: int) -> list[str]:
    """The bot's own figures beside the bench's."""
    def hist(name: str, **labels: str) -> str:
        n = int(summed(found, f"{name}_count", **labels))
        return (f"n={n:>4}  p50 <= {quantile(found, name, 0.5, **labels) * 1000:6.0f} ms  "
                f"p99 <= {quantile(found, name, 0.99, **labels) * 1000:6.0f} ms")

    outcomes: defaultdict[str, float] = defaultdict(float)
    for (n, ls), v in found.items():
        if n == "rummy_interactions_total":
            outcomes[dict(ls)["outcome"]] += v
    ms = [a * 1000 for a in acks]
    return [
        "== the bot's own /metrics, beside the bench's figures ==",
        f"acknowledgement, every interaction (bot)  {hist('rummy_ack_seconds')};  /rummy play (bench) "
        f"p50 {statistics.median(ms):.0f} ms p99 {pct(ms, 0.99):.0f} ms",
        f"whole turn, guarded interactions (bot)    {hist('rummy_turn_seconds')}",
        f"moves committed (bot) {int(summed(found, 'rummy_moves_committed_total', kind='move'))} person, "
        f"{int(summed(found, 'rummy_moves_committed_total'))} in all; (bench) {committed} in the timed rounds",
        "interactions by outcome (bot) " + ", ".join(f"{k} {int(v)}" for k, v in sorted(outcomes.items())),
        f"database transaction (bot)  {hist('rummy_db_transaction_seconds')};  conflicts "
        f"{int(summed(found, 'rummy_db_conflicts_total'))}",
        f"render (bot)  {hist('rummy_render_seconds')};  clock lag {hist('rummy_clock_lag_seconds')}",
        f"Discord HTTP errors (bot) {int(summed(found, 'rummy_discord_http_errors_total'))}; rate limited "
        f"{int(summed(found, 'rummy_discord_rate_limits_total'))}",
    ]


def budget_lines(counts: dict[tuple[str, str], int], moves: int, fake: FakeDiscord) -> list[str]:
    """Discord's request budget over the timed moves: per token kind and route, per move."""
    counts = {key: n for key, n in counts.items() if not any(part in key[1] for part in NOT_A_GAMES)}
    per = totals(counts)
    bot = per["bot"] / max(moves, 1)
    inter = per["interaction"] / max(moves, 1)
    sustained = f"{GLOBAL_LIMIT / bot:.0f}" if bot else "unbounded"
    ignored = sum(1 for r in fake.rate_limited if r.ignored_earlier)
    out = [
        "== Discord's request budget over the timed moves (issue 37; goal: at most 0.5 bot-token a move) ==",
        f"bot token {per['bot']} requests, {bot:.2f} a move; interaction tokens {per['interaction']}, "
        f"{inter:.2f} a move",
        f"moves a second one bot could sustain under Discord's {GLOBAL_LIMIT} a second: {sustained}",
        f"429s {len(fake.rate_limited)} ({sum(1 for r in fake.rate_limited if r.is_global)} global); "
        f"not waited out: {ignored}",
    ]
    for (kind, route), n in sorted(counts.items(), key=lambda item: (item[0][0], -item[1], item[0][1])):
        if kind in ("bot", "interaction"):
            out.append(f"  {kind:<11} {n / max(moves, 1):6.2f} a move  {n:6d}  {route}")
    return out


async def quiet(fake: FakeDiscord, seconds: float = 1.0, timeout: float = 60.0) -> None:
    """Until the bot has made no request for ``seconds`` (its last tables and turn calls sent)."""
    end = time.monotonic() + timeout
    seen, since = len(fake.requests), time.monotonic()
    while time.monotonic() - since < seconds and time.monotonic() < end:
        await asyncio.sleep(0.1)
        if len(fake.requests) != seen:
            seen, since = len(fake.requests), time.monotonic()


class Game:
    def __init__(self, fake: FakeDiscord, db: Path, channel: int, users: list[Any], pg: PgReader | None) -> None:
        self.fake, self.db, self.channel, self.users, self.pg = fake, db, channel, users, pg
        self.game_id = 0
        self.place = channel  # where the game's commands are typed: its thread once started

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self.pg is not None:
            return self.pg.query(sql, params)
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            return list(conn.execute(sql, params))
        finally:
            conn.close()

    async def open(self, variant: str) -> None:
        """Lobby, joins and start as ``tests/e2e/helpers.Table.open`` does: the host is answered
        privately and the lobby is posted in the channel; a join is acknowledged before its seat is
        written, so the start waits for every seat; once started, the game is played in its own
        thread (issue 12), or in the channel where no thread could be made."""
        lobby = await new_lobby(self.fake, self.users[0], {"variant": variant, "timer": 0}, self.channel,
                                timeout=60)
        self.game_id = int(custom_ids(lobby)[0].split(":")[2])
        for n, user in enumerate(self.users[1:], start=2):
            await (await self.fake.click(user, lobby, f"rummy:join:{self.game_id}")).settled(timeout=60)
            await self.wait_until(lambda n=n: self.query("SELECT COUNT(*) FROM seats WHERE game_id = ?",
                                                          (self.game_id,))[0][0] == n)
        await (await self.fake.click(self.users[0], lobby, f"rummy:start:{self.game_id}")).settled(timeout=60)
        await self.wait_until(lambda: self.query("SELECT status FROM games WHERE id = ?",
                                                 (self.game_id,))[0][0] == "playing")
        thread = self.query("SELECT thread_id FROM games WHERE id = ?", (self.game_id,))[0][0]
        self.place = int(thread) if thread else self.channel

    async def wait_until(self, predicate: Any, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise TimeoutError(f"game {self.game_id}: condition not reached")
            await asyncio.sleep(0.05)

    def actor(self) -> Any | None:
        status, record = self.query("SELECT status, record FROM games WHERE id = ?", (self.game_id,))[0]
        if status != "playing":
            return None
        game = load_game(record)
        if game.hand_over or not game.actors:
            return None
        uid = self.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?",
                         (self.game_id, game.actors[0]))[0][0]
        return next(u for u in self.users if u.id == uid)

    async def move(self, acks: list[float], answers: list[float], suggest: list[float]) -> int:
        user = self.actor()
        if user is None:
            return 0
        t0 = time.monotonic()
        choices = await self.fake.autocomplete(user, "rummy play", {"move": ""}, focused="move",
                                               channel=self.place, timeout=30)
        suggest.append(time.monotonic() - t0)
        if not choices:
            return 0
        rec = await (await self.fake.slash(user, "rummy play", {"move": choices[0]["value"]},
                                           channel=self.place)).settled(timeout=60, quiet=0.05)
        assert rec.response is not None
        acks.append(rec.response.elapsed)
        answers.append(max(r.at for r in rec.requests) - rec.dispatched_at)
        return 1


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rummy-load-"))
    url = args.database_url
    server = None
    if url == "pgserver":
        os.environ.setdefault("XDG_RUNTIME_DIR", str(tmp))  # before the import: pgserver keeps its locks there
        import pgserver

        server = pgserver.get_server(str(tmp / "pg"), cleanup_mode="delete")
        url = server.get_uri()
    if args.processes > 1 and not url:
        raise SystemExit("--processes needs PostgreSQL (--database-url)")
    pg = PgReader(url) if url else None
    fake = FakeDiscord(shard_count=args.processes, guild_shard=0)
    await fake.start()
    guilds = [fake.guild] + [fake.add_guild(f"Servidor {k}", shard=k) for k in range(1, args.processes)]
    bots = []
    ports = [free_port() for _ in range(args.processes)]
    for k in range(args.processes):
        env = {"RUMMY_FLOOD": "off", "RUMMY_METRICS_PORT": str(ports[k])}
        if url:
            env["RUMMY_DATABASE_URL"] = url
        if args.processes > 1:
            env.update(RUMMY_SHARD_COUNT=str(args.processes), RUMMY_SHARD_IDS=str(k), RUMMY_DEV_GUILD="")
        bots.append(BotProcess(fake, db_path=tmp / "rummy.sqlite3", log_path=tmp / f"bot{k}.log",
                               patch_gateway=False, env=env))
    try:
        shards = (lambda k: [k]) if args.processes > 1 else (lambda k: None)
        await asyncio.gather(*(b.start(ready_timeout=120, shards=shards(k)) for k, b in enumerate(bots)))
        games = []
        for g in range(args.games):
            guild = guilds[g % len(guilds)]
            channel = fake.add_channel(f"mesa-{g}", guild=guild)
            users = [fake.add_user(f"P{g}-{s}", locale="es-ES", guild=guild) for s in range(args.seats)]
            games.append(Game(fake, tmp / "rummy.sqlite3", channel, users, pg))
        await asyncio.sleep(0.5)  # the new channels and members reach the bots
        t0 = time.monotonic()
        await asyncio.gather(*(g.open(args.variant) for g in games))
        opened = time.monotonic() - t0
        await asyncio.sleep(1.0)  # the first tables are posted
        acks: list[float] = []
        answers: list[float] = []
        suggest: list[float] = []
        sent = 0
        versions = {g.game_id: g.query("SELECT version FROM games WHERE id = ?", (g.game_id,))[0][0] for g in games}
        await quiet(fake)
        start = len(fake.requests)
        t0 = time.monotonic()
        if args.lockstep:
            for _ in range(args.rounds):
                sent += sum(await asyncio.gather(*(g.move(acks, answers, suggest) for g in games)))
        else:
            async def play(g: Game) -> int:
                return sum([await g.move(acks, answers, suggest) for _ in range(args.rounds)])

            sent = sum(await asyncio.gather(*(play(g) for g in games)))
        played = time.monotonic() - t0
        await quiet(fake)
        counts = fake.request_counts(start)
        committed = sum(g.query("SELECT version FROM games WHERE id = ?", (g.game_id,))[0][0] - versions[g.game_id]
                        for g in games)
        log = "".join(b.log_text() for b in bots)
        backend = "PostgreSQL" if url else "SQLite"
        pace = "in lockstep rounds" if args.lockstep else "each game at its own pace"
        print(f"bench/load.py  {platform.python_implementation()} {platform.python_version()}  "
              f"{os.cpu_count()} cores  load average {os.getloadavg()[0]:.1f}  {backend}, "
              f"{args.processes} process{'es' if args.processes > 1 else ''}")
        print(f"{args.games} games of {args.variant}, {args.seats} seats each; lobbies opened and started in "
              f"{opened:.1f} s; {args.rounds} moves per game ({pace}) in {played:.1f} s")
        print(line("/rummy play: acknowledgement", acks))
        print(line("/rummy play: hand answered", answers))
        print(line("autocomplete answered (wall clock)", suggest))
        print(f"turns per second {committed / played:.1f}; moves sent {sent}, committed {committed}; "
              f"refused or lost: {sent - committed}")
        print(f"'heartbeat blocked' warnings: {log.count('heartbeat blocked')}; tracebacks: {log.count('Traceback')}; "
              f"fake Discord violations: {len(fake.violations)}")
        print(f"acknowledged after Discord's {ACK_DEADLINE:.0f} s: {sum(1 for a in acks if a > ACK_DEADLINE)} "
              f"of {len(acks)}")
        for text in budget_lines(counts, committed, fake):
            print(text)
        for text in metrics_lines(await asyncio.to_thread(scrape, ports), acks, committed):
            print(text)
    finally:
        for b in bots:
            if b.proc is not None and b.returncode is None:
                await b.terminate()
        await fake.stop()
        if pg is not None:
            pg.close()
        if server is not None:
            server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)  # the bots' logs and databases, and PostgreSQL's


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--variant", default="basic")
    ap.add_argument("--database-url", default="", help="PostgreSQL URL, or 'pgserver' for a local throwaway one")
    ap.add_argument("--processes", type=int, default=1, help="shard processes of one cluster (PostgreSQL)")
    ap.add_argument("--lockstep", action="store_true", help="every game's move of a round at once, round by round")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
