"""The queries of a server's settings (issue 12): its defaults, presets, open variants, computer
players, public language, and the members who may not play.

What it is: small functions over ``Store``/``Transaction`` like ``repo``'s (kept apart so
``repo`` stays one module); rows leave as ``bot.store.rows.ServerConfig`` and ``BanRow``.
What it is not: no validation and no decisions (``bot.service.settings``).
"""

from __future__ import annotations

from typing import Any

from bot.store.rows import BanRow, ServerConfig

from .base import Store, Transaction

# The columns of ``server_settings`` a manager sets (``set_value``), and nothing else.
COLUMNS = frozenset({"timer_minutes", "language", "bots", "closed_variants"})


async def lock(tx: Transaction, guild_id: int) -> None:
    """One settings writer per server at a time (two managers changing the same row)."""
    await tx.lock_name(f"settings:{guild_id}")


async def config(db: Store | Transaction, guild_id: int) -> ServerConfig:
    row = await db.fetchone("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
    options = await db.fetchall(
        "SELECT variant, preset, options FROM server_options WHERE guild_id = ? ORDER BY variant, preset",
        (guild_id,))
    bans = await db.fetchall(
        "SELECT user_id, reason, banned_by, at FROM server_bans WHERE guild_id = ? ORDER BY at, user_id",
        (guild_id,))
    defaults = {str(r["variant"]): str(r["options"]) for r in options if r["preset"] == ""}
    presets = {(str(r["variant"]), str(r["preset"])): str(r["options"]) for r in options if r["preset"] != ""}
    banned = tuple(BanRow(int(b["user_id"]), str(b["reason"]), int(b["banned_by"]), float(b["at"])) for b in bans)
    if row is None:
        return ServerConfig(guild_id, defaults=defaults, presets=presets, banned=banned)
    return ServerConfig(
        guild_id, timer_minutes=None if row["timer_minutes"] is None else float(row["timer_minutes"]),
        language=row["language"], bots=bool(row["bots"]),
        closed=frozenset(str(row["closed_variants"]).split()), defaults=defaults, presets=presets, banned=banned)


async def set_value(tx: Transaction, guild_id: int, column: str, value: Any) -> None:
    if column not in COLUMNS:
        raise TypeError(f"set_value sets only {sorted(COLUMNS)}, not {column!r}")
    await tx.execute("INSERT INTO server_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING",
                     (guild_id,))
    await tx.execute(f"UPDATE server_settings SET {column} = ? WHERE guild_id = ?", (value, guild_id))


async def set_options(tx: Transaction, guild_id: int, variant: str, preset: str, options: str | None) -> None:
    """Store a variant's defaults (``preset`` '') or a preset; None forgets it."""
    if options is None:
        await tx.execute("DELETE FROM server_options WHERE guild_id = ? AND variant = ? AND preset = ?",
                         (guild_id, variant, preset))
        return
    await tx.execute(
        "INSERT INTO server_options (guild_id, variant, preset, options) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, variant, preset) DO UPDATE SET options = excluded.options",
        (guild_id, variant, preset, options))


async def ban(tx: Transaction, guild_id: int, user_id: int, reason: str, by: int, at: float) -> None:
    await tx.execute(
        "INSERT INTO server_bans (guild_id, user_id, reason, banned_by, at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET reason = excluded.reason, banned_by = excluded.banned_by, "
        "at = excluded.at", (guild_id, user_id, reason, by, at))


async def unban(tx: Transaction, guild_id: int, user_id: int) -> int:
    return await tx.update("DELETE FROM server_bans WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))


async def ban_of(db: Store | Transaction, guild_id: int, user_id: int) -> BanRow | None:
    r = await db.fetchone("SELECT user_id, reason, banned_by, at FROM server_bans WHERE guild_id = ? AND user_id = ?",
                          (guild_id, user_id))
    return None if r is None else BanRow(int(r["user_id"]), str(r["reason"]), int(r["banned_by"]), float(r["at"]))
