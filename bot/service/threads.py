"""Games in threads of their own (issue 12, many tables in one channel).

What it is: ``Threads``, the ``threads`` part of ``GameService``: where a game is played (its
thread, made from its lobby message, or its channel when no thread could be made: then one game per
channel, as before), the game of a thread, the games a member sits in and the games of a channel
(what the cogs pick "the game of this place" from), and the threads of ended games the clock
archives (``RUMMY_THREAD_ARCHIVE_AFTER`` after the final message, by the stored time, so a restart
only delays it).
What it is not: no Discord (``cogs.announcer`` makes and archives the threads), no SQL
(``bot.store.threads``).
"""

from __future__ import annotations

from bot.store import threads as store
from bot.store.rows import GameRow

from .core import Core

THREAD_ARCHIVE_AFTER = 600.0  # seconds after a game's final message before its thread is archived


class Threads:
    """The thread of each game, and finding games by thread, member and channel."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.thread_archive_after = THREAD_ARCHIVE_AFTER  # the client sets it from RUMMY_THREAD_ARCHIVE_AFTER

    async def in_thread(self, thread_id: int) -> GameRow | None:
        """The game whose own thread ``thread_id`` is (any status), if any."""
        return await store.game_in_thread(self.core.db, thread_id)

    async def seated_games(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The lobbies and games of a server ``user_id`` sits in (resigned seats apart), oldest first."""
        return await store.seated_games(self.core.db, guild_id, user_id)

    async def channel_games(self, channel_id: int) -> list[GameRow]:
        """The lobbies and games of a channel, in it or in threads of their own, oldest first."""
        return await store.channel_games(self.core.db, channel_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> GameRow:
        """Where the game is played: ``thread_id``, or (None) its channel itself, where no thread
        could be made. A channel holds one such game (``Refusal("channel_busy")`` for a second)."""
        async with self.core.transaction(duplicate="channel_busy") as tx:
            await store.set_thread(tx, game_id, thread_id)
        return await self.core.row(game_id)

    async def threads_to_archive(self) -> list[GameRow]:
        """Ended games whose thread is due to be archived (of this process's guilds)."""
        core = self.core
        ids = await store.threads_to_archive(core.db, core.now() - self.thread_archive_after, core.shards)
        return [row for i in ids if (row := await self.core.get(i)) is not None]

    async def thread_archived(self, game_id: int) -> None:
        """The game's thread was archived (or is gone): the clock leaves it alone from now on."""
        async with self.core.transaction() as tx:
            await store.mark_archived(tx, game_id, self.core.now())
