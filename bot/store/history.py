"""The queries of a server's corrections and frozen history (issue 12): managers' point
adjustments and the stored standings of closed seasons.

What it is: small functions over ``Store``/``Transaction`` like ``repo``'s (kept apart so
``repo`` stays one module): plain queries (a season's adjustments, the variants a season has
results in, the stored standings) and plain writes (store these lines as the next version);
rows leave as ``bot.store.rows.AdjustmentRow``, ``FrozenStandings`` and ``Standing``.
What it is not: no decisions and no arithmetic: the standings it stores are worked out and
handed to it by the service (``bot.service.records.freeze_season`` with
``bot.service.seasons.standings``), which also decides when a season's standings are stored.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from bot.store.rows import AdjustmentRow, AuditAction, AuditRow, FrozenStandings, Standing

from .base import Store, Transaction


def _adjustment(r: Any) -> AdjustmentRow:
    get = r.__getitem__
    return AdjustmentRow(int(get("id")), int(get("guild_id")), int(get("season")), int(get("user_id")),
                         str(get("name")), int(get("points")), str(get("reason")), int(get("manager_id")),
                         float(get("at")), None if get("undone_at") is None else float(get("undone_at")),
                         None if get("entry") is None else int(get("entry")))


async def add_adjustment(tx: Transaction, guild_id: int, season: int, user_id: int, name: str, points: int,
                         reason: str, manager_id: int, now: float) -> int:
    return await tx.insert(
        "INSERT INTO adjustments (guild_id, season, user_id, name, points, reason, manager_id, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (guild_id, season, user_id, name, points, reason, manager_id, now))


async def get_adjustment(db: Store | Transaction, guild_id: int, adjustment_id: int) -> AdjustmentRow | None:
    row = await db.fetchone("SELECT * FROM adjustments WHERE guild_id = ? AND id = ?", (guild_id, adjustment_id))
    return None if row is None else _adjustment(row)


async def undo_adjustment(tx: Transaction, adjustment_id: int, manager_id: int, now: float) -> bool:
    """Mark it undone; False when it already was (two managers undoing it at once: one wins)."""
    return await tx.update("UPDATE adjustments SET undone_at = ?, undone_by = ? WHERE id = ? AND undone_at IS NULL",
                           (now, manager_id, adjustment_id)) == 1


async def set_entry(tx: Transaction, adjustment_id: int, entry: int) -> None:
    await tx.execute("UPDATE adjustments SET entry = ? WHERE id = ?", (entry, adjustment_id))


async def undoable(db: Store | Transaction, guild_id: int, season: int, limit: int = 25) -> list[AdjustmentRow]:
    """A season's adjustments that still count, newest first (what ``/rummy-admin undo`` offers)."""
    rows = await db.fetchall(
        "SELECT * FROM adjustments WHERE guild_id = ? AND season = ? AND undone_at IS NULL AND entry IS NOT NULL "
        "ORDER BY at DESC, id DESC LIMIT ?", (guild_id, season, limit))
    return [_adjustment(r) for r in rows]


async def season_adjustments(db: Store | Transaction, guild_id: int, season: int) -> list[AdjustmentRow]:
    """The adjustments of a season that still count, oldest first."""
    rows = await db.fetchall(
        "SELECT * FROM adjustments WHERE guild_id = ? AND season = ? AND undone_at IS NULL ORDER BY at, id",
        (guild_id, season))
    return [_adjustment(r) for r in rows]


async def result_season(db: Store | Transaction, game_id: int) -> int:
    """The season a finished game's result counts for."""
    row = await db.fetchone("SELECT season FROM results WHERE game_id = ? LIMIT 1", (game_id,))
    return 1 if row is None else int(row[0])


async def audit_entry(db: Store | Transaction, guild_id: int, entry: int) -> AuditRow | None:
    """One row of the server's audit log, by the number the log shows."""
    r = await db.fetchone("SELECT * FROM audit WHERE guild_id = ? AND id = ?", (guild_id, entry))
    if r is None:
        return None
    return AuditRow(int(r["id"]), int(r["guild_id"]), int(r["user_id"]), AuditAction(r["action"]), r["game_id"],
                    str(r["detail"]), float(r["at"]))


