"""The operator's HTTP endpoints: ``/metrics``, ``/healthz`` and ``/readyz`` on one port.

What it is: ``OpsServer``, a small aiohttp server on the bot's own event loop (aiohttp comes with
discord.py), started only when ``RUMMY_METRICS_PORT`` is set. ``/metrics`` refreshes the state
gauges (``refresh``, handed by the client: games by status, shards) and answers the registry in
Prometheus's text format; ``/healthz`` answers 200 when the process is alive and its database
answers (``healthy``, handed by the client), else 503; ``/readyz`` answers 200 when every shard the
process holds is READY (``ready``), else 503. Being on the loop, health asks the database the way
the bot does, and a loop stuck for good shows as a probe that times out.
What it is not: no Discord, no SQL (the client's callables do that), no metric definitions
(``bot.ops.metrics``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.ops import metrics

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 5.0  # seconds the database may take to answer a health probe


class OpsServer:
    def __init__(self, host: str, port: int, *, healthy: Callable[[], Awaitable[None]],
                 ready: Callable[[], bool], refresh: Callable[[], Awaitable[None]]) -> None:
        self.host, self.port = host, port
        self._healthy, self._ready, self._refresh = healthy, ready, refresh
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("metrics and health on http://%s:%s (/metrics, /healthz, /readyz)", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self._refresh(), HEALTH_TIMEOUT)
        except Exception as exc:  # the counters still answer; the state gauges keep their last values
            log.warning("metrics: refreshing the game and shard gauges failed: %r", exc)
        body = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self._healthy(), HEALTH_TIMEOUT)
        except Exception as exc:
            return web.Response(status=503, text=f"unhealthy: {type(exc).__name__}\n")
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        if self._ready():
            return web.Response(text="ready\n")
        return web.Response(status=503, text="not ready\n")
