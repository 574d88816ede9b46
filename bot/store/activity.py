"""The queries of the Activity (docs/activity.md): the games an instance's channel shows, and the
versions of the games its pages watch.

What it is: ``place_channel_games`` (the lobbies and games of one place played in a channel, in a
thread of their own made from it, or in that channel as a thread) and ``versions`` (the stored
version of each of a list of games, in one query: the pages' 250 ms poll, the same SQL on SQLite
and PostgreSQL). Small functions over ``Store``/``Transaction`` like ``repo``'s; games leave as
``bot.store.rows.GameRow``.
What it is not: no decisions (``bot.service.activity_reads``), no Discord, no web.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.store.rows import GameRow

from .base import Store, Transaction
from .repo import get_game

ACTIVE = "status IN ('lobby', 'playing')"
# Ids per query: far below SQLite's 32,766 host parameters and PostgreSQL's 65,535, and a page
# count no one process reaches; more are read in several queries.
CHUNK = 500


async def place_channel_games(db: Store | Transaction, place: int, channel_id: int) -> list[GameRow]:
    """The lobbies and games of ``place`` whose channel is ``channel_id`` (played in it, or in a
    thread of their own made in it) or whose own thread ``channel_id`` is; oldest first."""
    rows = await db.fetchall(
        f"SELECT id FROM games WHERE guild_id = ? AND (channel_id = ? OR thread_id = ?) AND {ACTIVE} ORDER BY id",
        (place, channel_id, channel_id))
    out = []
    for r in rows:
        row = await get_game(db, int(r["id"]))
        if row is not None:
            out.append(row)
    return out


async def versions(db: Store | Transaction, game_ids: Iterable[int]) -> dict[int, int]:
    """Game id -> its stored version, for those of ``game_ids`` that exist (one query per
    ``CHUNK`` ids)."""
    ids = sorted(set(game_ids))
    out: dict[int, int] = {}
    for start in range(0, len(ids), CHUNK):
        part = ids[start:start + CHUNK]
        marks = ", ".join("?" for _ in part)
        for r in await db.fetchall(f"SELECT id, version FROM games WHERE id IN ({marks})", tuple(part)):
            out[int(r["id"])] = int(r["version"])
    return out
