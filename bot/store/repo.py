"""Every query the bot makes, as small functions over ``Database``/``Tx``.

What it is: reading and writing lobbies, games, seats, the action log, results and settings.
Rows leave this module as the typed, frozen rows of ``bot.store.rows`` (never the driver's own rows).
What it is not: no rules and no Discord. The service decides; this module only stores: numbers
that are rules (such as when a turn reminder is due) come in as parameters.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any, TypeVar

from bot.store.rows import (
    AuditAction,
    AuditRow,
    FinishedSeatRow,
    GameRow,
    GameStatus,
    RecordRow,
    ResultRow,
    ScheduleRow,
    SeasonRow,
    SeatRow,
    StandingRow,
)

from .base import Store, Transaction
from .errors import VersionConflict

_Row = TypeVar("_Row")


_GAME_COLUMNS = [f.name for f in fields(GameRow) if f.name not in ("seats", "invited")]


def _typed(cls: type[_Row], row: sqlite3.Row) -> _Row:
    """A driver row as the typed row ``cls`` (its fields are the row's column names)."""
    return cls(**{f.name: row[f.name] for f in fields(cls)})  # type: ignore[arg-type]


def _seat(s: sqlite3.Row) -> SeatRow:
    return SeatRow(s["position"], s["user_id"], s["seat"], s["name"], s["timeouts"], bool(s["resigned"]),
                   s["robot_level"])


def _game(row: sqlite3.Row, seats: Sequence[sqlite3.Row], invited: Sequence[sqlite3.Row] = ()) -> GameRow:
    values: dict[str, Any] = {c: row[c] for c in _GAME_COLUMNS}
    values["turn_reminded"] = bool(values["turn_reminded"])
    values["hints_off"] = bool(values["hints_off"])
    values["practice"] = bool(values["practice"])
    values["status"] = GameStatus(values["status"])
    return GameRow(**values, seats=tuple(_seat(s) for s in seats), invited=tuple(_seat(s) for s in invited))


async def get_game(tx: Transaction | Store, game_id: int) -> GameRow | None:
    row = await tx.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        return None
    seats = await tx.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY position", (game_id,))
    invited: Sequence[sqlite3.Row] = ()
    if row["rematch_of"] is not None and row["status"] == GameStatus.LOBBY:
        # The previous game's people not seated here, and who have not left this lobby (or been
        # taken out of it): an invitation is declined by leaving.
        invited = await tx.fetchall(
            "SELECT * FROM seats p WHERE p.game_id = ? AND p.user_id > 0 AND p.user_id NOT IN "
            "(SELECT user_id FROM seats WHERE game_id = ?) AND p.user_id NOT IN (SELECT user_id FROM actions "
            "WHERE game_id = ? AND kind = 'leave' AND user_id IS NOT NULL) ORDER BY p.position",
            (row["rematch_of"], game_id, game_id))
    return _game(row, seats, invited)


async def active_in_channel(tx: Transaction | Store, channel_id: int) -> GameRow | None:
    """The lobby or game played in ``channel_id`` itself (not in a thread of its own: issue 12)."""
    row = await tx.fetchone(
        "SELECT id FROM games WHERE channel_id = ? AND thread_id IS NULL AND status IN ('lobby', 'playing')",
        (channel_id,))
    return None if row is None else await get_game(tx, row["id"])


async def lobby_hosted_by(tx: Transaction | Store, guild_id: int, host_id: int) -> int | None:
    """The channel of the open lobby ``host_id`` hosts in ``guild_id``, if any."""
    row = await tx.fetchone(
        "SELECT channel_id FROM games WHERE guild_id = ? AND host_id = ? AND status = 'lobby' LIMIT 1",
        (guild_id, host_id),
    )
    return None if row is None else int(row["channel_id"])


async def member_games(tx: Transaction | Store, user_id: int) -> int:
    """How many lobbies and games ``user_id`` sits in, in every server (resigned seats apart)."""
    row = await tx.fetchone(
        "SELECT COUNT(*) AS n FROM seats JOIN games ON games.id = seats.game_id WHERE seats.user_id = ? AND "
        "seats.resigned = 0 AND games.status IN ('lobby', 'playing')",
        (user_id,),
    )
    return 0 if row is None else int(row["n"])


async def server_games(tx: Transaction | Store, guild_id: int) -> int:
    """How many lobbies and games ``guild_id`` has open."""
    row = await tx.fetchone(
        "SELECT COUNT(*) AS n FROM games WHERE guild_id = ? AND status IN ('lobby', 'playing')", (guild_id,)
    )
    return 0 if row is None else int(row["n"])


async def last_finished_in_channel(tx: Transaction | Store, channel_id: int) -> GameRow | None:
    row = await tx.fetchone(
        "SELECT id FROM games WHERE (channel_id = ? OR thread_id = ?) AND record IS NOT NULL AND status IN "
        "('finished', 'playing', 'cancelled') ORDER BY updated_at DESC LIMIT 1",
        (channel_id, channel_id),
    )
    return None if row is None else await get_game(tx, row["id"])


Shards = tuple[int, tuple[int, ...]]  # (shard count, the shard ids one process serves)


def on_shards(shards: Shards | None, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
    """SQL that keeps rows of guilds on ``shards`` (Discord's rule: a guild is on shard
    ``(guild_id >> 22) % shard_count``), and its parameters; nothing when one process serves all."""
    if shards is None or shards[0] <= 1:
        return "", ()
    count, ids = shards
    marks = ", ".join("?" for _ in ids)
    return f" AND (({column} >> 22) % ?) IN ({marks})", (count, *ids)


async def running_games(db: Store, shards: Shards | None = None) -> list[int]:
    """The ids of the games being played (of guilds on ``shards``), oldest first."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE status = 'playing' AND quarantined_at IS NULL{where} ORDER BY id", params)
    return [int(r["id"]) for r in rows]


async def active_records(db: Store, shards: Shards | None = None) -> list[tuple[int, str]]:
    """(id, record) of every lobby or game in play with a record (of guilds on ``shards``) that is
    not quarantined, oldest first: what the start-up compatibility check loads."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        "SELECT id, record FROM games WHERE status IN ('lobby', 'playing') AND quarantined_at IS NULL "
        f"AND record IS NOT NULL{where} ORDER BY id", params)
    return [(int(r["id"]), str(r["record"])) for r in rows]


async def quarantine(tx: Transaction, game_id: int, now: float, reason: str) -> bool:
    """Set a game aside whose record will not load; False when it already was (so it is announced
    once)."""
    changed = await tx.update(
        "UPDATE games SET quarantined_at = ?, quarantine_reason = ? WHERE id = ? AND quarantined_at IS NULL",
        (now, reason, game_id))
    return changed == 1


async def active_ids(db: Store | Transaction, *, channel_id: int | None = None,
                     guild_id: int | None = None) -> list[int]:
    """The lobbies and games in play of one channel (or thread: a game's own too), or of one server."""
    where, params = ("(channel_id = ? OR thread_id = ?)", (channel_id, channel_id)) if channel_id is not None else (
        "guild_id = ?", (guild_id,))
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE {where} AND status IN ('lobby', 'playing') ORDER BY id", params)
    return [int(r["id"]) for r in rows]


async def unannounced(db: Store, shards: Shards | None = None) -> list[int]:
    """Games (of guilds on ``shards``) whose end, or quarantine, was committed but never posted."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        "SELECT id FROM games WHERE (((status IN ('finished', 'cancelled', 'expired') OR end_reason = 'idle') AND "
        "final_announced_at IS NULL)"
        f" OR (quarantined_at IS NOT NULL AND quarantine_announced_at IS NULL)){where} ORDER BY id", params)
    return [int(r["id"]) for r in rows]


async def mark_reminded(tx: Transaction, game_id: int, version: int) -> bool:
    """Note that the turn reminder of this version went out; False when it already had (another
    process got there first), so the reminder is sent once."""
    changed = await tx.update(
        "UPDATE games SET turn_reminded = 1 WHERE id = ? AND version = ? AND turn_reminded = 0", (game_id, version)
    )
    return changed == 1


async def mark_idle_warned(tx: Transaction, game_id: int, version: int, now: float) -> bool:
    """Note that this version of an idle game was warned (its version and last change stay as
    they are); False when it already was (another process got there first): warned once."""
    changed = await tx.update(
        "UPDATE games SET idle_warned_at = ? WHERE id = ? AND version = ? AND status = 'playing' AND "
        "(idle_warned_at IS NULL OR idle_warned_at < updated_at)", (now, game_id, version)
    )
    return changed == 1


async def active_games(db: Store) -> list[GameRow]:
    rows = await db.fetchall("SELECT id FROM games WHERE status IN ('lobby', 'playing') ORDER BY id")
    out = []
    for r in rows:
        g = await get_game(db, r["id"])
        if g is not None:
            out.append(g)
    return out


async def insert_game(tx: Transaction, **values: Any) -> int:
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    return await tx.insert(f"INSERT INTO games ({names}) VALUES ({marks})", tuple(values.values()))


async def update_game(tx: Transaction, game_id: int, **values: Any) -> None:
    sets = ", ".join(f"{k} = ?" for k in values)
    await tx.execute(f"UPDATE games SET {sets} WHERE id = ?", (*values.values(), game_id))


async def bump(tx: Transaction, game: GameRow, now: float, **values: Any) -> int:
    """Write ``values`` and the next version, but only if nobody else changed the game meanwhile."""
    version = game.version + 1
    sets = ", ".join(f"{k} = ?" for k in values)
    sets = f"{sets}, " if sets else ""
    changed = await tx.update(
        f"UPDATE games SET {sets}version = ?, updated_at = ? WHERE id = ? AND version = ?",
        (*values.values(), version, now, game.id, game.version),
    )
    if changed != 1:
        raise VersionConflict(f"game {game.id} is no longer at version {game.version}")
    return version


async def insert_seat(tx: Transaction, game_id: int, position: int, user_id: int, seat: str, name: str,
                      robot_level: str | None = None) -> None:
    """``robot_level``: a computer player's strength (None for a person)."""
    await tx.execute(
        "INSERT INTO seats (game_id, position, user_id, seat, name, robot_level) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, position, user_id, seat, name, robot_level),
    )


async def delete_seat(tx: Transaction, game_id: int, user_id: int) -> None:
    await tx.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))


