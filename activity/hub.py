"""The pages this process serves, by game, and how a change reaches them (docs/activity.md,
"Changes reach every page").

What it is: ``Hub``. A page ``watch``es the game it shows (or, showing none, its channel); a
commit of this process ``wake``s the game's pages at once; every 250 ms the hub reads the stored
versions of every watched game in one query and wakes the games whose version moved (another
shard process, the clock, a computer player, a chat move); every two seconds it asks the pages
that show no game to look at their channel again (a lobby opened there). Waking a game reads its
row and engine once and hands them to each of its pages (``Page.show``), one refresh of a game at
a time: a wake during one runs it again after.
What it is not: no frames and no socket handling (``activity.sockets``), no writes; a page that
fails to take a state is the page's affair (its socket closes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from bot.engine import Game
from bot.service import GameRow, GameService
from bot.service.activity_reads import ActivityReads

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25  # docs/activity.md: every change reaches every page within a second
IDLE_POLLS = 8  # pages that show no game look at their channel again every 8 polls (2 s)


class Page(Protocol):
    """What the hub needs of a page."""

    async def show(self, row: GameRow, game: Game | None) -> None:
        """Send the page its state of ``row`` (its engine ``game``, None before a deal)."""

    async def look_again(self) -> None:
        """A page that shows no game: look at the channel's games again."""


class Hub:
    """Pages by game; wakes on this process's commits and on the versions' poll."""

    def __init__(self, service: GameService, reads: ActivityReads, *, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.reads = reads
        self.poll = poll
        self.pages: dict[int, set[Page]] = {}
        self.idle: set[Page] = set()  # pages that show no game
        self.known: dict[int, int] = {}  # game id -> the version its pages were last shown
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._poller: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ pages
    def watch(self, page: Page, game_id: int | None, version: int | None = None) -> None:
        """``page`` shows ``game_id`` now (None: no game), shown at ``version``."""
        self.forget(page)
        if game_id is None:
            self.idle.add(page)
            return
        self.pages.setdefault(game_id, set()).add(page)
        if version is not None:
            # ``known`` is the version every page of the game has: a page that read an older row
            # than the others were shown lowers it, so the next poll brings that page up to date.
            self.known[game_id] = min(self.known.get(game_id, version), version)

    def forget(self, page: Page) -> None:
        """``page`` is gone, or shows something else."""
        self.idle.discard(page)
        for game_id in [g for g, pages in self.pages.items() if page in pages]:
            pages = self.pages[game_id]
            pages.discard(page)
            if not pages:
                del self.pages[game_id]
                self.known.pop(game_id, None)

    def all_pages(self) -> set[Page]:
        return {p for pages in self.pages.values() for p in pages} | self.idle

    # ------------------------------------------------------------------ waking
    def wake(self, game_id: int) -> None:
        """A change of ``game_id`` is committed: its pages get a fresh state (now, or right
        after the refresh under way)."""
        if game_id not in self.pages:
            return
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                await self._show(game_id)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("refreshing the Activity's pages of game %s failed", game_id)
        finally:
            self._running.pop(game_id, None)

    async def _show(self, game_id: int) -> None:
        row = await self.service.core.get(game_id)
        pages = list(self.pages.get(game_id, ()))
        if row is None or not pages or self.known.get(game_id) == row.version:
            return  # gone, unwatched, or every page of it has this version already (a second wake)
        game = await self.service.reading.load(row) if row.record else None
        self.known[game_id] = row.version
        shown = await asyncio.gather(*(page.show(row, game) for page in pages), return_exceptions=True)
        for failed in (r for r in shown if isinstance(r, Exception)):
            log.warning("an Activity page of game %s did not take its state: %r", game_id, failed)

    # ------------------------------------------------------------------ the poll
    async def start(self) -> None:
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self) -> None:
        tasks = [t for t in (self._poller, *self._running.values()) if t is not None]
        self._poller = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _poll(self) -> None:
        polls = 0
        while True:
            await asyncio.sleep(self.poll)
            polls += 1
            try:
                await self.poll_once(idle=polls % IDLE_POLLS == 0)
            except Exception:  # a database hiccup: the next poll tries again
                log.exception("the Activity's poll of game versions failed")

    async def poll_once(self, *, idle: bool = False) -> None:
        """One poll: the watched games' versions in one query; the games that moved are woken.
        ``idle``: the pages that show no game look at their channel again too."""
        if self.pages:
            stored = await self.reads.versions(list(self.pages))
            for game_id, version in stored.items():
                if self.known.get(game_id) != version:
                    self.wake(game_id)
        if idle:
            for page in list(self.idle):
                await page.look_again()
