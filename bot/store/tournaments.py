"""The queries of tournaments (issue 22): events, entrants and the tables of each round.

What it is: typed rows (``EventRow``, ``EntrantRow``, ``TableRow``) and small functions over
``Store``/``Transaction`` like ``repo``'s: insert and read an event, write its next version
only if nobody else did meanwhile (``bump``: a ``VersionConflict`` otherwise), its entrants,
its tables (the key ``(event, round, number)`` makes each table written once, whoever writes it)
and the events due on the clock.
What it is not: no pairing, no standings, no decision (``bot.service.tournament``) and no Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Store, Transaction
from .errors import VersionConflict
from .repo import Shards, on_shards


@dataclass(frozen=True)
class EventRow:
    """A ``tournaments`` row (see migration 6 in ``bot.store.schema`` for each column)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    variant: str
    options: str
    format: str
    rounds: int
    table_size: int
    timer_minutes: float
    rated: bool
    cap: int
    signup_closes_at: float
    checkin_opens_at: float
    starts_at: float
    grace_seconds: float
    pause_seconds: float
    seed: str
    locale: str
    stage: str
    round: int
    next_at: float | None
    paused: bool
    version: int
    created_by: int
    created_at: float
    updated_at: float
    message_id: int | None
    finished_at: float | None


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    name: str
    rating: float
    robot_level: str | None
    checked_in: bool
    dropped: bool
    joined_at: float

    @property
    def is_bot(self) -> bool:
        return self.user_id < 0


@dataclass(frozen=True)
class TableRow:
    """A table of a round. ``players``: entrant ids in seat order; ``places``/``points`` in the
    same order once it ended (empty before); ``game_id`` None for a bye or an early forfeit."""

    round: int
    number: int
    players: tuple[int, ...]
    game_id: int | None
    places: tuple[int, ...]
    points: tuple[int, ...]
    forfeit: bool
    void: bool
    started_at: float
    ended_at: float | None


def _ints(text: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",")) if text else ()


def _event(r: Any) -> EventRow:
    values = {k: r[k] for k in EventRow.__dataclass_fields__}
    values["rated"], values["paused"] = bool(values["rated"]), bool(values["paused"])
    return EventRow(**values)


def _table(r: Any) -> TableRow:
    return TableRow(int(r["round"]), int(r["number"]), _ints(r["players"]), r["game_id"], _ints(r["places"]),
                    _ints(r["points"]), bool(r["forfeit"]), bool(r["void"]), r["started_at"], r["ended_at"])


async def insert_event(tx: Transaction, **values: Any) -> int:
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    return await tx.insert(f"INSERT INTO tournaments ({names}) VALUES ({marks})", tuple(values.values()))


async def get_event(db: Store | Transaction, event_id: int) -> EventRow | None:
    r = await db.fetchone("SELECT * FROM tournaments WHERE id = ?", (event_id,))
    return None if r is None else _event(r)


async def bump(tx: Transaction, event: EventRow, now: float, **values: Any) -> int:
    """Write ``values`` and the next version, only if the event is still at ``event.version``."""
    sets = "".join(f"{k} = ?, " for k in values)
    changed = await tx.update(
        f"UPDATE tournaments SET {sets}version = ?, updated_at = ? WHERE id = ? AND version = ?",
        (*values.values(), event.version + 1, now, event.id, event.version))
    if changed != 1:
        raise VersionConflict(f"tournament {event.id} is no longer at version {event.version}")
    return event.version + 1


async def set_message(tx: Transaction, event_id: int, message_id: int | None) -> None:
    await tx.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, event_id))


async def events_in_guild(db: Store | Transaction, guild_id: int, *, open_only: bool = True) -> list[EventRow]:
    where = " AND stage NOT IN ('finished', 'cancelled')" if open_only else ""
    rows = await db.fetchall(f"SELECT * FROM tournaments WHERE guild_id = ?{where} ORDER BY id", (guild_id,))
    return [_event(r) for r in rows]


