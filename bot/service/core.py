"""The one state the service's parts share: the database, the time source, the per-game locks and
engine cache, the one transaction helper, and the commit of a changed game.

What it is: ``Core``, built once by ``GameService`` and handed to every part (``games``,
``clock``, ``records``...), which keeps it as ``self.core``. Every write goes through
``transaction``: one store transaction; on any failure the game's cached engine is dropped (it
may hold the change that did not commit), another writer's newer version becomes ``Stale`` and,
where asked, a duplicate key becomes a ``Refusal``. ``commit`` is the path every engine change
takes (a move, a timeout, a deal, a closed window): the new record, the next version, the
deadlines, the action-log row, the seats' timeouts and resignations and, when the game ends, its
results and (a rated game) the players' skill ratings, in that one transaction.
Its members, for the parts: ``db``, ``now`` (the time source: never the wall clock directly),
``shards``, the limits (``bot_delay``, ``bot_budget``, ``deal_pause``, ``lobby_ttl``,
``member_games``, ``server_games``, ``idle_seconds``), ``on_deadline``; ``lock``, ``cache``,
``get``/``row``/``engine``/``working_game`` (a game's row and engine), ``check_caps`` (and
``check_caps_early``), ``transaction``, ``deadlines``, ``commit`` and ``tell_deadline``.
What it is not: no operation of its own (the parts hold those, each with its own state), no
Discord, no SQL (``bot.store.repo``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import fields, replace
from typing import Any

from bot.engine import Event, Game, Move, Verb, load_game, log_moves, parse_line
from bot.ops import logs, metrics
from bot.store import Duplicate, Store, Transaction, repo
from bot.store import drafts as draft_store
from bot.store.rows import AuditAction, GameRow, GameStatus

from .changes import Change, ChangeKind, Refusal, Stale
from .deadlines import deadlines
from .ratings_update import rate_game

log = logging.getLogger(__name__)

LOBBY_TTL = 30 * 60  # a lobby nobody starts expires (issue: 30 minutes)
DEAL_PAUSE = 20.0  # seconds between deals unless someone presses "Next deal"
BOT_DELAY = 2.0  # seconds a computer player waits before each move, so people can follow it
MEMBER_GAMES = 3  # lobbies and games one member sits in at once (issue 15, hole 8)
SERVER_GAMES = 25  # lobbies and games one server runs at once
IDLE_DAYS = 7.0  # a game with no turn timer that nobody moves in for this long ends, unscored
# At most this long for a computer player's move (issue 11 budgets: 50 ms gin, 500 ms Rami): past
# it, something is wrong, and the easy level moves instead so the game goes on.
BOT_BUDGET = 10.0


class Core:
    """The state the service's parts share, the game reads they all make, and the one way they write."""

    def __init__(
        self, db: Store, *, now: Callable[[], float] = time.time, deal_pause: float = DEAL_PAUSE,
        lobby_ttl: float = LOBBY_TTL, bot_delay: float = BOT_DELAY, shards: repo.Shards | None = None,
        member_games: int = MEMBER_GAMES, server_games: int = SERVER_GAMES, idle_days: float = IDLE_DAYS,
        bot_budget: float = BOT_BUDGET,
    ) -> None:
        self.db = db
        # (shard count, shard ids): this process serves the deadlines and restarts of those guilds
        # only; None serves every guild (one process holds every shard).
        self.shards = shards
        self.now = now  # the service's time source (tests pass a fake one as ``GameService(clock=...)``)
        self.bot_delay = bot_delay
        self.bot_budget = bot_budget
        self.deal_pause = deal_pause
        self.lobby_ttl = lobby_ttl
        self.member_games = member_games
        self.server_games = server_games
        self.idle_seconds = idle_days * 86400
        # A game's lock lives while someone holds it or waits on it (each keeps a reference),
        # then leaves the table by itself: the table never grows with the games ever played.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Game id: (version, the engine's game at it). Only committed versions are in it: a game
        # being changed leaves it (``working_game``) and comes back with its commit.
        self.cache: dict[int, tuple[int, Game]] = {}
        # Told the soonest deadline each commit writes (the client's clock wakes for it when it
        # sleeps past it: a person's move hands the turn to a computer player, who moves after its
        # own short pause, not at the clock's next poll).
        self.on_deadline: Callable[[float], None] | None = None

    # ------------------------------------------------------------------ reading
    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: every change to one game runs under it, one at a time (and the game is
        the log context of the work from here on, ``bot.ops.logs``)."""
        logs.bind_game(game_id)
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int) -> GameRow | None:
        return await repo.get_game(self.db, game_id)

    async def row(self, game_id: int) -> GameRow:
        """``get``, for a game that must exist: none is ``Refusal("no_game")``."""
        row = await self.get(game_id)
        if row is None:
            raise Refusal("no_game")
        return row

    def engine(self, row: GameRow) -> Game:
        """The engine's game at this row's version, to read only (views, legal moves): the cached
        one when it is at that version, else rebuilt from the record. A quarantined game (its
        record would not load) is ``Refusal("quarantined")``."""
        if row.quarantined_at is not None:
            raise Refusal("quarantined")
        cached = self.cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        return load_game(row.record or "")

    def working_game(self, row: GameRow) -> Game:
        """The game to change under the lock. It leaves the cache while it changes, so readers
        never see a move that is not committed; ``commit`` puts it back at its new version. A
        quarantined game is ``Refusal("quarantined")``."""
        if row.quarantined_at is not None:
            raise Refusal("quarantined")
        cached = self.cache.pop(row.id, None)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        return load_game(row.record or "")

    async def check_caps(self, tx: Transaction, user_id: int, guild_id: int | None = None) -> None:
        """Inside a write: refuse a seat beyond the member's cap, and (``guild_id``: a new lobby) a
        game beyond the server's. The named locks make shard processes sharing PostgreSQL count
        one at a time (always the member's before the server's, so two never wait on each other)."""
        await tx.lock_name(f"member-games:{user_id}")
        await self.check_caps_early(tx, user_id)
        if guild_id is not None:
            await tx.lock_name(f"server-games:{guild_id}")
            await self.check_caps_early(tx, None, guild_id)

    async def check_caps_early(self, tx: Transaction | Store, user_id: int | None,
                               guild_id: int | None = None) -> None:
        """The caps as they stand (outside a write: to refuse before anything is written)."""
        if user_id is not None and await repo.member_games(tx, user_id) >= self.member_games:
            raise Refusal("member_games", max=self.member_games)
        if guild_id is not None and await repo.server_games(tx, guild_id) >= self.server_games:
            raise Refusal("server_games", max=self.server_games)

    # ------------------------------------------------------------------ writing
    @asynccontextmanager
    async def transaction(
        self, row: GameRow | None = None, *, duplicate: str | None = None
    ) -> AsyncIterator[Transaction]:
        """The one way the service writes. ``row``: the game being changed (loaded under its lock);
        if the transaction fails, its cached engine is dropped, and if another writer (another
        ``GameService`` on the same database) changed the game meanwhile, the answer is ``Stale``
        with the fresh row. ``duplicate``: the refusal code for a write that breaks a unique key
        (without it that error is raised as it is)."""
        try:
            async with metrics.transaction(self.db.transaction()) as tx:
                if row is not None:
                    # Across processes (PostgreSQL) the row lock, then the version check in the
                    # write, make a move atomic; in one process the game's asyncio lock already does.
                    await tx.lock_game(row.id)
                yield tx
        except Duplicate as exc:
            self._forget(row)
            metrics.conflict("duplicate")
            if duplicate is None:
                raise
            raise Refusal(duplicate) from exc
        except repo.VersionConflict as exc:
            self._forget(row)
            metrics.conflict("version")
            if row is None:
                raise
            raise Stale(await self.row(row.id)) from exc
        except BaseException:
            self._forget(row)
            raise

    def _forget(self, row: GameRow | None) -> None:
        if row is not None:
            self.cache.pop(row.id, None)

    def deadlines(self, row: GameRow, before_seat: str | None, game: Game, now: float, *,
                  renew: bool = False) -> dict[str, Any]:
        """The deadline columns a change of ``row`` to ``game`` writes (``bot.service.deadlines``)."""
        return deadlines(row, before_seat, game, now, deal_pause=self.deal_pause, bot_delay=self.bot_delay,
                         renew=renew)

    def tell_deadline(self, at: float) -> None:
        """A deadline at ``at`` was just written: tell ``on_deadline`` (the client's clock), if set."""
        if self.on_deadline is not None:
            self.on_deadline(at)

    async def commit(
        self, row: GameRow, game: Game, kind: ChangeKind, user_id: int | None, seat: str | None, move: str | None,
        events: list[Event], interaction_id: int | None, before: tuple[str | None, Any], *,
        reset_timeouts: bool = False, timed_out: int | None = None, audit: tuple[int, AuditAction, str] | None = None,
    ) -> Change:
        """Store ``game`` after an engine change to ``row`` (see the module's docstring). A
        repeated interaction id is ``Refusal("already_done")``."""
        logs.bind_game(row.id, row.guild_id)
        now = self.now()
        values = self.deadlines(row, before[0], game, now, renew=kind == ChangeKind.BOT)
        values["record"] = game.record()
        if game.game_over:
            values.update(status=GameStatus.FINISHED, finished_at=now, turn_deadline=None, window_deadline=None,
                          next_deal_at=None)
        async with self.transaction(row, duplicate="already_done") as tx:
            version = await repo.bump(tx, row, now, **values)
            await repo.log_action(tx, row.id, version, user_id, kind, move, interaction_id, now)
            await draft_store.discard(tx, row.id)  # the game moved on: every builder draft of it is out of date
            mover = row.seat_of(user_id) if reset_timeouts and user_id is not None else None
            if mover is not None and mover.timeouts:
                await repo.set_seat(tx, row.id, mover.user_id, timeouts=0)
            if timed_out is not None:
                seat_row = next(s for s in row.seats if s.user_id == timed_out)
                await repo.set_seat(tx, row.id, timed_out, timeouts=seat_row.timeouts + 1)
            for s in row.seats:
                if s.seat in game.resigned and not s.resigned:
                    await repo.set_seat(tx, row.id, s.user_id, resigned=1)
            if game.game_over:
                rated = not _won_by_absence(row, game, await repo.movers(tx, row.id))
                results = _results(row, game, now)
                # A season closing meanwhile stores its standings: the result is in them or after them.
                await tx.lock_name(f"season:{row.guild_id}")
                await repo.insert_results(tx, results, rated=rated)
                if rated and not row.practice and not any(s.is_bot for s in row.seats):
                    await rate_game(tx, row.guild_id, row.variant, row.id, {r[3]: r[5] for r in results}, now)
            if audit is not None:
                await repo.add_audit(tx, row.guild_id, audit[0], audit[1], now, game_id=row.id, detail=audit[2])
        self.cache[row.id] = (version, game)
        metrics.committed(kind.value, row.variant)
        if game.game_over:
            self.cache.pop(row.id, None)
            log.info("game %s over (%s, %s)", row.id, row.variant, kind.value)
        due = [v for k in ("turn_deadline", "window_deadline", "next_deal_at") if (v := values.get(k)) is not None]
        if due:
            self.tell_deadline(min(due))
        after = _after(row, values, version, now, game, user_id if reset_timeouts else None, timed_out)
        return Change(
            kind, after, game, seat=seat, move=move, events=events,
            turn_changed=game.current_seat != before[0] or kind in (ChangeKind.DEAL, ChangeKind.START),
            deal_over=game.hand_over, game_over=game.game_over,
        )


def played(game: Game, logged_before: int, typed: str | Move) -> str:
    """The move as the action log keeps it (reliability R10): the engine's one log entry for it
    (normalized: ``discard ks`` is kept as ``discard KS``), or, when one move made several (gin's
    ``auto`` is written out as its layoffs and ``done``, notation.md), the move as played, which
    the engine replays to the same entries."""
    added = game.log[logged_before:]
    return str(parse_line(added[0])[1]) if len(added) == 1 else str(typed)


def _results(row: GameRow, game: Game, now: float) -> list[tuple[int, int, str, int, str, int, float]]:
    """One row per seat: place 1 for the winners, then by the variant's ordering; resigned
    seats last, the last to resign first (notation.md, Resigning)."""
    order = [s for s in game.placing() if s not in game.winners]
    ranked = list(game.winners) + order
    resigned = [s for s in reversed(game.resigned) if s not in ranked]
    ranked += resigned + [s.seat for s in row.seats if s.seat not in ranked and s.seat not in resigned]
    scores = game.final_scores or game.totals
    out = []
    for s in row.seats:
        place = 1 if s.seat in game.winners else ranked.index(s.seat) + 1
        out.append((row.id, row.guild_id, row.variant, s.user_id, str(scores.get(s.seat, 0)), place, now))
    return out


def _won_by_absence(row: GameRow, game: Game, movers: set[int]) -> bool:
    """Issue 15 hole 3: a result is not rated when a loser left it by resigning or timing out
    (three timeouts resign a seat) without ever making a move of their own: nobody beat them, so
    the win cannot be farmed off an absent or willing opponent."""
    timed_out = {seat for seat, move in log_moves(game.log) if move.verb is Verb.TIMEOUT}
    return any(
        s.seat not in game.winners and s.user_id not in movers
        and (s.seat in game.resigned or s.seat in timed_out)
        for s in row.seats if not s.is_bot
    )


def _after(row: GameRow, values: dict[str, Any], version: int, now: float, game: Game, mover: int | None,
           timed_out: int | None) -> GameRow:
    """The row as ``commit`` just wrote it (saves reading it back: two round trips per move)."""
    resigned = set(game.resigned)
    seats = tuple(
        replace(s, timeouts=0 if s.user_id == mover else s.timeouts + 1 if s.user_id == timed_out else s.timeouts,
                resigned=s.resigned or s.seat in resigned)
        for s in row.seats
    )
    return written(row, values, version, now, seats=seats)


def written(row: GameRow, values: dict[str, Any], version: int, now: float, **more: Any) -> GameRow:
    """``row`` after ``repo.bump(tx, row, now, **values)`` returned ``version``."""
    changed = {k: v for k, v in values.items() if k in _ROW_FIELDS}
    if "turn_reminded" in changed:
        changed["turn_reminded"] = bool(changed["turn_reminded"])
    return replace(row, **changed, **more, version=version, updated_at=now)


_ROW_FIELDS = {f.name for f in fields(GameRow)} - {"seats"}
