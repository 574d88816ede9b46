"""Seasons, standings, records, history, voided results and the managers' audit log.

What it is: ``Records``, the ``records`` part of ``GameService`` (no state of its own): what a
server keeps about its finished games and what its managers may do about them: the current or a past
season and its standings (``bot.service.seasons``), a player's record, a new season (by hand or on
the server's schedule), the latest finished games, voiding or restoring a result, the audit log.
Each write is one transaction with its audit row.
Also the two season helpers both this module and ``history`` use: ``live_standings`` (a season's
standings worked out now from the store's result and adjustment rows) and ``freeze_season``
(those standings, over every variant and per variant, handed to the store to keep, inside the
caller's transaction).
What it is not: it never takes a game's lock and never changes a game: results are written by
the move that ends a game (``core.commit``), kicks and cancels are changes to a game
(``bot.service.games``). No Discord, no SQL (``bot.store``), no arithmetic of its own
(``bot.service.seasons``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.service.seasons import SCHEDULES, PlayerStats, Standing, games_in, next_rollover, player_stats, standings
from bot.store import Store, Transaction, history, repo
from bot.store.rows import AdjustmentRow, AuditAction, AuditRow, FinishedSeatRow, ScheduleRow, SeasonRow

from .changes import Refusal
from .core import Core
from .options import REASON_LENGTH, clean_text
from .ratings_update import replay


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
    rated: bool = True  # False: decided by an opponent who never moved (issue 15 hole 3): never counted
    practice: bool = False  # a practice game (issue 11): never counted
    amended_season: int | None = None  # voiding or restoring it amended this closed season's standings


class Records:
    """Seasons, standings, records, history, voiding and the audit log (no game lock)."""


    def __init__(self, core: Core) -> None:
        self.core = core

    async def season(self, guild_id: int, number: int | None = None) -> SeasonRow:
        """The server's current season, or season ``number`` (refused when there is none)."""
        if number is None:
            return await repo.current_season(self.core.db, guild_id)
        found = await repo.get_season(self.core.db, guild_id, number)
        if found is None:
            current = await repo.current_season(self.core.db, guild_id)
            raise Refusal("no_such_season", number=number, current=current.number)
        return found

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """One player's rated record in this server, every season together."""
        return player_stats(await repo.player_results(self.core.db, guild_id, user_id))

    async def new_season(self, guild_id: int, user_id: int, *, ending: int) -> SeasonRow:
        """Close season ``ending`` and open the next (a server manager's call, checked by the cog).
        Confirming twice, or after another manager did it, changes nothing (``season_already``).
        Games still running score in the new season: a result counts where it was written."""
        now = self.core.now()
        async with self.core.transaction() as tx:
            await tx.lock_name(f"season:{guild_id}")  # no result is written while its standings are stored
            current = await repo.current_season(tx, guild_id)
            if current.number != ending:
                raise Refusal("season_already", number=current.number)
            await freeze_season(tx, guild_id, current.number, now)  # closing standings, kept as they are
            number = await repo.start_season(tx, guild_id, current, user_id, now)
            await repo.add_audit(tx, guild_id, user_id, AuditAction.NEW_SEASON, now, detail=f"{ending}->{number}")
        return await repo.current_season(self.core.db, guild_id)

    async def season_schedule(self, guild_id: int) -> ScheduleRow | None:
        """The server's automatic seasons (``every``, ``next_at``, ``channel_id``...), or None."""
        return await repo.get_schedule(self.core.db, guild_id)

    async def set_season_schedule(self, guild_id: int, user_id: int, every: str | None, *, channel_id: int,
                                  locale: str) -> ScheduleRow | None:
        """A manager makes seasons roll over by themselves every ``week`` or ``month`` (closing
        standings posted in ``channel_id``), or stops that (``None``); audited. The schedule after."""
        if every is not None and every not in SCHEDULES:
            raise Refusal("bad_schedule")
        now = self.core.now()
        async with self.core.transaction() as tx:
            if every is None:
                if not await repo.clear_schedule(tx, guild_id):
                    raise Refusal("no_schedule")
            else:
                await repo.set_schedule(tx, guild_id, every, channel_id, locale, next_rollover(every, now), user_id,
                                        now)
            await repo.add_audit(tx, guild_id, user_id, AuditAction.SCHEDULE, now, detail=every or "off")
        return await repo.get_schedule(self.core.db, guild_id)

    async def due_seasons(self) -> list[int]:
        """Servers whose scheduled season boundary has passed."""
        return await repo.due_schedules(self.core.db, self.core.now(), self.core.shards)

    async def scheduled_season(self, guild_id: int) -> tuple[int, SeasonRow, ScheduleRow] | None:
        """Roll a server's season over on its schedule: (the season that ended, the new one, the
        schedule). Once per boundary, however late (a bot that was down rolls over once and sets
        the next boundary from now); None when it is not due (already done, or switched off)."""
        now = self.core.now()
        async with self.core.transaction() as tx:
            # Two processes that briefly both serve this guild: the second waits here, then finds
            # the boundary moved on (once per boundary).
            await tx.lock_name(f"season-schedule:{guild_id}")
            schedule = await repo.get_schedule(tx, guild_id)
            if schedule is None or schedule.next_at > now:
                return None
            await tx.lock_name(f"season:{guild_id}")
            current = await repo.current_season(tx, guild_id)
            await freeze_season(tx, guild_id, current.number, now)
            number = await repo.start_season(tx, guild_id, current, 0, now)
            await repo.advance_schedule(tx, guild_id, next_rollover(schedule.every, now))
            await repo.add_audit(tx, guild_id, 0, AuditAction.NEW_SEASON, now, detail=f"{current.number}->{number}")
        return current.number, await repo.current_season(self.core.db, guild_id), schedule

    async def finished_games(self, guild_id: int, limit: int = 25, *, user_id: int | None = None) -> list[FinishedGame]:
        """A server's latest finished games with their results, newest first; with ``user_id``,
        only the games that player sat in."""
        return _finished_games(await repo.recent_results(self.core.db, guild_id, limit, user_id=user_id))

    async def void_result(self, guild_id: int, game_id: int, manager_id: int, reason: str = "", *,
                          restore: bool = False, closed_ok: bool = False) -> FinishedGame:
        """A server manager voids a finished game's result (it then counts in no standings and no
        record) or restores it; audited in the same transaction, which also replays the server's
        skill ratings (``ratings_update.replay``). The results themselves are kept. A game of a
        closed season is refused (``void_closed_season``) unless the manager confirmed
        (``closed_ok``): then the season's amended standings are stored with the reason."""
        reason = clean_text(reason, REASON_LENGTH)
        now = self.core.now()
        async with self.core.transaction() as tx:
            found = _finished_games(await repo.recent_results_of(tx, guild_id, game_id))
            if not found:
                raise Refusal("no_result", game=game_id)
            game = found[0]
            if game.with_bots:
                raise Refusal("not_rated", game=game_id)
            if game.practice:
                raise Refusal("not_rated_practice", game=game_id)
            if not game.rated:
                raise Refusal("unrated_absent", game=game_id)
            if game.voided == (not restore):
                raise Refusal("not_voided" if restore else "already_voided", game=game_id)
            number = await history.result_season(tx, game_id)
            season = await repo.get_season(tx, guild_id, number)
            closed = season is not None and season.ended_at is not None
            if closed and not closed_ok:
                raise Refusal("void_closed_season", game=game_id, season=number)
            if closed and await history.frozen(tx, guild_id, number) is None:
                await freeze_season(tx, guild_id, number, now)  # closed before standings were kept
            if restore:
                await repo.clear_voided(tx, game_id)
            else:
                await repo.set_voided(tx, game_id, guild_id, manager_id, reason, now)
            # The ratings are rebuilt as if the game had never counted (or always had).
            await replay(tx, guild_id)
            if closed:  # the closed season's amended standings, kept beside the ones it closed with
                await freeze_season(tx, guild_id, number, now, reason=reason, game_id=game_id)
            action = AuditAction.RESTORE if restore else AuditAction.VOID
            await repo.add_audit(tx, guild_id, manager_id, action, now, game_id=game_id, detail=reason)
        return replace(game, voided=not restore, reason="" if restore else reason,
                       amended_season=number if closed else None)

    async def audit(self, guild_id: int, limit: int = 20) -> list[AuditRow]:
        """What the server's managers did (and the season schedule), newest first."""
        return await repo.audit_of(self.core.db, guild_id, limit)


