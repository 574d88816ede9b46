"""Many tables in one channel (issue 12), on both backends: games in threads of their own are
not one per channel, games played in the channel itself still are; a thread finds its game, a
member finds every game they sit in, a channel finds its games; the threads of ended games are
archived by the stored clock, once."""

from __future__ import annotations

import pytest

from bot.service import Refusal
from tests.bot.helpers import GUILD, T0


async def open_threaded(env, host: int, thread: int, *, channel: int = 100, variant: str = "basic"):
    change = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=channel, host_id=host, host_name=f"u{host}",
                                            variant=variant, threaded=True)
    assert change.game.thread_id == 0  # its thread is being made
    return await env.svc.threads.set_thread(change.game.id, thread)


async def test_a_channel_holds_many_threaded_games_and_one_played_in_it(env):
    one = await open_threaded(env, 1, 9001)
    two = await open_threaded(env, 2, 9002)
    await env.svc.games.check_lobby(guild_id=GUILD, channel_id=100, host_id=3, variant="basic", threaded=True)
    three = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=3, host_name="u3", variant="basic")
    assert three.game.thread_id is None  # the fallback: played in the channel itself
    with pytest.raises(Refusal, match="channel_busy"):  # and then one such game per channel, as before
        await env.svc.games.check_lobby(guild_id=GUILD, channel_id=100, host_id=4, variant="basic")
    with pytest.raises(Refusal, match="channel_busy"):
        await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=4, host_name="u4", variant="basic")
    with pytest.raises(Refusal, match="channel_busy"):  # a lobby typed inside a game's thread
        await env.svc.games.check_lobby(guild_id=GUILD, channel_id=9001, host_id=4, variant="basic")
    # A thread that could not be made: the game falls back to the channel, which is taken.
    four = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=4, host_name="u4", variant="basic",
                                          threaded=True)
    with pytest.raises(Refusal, match="channel_busy"):
        await env.svc.threads.set_thread(four.game.id, None)
    assert [g.id for g in await env.svc.threads.channel_games(100)] == [one.id, two.id, three.game.id, four.game.id]
    assert (await env.svc.reading.in_channel(100)).id == three.game.id
    assert (await env.svc.threads.in_thread(9002)).id == two.id and await env.svc.threads.in_thread(100) is None


async def test_a_member_sits_in_several_games_and_each_thread_finds_its_own(env):
    one = await open_threaded(env, 1, 9001)
    two = await open_threaded(env, 2, 9002, channel=101)
    await env.svc.games.join(one.id, 5, "u5")
    await env.svc.games.join(two.id, 5, "u5")
    assert [g.id for g in await env.svc.threads.seated_games(GUILD, 5)] == [one.id, two.id]
    assert [g.id for g in await env.svc.threads.seated_games(GUILD + 1, 5)] == []
    await env.svc.games.start(one.id, 1, seed="1")
    await env.svc.games.resign(one.id, 5)  # a resigned seat is no longer one of the member's games
    assert [g.id for g in await env.svc.threads.seated_games(GUILD, 5)] == [two.id]
    finished = await env.svc.threads.in_thread(9001)
    assert finished.id == one.id and finished.status == "finished"  # a thread finds its game after the end
    assert (await env.svc.reading.last_in_channel(9001)).id == one.id  # /rummy replay in the thread


async def test_an_ended_games_thread_is_archived_after_the_delay_once(env):
    env.svc.threads.thread_archive_after = 600
    one = await open_threaded(env, 1, 9001)
    await env.svc.games.join(one.id, 2, "u2")
    await env.svc.games.start(one.id, 1, seed="1")
    await env.svc.games.resign(one.id, 2)
    assert await env.svc.threads.threads_to_archive() == []  # the end is not posted yet
    await env.svc.endings.mark_announced(one.id, "final_announced_at")
    assert await env.svc.threads.threads_to_archive() == []
    env.clock.advance(601)
    assert [g.id for g in await env.svc.threads.threads_to_archive()] == [one.id]
    await env.svc.threads.thread_archived(one.id)
    assert await env.svc.threads.threads_to_archive() == []
    assert (await env.svc.core.get(one.id)).thread_archived_at == T0 + 601
