"""Reading games: the plain reads callers make (a channel's game, a game's results, the games
being played), and a game's engine and legal moves off the event loop, for autocomplete, hand
messages and the like (issue 15, hole 8).

What it is: ``Reading``, the ``reading`` part of ``GameService`` (a game's row and its engine as
cached are the core's: ``core.get``, ``core.engine``). ``in_channel``, ``last_in_channel``,
``results`` and ``running_games`` read the store; ``load`` (the engine's game at a row's
version: the cached one, else replayed from the record in a worker thread, which then warms the
cache) and ``legal_moves`` (a seat's legal moves, worked out in a worker thread once per game,
version and seat, and kept in a small bounded cache, its own state, so that every autocomplete
keystroke of a move costs a lookup). Concurrent misses
of the same key share one computation.
``replay_steps`` hands a finished game's deal, view by view, to whoever draws its replay.
``since_last_turn`` is what the table picture shows as the recent moves: this deal's record lines
since the acting seat's previous turn.
What it is not: no writes and no game lock. A worker never touches the cached game itself (the
lock's holder may be changing it): it gets a copy, or replays the record on its own.
"""

from __future__ import annotations

import asyncio
import pickle
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.engine import Game, Move, ReplayStep, deal_steps, load_game, log_moves
from bot.store import repo
from bot.store.rows import GameRow, ResultRow

from .changes import Refusal
from .core import Core

LEGAL_CACHE = 512  # (game, version, seat) entries: a few per game being played, the oldest dropped first

T = TypeVar("T")

# One thread for the engine's work. The engine is pure Python, so workers share the interpreter
# lock with the event loop: with one worker the loop waits at most a switch interval (5 ms) for
# it; with several it waits behind each in turn (measured in bench/table_moves.py: a burst of
# 100 keystrokes held the loop up to 100 ms with the default pool, 10 ms with one thread).
_ENGINE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummy-engine")


async def in_worker(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the engine's worker thread (pure engine work only: no I/O, no shared state)."""
    return await asyncio.get_running_loop().run_in_executor(_ENGINE, fn, *args)


class Reading:
    """Games found by channel, their results, the games being played; the engine and legal moves
    of a game, worked out in a worker thread on a cache miss (the legal moves' cache is its own,
    the engines' the core's)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        # (game, version, seat): the seat's legal moves then, the oldest dropped first past LEGAL_CACHE.
        self._legal: OrderedDict[tuple[int, int, str], tuple[Move, ...]] = OrderedDict()
        # The same keys being worked out now: a second asker waits for the first one's answer.
        self._legal_pending: dict[tuple[int, int, str], asyncio.Future[tuple[Move, ...]]] = {}

    # ------------------------------------------------------------------ rows
    async def in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or game played in the channel itself (not in a thread of its own)."""
        return await repo.active_in_channel(self.core.db, channel_id)

    async def last_in_channel(self, channel_id: int) -> GameRow | None:
        return await repo.last_finished_in_channel(self.core.db, channel_id)

    async def results(self, game_id: int) -> list[ResultRow]:
        """A finished game's results, best place first (empty for a game that was not scored)."""
        return await repo.results_of(self.core.db, game_id)

    async def running_games(self) -> list[int]:
        """The ids of the games being played (what a restart resumes), oldest first."""
        return await repo.running_games(self.core.db, self.core.shards)

    # ------------------------------------------------------------------ the engine, off the loop

    async def load(self, row: GameRow) -> Game:
        """``core.engine(row)``, with a cache miss replayed in a worker thread instead of on the event loop."""
        if row.quarantined_at is not None:
            raise Refusal("quarantined")
        cached = self.core.cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        game = await in_worker(load_game, row.record or "")
        self._warm(row, game)
        return game

    async def legal_moves(self, row: GameRow, seat: str, game: Game | None = None) -> list[Move]:
        """``seat``'s legal moves at ``row``'s version, worked out once per version in a worker
        thread. ``game``: the engine the caller holds for that row (a change's); it is used as it
        is, and the answer is kept only when it is the cached engine of that version (a game held
        since may have moved on)."""
        if row.quarantined_at is not None:
            raise Refusal("quarantined")
        cached = self.core.cache.get(row.id)
        current = cached[1] if cached is not None and cached[0] == row.version else None
        if game is not None and game is not current:
            return list(await in_worker(_copy(game).legal_moves, seat))
        key = (row.id, row.version, seat)
        found = self._legal.get(key)
        if found is not None:
            self._legal.move_to_end(key)
            return list(found)
        pending = self._legal_pending.get(key)
        if pending is None:
            # The copy is taken now: by the time the task runs, the lock's holder may be changing ``current``.
            pending = asyncio.ensure_future(self._work_out(row, seat, None if current is None else _copy(current)))
            self._legal_pending[key] = pending
            pending.add_done_callback(lambda _: self._legal_pending.pop(key, None))
        return list(await asyncio.shield(pending))

    async def _work_out(self, row: GameRow, seat: str, copy: Game | None) -> tuple[Move, ...]:
        if copy is not None:
            moves = tuple(await in_worker(copy.legal_moves, seat))
        else:
            loaded, moves = await in_worker(_load_and_list, row.record or "", seat)
            self._warm(row, loaded)
        self._legal[(row.id, row.version, seat)] = moves
        while len(self._legal) > LEGAL_CACHE:
            self._legal.popitem(last=False)
        return moves

    def _warm(self, row: GameRow, game: Game) -> None:
        """Keep a game replayed in a worker as the cached engine, unless a newer one is there already."""
        cached = self.core.cache.get(row.id)
        if cached is None or cached[0] < row.version:
            self.core.cache[row.id] = (row.version, game)


def _copy(game: Game) -> Game:
    """A copy taken on the loop, for a worker: the original may be changed meanwhile by the lock's
    holder (a pickle round trip, as ``Game.accepts`` copies)."""
    return pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))


def _load_and_list(record: str, seat: str) -> tuple[Game, tuple[Move, ...]]:
    game = load_game(record)
    return game, tuple(game.legal_moves(seat))


def replay_steps(row: GameRow, deal: int) -> list[ReplayStep]:
    """The public views of one deal of ``row``'s game, move by move (the engine's ``deal_steps``),
    for its replay. The callers replay only deals that are over, so every view is public and the
    end-of-deal hands are those the table was shown. Pure engine work: call it off the event loop."""
    return deal_steps(row.record or "", deal)


def since_last_turn(game: Game) -> list[str]:
    """This deal's record lines (``"<seat> <move>"``, oldest first) since the acting seat's
    previous turn: the other seats' turns since, then its own moves of this turn so far (what the
    table picture's ``recent`` shows). Empty at a deal's first move."""
    start = max((i + 1 for i, line in enumerate(game.log) if line.lstrip().startswith("[")), default=0)
    deal = [line for line in game.log[start:] if line.strip()]  # one move a line, as log_moves reads them
    seats = [seat for seat, _ in log_moves(deal)]
    actor = game.actors[0] if game.actors else None
    i = len(seats)
    while i and seats[i - 1] == actor:  # this turn so far
        i -= 1
    while i and seats[i - 1] != actor:  # everyone else's turns since
        i -= 1
    return deal[i:]