async def live_standings(db: Store | Transaction, guild_id: int, season: int,
                         variant: str | None = None) -> tuple[list[Standing], int, list[AdjustmentRow]]:
    """Standings worked out from the results (and, over every variant, the adjustments) now: the
    lines, how many games they count, the adjustments counted."""
    rows = await repo.season_results(db, guild_id, season, variant)
    adjustments = [] if variant else await history.season_adjustments(db, guild_id, season)
    return standings(rows, adjustments), games_in(rows), adjustments


async def freeze_season(tx: Transaction, guild_id: int, season: int, now: float, *, reason: str = "",
                        game_id: int | None = None) -> int:
    """Store season ``season``'s standings as they are now (its next stored version), over every
    variant and per variant: every variant it has results in, voided ones too, so a variant whose
    every game was voided shows empty. In the caller's transaction; the version written."""
    table, games, _ = await live_standings(tx, guild_id, season)
    version = await history.freeze(tx, guild_id, season, table, games, now, reason=reason, game_id=game_id)
    for variant in await history.result_variants(tx, guild_id, season):
        lines, counted, _ = await live_standings(tx, guild_id, season, variant)
        await history.freeze_variant(tx, guild_id, season, version, variant, lines, counted)
    return version


def _finished_games(rows: Iterable[FinishedSeatRow]) -> list[FinishedGame]:
    games: dict[int, list[FinishedSeatRow]] = {}
    for r in rows:
        games.setdefault(r.game_id, []).append(r)
    return [
        FinishedGame(gid, seats[0].variant, max(r.finished_at for r in seats),
                     tuple((r.user_id, r.name, r.place) for r in seats),
                     any(r.user_id < 0 for r in seats), seats[0].voided, rated=seats[0].rated,
                     practice=seats[0].practice)
        for gid, seats in games.items()
    ]
