"""The clock: what each game's stored deadlines call for, and restart recovery.

What it is: ``due`` (the games with a deadline passed), ``next_deadline``, and ``tick`` (do what
is due for one game, under its lock: expire a lobby, stop a game only computer players are left
in, close a claim or cut-in window, let a computer player move, deal the next deal, time out a
turn (three in a row resign the seat) or remind the player; a game with no turn timer that nobody
moves in is warned, then ends unscored after ``idle_seconds``). A computer player's move is worked
out at its seat's level in a worker thread, outside the lock, and played only if the game has not
moved on meanwhile. ``resume``: after a restart, a running turn timer starts again, whole, before
the clock serves the game. Every time is the service's time source (``core.now``), never the wall
clock directly. ``ClockJobs`` is the service's ``clock`` part and keeps no state of its own (the
games' locks and engines are the core's).
What it is not: no sleeping or looping (the client's clock task calls ``due`` and ``tick``), no
arithmetic of deadlines (``bot.service.deadlines``), no Discord.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from dataclasses import dataclass
from typing import Any

from bot import robot
from bot.engine import Event, Game, IllegalMove, Move, Phase, Verb, load_game
from bot.ops import metrics
from bot.store import repo
from bot.store import tournaments as tournament_store
from bot.store.rows import ActionKind, AuditAction, GameRow, GameStatus

from .changes import Change, ChangeKind, Stale
from .core import Core, played, written
from .deadlines import REMIND_LEAD, bot_actors, people_playing, remind_at, resumed_turn

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotTurn:
    """A computer player's move is due: the position (record at ``version``) to work it out from,
    and a private copy of the game at that version (``position``) for the worker to use."""

    version: int
    record: str
    seat: str
    level: str
    position: Game | None = None


def _choose(record: str, seat: str, level: str, position: Game | None = None) -> Move:
    """In a worker thread: the move of ``seat`` at ``level`` in the game of ``record`` (``position``:
    that game already, a copy of the event loop's; else it is replayed from the record)."""
    return robot.choose(position if position is not None else load_game(record), seat, level=level)


def _copied(game: Game) -> Game | None:
    """A private copy of ``game`` for the worker; None (the worker replays the record) if it fails."""
    try:
        return copy.deepcopy(game)
    except Exception:
        log.exception("copying game for a computer player failed; its record is replayed instead")
        return None


MAX_TIMEOUTS = 3  # three timeouts in a row and the seat resigns
IDLE_WARNING = 86400.0  # an idle game is warned a day before it ends (half its idle time if shorter)


class ClockJobs:
    """Timers, reminders, windows, computer players' moves, the next deal, and resuming."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def due(self) -> list[int]:
        return await repo.due_games(self.core.db, self.core.now(), REMIND_LEAD, self.core.shards, idle=self._idle())

    async def next_deadline(self) -> float | None:
        return await repo.next_deadline(self.core.db, REMIND_LEAD, idle=self._idle())

    def _idle(self) -> tuple[float, float]:
        """(how long a game with no turn timer may go without a move, how long before its end it is warned)."""
        return self.core.idle_seconds, min(IDLE_WARNING, self.core.idle_seconds / 2)

    def idle_ends_at(self, row: GameRow) -> float | None:
        """When a game with no turn timer ends if nobody moves (None for a timed game)."""
        if row.status != GameStatus.PLAYING or row.timer_minutes > 0:
            return None
        return row.updated_at + self.core.idle_seconds

    async def tick(self, game_id: int) -> list[Change]:
        """Do what is due for one game: expire a lobby, close a window, remind, time out, deal.
        Each deadline fires once, even when two processes serve the game for a moment (a rolling
        deploy): its change is written only at the version it was worked out from, so the process
        that loses the race finds the game moved on and does nothing (nothing to announce)."""
        try:
            return await self._tick(game_id)
        except Stale:
            return []

    async def _tick(self, game_id: int) -> list[Change]:
        due = await self._due_work(game_id)
        if not isinstance(due, BotTurn):
            return due
        # A computer player's move is worked out in a worker thread, out of the game's lock (a
        # strong level searches for a while; people's clicks on this game are not held up), then
        # played under the lock only if nothing changed meanwhile: else the next tick works it out
        # again from the new position.
        started = time.perf_counter()
        chosen = await self._think(due)
        thought = time.perf_counter() - started
        changes = await self._bot_move(game_id, due, chosen)
        log.debug("game %s: computer player %s (%s) played %r at version %s: %.3f s to choose, %.3f s in all",
                  game_id, due.seat, due.level, chosen, due.version, thought, time.perf_counter() - started)
        return changes

    async def _think(self, turn: BotTurn) -> Move:
        """The computer player's move, off the event loop, on a game of its own loaded from the
        record (the cached engine object is the event loop's). Deterministic for a record, seat
        and level; past ``bot_budget`` seconds (never expected: the levels keep their own time
        budgets) or on an error the easy level answers, so the game never stalls."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(_choose, turn.record, turn.seat, turn.level,
                                                            turn.position), timeout=self.core.bot_budget)
        except TimeoutError:
            log.warning("computer player %s (%s) took over %.1f s; the easy level moves instead",
                        turn.seat, turn.level, self.core.bot_budget)
        except Exception:
            log.exception("computer player %s (%s) failed; the easy level moves instead", turn.seat, turn.level)
        return await asyncio.to_thread(_choose, turn.record, turn.seat, "easy")

    async def _bot_move(self, game_id: int, turn: BotTurn, chosen: Move) -> list[Change]:
        """Play ``chosen`` for the computer player if the game is still at the version it was
        worked out from (else nothing: it is due again at the next tick if it still is)."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            if row.version != turn.version or row.status != GameStatus.PLAYING or row.quarantined_at is not None:
                return []
            game = self.core.working_game(row)
            seat = turn.seat
            before_seat = game.current_seat
            logged = len(game.log)
            try:
                events = game.play(seat, chosen)
            except IllegalMove:  # never expected; the game must not stall on it (refusals change nothing)
                log.exception("computer player %s of game %s chose a refused move", seat, row.id)
                events = game.timeout(seat)
            move = played(game, logged, chosen)
            bot_user = row.by_seat(seat)
            return [await self.core.commit(row, game, ChangeKind.BOT, bot_user.user_id if bot_user else None, seat,
                                           move, events, None, (before_seat, None))]

    async def _due_work(self, game_id: int) -> list[Change] | BotTurn:
        """What is due, done under the lock; a computer player's turn is handed back to be worked out."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            now = self.core.now()
            metrics.clock_lag(now, (row.turn_deadline, row.window_deadline, row.next_deal_at, row.lobby_expires_at))
            if row.status == GameStatus.LOBBY:
                if row.lobby_expires_at is not None and row.lobby_expires_at <= now:
                    async with self.core.transaction(row) as tx:
                        version = await repo.bump(tx, row, now, status=GameStatus.EXPIRED)
                        await repo.log_action(tx, row.id, version, None, ActionKind.EXPIRE, None, None, now)
                    return [Change(ChangeKind.EXPIRE, await self.core.row(game_id))]
                return []
            if row.status != GameStatus.PLAYING or row.quarantined_at is not None:
                return []
            idle = await self._idle_tick(row, now)
            if idle is not None:
                return idle
            try:
                game = self.core.working_game(row)
            except Exception as exc:  # the record no longer loads: set the game aside, once
                return await self._quarantine(row.id, exc)
            # (an event's game is played out)
            if (any(s.is_bot for s in row.seats) and not people_playing(row, game)
                    and await tournament_store.table_of_game(self.core.db, row.id) is None):
                # Everybody left but the computer players: nobody is watching, so stop (unrated anyway).
                async with self.core.transaction(row) as tx:
                    version = await repo.bump(tx, row, now, status=GameStatus.CANCELLED, turn_deadline=None,
                                              window_deadline=None, next_deal_at=None, finished_at=now)
                    await repo.log_action(tx, row.id, version, None, ActionKind.ABANDON, None, None, now)
                self.core.cache.pop(row.id, None)
                return [Change(ChangeKind.CANCEL, await self.core.row(game_id))]
            if row.window_deadline is not None and row.window_deadline <= now and game.phase == Phase.WINDOW:
                events: list[Event] = []
                for seat in list(game.actors):
                    if game.phase != Phase.WINDOW:
                        break
                    # Only the silent seats pass; a seat deciding on a cut-in is on its turn timer.
                    if seat not in game.actors:
                        continue
                    passing = next((m for m in game.legal_moves(seat) if m.verb is Verb.PASS), None)
                    if passing is not None:
                        events += game.play(seat, passing)
                return [await self.core.commit(row, game, ChangeKind.WINDOW, None, None, "pass", events, None,
                                               (None, None))]
            bots = bot_actors(row, game)
            if bots and not game.hand_over and row.turn_deadline is not None and row.turn_deadline <= now:
                self.core.cache[row.id] = (row.version, game)  # unchanged: the move is worked out off the loop
                seat_row = row.by_seat(bots[0])
                level = (seat_row.robot_level if seat_row is not None else None) or "normal"
                # A copy for the worker (the cached game is the event loop's): a fraction of a
                # millisecond, where replaying the record grows with the game (15 ms at the end
                # of a twelve-contract Dummy game).
                return BotTurn(row.version, row.record or "", bots[0], level, _copied(game))
            if row.next_deal_at is not None and row.next_deal_at <= now and game.hand_over and not game.game_over:
                events = game.next_deal()
                return [await self.core.commit(row, game, ChangeKind.DEAL, None, None, None, events, None,
                                               (None, None))]
            if row.turn_deadline is not None and not game.hand_over and game.current_seat is not None:
                seat = game.current_seat
                seat_row = row.by_seat(seat)
                if row.turn_deadline <= now and seat_row is not None:
                    events = game.timeout(seat)
                    resigned = None
                    if seat_row.timeouts + 1 >= MAX_TIMEOUTS and seat not in game.resigned:
                        events += game.play(seat, "resign")
                        resigned = seat
                    change = await self.core.commit(row, game, ChangeKind.TIMEOUT, None, seat, "timeout", events, None,
                                                    (seat, None), timed_out=seat_row.user_id)
                    change.resigned_by_timeouts = resigned
                    return [change]
                reminder = remind_at(row)
                if not row.turn_reminded and reminder is not None and reminder <= now:
                    async with self.core.transaction() as tx:
                        first = await repo.mark_reminded(tx, row.id, row.version)
                    if not first:  # another process reminded this turn already
                        return []
                    return [Change(ChangeKind.REMIND, await self.core.row(game_id), game, seat=seat)]
            return []

    async def _idle_tick(self, row: GameRow, now: float) -> list[Change] | None:
        """A game with no turn timer that nobody moves in: warned once, a day before; then ended,
        unscored (status 'abandoned', end reason 'idle', every deadline cleared). None: not idle."""
        ends = self.idle_ends_at(row)
        if ends is None or now < ends - self._idle()[1]:
            return None
        if now >= ends:
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, status=GameStatus.ABANDONED, end_reason="idle",
                                          turn_deadline=None, window_deadline=None, next_deal_at=None,
                                          finished_at=now)
                await repo.log_action(tx, row.id, version, None, ActionKind.ABANDON, "idle", None, now)
                # The bot ended it, as it ends a game whose channel went away (bot.service.endings).
                await repo.add_audit(tx, row.guild_id, 0, AuditAction.ABANDON, now, game_id=row.id, detail="idle")
            self.core.cache.pop(row.id, None)
            return [Change(ChangeKind.IDLE, await self.core.row(row.id))]
        if row.idle_warned_at is not None and row.idle_warned_at >= row.updated_at:
            return None  # warned already: the other deadlines go on as usual
        async with self.core.transaction() as tx:
            first = await repo.mark_idle_warned(tx, row.id, row.version, now)
        return [Change(ChangeKind.IDLE_WARNING, await self.core.row(row.id))] if first else []

    async def check_records(self) -> list[Change]:
        """The start-up compatibility check (reliability R23): load the record of every lobby and
        game in play of this process's shards with the engine; each that fails is quarantined
        (logged, and its ``QUARANTINE`` change returned for the announcer) instead of failing
        later, at every tick."""
        out = []
        for game_id, record in await repo.active_records(self.core.db, self.core.shards):
            try:
                load_game(record)
            except Exception as exc:
                out += await self._quarantine(game_id, exc)
        return out

    async def _quarantine(self, game_id: int, exc: Exception) -> list[Change]:
        """Mark the game quarantined; its change only the first time (announced once)."""
        log.error("game %s: its record does not load (%r); quarantined", game_id, exc)
        self.core.cache.pop(game_id, None)
        async with self.core.transaction() as tx:
            first = await repo.quarantine(tx, game_id, self.core.now(), repr(exc)[:500])
        return [Change(ChangeKind.QUARANTINE, await self.core.row(game_id))] if first else []

    async def resume(self, game_id: int) -> Change | None:
        """Restart recovery: the bot was down, so a running turn timer starts again as a whole
        turn from the service's clock (reminder cleared; a computer player's short pause starts
        again), so nobody loses a turn to the downtime. Logged and versioned like any change: the
        tables posted before the restart are out of date. Call it before the clock serves the
        game. None when the game is not being played."""
        async with self.core.lock(game_id):
            row = await self.core.get(game_id)
            if row is None or row.status != GameStatus.PLAYING:
                return None
            game = self.core.working_game(row)
            now = self.core.now()
            values: dict[str, Any] = resumed_turn(row, game, now, bot_delay=self.core.bot_delay)
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, **values)
                await repo.log_action(tx, row.id, version, None, ActionKind.RESUME, None, None, now)
            self.core.cache[row.id] = (version, game)
            return Change(ChangeKind.RESUME, written(row, values, version, now), game)
