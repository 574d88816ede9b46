"""The queries of games played in threads (issue 12, many tables in one channel).

What it is: finding the game of a thread, the games a member sits in, the games of a channel, the
open rematch of a game, writing a game's thread, and the threads whose games ended long enough
ago to be archived. Small functions over ``Store``/``Transaction`` like ``repo``'s (kept apart so
``repo`` stays one module); games leave as ``bot.store.rows.GameRow``.
What it is not: no decisions (``bot.service.threads``) and no Discord.
"""

from __future__ import annotations

from bot.store.rows import GameRow

from .base import Store, Transaction
from .repo import Shards, get_game, on_shards

ACTIVE = "status IN ('lobby', 'playing')"


async def _games(db: Store | Transaction, sql: str, params: tuple[object, ...]) -> list[GameRow]:
    out = []
    for r in await db.fetchall(sql, params):
        row = await get_game(db, int(r["id"]))
        if row is not None:
            out.append(row)
    return out


async def game_in_thread(db: Store | Transaction, thread_id: int) -> GameRow | None:
    """The game whose own thread ``thread_id`` is (whatever its status), if any."""
    if thread_id <= 0:
        return None
    row = await db.fetchone("SELECT id FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,))
    return None if row is None else await get_game(db, int(row["id"]))


async def seated_games(db: Store | Transaction, guild_id: int, user_id: int) -> list[GameRow]:
    """The lobbies and games of ``guild_id`` that ``user_id`` sits in (resigned seats apart), oldest first."""
    return await _games(db, (
        f"SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE g.guild_id = ? AND g.{ACTIVE} AND "
        "s.user_id = ? AND s.resigned = 0 ORDER BY g.id"), (guild_id, user_id))


async def channel_games(db: Store | Transaction, channel_id: int) -> list[GameRow]:
    """The lobbies and games of a channel: played in it, or in threads of their own made in it."""
    return await _games(db, f"SELECT id FROM games WHERE channel_id = ? AND {ACTIVE} ORDER BY id", (channel_id,))


async def open_rematch(db: Store | Transaction, game_id: int) -> GameRow | None:
    """The open lobby that is the rematch of ``game_id``, if any."""
    row = await db.fetchone("SELECT id FROM games WHERE rematch_of = ? AND status = 'lobby' ORDER BY id DESC LIMIT 1",
                            (game_id,))
    return None if row is None else await get_game(db, int(row["id"]))


async def set_thread(tx: Transaction, game_id: int, thread_id: int | None) -> None:
    """The game's own thread (None: it is played in its channel; a duplicate of the one-game-per-
    channel index when that channel already has such a game)."""
    await tx.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))


async def threads_to_archive(db: Store, before: float, shards: Shards | None = None, limit: int = 20) -> list[int]:
    """Ended games (of guilds on ``shards``) with a thread of their own not archived yet, whose final
    message was posted at or before ``before``; oldest first."""
    where, params = on_shards(shards)
    rows = await db.fetchall(
        "SELECT id FROM games WHERE thread_id > 0 AND thread_archived_at IS NULL AND final_announced_at IS NOT NULL "
        f"AND final_announced_at <= ? AND status NOT IN ('lobby', 'playing'){where} ORDER BY final_announced_at "
        "LIMIT ?", (before, *params, limit))
    return [int(r["id"]) for r in rows]


async def mark_archived(tx: Transaction, game_id: int, now: float) -> None:
    await tx.execute("UPDATE games SET thread_archived_at = ? WHERE id = ? AND thread_archived_at IS NULL",
                     (now, game_id))
