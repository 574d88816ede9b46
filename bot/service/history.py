"""Managers' corrections of a season, and closed seasons that stay put (issue 12).

What it is: ``History``, the ``history`` part of ``GameService`` (no state of its own; it reads
seasons through ``records``): a manager's point adjustment in the current season (audited, counted
in the standings as a marked line) and its undoing from the audit log (audited too); the standings
of a season as people read them: the live ones while it runs, the stored ones (``season_standings``)
once it has closed, with the latest amendment (a void or a restore of one of its games) marked; and
the storing itself, done in the transaction that closes a season or amends it.
What it is not: no game lock, no Discord; the arithmetic is ``bot.service.seasons``, reading and
storing a season's standings ``bot.service.records`` (``live_standings``, ``freeze_season``), the
SQL ``bot.store.history`` (which only returns rows and stores what it is given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service.seasons import Standing
from bot.store import history as store
from bot.store import repo
from bot.store.rows import AdjustmentRow, AuditAction, FrozenStandings, SeasonRow

from .changes import Refusal
from .core import Core
from .options import REASON_LENGTH, clean_name, clean_text
from .records import Records, live_standings

MAX_ADJUST = 1000  # points one adjustment may add or take: a typo of 10000 is refused, not counted
ADJUST_DETAIL = re.compile(r"(?P<adjustment>[0-9]+) ")  # an ADJUST audit entry: "<adjustment> <user> <points> <reason>"


def adjust_detail(adjustment: int, user_id: int, points: int, reason: str) -> str:
    """The audit detail of an adjustment: its id first, so that undoing it finds it again."""
    return f"{adjustment} {user_id} {points:+d} {reason}"


def adjustment_of(detail: str) -> int:
    """The adjustment an ADJUST audit entry records (``adjust_detail``)."""
    found = ADJUST_DETAIL.match(detail)
    if found is None:
        raise ValueError(f"not an adjustment's audit detail: {detail!r}")
    return int(found["adjustment"])


@dataclass(frozen=True)
class SeasonView:
    """A season's standings as shown: ``amended`` is the stored amendment now shown (a closed
    season whose game was voided or restored after it closed), else None."""

    season: SeasonRow
    table: list[Standing]
    games: int
    amended: FrozenStandings | None = None
    adjustments: tuple[AdjustmentRow, ...] = ()


class History:
    """Adjustments, their undoing, and a season's standings as shown (no game lock); the season
    itself is ``records``'s."""

    def __init__(self, core: Core, records: Records) -> None:
        self.core = core
        self.records = records

    async def adjust(self, guild_id: int, manager_id: int, user_id: int, name: str, points: int,
                     reason: str) -> AdjustmentRow:
        """A manager adds ``points`` (takes them, below 0) to a member in the current season;
        audited in the same transaction. The stored adjustment."""
        reason = clean_text(reason, REASON_LENGTH)
        if points == 0 or abs(points) > MAX_ADJUST:
            raise Refusal("adjust_points", max=MAX_ADJUST)
        if not reason:
            raise Refusal("adjust_reason")
        if user_id <= 0:
            raise Refusal("adjust_member")
        now = self.core.now()
        async with self.core.transaction() as tx:
            season = await repo.current_season(tx, guild_id)
            adjustment = await store.add_adjustment(tx, guild_id, season.number, user_id, clean_name(name), points,
                                                    reason, manager_id, now)
            entry = await store.add_audit(tx, guild_id, manager_id, AuditAction.ADJUST, now,
                                          adjust_detail(adjustment, user_id, points, reason))
            await store.set_entry(tx, adjustment, entry)
        found = await store.get_adjustment(self.core.db, guild_id, adjustment)
        assert found is not None
        return found

    async def undo(self, guild_id: int, manager_id: int, entry: int) -> AdjustmentRow:
        """A manager undoes the adjustment that audit entry ``entry`` records; audited. Only an
        adjustment of the current season: a closed season's standings are stored and stay."""
        now = self.core.now()
        async with self.core.transaction() as tx:
            row = await store.audit_entry(tx, guild_id, entry)
            if row is None:
                raise Refusal("no_entry", entry=entry)
            if row.action != AuditAction.ADJUST:
                raise Refusal("not_undoable", entry=entry)
            adjustment = await store.get_adjustment(tx, guild_id, adjustment_of(row.detail))
            if adjustment is None:
                raise Refusal("no_entry", entry=entry)
            if adjustment.season != (await repo.current_season(tx, guild_id)).number:
                raise Refusal("undo_closed_season", entry=entry, season=adjustment.season)
            if adjustment.undone_at is not None or not await store.undo_adjustment(tx, adjustment.id, manager_id, now):
                raise Refusal("already_undone", entry=entry)
            await store.add_audit(tx, guild_id, manager_id, AuditAction.UNDO, now,
                                  f"{entry} {adjustment.user_id} {adjustment.points:+d}")
        found = await store.get_adjustment(self.core.db, guild_id, adjustment.id)
        assert found is not None
        return found

    async def undoable(self, guild_id: int) -> list[AdjustmentRow]:
        """The current season's adjustments that can be undone, newest first."""
        season = await repo.current_season(self.core.db, guild_id)
        return await store.undoable(self.core.db, guild_id, season.number)

    async def season_view(self, guild_id: int, number: int | None = None, variant: str | None = None) -> SeasonView:
        """What ``/rummy scores`` shows: a running season worked out now; a closed one as stored
        when it closed, or as last amended (over every variant, or one variant's: marked amended
        when an amendment changed that variant's standings). Refused for a season that does not
        exist."""
        season = await self.records.season(guild_id, number)
        if season.ended_at is not None and variant is None:
            kept = await store.frozen(self.core.db, guild_id, season.number)
            if kept is not None:
                # Its adjustments are as they closed: undoing one of a closed season is refused.
                adjustments = tuple(await store.season_adjustments(self.core.db, guild_id, season.number))
                return SeasonView(season, list(kept.lines), kept.games, kept if kept.version > 0 else None,
                                  adjustments)
        elif season.ended_at is not None and variant is not None:
            found = await store.frozen_variant(self.core.db, guild_id, season.number, variant)
            if found is not None:  # (a variant's standings never count adjustments)
                lines, amended = found
                return SeasonView(season, list(lines.lines), lines.games, amended, ())
        table, games, counted = await live_standings(self.core.db, guild_id, season.number, variant)
        return SeasonView(season, table, games, None, tuple(counted))

    async def scores(
        self, guild_id: int, number: int | None = None, variant: str | None = None
    ) -> tuple[SeasonRow, list[Standing], int]:
        """A season's standings (``season_view``) and how many games it counts."""
        view = await self.season_view(guild_id, number, variant)
        return view.season, view.table, view.games
