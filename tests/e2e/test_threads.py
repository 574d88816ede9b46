"""Many tables in one channel (issue 12), played through the fake Discord like people would.

Two games started in one channel each get a thread made from their lobby message; a turn is
played by the buttons of each thread's table; a command typed in a thread acts on that thread's
game; ``/rummy hand`` in the channel asks a member seated in both which game; the end of a game
is said in the channel with a link to its thread, and the thread is archived by the clock. Where
no thread can be made (the permission is missing, or Discord refuses), the host is told privately
and the game is played in the channel itself, one game there at a time.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, components, custom_ids, scan_for_leaks

CREATE_PUBLIC_THREADS = 35  # permission bit


async def play_a_turn_by_buttons(table: Table) -> None:
    """The player to move presses Draw on the table in the game's thread, then discards by a
    command typed in that thread."""
    fake = table.fake
    game = table.game()
    user = table.user_of(game.actors[0])
    version = table.row()["version"]
    cid = f"rummy:draw:{table.game_id}:{version}"
    message = await fake.wait_for_message(lambda m: cid in custom_ids(m) and m.channel_id == table.place, timeout=15)
    rec = await (await fake.click(user, message, cid)).settled(timeout=15)
    hand = answers(rec)[-1]
    assert hand.ephemeral and hand.visible_to == user.id
    await table.wait_until(lambda: table.row()["version"] == version + 1)
    discard = next(c["value"] for c in await table.suggestions(user) if c["value"].startswith("discard"))
    await table.play(user, discard)
    await table.wait_until(lambda: table.row()["version"] == version + 2)


@pytest.mark.bot_env({"RUMMY_THREAD_ARCHIVE_AFTER": "1"})
async def test_two_games_in_one_channel_each_play_in_their_own_thread(table: Table) -> None:
    fake = table.fake
    ana, bea, carlos, _ = table.users
    one = Table(fake, table.bot, table.db_path, [ana, bea])
    two = Table(fake, table.bot, table.db_path, [carlos, ana])
    await one.open("basic", timer=0)
    await two.open("basic", timer=0)
    for game in (one, two):
        thread = fake.channels[game.place]
        # Made from the lobby message (a thread started from a message has the message's id).
        assert thread.type == 11 and thread.parent_id == fake.channel_id and game.place == game.lobby.id
        assert game.table_message().channel_id == game.place
        assert f"<#{game.place}>" in fake.message(game.lobby.id).content  # the lobby points to it
    assert one.place != two.place

    await play_a_turn_by_buttons(one)
    assert two.row()["version"] == 3  # untouched by the other thread's moves (new, join, start)
    await play_a_turn_by_buttons(two)

    # In the channel, Ana sits in both games: she is asked which, privately, and her pick shows that hand.
    rec = await (await fake.slash(ana, "rummy hand", {})).settled(timeout=15)
    ask = answers(rec)[-1]
    assert ask.ephemeral and ask.visible_to == ana.id and "rummy:pick:hand" in custom_ids(ask)
    options = [o["value"] for c in components(ask) for o in c.get("options", [])]
    assert sorted(options) == sorted([str(one.game_id), str(two.game_id)])
    assert f"<#{one.place}>" in ask.content and f"<#{two.place}>" in ask.content
    rec = await (await fake.select(ana, ask, "rummy:pick:hand", [str(two.game_id)])).settled(timeout=15)
    hand = answers(rec)[-1]
    assert hand.ephemeral and hand.visible_to == ana.id
    assert any(f":{two.game_id}:" in c for c in custom_ids(hand)), custom_ids(hand)
    # Inside a thread, it is that thread's game, without asking.
    rec = await (await fake.slash(ana, "rummy hand", {}, channel=one.place)).settled(timeout=15)
    assert any(f":{one.game_id}:" in c for c in custom_ids(answers(rec)[-1]))

    # Bea resigns by a command typed in game one's thread: game one ends, game two goes on.
    rec = await (await fake.slash(bea, "rummy resign", {}, channel=one.place)).settled(timeout=15)
    assert answers(rec)[-1].ephemeral
    await one.wait_until(lambda: one.row()["status"] == "finished")
    final = await fake.wait_for_message(
        lambda m: m.channel_id == one.place and f"rummy:rematch:{one.game_id}" in custom_ids(m), timeout=15)
    assert not final.ephemeral
    line = await fake.wait_for_message(
        lambda m: m.channel_id == fake.channel_id and f"<#{one.place}>" in m.content and "🏁" in m.content, timeout=15)
    # Who won, and everybody's place and score, said in the channel the game was started in too.
    assert "Ana" in line.content
    places = final.content.splitlines()[1:]
    assert places and all(p in line.content.splitlines() for p in places), (final.content, line.content)
    await one.wait_until(lambda: fake.channels[one.place].archived, timeout=20)
    await one.wait_until(lambda: one.row()["thread_archived_at"] is not None)
    assert not fake.channels[two.place].archived and two.row()["status"] == "playing"
    assert fake.violations == []
    table.check_action_log()
    scan_for_leaks(fake, table.users)


def _take_away(table: Table, bit: int) -> list[Any]:
    roles = [table.fake.guild.roles[table.fake.guild.id], table.fake.guild.roles[table.fake.guild.bot_role_id]]
    full = [r.permissions for r in roles]
    for role in roles:
        role.permissions &= ~(1 << bit)
    return list(zip(roles, full, strict=True))


async def test_where_no_thread_can_be_made_the_game_is_played_in_its_channel_one_at_a_time(table: Table) -> None:
    fake = table.fake
    ana, bea, carlos, dani = table.users
    saved = _take_away(table, CREATE_PUBLIC_THREADS)  # no Create Public Threads: the bot does not even try
    known = {m.id for m in fake.public_messages()}
    rec = await (await fake.slash(ana, "rummy new", {"variant": "basic", "timer": 0})).settled(timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == ana.id and "Crear hilos públicos" in reply.content
    lobby = await fake.wait_for_message(lambda m: m.id not in known and "rummy:join:" in " ".join(custom_ids(m)))
    assert lobby.channel_id == fake.channel_id and lobby.content.count("hilo") == 0  # said once, to the host
    first = Table(fake, table.bot, table.db_path, [ana, bea])
    first.game_id = int(custom_ids(lobby)[0].split(":")[2])
    assert first.row()["thread_id"] is None
    rec = await (await fake.slash(bea, "rummy new", {"variant": "gin"})).settled(timeout=15)
    refused = answers(rec)[-1]
    assert refused.ephemeral and "already a lobby or game in this channel" in refused.content  # as before threads
    assert not [r for r in fake.requests if r.path.endswith("/threads")]
    for role, value in saved:
        role.permissions = value

    # Discord refuses the thread (403): the host is told privately, the game is played in its channel.
    other = fake.add_channel("mesa-2")
    fake.fail_next("POST", rf"/channels/{other}/messages/\d+/threads", 403, 50013)
    second = Table(fake, table.bot, table.db_path, [carlos, dani], channel=other)
    await second.open("basic", timer=0)
    assert second.row()["thread_id"] is None and second.place == other
    assert any("no me dejó abrir un hilo" in m.content for m in fake.ephemeral_messages(carlos))
    assert second.table_message().channel_id == other
    await play_a_turn_by_buttons(second)
    assert fake.violations == []
    scan_for_leaks(fake, table.users)

