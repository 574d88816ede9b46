"""The bot's Prometheus metrics and the calls the floors make to move them.

What it is: one registry (``REGISTRY``) with every metric of the bot (names in ``NAMES``), and
small functions the seams call like they call ``logging``: the guard (``interaction``), the HTTP
trace of the client (``discord_response``: acknowledgements, errors, rate limits), the service's
one transaction and commit (``transaction``, ``conflict``, ``committed``), the clock
(``clock_lag``) and the render pool (``rendered``). The gauges that are states rather than
events (games by status, quarantined games, shard readiness, gateway latency) are refreshed at
each scrape from what the client hands ``server``. Moving a metric never fails and never waits:
they are counted whether or not ``RUMMY_METRICS_PORT`` serves them.
What it is not: no HTTP server (``bot.ops.server``), no Discord, no SQL, no domain import.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.ops.logs import current_shard

T = TypeVar("T")

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds: an acknowledgement must reach Discord within 3 s; a turn is a click to its last answer.
_FAST = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
_DB = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

INTERACTIONS = Counter("rummy_interactions", "Interactions handled, by shard, kind and outcome",
                       ["shard", "kind", "outcome"], registry=REGISTRY)
ACK_SECONDS = Histogram("rummy_ack_seconds", "From an interaction's creation to its acknowledgement reaching Discord",
                        ["shard"], buckets=_FAST, registry=REGISTRY)
TURN_SECONDS = Histogram("rummy_turn_seconds", "From an interaction's creation to the end of its handling",
                         ["shard"], buckets=_SLOW, registry=REGISTRY)
MOVES = Counter("rummy_moves_committed", "Game changes committed (a person's move, a computer player's, a "
                "timeout, a deal...), by kind and variant", ["kind", "variant"], registry=REGISTRY)
GAMES = Gauge("rummy_games", "Games of this process's guilds by status and variant (refreshed at each scrape)",
              ["status", "variant"], registry=REGISTRY)
QUARANTINED = Gauge("rummy_games_quarantined", "Games in play set aside because their record no longer loads",
                    registry=REGISTRY)
CLOCK_LAG = Histogram("rummy_clock_lag_seconds", "How late a stored deadline was served after it fell due",
                      buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0), registry=REGISTRY)
RENDER_SECONDS = Histogram("rummy_render_seconds", "Time to draw a picture (queue wait in the render slot included)",
                           ["picture"], buckets=_SLOW, registry=REGISTRY)
TX_SECONDS = Histogram("rummy_db_transaction_seconds", "A service transaction, from begin to commit or rollback",
                       ["outcome"], buckets=_DB, registry=REGISTRY)
TX_CONFLICTS = Counter("rummy_db_conflicts", "Writes refused by the database: another writer's newer version "
                       "(version) or a unique key (duplicate)", ["reason"], registry=REGISTRY)
HTTP_ERRORS = Counter("rummy_discord_http_errors", "Discord REST answers with an error status, by status",
                      ["status"], registry=REGISTRY)
RATE_LIMITS = Counter("rummy_discord_rate_limits", "Discord REST answers 429 (rate limited), by scope",
                      ["scope"], registry=REGISTRY)
GATEWAY_LATENCY = Gauge("rummy_gateway_latency_seconds", "Gateway heartbeat latency per shard",
                        ["shard"], registry=REGISTRY)
SHARD_READY = Gauge("rummy_shard_ready", "1 when the shard is connected and READY, else 0", ["shard"],
                    registry=REGISTRY)

NAMES = ("rummy_interactions_total", "rummy_ack_seconds", "rummy_turn_seconds", "rummy_moves_committed_total",
         "rummy_games", "rummy_games_quarantined", "rummy_clock_lag_seconds", "rummy_render_seconds",
         "rummy_db_transaction_seconds", "rummy_db_conflicts_total", "rummy_discord_http_errors_total",
         "rummy_discord_rate_limits_total", "rummy_gateway_latency_seconds", "rummy_shard_ready")

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
DISCORD_EPOCH = 1420070400.0


def _shard() -> str:
    shard = current_shard()
    return "none" if shard is None else str(shard)


def snowflake_seconds(snowflake: int) -> float:
    """The Unix time a Discord id was made at."""
    return (snowflake >> 22) / 1000 + DISCORD_EPOCH


def interaction(kind: str, outcome: str, created: float) -> None:
    """The guard finished an interaction of ``kind`` (command, component, modal) with ``outcome``
    (ok, refused, stale, flood, restarting, discord_error, error); ``created``: its Unix time."""
    shard = _shard()
    INTERACTIONS.labels(shard, kind, outcome).inc()
    TURN_SECONDS.labels(shard).observe(max(0.0, time.time() - created))


def discord_response(method: str, path: str, status: int, scope: str | None = None) -> None:
    """A Discord REST answer (the client's HTTP trace): an interaction callback that succeeded is
    the acknowledgement (its latency from the interaction's id); an error status is counted, a 429
    as a rate limit too. ``path`` may hold an interaction token: it is read here, never kept."""
    match = _CALLBACK.search(path)
    if match is not None and status < 400 and method == "POST":
        ACK_SECONDS.labels(_shard()).observe(max(0.0, time.time() - snowflake_seconds(int(match.group(1)))))
    if status >= 400:
        HTTP_ERRORS.labels(str(status)).inc()
    if status == 429:
        RATE_LIMITS.labels(scope or "user").inc()


@asynccontextmanager
async def transaction(inner: AbstractAsyncContextManager[T]) -> AsyncIterator[T]:
    """``inner`` (a store transaction) timed from begin to commit or rollback, labelled so."""
    start = time.perf_counter()
    outcome = "rolled_back"
    try:
        async with inner as value:
            yield value
        outcome = "committed"
    finally:
        TX_SECONDS.labels(outcome).observe(time.perf_counter() - start)


def conflict(reason: str) -> None:
    """A write refused: ``version`` (another writer was first) or ``duplicate`` (a unique key)."""
    TX_CONFLICTS.labels(reason).inc()


def committed(kind: str, variant: str) -> None:
    """One game change committed (``ChangeKind``'s value)."""
    MOVES.labels(kind, variant).inc()


def clock_lag(now: float, deadlines: Iterable[float | None]) -> None:
    """The clock is serving a game at ``now``: how late its oldest past deadline is."""
    past = [d for d in deadlines if d is not None and d <= now]
    if past:
        CLOCK_LAG.observe(now - min(past))


@contextmanager
def rendered(picture: str) -> Iterator[None]:
    """Time drawing one picture (named by its renderer function)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        RENDER_SECONDS.labels(picture).observe(time.perf_counter() - start)


def set_games(counts: Iterable[tuple[str, str, int]], quarantined: int) -> None:
    """The games of this process's guilds: (status, variant, count) rows, and the quarantined."""
    GAMES.clear()
    for status, variant, count in counts:
        GAMES.labels(status, variant).set(count)
    QUARANTINED.set(quarantined)


def set_shards(shards: Iterable[tuple[int, bool, float | None]]) -> None:
    """Each shard this process holds: (id, READY, heartbeat latency in seconds or None)."""
    SHARD_READY.clear()
    GATEWAY_LATENCY.clear()
    for shard, ready, latency in shards:
        SHARD_READY.labels(str(shard)).set(1 if ready else 0)
        if latency is not None and latency == latency and latency != float("inf"):  # not NaN/inf before a beat
            GATEWAY_LATENCY.labels(str(shard)).set(latency)


def exposition() -> bytes:
    """The registry in Prometheus's text format."""
    return generate_latest(REGISTRY)
