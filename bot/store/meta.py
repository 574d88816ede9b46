"""Where the slash commands were synced: the ``meta`` table's ``commands_hash:<scope>`` keys.

What it is: the key of a scope's stored command hash (global, or one server's: ``RUMMY_DEV_GUILD``),
the servers that hold a synced copy of the commands, and forgetting one once its copy is removed
(``bot.client`` clears a former dev server's commands on a start without it).
What it is not: no Discord and no hashing; the client decides what to sync and when.
"""

from __future__ import annotations

from .base import Store, Transaction

COMMANDS_PREFIX = "commands_hash:"


def command_key(guild_id: int | None) -> str:
    """The ``meta`` key holding the hash of the commands last synced to ``guild_id`` (None: global)."""
    return f"{COMMANDS_PREFIX}{'global' if guild_id is None else guild_id}"


async def command_guilds(db: Store | Transaction) -> list[int]:
    """The servers the commands were synced to (a dev server, now or before), oldest key first."""
    rows = await db.fetchall("SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key", (COMMANDS_PREFIX + "%",))
    keys = [str(r["key"]) for r in rows if str(r["value"])]
    return [int(k[len(COMMANDS_PREFIX):]) for k in keys
            if k.startswith(COMMANDS_PREFIX) and k[len(COMMANDS_PREFIX):].isdigit()]


async def forget_command_guild(tx: Transaction, guild_id: int) -> None:
    """``guild_id`` holds no copy of the commands any more: a later sync to it starts afresh."""
    await tx.execute("DELETE FROM meta WHERE key = ?", (command_key(guild_id),))
