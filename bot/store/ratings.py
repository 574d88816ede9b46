"""The queries of the skill ratings (issue 12): the stored ratings, their history, the results
they are replayed from, and a server's reset.

What it is: small functions over ``Store``/``Transaction`` like ``repo``'s (kept apart so
``repo`` stays one module); ratings are stored and read back as ``bot.store.rows.RatingRow`` (mu,
sigma, games) and ``LadderRow``, other rows as plain tuples. It stores what it is given.
What it is not: no maths, not even the number people read (``bot.service.skill``: openskill, and
``Rating``, a ``RatingRow`` that shows its value), and no decisions (``bot.service.ratings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.store.rows import LadderRow, RatingRow

from .base import Store, Transaction
from .repo import RATED


async def lock(tx: Transaction, guild_id: int) -> None:
    """One ratings writer per server at a time: a player finishing two games at once, or a game
    finishing while a manager voids another, reads and writes the same ratings."""
    await tx.lock_name(f"ratings:{guild_id}")


async def get(db: Store | Transaction, guild_id: int, variant: str, users: Iterable[int]) -> dict[int, RatingRow]:
    ids = list(users)
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = await db.fetchall(
        f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND variant = ? AND user_id IN ({marks})",
        (guild_id, variant, *ids))
    return {int(r["user_id"]): RatingRow(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows}


async def put(tx: Transaction, guild_id: int, variant: str, ratings: Mapping[int, RatingRow]) -> None:
    for user_id, r in sorted(ratings.items()):
        await tx.execute(
            "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games",
            (guild_id, variant, user_id, r.mu, r.sigma, r.games))


async def add_history(tx: Transaction, guild_id: int, game_id: int, finished_at: float,
                      ratings: Mapping[int, RatingRow]) -> None:
    for user_id, r in sorted(ratings.items()):
        await tx.execute(
            "INSERT INTO rating_history (guild_id, user_id, game_id, mu, sigma, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (guild_id, user_id, game_id, r.mu, r.sigma, finished_at))


async def clear(tx: Transaction, guild_id: int) -> None:
    """Forget every rating of the server and its history (before a replay, or a reset)."""
    await tx.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
    await tx.execute("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,))


async def reset_at(db: Store | Transaction, guild_id: int) -> float | None:
    """When a manager last reset the server's ratings (games finished before then do not count)."""
    row = await db.fetchone("SELECT at FROM rating_resets WHERE guild_id = ?", (guild_id,))
    return None if row is None else float(row["at"])


async def set_reset(tx: Transaction, guild_id: int, now: float, user_id: int) -> None:
    await tx.execute(
        "INSERT INTO rating_resets (guild_id, at, user_id) VALUES (?, ?, ?) ON CONFLICT (guild_id) "
        "DO UPDATE SET at = excluded.at, user_id = excluded.user_id", (guild_id, now, user_id))


async def rated_games(db: Store | Transaction, guild_id: int, since: float | None) -> list[
        tuple[int, str, float, dict[int, int]]]:
    """The server's rated games (the standings' ``RATED`` rule, practice games apart) finished
    after ``since``, in the order they finished: (game id, variant, finished at, {user: place})."""
    after = "" if since is None else " AND r.finished_at > ?"
    params = (guild_id,) if since is None else (guild_id, since)
    rows = await db.fetchall(
        "SELECT r.game_id, r.variant, r.finished_at, r.user_id, r.place FROM results r "
        "JOIN games g ON g.id = r.game_id WHERE r.guild_id = ? AND g.practice = 0 " + RATED + after
        + " ORDER BY r.finished_at, r.game_id, r.user_id", params)
    games: dict[int, tuple[int, str, float, dict[int, int]]] = {}
    for r in rows:
        game = games.setdefault(int(r["game_id"]), (int(r["game_id"]), str(r["variant"]), float(r["finished_at"]), {}))
        game[3][int(r["user_id"])] = int(r["place"])
    return list(games.values())


async def ladder(db: Store | Transaction, guild_id: int, variant: str) -> list[LadderRow]:
    """Every rating of the server in ``variant`` (or ``'*'``), each with the player's latest name."""
    rows = await db.fetchall(
        "SELECT t.user_id, t.mu, t.sigma, t.games, (SELECT s.name FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE g.guild_id = t.guild_id AND s.user_id = t.user_id ORDER BY g.id DESC LIMIT 1) AS name "
        "FROM ratings t WHERE t.guild_id = ? AND t.variant = ?", (guild_id, variant))
    return [LadderRow(int(r["user_id"]), str(r["name"] or ""),
                      RatingRow(float(r["mu"]), float(r["sigma"]), int(r["games"])))
            for r in rows]


async def history(db: Store | Transaction, guild_id: int, user_id: int) -> list[tuple[int, RatingRow]]:
    """(game id, overall rating after it) of every rated game of one player, oldest first."""
    rows = await db.fetchall(
        "SELECT game_id, mu, sigma FROM rating_history WHERE guild_id = ? AND user_id = ? "
        "ORDER BY finished_at, game_id", (guild_id, user_id))
    return [(int(r["game_id"]), RatingRow(float(r["mu"]), float(r["sigma"]), i + 1)) for i, r in enumerate(rows)]


PENDING = "ratings-replay:"  # meta keys of servers whose ratings migration 5 left to replay


async def pending(db: Store | Transaction) -> list[int]:
    rows = await db.fetchall("SELECT key FROM meta WHERE key LIKE ? ORDER BY key", (PENDING + "%",))
    return [int(str(r["key"])[len(PENDING):]) for r in rows]


async def done(tx: Transaction, guild_id: int) -> bool:
    """Mark the server's pending replay done; False when another process already did it."""
    return bool(await tx.update("DELETE FROM meta WHERE key = ?", (f"{PENDING}{guild_id}",)))
