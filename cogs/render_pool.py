"""Pictures drawn off the event loop, the ones players wait for first, and replays drawn once.

What it is: ``Renders``, owned by the announcer (``cogs.announcer.Announcer.renders``), the one place
that runs a renderer. ``render`` runs one in a worker thread under one of ``RENDER_SLOTS`` slots:
the pictures players wait for (hands, tables, deal ends, lobbies, standings). ``replay`` runs the
expensive replay animation (seconds of CPU, megabytes) under slots of its own (``REPLAY_SLOTS``):
at most one replay is drawn at a time, and a hand or a table never queues behind one. A drawn
replay is kept in ``ReplayCache``, a least-recently-used cache bounded by bytes and keyed by
(game id, deal number, stamp): a finished deal never changes, so asking for it again draws nothing.
The stamp is the one exception's: while a finished deal is still the game's last one, a
resignation between deals is added to its record (one more frame), so the caller stamps it with
the game's version until the next deal begins, and with 0 from then on (``cogs.rummy``).
What it is not: no drawing (``renderers``), no Discord, no decision about which deal to replay
(``cogs.rummy``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from bot.ops import metrics
from renderers import Rendered

log = logging.getLogger(__name__)

T = TypeVar("T")

RENDER_SLOTS = 2  # renders at once (the machine's cores); more would only queue inside threads
REPLAY_SLOTS = 1  # replays drawn at once, beside the render slots, never in them
REPLAY_CACHE_BYTES = 32 * 1024 * 1024  # a replay is up to about 6 MB: the last few deals asked for

ReplayKey = tuple[int, int, int]  # (game id, deal number, stamp: see above)


class ReplayCache:
    """Drawn replays of finished deals, least recently used dropped first once over ``max_bytes``."""

    def __init__(self, max_bytes: int = REPLAY_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0  # bytes held
        self._items: OrderedDict[ReplayKey, Rendered] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: ReplayKey) -> Rendered | None:
        """The replay kept for ``key`` (now the most recently used), or None."""
        image = self._items.get(key)
        if image is not None:
            self._items.move_to_end(key)
        return image

    def put(self, key: ReplayKey, image: Rendered) -> None:
        """Keep ``image`` for ``key``, dropping the least recently used until the bytes fit. One
        larger than the whole bound is not kept (it would only empty the cache)."""
        if len(image.data) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old.data)
        self._items[key] = image
        self.size += len(image.data)
        while self.size > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped.data)


class Renders:
    """The render slots and the replay cache of one client."""

    def __init__(self, slots: int = RENDER_SLOTS, replay_slots: int = REPLAY_SLOTS,
                 cache_bytes: int = REPLAY_CACHE_BYTES) -> None:
        self._slots = asyncio.Semaphore(slots)
        self._replay_slots = asyncio.Semaphore(replay_slots)
        self.replays = ReplayCache(cache_bytes)

    async def render(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Pillow off the event loop, bounded (reliability.md §1.4, style.md pattern 10)."""
        with metrics.rendered(getattr(fn, "__name__", "render")):
            async with self._slots:
                return await asyncio.to_thread(fn, *args, **kwargs)

    async def replay(self, key: ReplayKey, fn: Callable[..., Rendered], /, *args: Any, **kwargs: Any) -> Rendered:
        """The replay of a finished deal: from the cache, else drawn by ``fn(*args, **kwargs)`` in
        the replay slot (not a render slot) and kept."""
        game_id, deal, _ = key
        image = self.replays.get(key)
        if image is None:
            async with self._replay_slots:
                image = self.replays.get(key)  # drawn meanwhile by the ask that held the slot
                if image is None:
                    with metrics.rendered("replay"):
                        image = await asyncio.to_thread(fn, *args, **kwargs)
                    self.replays.put(key, image)
                    log.info("replay of game %s deal %s rendered (%d bytes)", game_id, deal, len(image.data))
                    return image
        log.info("replay of game %s deal %s served from cache", game_id, deal)
        return image
