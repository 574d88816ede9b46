"""The Activity where the bot is not a member (issue 38: "everywhere the bot plays today"): a
group DM and a server that never added the bot, played through the user install. The place is
minus the channel, as the chat keys it, so the page shows that channel's game and no other
place's, and a move from it is played.

What a user would notice if this failed: the Activity opening empty in a group DM with a game
running, or a page in one place showing a game of another.
"""

from __future__ import annotations

from tests.activity.server_world import World


async def open_game(world: World, place: int, channel: int) -> int:
    svc = world.svc
    lobby = (await svc.games.open_lobby(guild_id=place, channel_id=channel, host_id=world.ana.id, host_name="Ana",
                                        variant="gin", timer_minutes=5)).game
    await svc.games.join(lobby.id, world.bea.id, "Bea")
    return (await svc.games.start(lobby.id, world.ana.id, seed="gdm")).game.id


async def test_a_group_dm_shows_its_own_game_and_plays_it(world: World) -> None:
    fake = world.fake
    gdm = fake.add_group_dm(world.ana, world.bea, world.carlos)
    game = await open_game(world, -gdm, gdm)
    await open_game(world, fake.guild_id, fake.channel_id)  # the server's game: another place
    for user in (world.ana, world.bea):
        session = await world.login(user, channel=gdm)
        page = await world.open_socket()
        await page.send(op="hello", session=session, custom_id=None)
        state = await page.op("state")
        assert (state["state"], state["game"]) == ("playing", game)
        if "draw" in state["verbs"] or "pass" in state["verbs"]:
            move = "draw" if "draw" in state["verbs"] else "pass"
            await page.send(op="move", id="m", move=move, version=state["version"])
            assert (await page.op("done", id="m"))["version"] == state["version"] + 1
    # A launch there naming the server's game (another place) shows the group DM's own.
    named = f"rummy:activity:{game + 1}"
    session = await world.login(world.carlos, named, channel=gdm)
    stranger = await world.open_socket()
    await stranger.send(op="hello", session=session, custom_id=named)
    shown = await stranger.op("state")
    assert (shown["game"], shown["hand"]) == (game, None)  # Carlos is in the group DM, not seated


async def test_a_server_without_the_bot_is_keyed_by_its_channel(world: World) -> None:
    fake = world.fake
    other = fake.add_guild("Sin bot", bot_member=False)
    channel = fake.add_channel("general", guild=other)
    game = await open_game(world, -channel, channel)
    session = await world.login(world.ana, channel=channel)
    page = await world.open_socket()
    await page.send(op="hello", session=session, custom_id=None)
    state = await page.op("state")
    assert (state["state"], state["game"], state["you"]) == ("playing", game, "p1")
