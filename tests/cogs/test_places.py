"""Which game a command means (issue 12, many tables in one channel): in a game's thread, that
game; elsewhere, the one the member sits in (or the one of this channel), else this channel's;
a manager's cancel and kick mean this channel's games; Join means the lobbies one is not in."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.service import GameService
from bot.store import Database
from cogs.base import place_games
from tests.cogs.doubles import SERVER_MEMBER

GUILD = 1


def interaction(svc: GameService, user_id: int, channel_id: int) -> Any:
    return SimpleNamespace(channel_id=channel_id, guild_id=GUILD, user=SimpleNamespace(id=user_id),
                           client=SimpleNamespace(service=svc, **SERVER_MEMBER))


async def test_the_game_of_a_thread_a_member_and_a_channel(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "rummy.sqlite3")
    svc = GameService(db)
    try:
        games = []
        for host, channel, thread in ((1, 100, 9001), (3, 100, 9002), (4, 200, None)):
            change = await svc.games.open_lobby(guild_id=GUILD, channel_id=channel, host_id=host, host_name=f"u{host}",
                                                variant="basic", threaded=thread is not None)
            if thread is not None:
                await svc.threads.set_thread(change.game.id, thread)
            games.append(change.game.id)
        a, b, c = games
        await svc.games.join(a, 2, "u2")
        await svc.games.join(b, 2, "u2")

        async def ids(user: int, channel: int, verb: str = "") -> list[int]:
            return [g.id for g in await place_games(interaction(svc, user, channel), verb)]

        assert await ids(2, 9001) == [a] and await ids(2, 9002) == [b]  # a thread: its game
        assert await ids(2, 100) == [a, b]  # seated in both, in the channel: asked which
        assert await ids(1, 100) == [a] and await ids(1, 200) == [a]  # seated in one: that one, anywhere
        assert await ids(4, 100) == [c]  # /rummy hand of the host of c, typed in another channel
        assert await ids(4, 100, "cancel") == [a, b]  # a manager's cancel: this channel's games
        assert await ids(4, 200, "cancel") == [c]
        assert await ids(5, 100, "join") == [a, b] and await ids(1, 100, "join") == [b]
        assert await ids(5, 300) == []
        await svc.games.start(a, 1, seed="1")
        await svc.games.resign(a, 2)  # game a ends: its thread still means it, and u2 now sits in b only
        assert await ids(2, 9001) == [a] and await ids(2, 100) == [b]
    finally:
        await db.close()
