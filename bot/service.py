"""GameService: the one place lobbies and games change.

What it is: every change follows the same path: take the game's lock, load the row (and the
engine's ``Game``, cached by version), check who may do it, apply the engine move, then commit the
new record, the next version, the deadlines and the action-log row (unique interaction id) in one
transaction. Only then does the caller say anything on Discord. The clock (turn timers, reminders,
claim windows, lobby expiry, the pause between deals) is served by ``tick``.
What it is not: no Discord and no pixels. Refusals raise ``Refusal`` (ours) or ``IllegalMove``
(the engine's); the cogs translate both by code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from bot import robot
from bot.engine import PLAYERS, Event, Game, IllegalMove, load_game, make_rules, new_game
from bot.rows import (
    ACTIVE,
    ENDED,
    ActionKind,
    AuditAction,
    AuditRow,
    GameRow,
    GameStatus,
    ResultRow,
    ScheduleRow,
    SeasonRow,
)
from bot.seasons import SCHEDULES, PlayerStats, Standing, games_in, next_rollover, player_stats, standings
from bot.store import Database, Tx, repo

log = logging.getLogger(__name__)

LOBBY_TTL = 30 * 60  # a lobby nobody starts expires (issue: 30 minutes)
DEAL_PAUSE = 20.0  # seconds between deals unless someone presses "Next deal"
WINDOW_SECONDS = 10  # claim / cut-in windows (bot option ``window=``)
REMIND_AT = 0.8  # the turn reminder at 80% of the timer
REMIND_LEAD = 1 - REMIND_AT  # ... that is, this much of the timer before the deadline
MIN_TIMER = 0.25  # minutes: the shortest turn timer, 15 seconds
MAX_TIMEOUTS = 3  # three timeouts in a row and the seat resigns
BOT_DELAY = 2.0  # seconds a computer player waits before each move, so people can follow it
BOT_OPTIONS = {"window": (0, 120)}  # options the bot reads itself, besides the engine's
REASON_LENGTH = 100  # a manager's reason for voiding a result, as stored
# What ``set_messages`` may write: the ids of the messages that show a game, never the game itself.
MESSAGE_COLUMNS = frozenset({"lobby_message_id", "table_message_id", "turn_message_id", "table_posted_at"})
# TEMPORARY (issue 14): cogs/rummy.py ``resume_games`` still restarts turn timers through
# ``set_messages``; remove this (and its use below) once it calls ``GameService.resume``.
_LEGACY_TIMER_COLUMNS = frozenset({"turn_deadline", "turn_reminded"})


class ChangeKind(StrEnum):
    """What a ``Change`` did, for the cogs to announce."""

    LOBBY = "lobby"  # a lobby was opened (also a rematch's)
    JOIN = "join"  # a person or a computer player sat down
    LEAVE = "leave"  # someone left a lobby, was kicked from it, or a computer player was taken out
    CANCEL = "cancel"  # the host or a manager cancelled, or only computer players were left
    EXPIRE = "expire"  # a lobby nobody started in time
    START = "start"
    MOVE = "move"
    RESIGN = "resign"
    DEAL = "deal"  # the next deal was dealt
    TIMEOUT = "timeout"
    WINDOW = "window"  # the clock closed a claim or cut-in window
    BOT = "bot"  # a computer player moved
    REMIND = "remind"  # the turn timer is at its reminder point
    RESUME = "resume"  # after a restart: the turn timer started again, whole


class Refusal(Exception):
    """A request the bot refuses before the engine is asked; ``code`` names a ``refusal.*`` key."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Stale(Refusal):
    """A turn button from an older table: nothing happens, the player gets a fresh table."""

    def __init__(self, game: GameRow) -> None:
        super().__init__("stale")
        self.game = game


@dataclass
class Change:
    """What one committed change did, for the cogs to announce."""

    kind: ChangeKind
    game: GameRow
    engine: Game | None = None
    seat: str | None = None
    move: str | None = None
    events: list[Event] = field(default_factory=list)
    turn_changed: bool = False
    deal_over: bool = False
    game_over: bool = False
    resigned_by_timeouts: str | None = None


def split_options(text: str) -> tuple[str, dict[str, int]]:
    """Separate the bot's own options (``window=10``) from the engine's; validates both.

    Raises ``IllegalMove`` with the engine's codes (``bad_option``, ``unknown_option``...) or
    ``Refusal("bad_bot_option")``.
    """
    engine_words, bot_values = [], {}
    for word in text.split():
        name, eq, value = word.partition("=")
        if eq and name in BOT_OPTIONS:
            lo, hi = BOT_OPTIONS[name]
            if not value.isdigit() or not lo <= int(value) <= hi:
                raise Refusal("bad_bot_option", name=name, low=lo, high=hi)
            bot_values[name] = int(value)
        else:
            engine_words.append(word)
    return " ".join(engine_words), bot_values


