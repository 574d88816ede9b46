"""The rating writes (issue 12): one rated game's update, and a server's replay.

What it is: ``rate_game`` (called by ``core.commit`` in the transaction that writes a game's
results) and ``replay`` (every rating of a server rebuilt from its rated results, in the order they
finished: a voided game then weighs exactly as if it had never been played, a restored one as if
it had always counted; called by ``records.void_result`` in the void's transaction). Both take
the server's ratings lock. Incremental updates and a replay give the same floats: each game is
rated from the stored mu and sigma, which both backends keep as 64-bit floats.
The store is handed ``bot.service.skill.Rating`` values to keep (each a ``bot.store.rows.RatingRow``)
and gives back bare rows, which ``skill.rate`` reads alike.
What it is not: no maths (``bot.service.skill``), no SQL (``bot.store.ratings``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.skill import OVERALL, Rating, rate
from bot.store import Transaction
from bot.store import ratings as store


async def rate_game(tx: Transaction, guild_id: int, variant: str, game_id: int, places: Mapping[int, int],
                    finished_at: float) -> None:
    """One rated game's update, overall and in its variant, and the players' history rows."""
    await store.lock(tx, guild_id)
    await _apply(tx, guild_id, variant, game_id, places, finished_at)


async def _apply(tx: Transaction, guild_id: int, variant: str, game_id: int, places: Mapping[int, int],
                 finished_at: float) -> None:
    if len(places) < 2:  # nobody to be rated against (no game of the bot has one seat)
        return
    for kind in (OVERALL, variant):
        after = rate(await store.get(tx, guild_id, kind, places), places)
        await store.put(tx, guild_id, kind, after)
        if kind == OVERALL:
            await store.add_history(tx, guild_id, game_id, finished_at, after)


async def replay(tx: Transaction, guild_id: int) -> int:
    """Rebuild the server's ratings from nothing, replaying its rated results (since the last
    reset) in the order they finished; the same results always give the same ratings. The games
    are rated in memory, each exactly as ``rate_game`` rates it from the ratings stored before it,
    then written. Returns how many games were replayed."""
    await store.lock(tx, guild_id)
    await store.clear(tx, guild_id)
    games = await store.rated_games(tx, guild_id, await store.reset_at(tx, guild_id))
    current: dict[str, dict[int, Rating]] = {}
    for game_id, variant, finished_at, places in games:
        if len(places) < 2:
            continue
        for kind in (OVERALL, variant):
            ratings = current.setdefault(kind, {})
            after = rate({u: ratings[u] for u in places if u in ratings}, places)
            ratings.update(after)
            if kind == OVERALL:
                await store.add_history(tx, guild_id, game_id, finished_at, after)
    for kind, ratings in sorted(current.items()):
        await store.put(tx, guild_id, kind, ratings)
    return len(games)