async def renumber_seats(tx: Transaction, game_id: int) -> None:
    rows = await tx.fetchall("SELECT user_id FROM seats WHERE game_id = ? ORDER BY position", (game_id,))
    for i, r in enumerate(rows):
        await tx.execute(
            "UPDATE seats SET position = ?, seat = ? WHERE game_id = ? AND user_id = ?",
            (-(i + 1), f"tmp{i}", game_id, r["user_id"]),
        )
    for i, r in enumerate(rows):
        await tx.execute(
            "UPDATE seats SET position = ?, seat = ? WHERE game_id = ? AND user_id = ?",
            (i, f"p{i + 1}", game_id, r["user_id"]),
        )


async def set_seat(tx: Transaction, game_id: int, user_id: int, **values: Any) -> None:
    sets = ", ".join(f"{k} = ?" for k in values)
    await tx.execute(f"UPDATE seats SET {sets} WHERE game_id = ? AND user_id = ?", (*values.values(), game_id, user_id))


async def log_action(
    tx: Transaction, game_id: int, version: int, user_id: int | None, kind: str, move: str | None,
    interaction_id: int | None, now: float,
) -> None:
    """Append to the action log; a repeated interaction id raises ``Duplicate``."""
    await tx.execute(
        "INSERT INTO actions (game_id, version, user_id, kind, move, interaction_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, version, user_id, kind, move, interaction_id, now),
    )