def lobby_options(variant: str, options: str, timer_minutes: float) -> str:
    """Validate a lobby's variant, options and timer; the options text as stored (non-default
    engine options, then the bot's). The engine refuses unknown variants, names or values, listing
    the valid ones."""
    rules = make_rules(variant, split_options(options)[0])
    # 0: no timer; otherwise from 15 seconds (the clock checks once a second) to a day.
    if not (timer_minutes == 0 or MIN_TIMER <= timer_minutes <= 24 * 60):
        raise Refusal("bad_timer")
    return " ".join(filter(None, [rules.options_text(), _bot_text(options)]))


class GameService:
    """Lobbies, moves and timers, serialized per game and committed before announced."""

    def __init__(
        self, db: Database, *, clock: Callable[[], float] = time.time, deal_pause: float = DEAL_PAUSE,
        lobby_ttl: float = LOBBY_TTL, bot_delay: float = BOT_DELAY,
    ) -> None:
        self.db = db
        self.clock = clock
        self.bot_delay = bot_delay
        self.deal_pause = deal_pause
        self.lobby_ttl = lobby_ttl
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Game]] = {}

    # ------------------------------------------------------------------ reading
    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def get(self, game_id: int) -> GameRow | None:
        return await repo.get_game(self.db, game_id)

    async def in_channel(self, channel_id: int) -> GameRow | None:
        return await repo.active_in_channel(self.db, channel_id)

    async def last_in_channel(self, channel_id: int) -> GameRow | None:
        return await repo.last_finished_in_channel(self.db, channel_id)

    async def results(self, game_id: int) -> list[ResultRow]:
        """A finished game's results, best place first (empty for a game that was not scored)."""
        return await repo.results_of(self.db, game_id)

    async def running_games(self) -> list[int]:
        """The ids of the games being played (what a restart resumes), oldest first."""
        return await repo.running_games(self.db)

    def engine(self, row: GameRow) -> Game:
        """The engine's game at this row's version, to read only (views, legal moves): the cached
        one when it is at that version, else rebuilt from the record."""
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        return load_game(row.record or "")

    def _working_game(self, row: GameRow) -> Game:
        """The game to change under the lock. It leaves the cache while it changes, so readers
        never see a move that is not committed; ``_commit`` puts it back at its new version."""
        cached = self._cache.pop(row.id, None)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        return load_game(row.record or "")

    # ------------------------------------------------------------------ lobbies
    async def check_lobby(
        self, *, guild_id: int, channel_id: int, host_id: int, variant: str, options: str = "",
        timer_minutes: float = 5,
    ) -> None:
        """Refuse a lobby before anything is written (the cog answers privately, then acknowledges)."""
        lobby_options(variant, options, timer_minutes)
        if await self.in_channel(channel_id) is not None:
            raise Refusal("channel_busy")
        await _one_lobby_per_host(self.db, guild_id, host_id)

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, variant: str, options: str = "",
        timer_minutes: float = 5, locale: str = "es",
    ) -> Change:
        options_text = lobby_options(variant, options, timer_minutes)
        now = self.clock()
        try:
            async with self.db.transaction() as tx:
                await _one_lobby_per_host(tx, guild_id, host_id)  # again inside the write: two /new at once
                game_id = await repo.insert_game(
                    tx, guild_id=guild_id, channel_id=channel_id, host_id=host_id, variant=variant,
                    options=options_text, timer_minutes=timer_minutes, locale=locale, status=GameStatus.LOBBY,
                    version=1, created_at=now, updated_at=now, lobby_expires_at=now + self.lobby_ttl,
                )
                await repo.insert_seat(tx, game_id, 0, host_id, "p1", clean_name(host_name))
                await repo.log_action(tx, game_id, 1, host_id, ActionKind.NEW, variant, None, now)
        except sqlite3.IntegrityError as exc:
            raise Refusal("channel_busy") from exc
        row = await self.get(game_id)
        assert row is not None
        return Change(ChangeKind.LOBBY, row)

    async def join(self, game_id: int, user_id: int, name: str) -> Change:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != GameStatus.LOBBY:
                raise Refusal("not_a_lobby")
            if row.seat_of(user_id):
                raise Refusal("already_seated")
            hi = PLAYERS[row.variant][1]
            if len(row.seats) >= hi:
                raise Refusal("lobby_full", max=hi)
            now = self.clock()
            async with self.db.transaction() as tx:
                n = len(row.seats)
                await repo.insert_seat(tx, game_id, n, user_id, f"p{n + 1}", clean_name(name))
                version = await repo.bump(tx, row, now)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.JOIN, None, None, now)
            return Change(ChangeKind.JOIN, await self._row(game_id))

    async def leave(self, game_id: int, user_id: int, *, kicked_by: int | None = None) -> Change:
        """Leave a lobby; ``kicked_by``: a server manager removed ``user_id`` (audited)."""
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != GameStatus.LOBBY:
                raise Refusal("not_a_lobby")
            if not row.seat_of(user_id):
                raise Refusal("not_seated")
            now = self.clock()
            async with self.db.transaction() as tx:
                await repo.delete_seat(tx, game_id, user_id)
                await repo.renumber_seats(tx, game_id)
                people = [s for s in row.seats if s.user_id != user_id and not s.is_bot]
                values: dict[str, Any] = {}
                if not people:
                    values["status"] = GameStatus.CANCELLED  # computer players alone do not keep a lobby
                elif user_id == row.host_id:
                    values["host_id"] = people[0].user_id  # the next seated person hosts
                version = await repo.bump(tx, row, now, **values)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.LEAVE, None, None, now)
                if kicked_by is not None:
                    await repo.add_audit(tx, row.guild_id, kicked_by, AuditAction.KICK, now, game_id=game_id,
                                         detail=str(user_id))
            return Change(ChangeKind.LEAVE, await self._row(game_id))

    async def add_bot(self, game_id: int, user_id: int) -> Change:
        """The host seats a computer player (``bot.robot``). Games with one are not rated."""
        async with self.lock(game_id):
            row = await self._row(game_id)
            _hosts_lobby(row, user_id)
            hi = PLAYERS[row.variant][1]
            if len(row.seats) >= hi:
                raise Refusal("lobby_full", max=hi)
            bots = [s for s in row.seats if s.is_bot]
            bot_id = min([s.user_id for s in bots], default=0) - 1
            now = self.clock()
            async with self.db.transaction() as tx:
                n = len(row.seats)
                await repo.insert_seat(tx, game_id, n, bot_id, f"p{n + 1}", f"🤖 Bot {-bot_id}")
                version = await repo.bump(tx, row, now)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.BOT, str(bot_id), None, now)
            return Change(ChangeKind.JOIN, await self._row(game_id))

    async def remove_bot(self, game_id: int, user_id: int) -> Change:
        """The host takes the last computer player out of the lobby."""
        row = await self._row(game_id)
        if user_id != row.host_id:
            raise Refusal("host_only")
        bots = [s for s in row.seats if s.is_bot]
        if not bots:
            raise Refusal("no_bot")
        return await self.leave(game_id, bots[-1].user_id)

    async def cancel(self, game_id: int, user_id: int, *, is_admin: bool = False) -> Change:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status not in ACTIVE:
                raise Refusal("nothing_to_cancel")
            if user_id != row.host_id and not is_admin:
                raise Refusal("host_only")
            now = self.clock()
            async with self.db.transaction() as tx:
                version = await repo.bump(tx, row, now, status=GameStatus.CANCELLED, turn_deadline=None,
                                          window_deadline=None, next_deal_at=None, finished_at=now)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.CANCEL, None, None, now)
                if user_id != row.host_id:  # a manager used their power over someone else's game
                    await repo.add_audit(tx, row.guild_id, user_id, AuditAction.CANCEL, now, game_id=game_id)
            self._cache.pop(game_id, None)
            return Change(ChangeKind.CANCEL, await self._row(game_id))

    async def start(self, game_id: int, user_id: int, *, seed: str | None = None) -> Change:
        async with self.lock(game_id):
            row = await self._row(game_id)
            _hosts_lobby(row, user_id)
            lo, hi = PLAYERS[row.variant]
            if not lo <= len(row.seats) <= hi:
                raise Refusal("player_count", min=lo, max=hi, count=len(row.seats))
            engine_text, _ = split_options(row.options)
            game = new_game(row.variant, [s.seat for s in row.seats], seed=seed or secrets.token_hex(8),
                            options=engine_text)
            now = self.clock()
            async with self.db.transaction() as tx:
                version = await repo.bump(tx, row, now, status=GameStatus.PLAYING, record=game.record(),
                                          lobby_expires_at=None, **self._deadlines(row, None, game, now))
                await repo.log_action(tx, game_id, version, user_id, ActionKind.START, None, None, now)
            self._cache[game_id] = (version, game)
            return Change(ChangeKind.START, await self._row(game_id), game, turn_changed=True)

    async def rematch(self, game_id: int, user_id: int, user_name: str) -> Change:
        """A new lobby in the same channel with the same seats and options (the presser hosts)."""
        row = await self._row(game_id)
        if row.status not in ENDED:
            raise Refusal("not_finished")
        if not row.seat_of(user_id):
            raise Refusal("not_seated")
        change = await self.open_lobby(
            guild_id=row.guild_id, channel_id=row.channel_id, host_id=user_id, host_name=user_name,
            variant=row.variant, options=row.options, timer_minutes=row.timer_minutes, locale=row.locale,
        )
        new_id = change.game.id
        for s in row.seats:
            if s.user_id != user_id:
                with contextlib.suppress(Refusal):
                    await self.join(new_id, s.user_id, s.name)
        return Change(ChangeKind.LOBBY, await self._row(new_id))

    # ------------------------------------------------------------------ moves
    async def play(
        self, game_id: int, user_id: int, move: str, *, interaction_id: int | None = None,
        version: int | None = None, kicked_by: int | None = None,
    ) -> Change:
        """Apply one RGN move for the seat of ``user_id``. ``version`` (from a button) must be the
        game's current one, else ``Stale``. Refusals change nothing. ``kicked_by``: a server
        manager resigns ``user_id``'s seat for them (audited in the same transaction)."""
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != GameStatus.PLAYING:
                raise Refusal("not_playing")
            seat = row.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated")
            if interaction_id is not None and await repo.seen_interaction(self.db, interaction_id):
                raise Refusal("already_done")  # the same click delivered twice: say so, not "illegal"
            if version is not None and version != row.version:
                raise Stale(row)
            verb = move.split()[0].lower() if move.split() else ""
            if kicked_by is not None and verb != "resign":
                raise ValueError("a manager can only resign a seat for its player")
            if verb in ("timeout",):
                raise Refusal("not_a_player_move", verb=verb)
            game = self._working_game(row)
            before = (game.current_seat, None)
            try:
                if seat.seat not in game.actors and verb != "resign":
                    raise Refusal("not_your_turn")
                events = game.play(seat.seat, move)
            except (Refusal, IllegalMove):
                self._cache[row.id] = (row.version, game)  # a refused move left the game unchanged
                raise
            audit = None if kicked_by is None else (kicked_by, AuditAction.KICK, str(user_id))
            kind = ChangeKind.RESIGN if verb == "resign" else ChangeKind.MOVE
            return await self._commit(row, game, kind, user_id, seat.seat,
                                      game.log[-1].split(" ", 1)[1] if game.log else move, events, interaction_id,
                                      before, reset_timeouts=True, audit=audit)

    async def next_deal(self, game_id: int, user_id: int | None, *, version: int | None = None) -> Change:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != GameStatus.PLAYING:
                raise Refusal("not_playing")
            if user_id is not None and row.seat_of(user_id) is None:
                raise Refusal("not_seated")
            if version is not None and version != row.version:
                raise Stale(row)
            game = self.engine(row)
            if not game.hand_over or game.game_over:
                raise Refusal("deal_not_over")
            game = self._working_game(row)
            events = game.next_deal()
            return await self._commit(row, game, ChangeKind.DEAL, user_id, None, None, events, None, (None, None))

    async def resign(self, game_id: int, user_id: int) -> Change:
        return await self.play(game_id, user_id, "resign")

    # ------------------------------------------------------------------ seasons and managers
    async def season(self, guild_id: int, number: int | None = None) -> SeasonRow:
        """The server's current season, or season ``number`` (refused when there is none)."""
        if number is None:
            return await repo.current_season(self.db, guild_id)
        found = await repo.get_season(self.db, guild_id, number)
        if found is None:
            current = await repo.current_season(self.db, guild_id)
            raise Refusal("no_such_season", number=number, current=current.number)
        return found

    async def scores(
        self, guild_id: int, number: int | None = None, variant: str | None = None
    ) -> tuple[SeasonRow, list[Standing], int]:
        """A season's standings (bot.seasons) and how many games it counts."""
        season = await self.season(guild_id, number)
        rows = await repo.season_results(self.db, guild_id, season.number, variant)
        return season, standings(rows), games_in(rows)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """One player's rated record in this server, every season together."""
        return player_stats(await repo.player_results(self.db, guild_id, user_id))

    async def new_season(self, guild_id: int, user_id: int, *, ending: int) -> SeasonRow:
        """Close season ``ending`` and open the next (a server manager's call, checked by the cog).
        Confirming twice, or after another manager did it, changes nothing (``season_already``).
        Games still running score in the new season: a result counts where it was written."""
        now = self.clock()
        async with self.db.transaction() as tx:
            current = await repo.current_season(tx, guild_id)
            if current.number != ending:
                raise Refusal("season_already", number=current.number)
            number = await repo.start_season(tx, guild_id, current, user_id, now)
            await repo.add_audit(tx, guild_id, user_id, AuditAction.NEW_SEASON, now, detail=f"{ending}->{number}")
        return await repo.current_season(self.db, guild_id)

    async def season_schedule(self, guild_id: int) -> ScheduleRow | None:
        """The server's automatic seasons (``every``, ``next_at``, ``channel_id``...), or None."""
        return await repo.get_schedule(self.db, guild_id)

    async def set_season_schedule(self, guild_id: int, user_id: int, every: str | None, *, channel_id: int,
                                  locale: str) -> ScheduleRow | None:
        """A manager makes seasons roll over by themselves every ``week`` or ``month`` (closing
        standings posted in ``channel_id``), or stops that (``None``); audited. The schedule after."""
        if every is not None and every not in SCHEDULES:
            raise Refusal("bad_schedule")
        now = self.clock()
        async with self.db.transaction() as tx:
            if every is None:
                if not await repo.clear_schedule(tx, guild_id):
                    raise Refusal("no_schedule")
            else:
                await repo.set_schedule(tx, guild_id, every, channel_id, locale, next_rollover(every, now), user_id,
                                        now)
            await repo.add_audit(tx, guild_id, user_id, AuditAction.SCHEDULE, now, detail=every or "off")
        return await repo.get_schedule(self.db, guild_id)

    async def due_seasons(self) -> list[int]:
        """Servers whose scheduled season boundary has passed."""
        return await repo.due_schedules(self.db, self.clock())

    async def scheduled_season(self, guild_id: int) -> tuple[int, SeasonRow, ScheduleRow] | None:
        """Roll a server's season over on its schedule: (the season that ended, the new one, the
        schedule). Once per boundary, however late (a bot that was down rolls over once and sets
        the next boundary from now); None when it is not due (already done, or switched off)."""
        now = self.clock()
        async with self.db.transaction() as tx:
            schedule = await repo.get_schedule(tx, guild_id)
            if schedule is None or schedule.next_at > now:
                return None
            current = await repo.current_season(tx, guild_id)
            number = await repo.start_season(tx, guild_id, current, 0, now)
            await repo.advance_schedule(tx, guild_id, next_rollover(schedule.every, now))
            await repo.add_audit(tx, guild_id, 0, AuditAction.NEW_SEASON, now, detail=f"{current.number}->{number}")
        return current.number, await repo.current_season(self.db, guild_id), schedule

    async def kick(self, game_id: int, manager_id: int, user_id: int) -> Change:
        """A server manager takes ``user_id`` out of a lobby, or resigns their seat in a game."""
        row = await self._row(game_id)
        if row.seat_of(user_id) is None:
            raise Refusal("not_seated_other")
        if row.status == GameStatus.LOBBY:
            if user_id == row.host_id:
                raise Refusal("kick_host")  # cancelling says what it does; a kick would hand the lobby on
            return await self.leave(game_id, user_id, kicked_by=manager_id)
        return await self.play(game_id, user_id, "resign", kicked_by=manager_id)

    async def finished_games(self, guild_id: int, limit: int = 25, *, user_id: int | None = None) -> list[FinishedGame]:
        """A server's latest finished games with their results, newest first; with ``user_id``,
        only the games that player sat in."""
        return _finished_games(await repo.recent_results(self.db, guild_id, limit, user_id=user_id))

    async def void_result(self, guild_id: int, game_id: int, manager_id: int, reason: str = "", *,
                          restore: bool = False) -> FinishedGame:
        """A server manager voids a finished game's result (it then counts in no standings and no
        record) or restores it; audited in the same transaction. The results themselves are kept."""
        reason = clean_text(reason, REASON_LENGTH)
        now = self.clock()
        async with self.db.transaction() as tx:
            found = _finished_games(await repo.recent_results_of(tx, guild_id, game_id))
            if not found:
                raise Refusal("no_result", game=game_id)
            game = found[0]
            if game.with_bots:
                raise Refusal("not_rated", game=game_id)
            if game.voided == (not restore):
                raise Refusal("not_voided" if restore else "already_voided", game=game_id)
            if restore:
                await repo.clear_voided(tx, game_id)
            else:
                await repo.set_voided(tx, game_id, guild_id, manager_id, reason, now)
            action = AuditAction.RESTORE if restore else AuditAction.VOID
            await repo.add_audit(tx, guild_id, manager_id, action, now, game_id=game_id, detail=reason)
        return replace(game, voided=not restore, reason="" if restore else reason)

    async def audit(self, guild_id: int, limit: int = 20) -> list[AuditRow]:
        """What the server's managers did (and the season schedule), newest first."""
        return await repo.audit_of(self.db, guild_id, limit)

    # ------------------------------------------------------------------ the clock
    async def tick(self, game_id: int) -> list[Change]:
        """Do what is due for one game: expire a lobby, close a window, remind, time out, deal."""
        async with self.lock(game_id):
            row = await self._row(game_id)
            now = self.clock()
            if row.status == GameStatus.LOBBY:
                if row.lobby_expires_at is not None and row.lobby_expires_at <= now:
                    async with self.db.transaction() as tx:
                        version = await repo.bump(tx, row, now, status=GameStatus.EXPIRED)
                        await repo.log_action(tx, row.id, version, None, ActionKind.EXPIRE, None, None, now)
                    return [Change(ChangeKind.EXPIRE, await self._row(game_id))]
                return []
            if row.status != GameStatus.PLAYING:
                return []
            game = self._working_game(row)
            if any(s.is_bot for s in row.seats) and not _people_playing(row, game):
                # Everybody left but the computer players: nobody is watching, so stop (unrated anyway).
                async with self.db.transaction() as tx:
                    version = await repo.bump(tx, row, now, status=GameStatus.CANCELLED, turn_deadline=None,
                                              window_deadline=None, next_deal_at=None, finished_at=now)
                    await repo.log_action(tx, row.id, version, None, ActionKind.ABANDON, None, None, now)
                self._cache.pop(row.id, None)
                return [Change(ChangeKind.CANCEL, await self._row(game_id))]
            if row.window_deadline is not None and row.window_deadline <= now and game.phase == "window":
                events: list[Event] = []
                for seat in list(game.actors):
                    if game.phase != "window":
                        break
                    # Only the silent seats pass; a seat deciding on a cut-in is on its turn timer.
                    if seat in game.actors and "pass" in game.legal_moves(seat):
                        events += game.play(seat, "pass")
                return [await self._commit(row, game, ChangeKind.WINDOW, None, None, "pass", events, None,
                                           (None, None))]
            bots = _bot_actors(row, game)
            if bots and not game.hand_over and row.turn_deadline is not None and row.turn_deadline <= now:
                seat = bots[0]
                before_seat = game.current_seat
                try:
                    events = game.play(seat, robot.choose(game, seat))
                except IllegalMove:  # never expected; the game must not stall on it (refusals change nothing)
                    log.exception("computer player %s of game %s chose a refused move", seat, row.id)
                    events = game.timeout(seat)
                move = game.log[-1].split(" ", 1)[1] if game.log else ""
                bot_user = row.by_seat(seat)
                return [await self._commit(row, game, ChangeKind.BOT, bot_user.user_id if bot_user else None, seat,
                                           move, events, None, (before_seat, None))]
            if row.next_deal_at is not None and row.next_deal_at <= now and game.hand_over and not game.game_over:
                events = game.next_deal()
                return [await self._commit(row, game, ChangeKind.DEAL, None, None, None, events, None, (None, None))]
            if row.turn_deadline is not None and not game.hand_over and game.current_seat is not None:
                seat = game.current_seat
                seat_row = row.by_seat(seat)
                if row.turn_deadline <= now and seat_row is not None:
                    events = game.timeout(seat)
                    resigned = None
                    if seat_row.timeouts + 1 >= MAX_TIMEOUTS and seat not in getattr(game, "resigned", []):
                        events += game.play(seat, "resign")
                        resigned = seat
                    change = await self._commit(row, game, ChangeKind.TIMEOUT, None, seat, "timeout", events, None,
                                                (seat, None), timed_out=seat_row.user_id)
                    change.resigned_by_timeouts = resigned
                    return [change]
                if not row.turn_reminded and row.turn_deadline - row.timer_minutes * 60 * REMIND_LEAD <= now:
                    async with self.db.transaction() as tx:
                        await repo.update_game(tx, row.id, turn_reminded=1)
                    return [Change(ChangeKind.REMIND, await self._row(game_id), game, seat=seat)]
            return []

    async def resume(self, game_id: int) -> Change | None:
        """Restart recovery: the bot was down, so a running turn timer starts again as a whole
        turn from the service's clock (reminder cleared; a computer player's short pause starts
        again), so nobody loses a turn to the downtime. Logged and versioned like any change: the
        tables posted before the restart are out of date. Call it before the clock serves the
        game. None when the game is not being played."""
        async with self.lock(game_id):
            row = await self.get(game_id)
            if row is None or row.status != GameStatus.PLAYING:
                return None
            game = self._working_game(row)
            now = self.clock()
            values: dict[str, Any] = {}
            if row.turn_deadline is not None:
                if _bot_actors(row, game):
                    values.update(turn_deadline=now + self.bot_delay, turn_reminded=True)
                elif row.timer_minutes > 0:
                    values.update(turn_deadline=now + row.timer_minutes * 60, turn_reminded=False)
            try:
                async with self.db.transaction() as tx:
                    version = await repo.bump(tx, row, now, **values)
                    await repo.log_action(tx, row.id, version, None, ActionKind.RESUME, None, None, now)
            except repo.VersionConflict as exc:
                raise Stale(await self._row(row.id)) from exc
            self._cache[row.id] = (version, game)
            return Change(ChangeKind.RESUME, replace(row, **values, version=version, updated_at=now), game)

    async def due(self) -> list[int]:
        return await repo.due_games(self.db, self.clock(), REMIND_LEAD)

    async def next_deadline(self) -> float | None:
        return await repo.next_deadline(self.db, REMIND_LEAD)

    # ------------------------------------------------------------------ messages we keep track of
    async def set_messages(self, game_id: int, **ids: int | float | None) -> None:
        """Remember the ids of the table / turn / lobby messages and when the table was posted
        (``MESSAGE_COLUMNS``; views only: no version bump). Anything else is a ``TypeError``."""
        unknown = set(ids) - MESSAGE_COLUMNS - _LEGACY_TIMER_COLUMNS
        if unknown:
            raise TypeError(f"set_messages sets only {sorted(MESSAGE_COLUMNS)}, not {sorted(unknown)}")
        async with self.db.transaction() as tx:
            await repo.update_game(tx, game_id, **ids)

    # ------------------------------------------------------------------ internals
    async def _row(self, game_id: int) -> GameRow:
        row = await self.get(game_id)
        if row is None:
            raise Refusal("no_game")
        return row

    def _deadlines(self, row: GameRow, before_seat: str | None, game: Game, now: float, *,
                   renew: bool = False) -> dict[str, Any]:
        """When the clock next has something to do for this game. ``renew``: the last deadline was
        a computer player's, so a person's turn gets its whole timer."""
        values = self._human_deadlines(row, before_seat, game, now, renew=renew)
        if not game.game_over and not game.hand_over and _bot_actors(row, game):
            # A computer player moves after a short pause, through the same clock as timeouts
            # (so after a restart it carries on by itself); it gets no reminder.
            values["turn_deadline"] = now + self.bot_delay
            values["turn_reminded"] = 1
        return values

    def _human_deadlines(self, row: GameRow, before_seat: str | None, game: Game, now: float, *,
                         renew: bool) -> dict[str, Any]:
        values: dict[str, Any] = {"window_deadline": None, "next_deal_at": None}
        _, bot_opts = split_options(row.options)
        if game.game_over or (game.hand_over and not game.game_over):
            values["turn_deadline"] = None
            if game.hand_over and not game.game_over:
                values["next_deal_at"] = now + self.deal_pause
            return values
        if game.phase == "window" and _can_pass(game):
            # The window's deadline runs from the discard that opened it (answers do not renew it),
            # and the next turn's timer starts when it closes: nobody times out while waiting.
            if row.window_deadline is not None:
                values["window_deadline"] = row.window_deadline
            else:
                values["window_deadline"] = now + _window_seconds(row, bot_opts)
            values["turn_deadline"] = None
            values["turn_reminded"] = 0
            return values
        if renew or game.current_seat != before_seat or row.turn_deadline is None:
            values["turn_deadline"] = now + row.timer_minutes * 60 if row.timer_minutes > 0 else None
            values["turn_reminded"] = 0
        return values

    async def _commit(
        self, row: GameRow, game: Game, kind: ChangeKind, user_id: int | None, seat: str | None, move: str | None,
        events: list[Event], interaction_id: int | None, before: tuple[str | None, Any], *,
        reset_timeouts: bool = False, timed_out: int | None = None, audit: tuple[int, AuditAction, str] | None = None,
    ) -> Change:
        now = self.clock()
        values = self._deadlines(row, before[0], game, now, renew=kind == ChangeKind.BOT)
        values["record"] = game.record()
        if game.game_over:
            values.update(status=GameStatus.FINISHED, finished_at=now, turn_deadline=None, window_deadline=None,
                          next_deal_at=None)
        try:
            async with self.db.transaction() as tx:
                version = await repo.bump(tx, row, now, **values)
                await repo.log_action(tx, row.id, version, user_id, kind, move, interaction_id, now)
                mover = row.seat_of(user_id) if reset_timeouts and user_id is not None else None
                if mover is not None and mover.timeouts:
                    await repo.set_seat(tx, row.id, mover.user_id, timeouts=0)
                if timed_out is not None:
                    seat_row = next(s for s in row.seats if s.user_id == timed_out)
                    await repo.set_seat(tx, row.id, timed_out, timeouts=seat_row.timeouts + 1)
                for s in row.seats:
                    if s.seat in getattr(game, "resigned", ()) and not s.resigned:
                        await repo.set_seat(tx, row.id, s.user_id, resigned=1)
                if game.game_over:
                    await repo.insert_results(tx, self._results(row, game, now))
                if audit is not None:
                    await repo.add_audit(tx, row.guild_id, audit[0], audit[1], now, game_id=row.id, detail=audit[2])
        except sqlite3.IntegrityError as exc:
            self._cache.pop(row.id, None)
            raise Refusal("already_done") from exc
        except repo.VersionConflict as exc:  # another writer (another GameService) got there first
            self._cache.pop(row.id, None)
            raise Stale(await self._row(row.id)) from exc
        except BaseException:
            self._cache.pop(row.id, None)
            raise
        self._cache[row.id] = (version, game)
        if game.game_over:
            self._cache.pop(row.id, None)
        after = _after(row, values, version, now, game, user_id if reset_timeouts else None, timed_out)
        return Change(
            kind, after, game, seat=seat, move=move, events=events,
            turn_changed=game.current_seat != before[0] or kind in (ChangeKind.DEAL, ChangeKind.START),
            deal_over=game.hand_over, game_over=game.game_over,
        )

    def _results(self, row: GameRow, game: Game, now: float) -> list[tuple[int, int, str, int, str, int, float]]:
        """One row per seat: place 1 for the winners, then by the variant's ordering; resigned
        seats last, the last to resign first (notation.md, Resigning)."""
        order = [s for s in game.placing() if s not in game.winners]
        ranked = list(game.winners) + order
        resigned = [s for s in reversed(getattr(game, "resigned", [])) if s not in ranked]
        ranked += resigned + [s.seat for s in row.seats if s.seat not in ranked and s.seat not in resigned]
        scores = game.final_scores or game.totals
        out = []
        for s in row.seats:
            place = 1 if s.seat in game.winners else ranked.index(s.seat) + 1
            out.append((row.id, row.guild_id, row.variant, s.user_id, str(scores.get(s.seat, 0)), place, now))
        return out