async def due_events(db: Store, now: float, shards: Shards | None = None) -> list[int]:
    """Events whose next deadline passed, and every running one (its tables are watched)."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        "SELECT id FROM tournaments WHERE (stage = 'running' OR (next_at IS NOT NULL AND next_at <= ? "
        f"AND stage IN ('signup', 'checkin', 'between'))){where} ORDER BY id", (now, *params))
    return [int(r["id"]) for r in rows]


async def next_deadline(db: Store) -> float | None:
    r = await db.fetchone("SELECT MIN(next_at) AS at FROM tournaments WHERE next_at IS NOT NULL "
                          "AND stage IN ('signup', 'checkin', 'between')")
    return None if r is None or r["at"] is None else float(r["at"])


# ---------------------------------------------------------------- entrants
async def entrants(db: Store | Transaction, event_id: int) -> list[EntrantRow]:
    rows = await db.fetchall("SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id",
                             (event_id,))
    return [EntrantRow(int(r["user_id"]), r["name"], float(r["rating"]), r["robot_level"], bool(r["checked_in"]),
                       bool(r["dropped"]), float(r["joined_at"])) for r in rows]


async def insert_entrant(tx: Transaction, event_id: int, user_id: int, name: str, rating: float, now: float, *,
                         robot_level: str | None = None, checked_in: bool = False) -> None:
    """A duplicate (already entered) raises ``Duplicate``."""
    await tx.execute(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, robot_level, checked_in, joined_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)", (event_id, user_id, name, rating, robot_level, int(checked_in), now))


async def delete_entrant(tx: Transaction, event_id: int, user_id: int) -> int:
    return await tx.update("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                           (event_id, user_id))


async def set_entrant(tx: Transaction, event_id: int, user_id: int, **values: Any) -> int:
    sets = ", ".join(f"{k} = ?" for k in values)
    return await tx.update(f"UPDATE tournament_entrants SET {sets} WHERE tournament_id = ? AND user_id = ?",
                           (*values.values(), event_id, user_id))


async def drop_unchecked(tx: Transaction, event_id: int) -> None:
    """The start: those who did not check in leave the event."""
    await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND checked_in = 0", (event_id,))


# ---------------------------------------------------------------- tables
async def tables(db: Store | Transaction, event_id: int) -> list[TableRow]:
    rows = await db.fetchall("SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
                             (event_id,))
    return [_table(r) for r in rows]


async def insert_table(tx: Transaction, event_id: int, round_no: int, number: int, players: tuple[int, ...],
                       game_id: int | None, now: float, *, places: tuple[int, ...] = (), forfeit: bool = False,
                       ended: bool = False) -> None:
    """A table of a round (a duplicate key: someone else paired it already, ``Duplicate``)."""
    await tx.execute(
        "INSERT INTO tournament_tables (tournament_id, round, number, players, game_id, places, forfeit, started_at, "
        "ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (event_id, round_no, number, ",".join(map(str, players)), game_id,
         ",".join(map(str, places)) if places else None, int(forfeit), now, now if ended else None))


async def end_table(tx: Transaction, event_id: int, round_no: int, number: int, places: tuple[int, ...],
                    points: tuple[int, ...], now: float, *, void: bool = False) -> int:
    """Write a table's end once (a table already ended is left as it is: 0 rows)."""
    return await tx.update(
        "UPDATE tournament_tables SET places = ?, points = ?, void = CASE WHEN ? = 1 THEN 1 ELSE void END, "
        "ended_at = ? WHERE tournament_id = ? AND round = ? AND number = ? AND ended_at IS NULL",
        (",".join(map(str, places)) or None, ",".join(map(str, points)) or None, int(void), now, event_id, round_no,
         number))


async def mark_table(tx: Transaction, event_id: int, round_no: int, number: int, **flags: int) -> None:
    """Set ``forfeit`` or ``void`` on a table."""
    sets = ", ".join(f"{k} = ?" for k in flags)
    await tx.execute(f"UPDATE tournament_tables SET {sets} WHERE tournament_id = ? AND round = ? AND number = ?",
                     (*flags.values(), event_id, round_no, number))


async def table_of_game(db: Store | Transaction, game_id: int) -> tuple[int, TableRow] | None:
    """(event id, table) of a game played for an event; None for an ordinary game."""
    r = await db.fetchone("SELECT * FROM tournament_tables WHERE game_id = ?", (game_id,))
    return None if r is None else (int(r["tournament_id"]), _table(r))


async def events_of_player(db: Store | Transaction, guild_id: int, user_id: int) -> list[EventRow]:
    rows = await db.fetchall(
        "SELECT t.* FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id WHERE t.guild_id = ? "
        "AND e.user_id = ? AND t.stage NOT IN ('finished', 'cancelled') ORDER BY t.id", (guild_id, user_id))
    return [_event(r) for r in rows]
