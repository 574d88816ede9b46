"""Skill ratings (issue 12): updated by every rated game, replayed when a result is voided or
restored, read as a ladder and a player's card, reset by a manager.

What it is: the ``Ratings`` part of ``GameService`` (``service.ratings``, no state of its own) (the
writes a game and a void make are in ``ratings_update``). Which results are rated is the standings'
rule (``repo.RATED``): no computer player, not decided by an absent opponent, not voided; practice
games neither. A server's ratings are independent of its seasons.
The store returns bare rows (``RatingRow``: mu, sigma, games); they are read here as
``bot.service.skill.Rating`` (the number shown) before they leave the service.
What it is not: no maths (``bot.service.skill``, i.e. openskill), no SQL (``bot.store.ratings``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.service.skill import MIN_GAMES, OVERALL, Rating
from bot.store import ratings as store
from bot.store import repo
from bot.store.rows import AuditAction, LadderRow

from .core import Core
from .ratings_update import replay


@dataclass(frozen=True)
class LadderLine:
    """One line of a ladder: the rank (ties share it), the player, the rating."""

    rank: int
    user_id: int
    name: str
    rating: Rating


@dataclass(frozen=True)
class PlayerRating:
    """A player's overall rating card: the rating (None before their first rated game), their rank
    on the server's ladder (None until they have ``MIN_GAMES``), how many are ranked, and the
    rating after each of their rated games, oldest first."""

    rating: Rating | None
    rank: int | None
    ranked: int
    history: tuple[Rating, ...]


def ranked(rows: list[LadderRow], min_games: int = MIN_GAMES) -> list[LadderLine]:
    """The ladder: players with ``min_games`` rated games, best shown rating first (then the surer
    one, then by name); equal shown ratings share a rank."""
    unranked = [LadderLine(0, r.user_id, r.name, Rating.of(r.rating)) for r in rows if r.rating.games >= min_games]
    kept = sorted(unranked, key=lambda r: (-r.rating.value, r.rating.spread, r.name.casefold(), r.user_id))
    out: list[LadderLine] = []
    for i, r in enumerate(kept):
        rank = out[-1].rank if out and out[-1].rating.value == r.rating.value else i + 1
        out.append(replace(r, rank=rank))
    return out


class Ratings:
    """The server's rating ladder, a player's rating, and a manager's reset."""


    def __init__(self, core: Core) -> None:
        self.core = core

    async def ladder(self, guild_id: int, variant: str | None = None) -> list[LadderLine]:
        """The server's ladder, overall or in one variant."""
        return ranked(await store.ladder(self.core.db, guild_id, variant or OVERALL))

    async def player_rating(self, guild_id: int, user_id: int) -> PlayerRating:
        lines = await self.ladder(guild_id)
        mine = next((line.rank for line in lines if line.user_id == user_id), None)
        current = (await store.get(self.core.db, guild_id, OVERALL, [user_id])).get(user_id)
        history = tuple(Rating.of(r) for _, r in await store.history(self.core.db, guild_id, user_id))
        return PlayerRating(None if current is None else Rating.of(current), mine, len(lines), history)

    async def replay_pending_ratings(self) -> int:
        """On start: the servers whose results predate the ratings (migration 5) get them, by a
        replay of those results, once. Returns how many servers were replayed."""
        count = 0
        for guild_id in await store.pending(self.core.db):
            async with self.core.transaction() as tx:
                await store.lock(tx, guild_id)
                if await store.done(tx, guild_id):
                    await replay(tx, guild_id)
                    count += 1
        return count

    async def reset_ratings(self, guild_id: int, manager_id: int) -> None:
        """A manager forgets every rating of the server (audited): games finished until now no
        longer count in them, also when one of them is voided or restored later. The season
        standings are untouched."""
        now = self.core.now()
        async with self.core.transaction() as tx:
            await store.lock(tx, guild_id)
            await store.clear(tx, guild_id)
            await store.set_reset(tx, guild_id, now, manager_id)
            await repo.add_audit(tx, guild_id, manager_id, AuditAction.RESET_RATINGS, now)