def _after(row: GameRow, values: dict[str, Any], version: int, now: float, game: Game, mover: int | None,
           timed_out: int | None) -> GameRow:
    """The row as ``_commit`` just wrote it (saves reading it back: two round trips per move)."""
    resigned = set(getattr(game, "resigned", ()))
    seats = tuple(
        replace(s, timeouts=0 if s.user_id == mover else s.timeouts + 1 if s.user_id == timed_out else s.timeouts,
                resigned=s.resigned or s.seat in resigned)
        for s in row.seats
    )
    changed = {k: v for k, v in values.items() if k in _ROW_FIELDS}
    if "turn_reminded" in changed:
        changed["turn_reminded"] = bool(changed["turn_reminded"])
    return replace(row, **changed, version=version, updated_at=now, seats=seats)


_ROW_FIELDS = {f.name for f in fields(GameRow)} - {"seats"}


async def _one_lobby_per_host(tx: Tx | Database, guild_id: int, host_id: int) -> None:
    # One open lobby per host and server (reliability.md R20): lobbies cannot be spammed over channels.
    channel = await repo.lobby_hosted_by(tx, guild_id, host_id)
    if channel is not None:
        raise Refusal("host_has_lobby", channel=f"<#{channel}>")


def _hosts_lobby(row: GameRow, user_id: int) -> None:
    """Only an open lobby's host may start it or seat a computer player."""
    if row.status != GameStatus.LOBBY:
        raise Refusal("not_a_lobby")
    if user_id != row.host_id:
        raise Refusal("host_only")


