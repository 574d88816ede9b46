"""Tournaments by people: creating an event, sign-up and check-in, managers' actions, reading.

What it is: ``Tournaments``, the ``tournaments`` part of ``GameService``, with the clock's
``TournamentRounds`` as its ``rounds``.
A manager creates an event (audited); members join and leave while sign-up is open (refused,
changing nothing, to a barred member, after sign-up closes, past the cap, twice); a manager may
seat computer players; members check in once check-in opens. A manager may drop a player (their
running game is resigned: a forfeit; they are paired no more), replace a no-show with a computer
player (their games from then on are unrated, as any game with one), pause and resume the event
(a paused event starts no new round), void a game (its table counts nothing; nothing already
played is paired again), start the next round now, or cancel the event (its running games are
cancelled). Each manager action writes an audit line (``AuditAction.TOURNAMENT``, detail
``"<event> <what> [<whom or game>]"``); the wing checks who is a manager, as for other admin
commands, and refuses others privately. Each of these changes is one transaction that takes the
event's name lock and reads the event under it (``_editing``), so members pressing Join on two
shard processes at once are both counted, neither shown an error.
What it is not: no clock (``rounds``), no pairing (``pairing``), no Discord, no SQL.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.engine import PLAYERS
from bot.robot import LEVELS
from bot.service.skill import OVERALL, Rating
from bot.store import Transaction, repo
from bot.store import ratings as rating_store
from bot.store import tournaments as store
from bot.store.rows import AuditAction, GameStatus
from bot.store.tournaments import EntrantRow, EventRow, TableRow

from ..acting import RESIGN, Acting
from ..changes import Refusal
from ..core import Core
from ..games import Games
from ..options import clean_name, clean_text, lobby_options
from ..settings import check_bots, check_host, check_player, config_of
from .model import Format
from .rounds import MOVED_ON, OPEN_STAGES, OVER, EventChange, EventKind, Stage, TournamentRounds, event_standings
from .standings import Standings

__all__ = ["CHECKIN_LEAD", "EventView", "NewEvent", "Tournaments"]

CHECKIN_LEAD = 10 * 60.0  # the check-in opens this long before round 1
FIRST_TURN_GRACE = 3 * 60.0  # a first turn not played this long after it began forfeits the game
ROUND_PAUSE = 2 * 60.0  # between the end of a round and the next
MAX_SWISS_ROUNDS = 15
MAX_CAP = 128


@dataclass(frozen=True)
class NewEvent:
    """What ``/rummy-admin tournament new`` asks for (times are the service clock's seconds)."""

    name: str
    variant: str
    format: str
    signup_closes_at: float
    starts_at: float
    options: str = ""
    rounds: int = 0
    table_size: int = 2
    timer_minutes: float = 5
    rated: bool = True
    cap: int = 32
    locale: str = "es"
    checkin_lead: float = CHECKIN_LEAD
    grace_seconds: float = FIRST_TURN_GRACE
    pause_seconds: float = ROUND_PAUSE
    seed: str | None = None


@dataclass(frozen=True)
class EventView:
    """An event as the wing shows it: its row, its players, its tables and the standings."""

    event: EventRow
    entrants: tuple[EntrantRow, ...]
    tables: tuple[TableRow, ...]
    standings: Standings

    @property
    def names(self) -> dict[int, str]:
        return {e.user_id: e.name for e in self.entrants}

    def next_table(self, user_id: int) -> TableRow | None:
        """The player's table in the current round, if it is still being played."""
        return next((t for t in self.tables if t.round == self.event.round and user_id in t.players
                     and t.ended_at is None), None)


async def _entrant(tx: Transaction, event_id: int, user_id: int) -> EntrantRow | None:
    return next((e for e in await store.entrants(tx, event_id) if e.user_id == user_id), None)


async def _seed_rating(tx: Transaction, guild_id: int, user_id: int) -> float:
    """The overall rating seeds are drawn by (a new player's is the starting one)."""
    row = (await rating_store.get(tx, guild_id, OVERALL, [user_id])).get(user_id)
    return float((Rating.of(row) if row is not None else Rating()).value)


def _check_new(plan: NewEvent, now: float) -> None:
    if plan.format not in tuple(Format):
        raise Refusal("tournament_format")
    lo, hi = PLAYERS.get(plan.variant, (0, 0))
    if not lo:
        raise Refusal("tournament_variant")
    if not (lo <= plan.table_size <= hi) or (plan.format != Format.SWISS and plan.table_size != 2):
        raise Refusal("tournament_table_size", min=lo, max=hi if plan.format == Format.SWISS else 2)
    if plan.format == Format.SWISS and not 1 <= plan.rounds <= MAX_SWISS_ROUNDS:
        raise Refusal("tournament_rounds", max=MAX_SWISS_ROUNDS)
    if not 2 <= plan.cap <= MAX_CAP:
        raise Refusal("tournament_cap", max=MAX_CAP)
    if not now < plan.signup_closes_at <= plan.starts_at:
        raise Refusal("tournament_times")


class Tournaments:
    """Events created, joined, checked into, managed and read. The clock's half is ``rounds``
    (the events' locks are its state); a dropped player's game is resigned through ``acting``, a
    voided or cancelled event's games cancelled through ``games``."""

    def __init__(self, core: Core, rounds: TournamentRounds, acting: Acting, games: Games) -> None:
        self.core = core
        self.rounds = rounds
        self.acting = acting
        self.games = games

    @contextlib.asynccontextmanager
    async def _editing(self, event_id: int, duplicate: str = MOVED_ON) -> AsyncIterator[tuple[EventRow, Transaction]]:
        """One person's change of an event: this process's lock, then one transaction that takes
        the event's name lock and only then reads the event, so a write by another process (a shard
        sharing the database) has landed before this one reads, and the version this one writes is
        the next. A ``Refusal`` raised inside writes nothing."""
        async with self.rounds.event_lock(event_id), self.rounds.event_tx(duplicate) as tx:
            await tx.lock_name(f"tournament:{event_id}")
            event = await store.get_event(tx, event_id)
            if event is None:
                raise Refusal("tournament_none")
            yield event, tx

    # ---------------------------------------------------------------- creating
    async def create_tournament(self, guild_id: int, channel_id: int, manager_id: int, plan: NewEvent) -> EventChange:
        """A new event in ``channel_id`` (audited). Refused, with nothing written, when a value is out of range."""
        now = self.core.now()
        _check_new(plan, now)
        options = lobby_options(plan.variant, plan.options, plan.timer_minutes)
        name = clean_text(plan.name, 60) or "?"
        async with self.core.transaction() as tx:
            check_host(await config_of(tx, guild_id), manager_id, plan.variant)
            event_id = await store.insert_event(
                tx, guild_id=guild_id, channel_id=channel_id, name=name, variant=plan.variant, options=options,
                format=plan.format, rounds=plan.rounds if plan.format == Format.SWISS else 0,
                table_size=plan.table_size, timer_minutes=plan.timer_minutes, rated=int(plan.rated), cap=plan.cap,
                signup_closes_at=plan.signup_closes_at, starts_at=plan.starts_at,
                checkin_opens_at=max(now, plan.starts_at - plan.checkin_lead), grace_seconds=plan.grace_seconds,
                pause_seconds=plan.pause_seconds, seed=plan.seed or secrets.token_hex(8), locale=plan.locale,
                stage=Stage.SIGNUP, round=0, next_at=max(now, plan.starts_at - plan.checkin_lead), paused=0,
                version=1, created_by=manager_id, created_at=now, updated_at=now)
            await repo.add_audit(tx, guild_id, manager_id, AuditAction.TOURNAMENT, now, detail=f"{event_id} new {name}")
        self.core.tell_deadline(max(now, plan.starts_at - plan.checkin_lead))
        return EventChange(EventKind.CREATED, await self.rounds.event(event_id))

    # ---------------------------------------------------------------- sign-up and check-in
    async def tournament_join(self, event_id: int, user_id: int, name: str) -> EventChange:
        """Sign up (refused: barred, sign-up closed, full, already in)."""
        now = self.core.now()
        async with self._editing(event_id, duplicate="tournament_already_in") as (event, tx):
            if event.stage not in OPEN_STAGES or now >= event.signup_closes_at:
                raise Refusal("tournament_closed")
            check_player(await config_of(tx, event.guild_id), user_id)
            if len(await store.entrants(tx, event_id)) >= event.cap:
                raise Refusal("tournament_full", max=event.cap)
            rating = await _seed_rating(tx, event.guild_id, user_id)
            await store.insert_entrant(tx, event_id, user_id, clean_name(name), rating, now)
            await store.bump(tx, event, now)
        return EventChange(EventKind.SIGNUP, await self.rounds.event(event_id), user_id=user_id)

    async def tournament_leave(self, event_id: int, user_id: int) -> EventChange:
        """Leave before the start (after it, a manager drops a player)."""
        async with self._editing(event_id) as (event, tx):
            if event.stage not in OPEN_STAGES:
                raise Refusal("tournament_started")
            if not await store.delete_entrant(tx, event_id, user_id):
                raise Refusal("tournament_not_in")
            await store.bump(tx, event, self.core.now())
        return EventChange(EventKind.SIGNUP, await self.rounds.event(event_id), user_id=user_id)

    async def tournament_check_in(self, event_id: int, user_id: int) -> EventChange:
        async with self._editing(event_id) as (event, tx):
            if event.stage != Stage.CHECKIN:
                raise Refusal("tournament_no_checkin")
            entrant = await _entrant(tx, event_id, user_id)
            if entrant is None:
                raise Refusal("tournament_not_in")
            if entrant.checked_in:
                raise Refusal("tournament_checked_in")
            await store.set_entrant(tx, event_id, user_id, checked_in=1)
            await store.bump(tx, event, self.core.now())
        return EventChange(EventKind.SIGNUP, await self.rounds.event(event_id), user_id=user_id)

    async def tournament_add_bot(self, event_id: int, manager_id: int, level: str = "normal") -> EventChange:
        """A manager seats a computer player in the field (checked in; its games are unrated)."""
        if level not in LEVELS:
            raise Refusal("bad_level")
        async with self._editing(event_id) as (event, tx):
            if event.stage not in OPEN_STAGES:
                raise Refusal("tournament_started")
            now = self.core.now()
            check_bots(await config_of(tx, event.guild_id))
            entrants = await store.entrants(tx, event_id)
            if len(entrants) >= event.cap:
                raise Refusal("tournament_full", max=event.cap)
            bot_id = min([e.user_id for e in entrants if e.is_bot], default=0) - 1
            await store.insert_entrant(tx, event_id, bot_id, f"🤖 Bot {-bot_id}", 0.0, now, robot_level=level,
                                       checked_in=True)
            await store.bump(tx, event, now)
            await self._audit(tx, event, manager_id, "bot", str(bot_id))
        return EventChange(EventKind.SIGNUP, await self.rounds.event(event_id), user_id=bot_id)

    # ---------------------------------------------------------------- managers
    async def _audit(self, tx: Transaction, event: EventRow, manager_id: int, what: str, detail: str = "") -> None:
        await repo.add_audit(tx, event.guild_id, manager_id, AuditAction.TOURNAMENT, self.core.now(),
                             detail=f"{event.id} {what} {detail}".strip())

    async def _running_game_of(self, event: EventRow, user_id: int) -> TableRow | None:
        return next((t for t in await store.tables(self.core.db, event.id) if t.round == event.round
                     and t.ended_at is None and t.game_id is not None and user_id in t.players), None)

    async def tournament_drop(self, event_id: int, manager_id: int, user_id: int) -> EventChange:
        """Drop a player: before the start they leave; after it, their running game is resigned
        (a forfeit) and they are paired no more (a bracket or schedule place becomes forfeits)."""
        async with self._editing(event_id) as (event, tx):
            if event.stage in OVER:
                raise Refusal("tournament_over")
            entrant = await _entrant(tx, event_id, user_id)
            if entrant is None or entrant.dropped:
                raise Refusal("tournament_not_in")
            if event.stage in OPEN_STAGES:
                await store.delete_entrant(tx, event_id, user_id)
            else:
                await store.set_entrant(tx, event_id, user_id, dropped=1)
            await store.bump(tx, event, self.core.now())
            await self._audit(tx, event, manager_id, "drop", str(user_id))
        changes = []
        table = await self._running_game_of(event, user_id)
        if table is not None and table.game_id is not None:
            row = await self.core.get(table.game_id)
            if row is not None and row.status == GameStatus.PLAYING and row.seat_of(user_id) is not None:
                changes.append(await self.acting.play(table.game_id, user_id, RESIGN))
                async with self.core.transaction() as tx:
                    await store.mark_table(tx, event_id, table.round, table.number, forfeit=1)
        return EventChange(EventKind.DROPPED, await self.rounds.event(event_id), changes, user_id=user_id)

    async def tournament_replace(self, event_id: int, manager_id: int, user_id: int,
                                 level: str = "normal") -> EventChange:
        """A computer player plays a person's games from the next one on (those games unrated)."""
        if level not in LEVELS:
            raise Refusal("bad_level")
        async with self._editing(event_id) as (event, tx):
            if event.stage in OVER:
                raise Refusal("tournament_over")
            check_bots(await config_of(tx, event.guild_id))
            entrant = await _entrant(tx, event_id, user_id)
            if entrant is None or entrant.is_bot or entrant.dropped:
                raise Refusal("tournament_not_in")
            await store.set_entrant(tx, event_id, user_id, robot_level=level, checked_in=1)
            await store.bump(tx, event, self.core.now())
            await self._audit(tx, event, manager_id, "replace", str(user_id))
        return EventChange(EventKind.REPLACED, await self.rounds.event(event_id), user_id=user_id)

    async def tournament_pause(self, event_id: int, manager_id: int, *, paused: bool) -> EventChange:
        """Pause (no new round starts; games being played go on) or resume."""
        async with self._editing(event_id) as (event, tx):
            if event.stage in OVER:
                raise Refusal("tournament_over")
            if event.paused == paused:
                raise Refusal("tournament_paused" if paused else "tournament_not_paused")
            now = self.core.now()
            values: dict[str, object] = {"paused": int(paused)}
            if event.stage == Stage.BETWEEN:
                values["next_at"] = None if paused else now + event.pause_seconds
            await store.bump(tx, event, now, **values)
            await self._audit(tx, event, manager_id, "pause" if paused else "resume")
        return EventChange(EventKind.PAUSED if paused else EventKind.RESUMED, await self.rounds.event(event_id))

    async def tournament_next_round(self, event_id: int, manager_id: int) -> list[EventChange]:
        """A manager's button: the next round now (also resumes a paused event)."""
        async with self._editing(event_id) as (event, tx):
            if event.stage != Stage.BETWEEN:
                raise Refusal("tournament_round_running")
            now = self.core.now()
            await store.bump(tx, event, now, next_at=now, paused=0)
            await self._audit(tx, event, manager_id, "next_round", str(event.round + 1))
        return await self.rounds.tournament_tick(event_id)

    async def tournament_void(self, event_id: int, manager_id: int, game_id: int) -> EventChange:
        """Void a table's game: it counts nothing (a running one is cancelled); nobody is paired
        again. A knockout's tables decide who goes on, so they cannot be voided."""
        found = await store.table_of_game(self.core.db, game_id)
        if found is None or found[0] != event_id:
            raise Refusal("tournament_no_table")
        event = await self.rounds.event(event_id)
        if event.format == Format.KNOCKOUT:
            raise Refusal("tournament_void_knockout")
        table = found[1]
        if table.void:
            raise Refusal("tournament_void_already")
        changes = []
        row = await self.core.get(game_id)
        if row is not None and row.status == GameStatus.PLAYING:
            changes.append(await self.games.cancel(game_id, manager_id, is_admin=True))
        async with self._editing(event_id) as (event, tx):
            await store.mark_table(tx, event_id, table.round, table.number, void=1)
            await store.bump(tx, event, self.core.now())
            await self._audit(tx, event, manager_id, "void", str(game_id))
        return EventChange(EventKind.VOIDED, await self.rounds.event(event_id), changes, round=table.round)

    async def tournament_cancel(self, event_id: int, manager_id: int) -> EventChange:
        """Cancel the event: its running games are cancelled, unscored."""
        async with self._editing(event_id) as (event, tx):
            if event.stage in OVER:
                raise Refusal("tournament_over")
            now = self.core.now()
            await store.bump(tx, event, now, stage=Stage.CANCELLED, next_at=None, finished_at=now)
            await self._audit(tx, event, manager_id, "cancel")
        changes = []
        for t in await store.tables(self.core.db, event_id):
            row = await self.core.get(t.game_id) if t.game_id is not None else None
            if row is not None and row.status == GameStatus.PLAYING:
                try:
                    changes.append(await self.games.cancel(row.id, manager_id, is_admin=True))
                except Refusal:
                    continue
        return EventChange(EventKind.CANCELLED, await self.rounds.event(event_id), changes)

    # ---------------------------------------------------------------- reading
    async def tournament(self, event_id: int) -> EventRow | None:
        return await store.get_event(self.core.db, event_id)

    async def tournament_view(self, event_id: int) -> EventView:
        event = await self.rounds.event(event_id)
        entrants = await store.entrants(self.core.db, event_id)
        tables = await store.tables(self.core.db, event_id)
        return EventView(event, tuple(entrants), tuple(tables), event_standings(event, entrants, tables))

    async def guild_tournaments(self, guild_id: int) -> list[EventRow]:
        """The server's events not over yet, oldest first."""
        return await store.events_in_guild(self.core.db, guild_id)

    async def player_tournaments(self, guild_id: int, user_id: int) -> list[EventView]:
        return [await self.tournament_view(e.id) for e in await store.events_of_player(self.core.db, guild_id, user_id)]

    async def set_tournament_message(self, event_id: int, message_id: int | None) -> None:
        """The sign-up message's id (a view: no version)."""
        async with self.core.transaction() as tx:
            await store.set_message(tx, event_id, message_id)

