"""What the operator's endpoints ask the database (issue 21): is it there, and how many games.

What it is: ``ping`` (one trivial read: the database answers) and ``game_counts`` (games of the
guilds on this process's shards by status and variant, and how many in play are quarantined), for
``/healthz`` and the ``rummy_games`` gauges.
What it is not: no metric (``bot.ops``), no domain logic.
"""

from __future__ import annotations

from .base import Store
from .repo import Shards, on_shards


async def ping(db: Store) -> None:
    """One read; raises if the database does not answer."""
    await db.fetchone("SELECT 1 AS one")


async def game_counts(db: Store, shards: Shards | None = None) -> tuple[list[tuple[str, str, int]], int]:
    """(status, variant, count) of every game of the guilds on ``shards``, and the number of
    lobbies and games in play that are quarantined. One scan of ``games``: the caller keeps it
    to a few times a minute."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        f"SELECT status, variant, COUNT(*) AS n FROM games WHERE 1 = 1{where} GROUP BY status, variant", params)
    quarantined = await db.fetchone(
        "SELECT COUNT(*) AS n FROM games WHERE status IN ('lobby', 'playing') AND quarantined_at IS NOT NULL"
        f"{where}", params)
    return [(str(r["status"]), str(r["variant"]), int(r["n"])) for r in rows], int(quarantined["n"])
