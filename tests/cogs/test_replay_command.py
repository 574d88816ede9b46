"""``/rummy replay`` and the replay cache (issue 15, hole 5): a finished deal is drawn once; while it
is still the game's last deal, a resignation between deals adds a frame to it, and the replay
asked for after that shows it.

What a user would notice if this failed: a replay without the resignation that ended the game, or
every replay of the same deal costing seconds of CPU again.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.engine import Game, load_game, new_game
from bot.engine import deal_steps as replay_steps
from bot.robot import choose
from cogs import rummy
from cogs.guard import Guard
from cogs.render_pool import Renders
from renderers import Rendered
from tests.cogs.doubles import SERVER_MEMBER


def play_deal(game: Game) -> None:
    while not game.hand_over:
        seat = game.actors[0]
        game.play(seat, choose(game, seat))


class Announcer:
    """The announcer's replay path with a drawer that counts (the real one costs seconds)."""

    def __init__(self) -> None:
        self.renders = Renders()
        self.frames: list[int] = []

    def draw(self, record: str, *, deal: int) -> Rendered:
        self.frames.append(len(replay_steps(record, deal)))
        return Rendered(data=record.encode(), format="gif", width=1, height=1, name="replay")

    async def replay_picture(self, row: Any, deal: int, stamp: int) -> Rendered:
        return await self.renders.replay((row.id, deal, stamp), self.draw, row.record, deal=deal)


async def ask_replay(row: Any, announcer: Announcer) -> list[str]:
    sent: list[str] = []

    async def in_channel(channel_id: int) -> Any:
        return row

    async def in_thread(channel_id: int) -> Any:
        return None

    async def defer(**_: Any) -> None:
        it.response.done = True

    async def send(text: str, **_: Any) -> None:
        sent.append(text)

    guard = Guard(None)
    client = SimpleNamespace(stopping=False, guard=guard, announcer=announcer, **SERVER_MEMBER,
                             service=SimpleNamespace(reading=SimpleNamespace(in_channel=in_channel),
                                                     threads=SimpleNamespace(in_thread=in_thread),
                                                     core=SimpleNamespace(engine=lambda r: load_game(r.record))))
    it: Any = SimpleNamespace(client=client, user=SimpleNamespace(id=1), locale=discord.Locale("en-US"), id=9,
                              extras={}, channel_id=5, guild_id=1, followup=SimpleNamespace(send=send))
    it.response = SimpleNamespace(done=False, defer=defer, is_done=lambda: it.response.done)
    cog = rummy.RummyCog(client)  # type: ignore[arg-type]
    await guard.run(it, rummy.RummyCog.replay.callback.__wrapped__(cog, it))  # type: ignore[attr-defined]
    return sent


async def test_a_deal_is_drawn_once_and_again_after_a_resignation_between_deals() -> None:
    game = new_game("basic", ["p1", "p2", "p3"], seed=3)
    play_deal(game)
    row = SimpleNamespace(id=7, record=game.record(), version=40, locale="en", names={})
    announcer = Announcer()
    assert await ask_replay(row, announcer) == ["Replay of deal 1"]
    assert await ask_replay(row, announcer) == ["Replay of deal 1"]
    assert len(announcer.frames) == 1  # the second ask drew nothing
    # Between deals, p3 resigns: the deal's record gains a frame, and the game a version.
    game.play("p3", "resign")
    assert not game.game_over
    row = SimpleNamespace(id=7, record=game.record(), version=41, locale="en", names={})
    await ask_replay(row, announcer)
    assert announcer.frames == [announcer.frames[0], announcer.frames[0] + 1]
    # The next deal begins: deal 1 is frozen for good, drawn once more, then never again.
    game.next_deal()
    row = SimpleNamespace(id=7, record=game.record(), version=42, locale="en", names={})
    assert await ask_replay(row, announcer) == ["Replay of deal 1"]
    seat = game.actors[0]
    game.play(seat, choose(game, seat))
    row = SimpleNamespace(id=7, record=game.record(), version=43, locale="en", names={})
    await ask_replay(row, announcer)
    assert len(announcer.frames) == 3