async def add_audit(tx: Transaction, guild_id: int, user_id: int, action: AuditAction, now: float,
                    detail: str) -> int:
    """``repo.add_audit`` that returns the entry's number (what ``/rummy-admin undo`` is given)."""
    return await tx.insert(
        "INSERT INTO audit (guild_id, user_id, action, game_id, detail, at) VALUES (?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, action, None, detail, now))


def _lines_text(lines: list[Standing] | tuple[Standing, ...]) -> str:
    return json.dumps([[s.rank, s.user_id, s.name, s.points, s.wins, s.games, s.adjusted] for s in lines])


def _lines_of(text: str) -> tuple[Standing, ...]:
    return tuple(Standing(int(rank), int(uid), str(name), int(points), int(wins), int(games), int(adjusted))
                 for rank, uid, name, points, wins, games, adjusted in json.loads(text))


async def freeze(tx: Transaction, guild_id: int, season: int, lines: list[Standing], games: int, now: float, *,
                 reason: str = "", game_id: int | None = None) -> int:
    """Store a season's standings as its next version (0 when it closes); the version written."""
    row = await tx.fetchone("SELECT MAX(version) FROM season_standings WHERE guild_id = ? AND season = ?",
                            (guild_id, season))
    version = 0 if row is None or row[0] is None else int(row[0]) + 1
    await tx.execute(
        "INSERT INTO season_standings (guild_id, season, version, lines, games, reason, game_id, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (guild_id, season, version, _lines_text(lines), games, reason, game_id, now))
    return version


async def frozen(db: Store | Transaction, guild_id: int, season: int,
                 version: int | None = None) -> FrozenStandings | None:
    """The latest stored standings of a closed season (or its ``version``), or None (a season
    closed before they were kept)."""
    if version is None:
        row = await db.fetchone(
            "SELECT * FROM season_standings WHERE guild_id = ? AND season = ? ORDER BY version DESC LIMIT 1",
            (guild_id, season))
    else:
        row = await db.fetchone("SELECT * FROM season_standings WHERE guild_id = ? AND season = ? AND version = ?",
                                (guild_id, season, version))
    if row is None:
        return None
    return FrozenStandings(season, int(row["version"]), _lines_of(row["lines"]), int(row["games"]),
                           str(row["reason"]), None if row["game_id"] is None else int(row["game_id"]),
                           float(row["at"]))


async def result_variants(db: Store | Transaction, guild_id: int, season: int) -> list[str]:
    """Every variant season ``season`` has results in (voided ones too), sorted."""
    rows = await db.fetchall("SELECT DISTINCT variant FROM results WHERE guild_id = ? AND season = ?",
                             (guild_id, season))
    return sorted(str(r[0]) for r in rows)


async def freeze_variant(tx: Transaction, guild_id: int, season: int, version: int, variant: str,
                         lines: list[Standing], games: int) -> None:
    """Store one variant's standings as version ``version`` of the season's (the one ``freeze``
    wrote)."""
    await tx.execute(
        "INSERT INTO season_variant_standings (guild_id, season, version, variant, lines, games) "
        "VALUES (?, ?, ?, ?, ?, ?)", (guild_id, season, version, variant, _lines_text(lines), games))


async def frozen_variant(db: Store | Transaction, guild_id: int, season: int,
                         variant: str) -> tuple[FrozenStandings, FrozenStandings | None] | None:
    """A closed season's latest stored standings of one variant, and the amendment that last
    changed them (None while they are as the season closed); None when none are stored for
    the season's latest version (a variant it has no result in)."""
    latest = await frozen(db, guild_id, season)
    rows = await db.fetchall(
        "SELECT version, lines, games FROM season_variant_standings WHERE guild_id = ? AND season = ? "
        "AND variant = ? ORDER BY version", (guild_id, season, variant))
    if latest is None or not rows or int(rows[-1]["version"]) != latest.version:
        return None
    changed = int(rows[0]["version"])
    for before, after in pairwise(rows):
        if (before["lines"], int(before["games"])) != (after["lines"], int(after["games"])):
            changed = int(after["version"])
    last = rows[-1]
    amendment = await frozen(db, guild_id, season, changed) if changed > 0 else None
    kept = FrozenStandings(season, latest.version, _lines_of(last["lines"]), int(last["games"]),
                           amendment.reason if amendment else "", amendment.game_id if amendment else None,
                           amendment.at if amendment else latest.at)
    return kept, (None if amendment is None else kept)
