"""Loaded by Python at start-up in bot processes that tests/fakediscord/process.py spawns (via PYTHONPATH).

What this is: three safety nets for a bot running against the fake Discord.
1. A network guard: DNS look-ups of names other than localhost, and connections to addresses other
   than loopback, fail at once (socket.gaierror / OSError) and are reported to the fake
   (`FakeDiscord.violations`) and to stderr, so no test traffic can leave 127.0.0.1.
2. Pointing discord.py's gateway at the fake: discord.Client, and an AutoShardedClient given a
   `shard_count`, never ask GET /gateway/bot; they connect straight to
   `DiscordWebSocket.DEFAULT_GATEWAY` (wss://gateway.discord.gg/), which setting `Route.BASE` does
   not change. (An AutoShardedClient without `shard_count` uses the URL /gateway/bot returns.) When
   FAKEDISCORD_PATCH_GATEWAY=1 this sets DEFAULT_GATEWAY to RUMMY_DISCORD_GATEWAY. A bot that sets
   it itself (after this runs) wins.
3. A watchdog thread that exits the process when the test process that spawned it dies.

What this is not: a sandbox. Code that opens raw sockets through C extensions (c-ares, libcurl)
bypasses it; it only covers Python's socket module, which aiohttp and asyncio use.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from typing import Any

_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback_host(host: Any) -> bool:
    """True for None (a local bind), localhost names and loopback addresses."""
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    name = str(host).strip("[]").lower().split("%")[0]
    if name in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _report(what: str) -> None:
    sys.stderr.write(f"FAKEDISCORD GUARD: blocked {what}\n")
    port = os.environ.get("FAKEDISCORD_CONTROL_PORT")
    if not port:
        return
    try:
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=2)
        conn.request("POST", "/_fake/guard", body=what.encode(), headers={"Content-Type": "text/plain"})
        conn.getresponse().read()
        conn.close()
    except Exception as exc:  # the report is best effort; the block itself already happened
        sys.stderr.write(f"FAKEDISCORD GUARD: could not report: {exc!r}\n")


def _install_guard() -> None:
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not is_loopback_host(host):
            _report(f"DNS lookup of {host!r}")
            raise socket.gaierror(socket.EAI_NONAME, f"fakediscord guard: lookup of {host!r} blocked")
        return real_getaddrinfo(host, *args, **kwargs)

    def _check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback_host(address[0]):
            _report(f"connection to {address!r}")
            raise OSError(101, f"fakediscord guard: connection to {address!r} blocked")

    def connect(self: socket.socket, address: Any) -> None:
        _check(self, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _check(self, address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo
    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]


def _patch_gateway() -> None:
    url = os.environ.get("RUMMY_DISCORD_GATEWAY")
    if not url:
        return
    try:
        import yarl
        from discord.gateway import DiscordWebSocket
    except ImportError:
        return
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def _watch_parent() -> None:
    """Exit when the test process that spawned us dies, so no orphan bot keeps reconnecting."""
    import threading
    import time

    expected = int(os.environ.get("FAKEDISCORD_PARENT_PID", "0"))
    if os.getppid() != expected:
        return  # not the process BotProcess spawned (e.g. a grandchild): leave it alone

    def run() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != expected:
                sys.stderr.write("FAKEDISCORD: test process gone, exiting\n")
                os._exit(70)

    threading.Thread(target=run, name="fakediscord-parent-watch", daemon=True).start()


if os.environ.get("FAKEDISCORD_PARENT_PID"):
    _watch_parent()
if os.environ.get("FAKEDISCORD_GUARD") == "1":
    _install_guard()
if os.environ.get("FAKEDISCORD_PATCH_GATEWAY") == "1":
    _patch_gateway()