async def seen_interaction(tx: Transaction | Store, interaction_id: int) -> bool:
    return await tx.fetchone("SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)) is not None


async def insert_results(tx: Transaction, rows: list[tuple[int, int, str, int, str, int, float]], *,
                         rated: bool = True) -> None:
    """One row per seat: (game_id, guild_id, variant, user_id, score, place, finished_at). A game
    already scored raises ``Duplicate`` (the primary key): results are written once. ``rated``
    False: kept for the history, counted in no standings and no record."""
    for r in rows:
        # The season is the one open now, read inside this transaction (a new season is another
        # write, so it is either wholly before this one or wholly after).
        await tx.execute(
            "INSERT INTO results (game_id, guild_id, variant, user_id, score, place, finished_at, season, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, COALESCE((SELECT number FROM seasons WHERE guild_id = ? "
            "AND ended_at IS NULL), 1), ?)",
            (*r, r[1], int(rated)),
        )


async def movers(tx: Transaction | Store, game_id: int) -> set[int]:
    """The user ids that made a move of their own in a game (the action log's ``move`` rows: not a
    resignation, a timeout, a closed window or a computer player's move)."""
    rows = await tx.fetchall("SELECT DISTINCT user_id FROM actions WHERE game_id = ? AND kind = 'move'", (game_id,))
    return {int(r["user_id"]) for r in rows if r["user_id"] is not None}


async def results_of(db: Store | Transaction, game_id: int) -> list[ResultRow]:
    rows = await db.fetchall("SELECT * FROM results WHERE game_id = ? ORDER BY place, user_id", (game_id,))
    return [replace(_typed(ResultRow, r), rated=bool(r["rated"])) for r in rows]


# ---------------------------------------------------------------------------------------- seasons
async def current_season(tx: Transaction | Store, guild_id: int) -> SeasonRow:
    row = await tx.fetchone("SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    if row is None:
        return SeasonRow(guild_id, 1, None, None, None)
    return SeasonRow(guild_id, row["number"], row["started_at"], None, row["started_by"])


async def get_season(tx: Transaction | Store, guild_id: int, number: int) -> SeasonRow | None:
    row = await tx.fetchone("SELECT * FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number))
    if row is None:
        return SeasonRow(guild_id, 1, None, None, None) if number == 1 else None
    started = None if number == 1 else row["started_at"]
    return SeasonRow(guild_id, number, started, row["ended_at"], row["started_by"])


async def start_season(tx: Transaction, guild_id: int, ending: SeasonRow, user_id: int, now: float) -> int:
    """Close ``ending`` and open the next season; returns the new season's number."""
    closed = await tx.update(
        "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ? AND ended_at IS NULL",
        (now, guild_id, ending.number),
    )
    if not closed:  # season 1 had no row of its own
        await tx.execute(
            "INSERT INTO seasons (guild_id, number, started_at, ended_at) VALUES (?, ?, 0, ?)",
            (guild_id, ending.number, now),
        )
    number = ending.number + 1
    await tx.execute(
        "INSERT INTO seasons (guild_id, number, started_at, started_by) VALUES (?, ?, ?, ?)",
        (guild_id, number, now, user_id),
    )
    return number


# The results that count: games with a computer player are not rated (a bot's seat has a negative
# user id), nor games decided by an absent opponent (``results.rated`` 0, issue 15 hole 3), and a
# manager may void a game's result (table ``voided``). Practice games (issue 11) never count.
RATED = (
    "AND r.rated = 1 AND r.game_id NOT IN (SELECT game_id FROM results WHERE user_id < 0) "
    "AND r.game_id NOT IN (SELECT id FROM games WHERE practice = 1) "
    "AND r.game_id NOT IN (SELECT game_id FROM voided)"
)


async def season_results(
    db: Store | Transaction, guild_id: int, season: int, variant: str | None = None
) -> list[StandingRow]:
    """Every result of a season with the name the player had in that game, oldest game first."""
    sql = (
        "SELECT r.game_id, r.variant, r.user_id, r.place, r.score, r.finished_at, s.name FROM results r "
        "JOIN seats s ON s.game_id = r.game_id AND s.user_id = r.user_id "
        "WHERE r.guild_id = ? AND r.season = ? "
        + RATED
    )
    params: tuple[Any, ...] = (guild_id, season)
    if variant:
        sql += " AND r.variant = ?"
        params += (variant,)
    return [_typed(StandingRow, r) for r in await db.fetchall(sql + " ORDER BY r.finished_at, r.game_id", params)]


async def player_results(db: Store | Transaction, guild_id: int, user_id: int) -> list[RecordRow]:
    """Every rated result of one player in a server (all seasons), with how many they finished ahead of."""
    rows = await db.fetchall(
        "SELECT r.game_id, r.variant, r.place, r.season, r.finished_at, "
        "(SELECT COUNT(*) FROM results o WHERE o.game_id = r.game_id AND o.place > r.place) AS beaten "
        "FROM results r "
        "WHERE r.guild_id = ? AND r.user_id = ? " + RATED + " ORDER BY r.finished_at",
        (guild_id, user_id),
    )
    return [_typed(RecordRow, r) for r in rows]


# Seats of finished games as managers and players list them: each game's seats in finishing order,
# with the name each player had and whether a manager voided the game.
_FINISHED = (
    "SELECT r.game_id, r.variant, r.finished_at, r.user_id, r.place, s.name, r.rated, g.practice, "
    "EXISTS (SELECT 1 FROM voided v WHERE v.game_id = r.game_id) AS voided FROM results r "
    "JOIN seats s ON s.game_id = r.game_id AND s.user_id = r.user_id JOIN games g ON g.id = r.game_id "
)


async def recent_results(
    db: Store | Transaction, guild_id: int, games: int = 25, *, user_id: int | None = None
) -> list[FinishedSeatRow]:
    """The seats of a server's latest ``games`` finished games (only those ``user_id`` sat in,
    when given), newest game first."""
    mine = "" if user_id is None else " AND user_id = ?"
    params: tuple[Any, ...] = (guild_id,) if user_id is None else (guild_id, user_id)
    rows = await db.fetchall(
        _FINISHED + "WHERE r.game_id IN (SELECT DISTINCT game_id FROM results WHERE guild_id = ?" + mine
        + " ORDER BY game_id DESC LIMIT ?) ORDER BY r.game_id DESC, r.place, s.position",
        (*params, games),
    )
    return [_finished_seat(r) for r in rows]


async def recent_results_of(db: Store | Transaction, guild_id: int, game_id: int) -> list[FinishedSeatRow]:
    """``recent_results`` for one game of this server (empty when it has no result here)."""
    rows = await db.fetchall(_FINISHED + "WHERE r.guild_id = ? AND r.game_id = ? ORDER BY r.place, s.position",
                             (guild_id, game_id))
    return [_finished_seat(r) for r in rows]


def _finished_seat(row: sqlite3.Row) -> FinishedSeatRow:
    return FinishedSeatRow(row["game_id"], row["variant"], row["finished_at"], row["user_id"], row["place"],
                           row["name"], bool(row["voided"]), bool(row["rated"]), bool(row["practice"]))


async def set_voided(tx: Transaction, game_id: int, guild_id: int, user_id: int, reason: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO voided (game_id, guild_id, user_id, reason, at) VALUES (?, ?, ?, ?, ?)",
        (game_id, guild_id, user_id, reason, now),
    )


async def clear_voided(tx: Transaction, game_id: int) -> None:
    await tx.execute("DELETE FROM voided WHERE game_id = ?", (game_id,))


async def set_schedule(tx: Transaction, guild_id: int, every: str, channel_id: int, locale: str, next_at: float,
                       user_id: int, now: float) -> None:
    await tx.execute(
        "INSERT INTO season_schedules (guild_id, every, channel_id, locale, next_at, set_by, set_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET every = excluded.every, "
        "channel_id = excluded.channel_id, locale = excluded.locale, next_at = excluded.next_at, "
        "set_by = excluded.set_by, set_at = excluded.set_at",
        (guild_id, every, channel_id, locale, next_at, user_id, now),
    )


async def clear_schedule(tx: Transaction, guild_id: int) -> bool:
    return bool(await tx.update("DELETE FROM season_schedules WHERE guild_id = ?", (guild_id,)))


async def get_schedule(db: Store | Transaction, guild_id: int) -> ScheduleRow | None:
    row = await db.fetchone("SELECT * FROM season_schedules WHERE guild_id = ?", (guild_id,))
    return None if row is None else _typed(ScheduleRow, row)


async def due_schedules(db: Store | Transaction, now: float, shards: Shards | None = None) -> list[int]:
    where, params = on_shards(shards)
    rows = await db.fetchall(
        f"SELECT guild_id FROM season_schedules WHERE next_at <= ?{where} ORDER BY next_at", (now, *params)
    )
    return [r[0] for r in rows]


async def advance_schedule(tx: Transaction, guild_id: int, next_at: float) -> None:
    await tx.execute("UPDATE season_schedules SET next_at = ? WHERE guild_id = ?", (next_at, guild_id))


async def add_audit(
    tx: Transaction, guild_id: int, user_id: int, action: AuditAction, now: float, *, game_id: int | None = None,
    detail: str = "",
) -> None:
    await tx.execute(
        "INSERT INTO audit (guild_id, user_id, action, game_id, detail, at) VALUES (?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, action, game_id, detail, now),
    )


async def audit_of(db: Store | Transaction, guild_id: int, limit: int = 20) -> list[AuditRow]:
    rows = await db.fetchall(
        "SELECT * FROM audit WHERE guild_id = ? ORDER BY at DESC, id DESC LIMIT ?", (guild_id, limit)
    )
    return [AuditRow(r["id"], r["guild_id"], r["user_id"], AuditAction(r["action"]), r["game_id"], r["detail"], r["at"])
            for r in rows]


async def action_count(db: Store | Transaction, game_id: int) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
    return int(row[0]) if row else 0


async def get_meta(db: Store | Transaction, key: str) -> str | None:
    row = await db.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
    return None if row is None else str(row["value"])


async def set_meta(tx: Transaction, key: str, value: str) -> None:
    await tx.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


async def due_games(db: Store, now: float, remind_lead: float, shards: Shards | None = None,
                    idle: tuple[float, float] | None = None) -> list[int]:
    """Games (of guilds on ``shards``) with something the clock must do: an expired lobby, a turn
    reminder or timeout, a window to close, the next deal to deal. The reminder is due
    ``remind_lead`` of the turn timer before the turn's deadline. ``idle``: (seconds, warning
    lead): a game with no turn timer nobody moved in for ``seconds`` ends, and is warned once
    ``lead`` before (a warning older than the last change is no longer its warning)."""
    where, params = on_shards(shards)
    idle_sql = ""
    idle_params: tuple[float, ...] = ()
    if idle is not None:
        idle_sql = (" OR (status = 'playing' AND timer_minutes <= 0 AND (updated_at <= ? OR (updated_at <= ? AND "
                    "(idle_warned_at IS NULL OR idle_warned_at < updated_at))))")
        idle_params = (now - idle[0], now - idle[0] + idle[1])
    rows = await db.fetchall(
        "SELECT id FROM games WHERE ((status = 'lobby' AND lobby_expires_at <= ?) OR (status = 'playing' AND ("
        "turn_deadline <= ? OR window_deadline <= ? OR next_deal_at <= ?)) OR (status = 'playing' AND "
        f"turn_reminded = 0 AND turn_deadline IS NOT NULL AND turn_deadline - timer_minutes * 60 * ? <= ?){idle_sql}) "
        f"AND quarantined_at IS NULL{where}",
        (now, now, now, now, remind_lead, now, *idle_params, *params),
    )
    return [int(r["id"]) for r in rows]


async def next_deadline(db: Store, remind_lead: float, idle: tuple[float, float] | None = None) -> float | None:
    """The earliest moment the clock has something to do (``due_games``), if any."""
    idle_sql = ""
    idle_params: tuple[float, ...] = ()
    if idle is not None:
        idle_sql = (" UNION ALL SELECT CASE WHEN idle_warned_at >= updated_at THEN updated_at + ? ELSE updated_at + ? "
                    "END FROM games WHERE status = 'playing' AND quarantined_at IS NULL AND timer_minutes <= 0")
        idle_params = (idle[0], idle[0] - idle[1])
    row = await db.fetchone(
        "SELECT MIN(t) FROM (SELECT lobby_expires_at AS t FROM games WHERE status = 'lobby' AND "
        "quarantined_at IS NULL UNION ALL SELECT turn_deadline - timer_minutes * 60 * ? FROM games WHERE "
        "status = 'playing' AND quarantined_at IS NULL AND turn_reminded = 0 UNION ALL SELECT turn_deadline FROM "
        "games WHERE status = 'playing' AND quarantined_at IS NULL UNION ALL SELECT window_deadline FROM games "
        "WHERE status = 'playing' AND quarantined_at IS NULL UNION ALL SELECT next_deal_at FROM games WHERE "
        f"status = 'playing' AND quarantined_at IS NULL{idle_sql}) AS deadlines",
        (remind_lead, *idle_params),
    )
    return None if row is None or row[0] is None else float(row[0])
