"""A tournament on the clock: check-in, the start, each round's games, its end, the podium.

What it is: ``TournamentRounds``, the clock's half of the ``tournaments`` part of ``GameService``
(``service.tournaments.rounds``). ``tournaments_due`` and
``tournament_tick`` are the clock's (``bot.client`` calls them beside the games' ``due``/``tick``):
at ``checkin_opens_at`` the check-in opens; at ``starts_at`` those who did not check in are
dropped and round 1 is paired and started; while a round runs its tables are watched (a game that
ended gives its table's places and game points; a person who has not moved in their first turn
``grace_seconds`` after it began forfeits that game, resigned for them); when the last table ends
the standings are worked out, and after ``pause_seconds`` (or a manager's button) the next round
is paired, until the last: then the podium. Each table's game is an ordinary game (``games`` row,
its own thread, the ordinary clock, results and ratings exactly as any game's), created already
started with the pairing's seats; a computer player (or a person a manager replaced) sits as a
computer player, which makes that game unrated as any game with one is.
Every change of an event is one transaction under the event's name lock that writes its next
version (``bump``: a second shard process finds it moved on and does nothing), and each table's
key is unique, so a round is paired once, whoever pairs it; a restart resumes from the rows.
What it is not: no pairing rules (``pairing``), no standings arithmetic (``standings``), no
Discord (the wing announces ``EventChange``\\ s), no SQL (``bot.store.tournaments``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine import load_game, new_game
from bot.store import Transaction, VersionConflict, repo
from bot.store import tournaments as store
from bot.store.rows import ActionKind, GameStatus
from bot.store.tournaments import EntrantRow, EventRow, TableRow

from ..acting import RESIGN, Acting
from ..changes import Change, ChangeKind, Refusal, Stale
from ..core import Core
from ..options import split_options
from ..reading import Reading
from .model import Entrant, Format, Outcome, draw_key
from .pairing import knockout_round, pair_round, rounds_for
from .standings import Standings, standings

log = logging.getLogger(__name__)

MOVED_ON = "tournament_moved_on"
OWED_AFTER = 30.0  # seconds: a round's game not posted by then was left unposted by a stopped process
ENDED_GAME = (GameStatus.FINISHED, GameStatus.CANCELLED, GameStatus.EXPIRED, GameStatus.ABANDONED)


class Stage(StrEnum):
    SIGNUP = "signup"
    CHECKIN = "checkin"
    RUNNING = "running"
    BETWEEN = "between"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN_STAGES = (Stage.SIGNUP, Stage.CHECKIN)
OVER = (Stage.FINISHED, Stage.CANCELLED)


class EventKind(StrEnum):
    """What an ``EventChange`` did, for the wing to say."""

    CREATED = "created"
    SIGNUP = "signup"  # someone joined or left, or checked in: the sign-up message changes
    CHECKIN = "checkin"  # the check-in opened
    ROUND = "round"  # a round was paired and its games started (``games``: their START changes)
    OWED = "owed"  # games of the round never posted (a crash between the commit and the posts): ``games``
    FORFEIT = "forfeit"  # a first-turn no-show forfeited (``games``: the resignation)
    ROUND_OVER = "round_over"  # the round's last table ended (``standings``)
    FINISHED = "finished"  # the podium (``standings``)
    CANCELLED = "cancelled"
    PAUSED = "paused"
    RESUMED = "resumed"
    DROPPED = "dropped"
    REPLACED = "replaced"
    VOIDED = "voided"


@dataclass
class EventChange:
    """A committed change of an event: ``games`` the game changes it made (to announce as any
    game's), ``standings`` after a round or at the end, ``round``: the round it concerns."""

    kind: EventKind
    event: EventRow
    games: list[Change] = field(default_factory=list)
    standings: Standings | None = None
    round: int = 0
    user_id: int | None = None


def model_entrants(entrants: list[EntrantRow]) -> list[Entrant]:
    return [Entrant(e.user_id, e.rating, e.dropped) for e in entrants]


def outcomes(tables: list[TableRow]) -> list[Outcome]:
    """The tables that ended, as the pairing and standings read them."""
    return [Outcome(t.round, t.players, t.places, t.points, t.forfeit, t.void, t.number)
            for t in tables if t.ended_at is not None]


def event_standings(event: EventRow, entrants: list[EntrantRow], tables: list[TableRow]) -> Standings:
    return standings(Format(event.format), model_entrants(entrants), outcomes(tables), event.seed)


def _points(score: str) -> int:
    try:
        return int(float(score))
    except ValueError:
        return 0


class TournamentRounds:
    """The clock's part of tournaments: stages, rounds and their tables. Its own state is the
    events' locks in this process; a first-turn forfeit is played through ``acting``, a table's
    result read through ``reading``."""

    def __init__(self, core: Core, acting: Acting, reading: Reading) -> None:
        self.core = core
        self.acting = acting
        self.reading = reading
        # An event's lock lives while someone holds it or waits on it, as the games' locks do.
        self._event_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def event_lock(self, event_id: int) -> asyncio.Lock:
        """The event's lock in this process (other processes: the name lock and the version)."""
        lock = self._event_locks.get(event_id)
        if lock is None:
            lock = self._event_locks[event_id] = asyncio.Lock()
        return lock

    async def event(self, event_id: int) -> EventRow:
        """The event ``event_id``; none is ``Refusal("tournament_none")``."""
        event = await store.get_event(self.core.db, event_id)
        if event is None:
            raise Refusal("tournament_none")
        return event

    async def tournaments_due(self) -> list[int]:
        return await store.due_events(self.core.db, self.core.now(), self.core.shards)

    async def tournaments_next_deadline(self) -> float | None:
        return await store.next_deadline(self.core.db)

    async def tournament_tick(self, event_id: int) -> list[EventChange]:
        """Do what is due for one event (see the module's docstring). A change another process
        made first leaves nothing to do here."""
        try:
            return await self._tournament_tick(event_id)
        except Stale:
            return []
        except Refusal as exc:
            if exc.code == MOVED_ON:  # another process (a shard sharing the database) did it first
                return []
            raise

    async def _tournament_tick(self, event_id: int) -> list[EventChange]:
        forfeits = await self._first_turn_forfeits(event_id)
        async with self.event_lock(event_id):
            event = await self.event(event_id)
            now = self.core.now()
            if event.stage == Stage.SIGNUP and event.next_at is not None and event.next_at <= now:
                async with self.event_tx() as tx:
                    await store.bump(tx, event, now, stage=Stage.CHECKIN, next_at=event.starts_at)
                return [EventChange(EventKind.CHECKIN, await self.event(event_id))]
            if event.stage == Stage.CHECKIN and event.next_at is not None and event.next_at <= now:
                return await self._start_event(event, now)
            if event.stage == Stage.BETWEEN and event.next_at is not None and event.next_at <= now:
                return [await self._next_round(event, now)]
            if event.stage == Stage.RUNNING:
                return forfeits + await self._owed_posts(event, now) + await self._watch_tables(event, now)
            return forfeits

    @contextlib.asynccontextmanager
    async def event_tx(self, duplicate: str = MOVED_ON) -> AsyncIterator[Transaction]:
        """A write of the event: another process's write first (its version moved, or its table
        keys are taken) is ``Refusal("tournament_moved_on")``, nothing written here.
        ``duplicate``: the refusal for a broken unique key, where it means something else."""
        try:
            async with self.core.transaction(duplicate=duplicate) as tx:
                yield tx
        except VersionConflict as exc:
            raise Refusal(MOVED_ON) from exc

    # ---------------------------------------------------------------- the start and each round
    async def _start_event(self, event: EventRow, now: float) -> list[EventChange]:
        async with self.event_tx() as tx:
            await tx.lock_name(f"tournament:{event.id}")
            await store.drop_unchecked(tx, event.id)
            field_now = [e for e in await store.entrants(tx, event.id) if not e.dropped]
            if len(field_now) < 2:
                await store.bump(tx, event, now, stage=Stage.CANCELLED, next_at=None, finished_at=now)
                cancelled = True
            else:
                rounds = event.rounds if event.format == Format.SWISS else rounds_for(Format(event.format),
                                                                                        len(field_now))
                version = await store.bump(tx, event, now, rounds=rounds, round=0)
                cancelled = False
        if cancelled:
            return [EventChange(EventKind.CANCELLED, await self.event(event.id))]
        event = await self.event(event.id)
        assert event.version == version
        return [await self._next_round(event, now)]

    async def _next_round(self, event: EventRow, now: float) -> EventChange:
        """Pair round ``event.round + 1`` and start its games, in one transaction; or, with no
        round left (the last played, a champion, fewer than two players), the podium."""
        round_no = event.round + 1
        async with self.event_tx() as tx:
            await tx.lock_name(f"tournament:{event.id}")
            entrants = await store.entrants(tx, event.id)
            played = await store.tables(tx, event.id)
            active = [e for e in entrants if not e.dropped]
            tables = pair_round(Format(event.format), round_no, model_entrants(entrants), outcomes(played),
                                event.seed, event.table_size) if round_no <= event.rounds and len(active) >= 2 else []
            if not any(len(t.players) > 1 for t in tables):
                await store.bump(tx, event, now, stage=Stage.FINISHED, next_at=None, finished_at=now)
                finished = True
                game_ids: list[int] = []
            else:
                finished = False
                by_id = {e.user_id: e for e in entrants}
                game_ids = []
                for t in tables:
                    dropped = [p for p in t.players if by_id[p].dropped]
                    if t.bye:
                        await store.insert_table(tx, event.id, round_no, t.number, t.players, None, now, places=(1,),
                                                 ended=True)
                    elif dropped:  # a bracket or schedule place of a dropped player: a forfeit, no game
                        places = tuple(2 if p in dropped else 1 for p in t.players)
                        await store.insert_table(tx, event.id, round_no, t.number, t.players, None, now,
                                                 places=places, forfeit=True, ended=True)
                    else:
                        game_id = await self._table_game(tx, event, round_no, t.number,
                                                         [by_id[p] for p in t.players], now)
                        game_ids.append(game_id)
                        await store.insert_table(tx, event.id, round_no, t.number, t.players, game_id, now)
                await store.bump(tx, event, now, stage=Stage.RUNNING, round=round_no, next_at=None)
        event = await self.event(event.id)
        if finished:
            entrants = await store.entrants(self.core.db, event.id)
            return EventChange(EventKind.FINISHED, event,
                               standings=event_standings(event, entrants, await store.tables(self.core.db, event.id)),
                               round=event.round)
        changes = []
        for game_id in game_ids:
            row = await self.core.row(game_id)
            game = load_game(row.record or "")
            self.core.cache[game_id] = (row.version, game)
            changes.append(Change(ChangeKind.START, row, game, turn_changed=True))
        due = [c.game.turn_deadline for c in changes if c.game.turn_deadline is not None]
        if due:
            self.core.tell_deadline(min(due))
        return EventChange(EventKind.ROUND, event, changes, round=round_no)

    async def _table_game(self, tx: Transaction, event: EventRow, round_no: int, number: int,
                          players: list[EntrantRow], now: float) -> int:
        """A table's game, written already started with the pairing's seats (in its own thread,
        made by the wing: ``thread_id`` 0). People replaced by a computer player, and computer
        players, sit as computer players (negative ids: the game is unrated as any with one)."""
        game_id = await repo.insert_game(
            tx, guild_id=event.guild_id, channel_id=event.channel_id, host_id=event.created_by,
            variant=event.variant, options=event.options, timer_minutes=event.timer_minutes, locale=event.locale,
            status=GameStatus.LOBBY, version=1, created_at=now, updated_at=now, lobby_expires_at=None,
            thread_id=0, practice=int(not event.rated), hints_off=1)
        for pos, e in enumerate(players):
            if e.is_bot:
                await repo.insert_seat(tx, game_id, pos, e.user_id, f"p{pos + 1}", e.name, e.robot_level or "normal")
            elif e.robot_level:
                await repo.insert_seat(tx, game_id, pos, -(100 + pos), f"p{pos + 1}", f"🤖 {e.name}"[:32],
                                       e.robot_level)
            else:
                await repo.insert_seat(tx, game_id, pos, e.user_id, f"p{pos + 1}", e.name)
        row = await repo.get_game(tx, game_id)
        assert row is not None
        engine_text, _ = split_options(event.options)
        seed = draw_key(event.seed, round_no * 1000 + number)[:16]  # each table its own deal, from the event's seed
        game = new_game(event.variant, [s.seat for s in row.seats], seed=seed, options=engine_text)
        version = await repo.bump(tx, row, now, status=GameStatus.PLAYING, record=game.record(),
                                  **self.core.deadlines(row, None, game, now))
        await repo.log_action(tx, game_id, version, event.created_by, ActionKind.START, None, None, now)
        return game_id

    # ---------------------------------------------------------------- a running round
    async def _owed_posts(self, event: EventRow, now: float) -> list[EventChange]:
        """Games of the round still without a place (``thread_id`` 0) ``OWED_AFTER`` seconds after
        they started: the process that started them stopped before posting them (their thread is
        made from the post, so it was never made). Handed to the wing again, to post them now."""
        owed = []
        for t in await store.tables(self.core.db, event.id):
            if t.round != event.round or t.game_id is None or t.ended_at is not None:
                continue
            row = await self.core.get(t.game_id)
            if row is not None and row.thread_id == 0 and row.status == GameStatus.PLAYING \
                    and now - row.created_at >= OWED_AFTER:
                owed.append(Change(ChangeKind.START, row, self.core.engine(row), turn_changed=True))
        return [EventChange(EventKind.OWED, event, owed, round=event.round)] if owed else []

    async def _first_turn_forfeits(self, event_id: int) -> list[EventChange]:
        """A person who has not moved in their first turn ``grace_seconds`` after it began
        forfeits the game (resigned for them; the table is marked a forfeit)."""
        event = await store.get_event(self.core.db, event_id)
        if event is None or event.stage != Stage.RUNNING or event.grace_seconds <= 0:
            return []
        now = self.core.now()
        out = []
        for t in await store.tables(self.core.db, event_id):
            if t.round != event.round or t.ended_at is not None or t.game_id is None:
                continue
            row = await self.core.get(t.game_id)
            if row is None or row.status != GameStatus.PLAYING or row.quarantined_at is not None:
                continue
            if now - row.updated_at < event.grace_seconds:
                continue
            game = self.core.engine(row)
            movers = await repo.movers(self.core.db, row.id)
            for seat in row.seats:
                if seat.is_bot or seat.resigned or seat.user_id in movers or seat.seat not in game.actors:
                    continue
                try:
                    change = await self.acting.play(row.id, seat.user_id, RESIGN)
                except (Refusal, Stale):
                    continue  # the player moved meanwhile, or the game moved on
                async with self.event_tx() as tx:
                    await store.mark_table(tx, event_id, t.round, t.number, forfeit=1)
                out.append(EventChange(EventKind.FORFEIT, event, [change], round=t.round, user_id=seat.user_id))
                break
        return out

    async def _watch_tables(self, event: EventRow, now: float) -> list[EventChange]:
        """Record the tables whose game ended; the round's end when none is left playing."""
        tables = await store.tables(self.core.db, event.id)
        current = [t for t in tables if t.round == event.round]
        open_tables = [t for t in current if t.ended_at is None]
        ended: list[tuple[TableRow, tuple[int, ...], tuple[int, ...], bool]] = []
        for t in open_tables:
            row = await self.core.get(t.game_id) if t.game_id is not None else None
            if row is None:
                ended.append((t, (), (), True))
            elif row.status in ENDED_GAME:
                results = {r.user_id: r for r in await self.reading.results(row.id)}
                if row.status == GameStatus.FINISHED and results:
                    places = tuple(results[s.user_id].place if s.user_id in results else len(t.players)
                                   for s in row.seats)
                    points = tuple(_points(results[s.user_id].score) if s.user_id in results else 0
                                   for s in row.seats)
                    ended.append((t, places, points, False))
                else:  # cancelled or abandoned: no result; the players met all the same
                    ended.append((t, (), (), True))
        if not ended and open_tables:
            return []
        async with self.event_tx() as tx:
            await tx.lock_name(f"tournament:{event.id}")
            for t, places, points, void in ended:
                await store.end_table(tx, event.id, t.round, t.number, places, points, now, void=void)
            still = len(open_tables) - len(ended)
            if still == 0:
                last = event.round >= event.rounds or (event.format == Format.KNOCKOUT and not knockout_round(
                    event.round + 1, model_entrants(await store.entrants(tx, event.id)),
                    outcomes(await store.tables(tx, event.id)), event.seed))
                if last:
                    await store.bump(tx, event, now, stage=Stage.FINISHED, next_at=None, finished_at=now)
                else:
                    await store.bump(tx, event, now, stage=Stage.BETWEEN,
                                     next_at=None if event.paused else now + event.pause_seconds)
            else:
                await store.bump(tx, event, now)
        if still:
            return []
        event = await self.event(event.id)
        db = self.core.db
        table = event_standings(event, await store.entrants(db, event.id), await store.tables(db, event.id))
        kind = EventKind.FINISHED if event.stage == Stage.FINISHED else EventKind.ROUND_OVER
        if event.next_at is not None:
            self.core.tell_deadline(event.next_at)
        return [EventChange(kind, event, standings=table, round=event.round)]

