"""Loopback HTTP probes the ops tests share: a free port, and a GET that tells "nothing listens
yet" (status 0) from an HTTP error (its status and body). Not a fixture; no network but 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(url: str) -> tuple[int, str]:
    """(status, body) of a GET, or (0, "") when nothing listens yet."""

    def fetch() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except OSError:
            return 0, ""

    return await asyncio.to_thread(fetch)