def _people_playing(row: GameRow, game: Game) -> list[str]:
    """The seats of people still in the game (not resigned, not eliminated)."""
    out_ = set(getattr(game, "resigned", ())) | set(getattr(game, "eliminated", ()))
    return [s.seat for s in row.seats if not s.is_bot and s.seat not in out_]


def _bot_actors(row: GameRow, game: Game) -> list[str]:
    """The computer players among the seats to act now."""
    return [a for a in game.actors if (s := row.by_seat(a)) is not None and s.is_bot]


def _can_pass(game: Game) -> bool:
    """A claim or cut-in window some seat may still pass on (the clock closes those)."""
    return any("pass" in game.legal_moves(seat) for seat in game.actors)


def _window_seconds(row: GameRow, bot_opts: dict[str, int]) -> float:
    """The bot's ``window=`` if given, else the variant's own option (tradicional
    ``claim_window_s``, dummy ``cut_window_s``), else ``WINDOW_SECONDS``."""
    if "window" in bot_opts:
        return bot_opts["window"]
    values = make_rules(row.variant, split_options(row.options)[0]).values
    for name in ("claim_window_s", "cut_window_s"):
        if name in values:
            return float(values[name])
    return WINDOW_SECONDS


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as managers see it: who finished where, rated or not, voided or not."""

    game_id: int
    variant: str
    finished_at: float
    players: tuple[tuple[int, str, int], ...]  # (user id, name, place), in finishing order
    with_bots: bool  # a computer player sat: never rated
    voided: bool
    reason: str = ""  # the manager's reason, as stored, when this is the answer to voiding it


def _finished_games(rows: list[Any]) -> list[FinishedGame]:
    games: dict[int, list[Any]] = {}
    for r in rows:
        games.setdefault(r["game_id"], []).append(r)
    return [
        FinishedGame(gid, seats[0]["variant"], max(r["finished_at"] for r in seats),
                     tuple((r["user_id"], r["name"], r["place"]) for r in seats),
                     any(r["user_id"] < 0 for r in seats), bool(seats[0]["voided"]))
        for gid, seats in games.items()
    ]


def clean_text(text: str, limit: int) -> str:
    """Typed text as stored: control, zero-width and bidi characters removed, whitespace runs made
    one space, at most ``limit`` characters (reliability.md §4.4)."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))
    return " ".join(kept.split())[:limit]


def clean_name(name: str) -> str:
    """A display name as stored: cleaned, at most 32 characters, never empty."""
    return clean_text(name, 32) or "?"


def _bot_text(options: str) -> str:
    return " ".join(w for w in options.split() if w.partition("=")[0] in BOT_OPTIONS)
