"""End to end: the real bot process against our fake Discord on 127.0.0.1.

Whole games played with slash commands, autocomplete and buttons; a game interrupted by SIGKILL
and resumed; a double click; a stranger's click; and a leak scan of every recorded message.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import pytest

from bot.engine import Phase
from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks, shown_hand
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e


async def test_two_player_gin_game_to_the_end(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("gin", "target=1")
    await table.play_until_over(random.Random(1))
    # The final message names the winner and offers a rematch; results are stored once.
    rematch = f"rummy:rematch:{table.game_id}"
    await table.fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    final = [m for m in table.fake.public_messages() if rematch in custom_ids(m)]
    assert len(final) == 1
    results = table.query("SELECT * FROM results WHERE game_id = ?", (table.game_id,))
    assert sorted(r["user_id"] for r in results) == sorted(u.id for u in table.users)
    assert sorted(r["place"] for r in results)[0] == 1
    assert {r["guild_id"] for r in results} == {table.fake.guild_id}
    # One turn mention at a time: each new one replaced the last.
    mentions = [m for m in table.fake.public_messages() if m.content.startswith("<@") and not m.deleted]
    assert len(mentions) <= 1
    # The replay of the last deal, posted for the channel.
    rec = await (await table.fake.slash(table.users[1], "rummy replay", {})).settled(timeout=60)
    replay = answers(rec)[-1]
    assert not replay.ephemeral and replay.attachments[0].filename == "replay.gif"
    # Rematch: a new lobby in the channel with the same options; the other player is invited and
    # takes the seat by pressing Rematch too (or Join: tests/e2e/test_farming.py).
    await (await table.fake.click(table.users[1], final[0], rematch)).settled(timeout=20)
    lobby = await table.fake.wait_for_message(
        lambda m: any(c.startswith("rummy:join:") and c != f"rummy:join:{table.game_id}" for c in custom_ids(m)),
        timeout=20)
    new_id = int(next(c for c in custom_ids(lobby) if c.startswith("rummy:join:")).split(":")[2])
    seated = table.query("SELECT user_id FROM seats WHERE game_id = ?", (new_id,))
    assert [r[0] for r in seated] == [table.users[1].id]
    await (await table.fake.click(table.users[0], final[0], rematch)).settled(timeout=20)
    seated = table.query("SELECT user_id FROM seats WHERE game_id = ?", (new_id,))
    assert sorted(r[0] for r in seated) == sorted(u.id for u in table.users)
    assert table.query("SELECT options FROM games WHERE id = ?", (new_id,))[0][0] == "target=1"
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_four_player_basic_game_with_buttons_to_the_end(table: Table) -> None:
    await table.open("basic", "game_end=hands:1")
    rnd = random.Random(2)
    hands: dict[int, int] = {}  # each player's one private hand (issue 36: kept current by the bot)
    # The first turns with the table's buttons and the hand message's selects + buttons.
    for _ in range(8):
        game = table.game()
        if game.hand_over:
            break
        user = table.user_of(game.actors[0])
        version = table.row()["version"]
        draw = f"rummy:draw:{table.game_id}:{version}"
        # Table edits are coalesced: wait for the edit that carries this version's buttons.
        await table.wait_until(lambda d=draw: d in custom_ids(table.table_message()), timeout=20)
        tab = table.table_message()
        rec = await (await table.fake.click(user, tab, draw)).settled(timeout=20)
        hand = await shown_hand(table.fake, rec, user, hands, table.game_id, version + 1)
        assert hand.ephemeral and hand.visible_to == user.id and hand.attachments
        assert table.row()["version"] == version + 1
        select = next(c for c in custom_ids(hand) if c.startswith("rummy:s0:"))
        rec = await (await table.fake.select(user, hand, select, ["0"])).settled(timeout=20)
        sort = next(c for c in custom_ids(hand) if c.startswith("rummy:h:sort:"))
        assert sort.endswith(":1:0"), sort  # the selection travels in the custom_id
        # The discard is one pick (issue 36): the select's card is discarded at once.
        discard = next(c for c in custom_ids(hand) if c.startswith("rummy:hv:discard:"))
        await (await table.fake.select(user, hand, discard, ["0"])).settled(timeout=20)
        await table.wait_until(lambda v=version: table.row()["version"] == v + 2)
        table.moves += 2
    await table.play_until_over(rnd)
    rematch = f"rummy:rematch:{table.game_id}"
    final = await table.fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    results = table.query("SELECT * FROM results WHERE game_id = ?", (table.game_id,))
    assert len(results) == 4
    winner = next(r for r in results if r["place"] == 1)
    assert next(u.name for u in table.users if u.id == winner["user_id"]) in final.content
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_sigkill_mid_game_resumes_and_old_buttons_still_answer(table: Table, tmp_path: Path) -> None:
    table.users = table.users[:2]
    await table.open("gin")
    rnd = random.Random(5)
    for _ in range(6):
        game = table.game()
        user = table.user_of(game.actors[0])
        choices = await table.suggestions(user)
        await table.play(user, rnd.choice(choices)["value"])
    while table.game().phase != Phase.DRAW:  # a turn's start, where the table offers Draw (issue 36)
        user = table.user_of(table.game().actors[0])
        await table.play(user, (await table.suggestions(user))[0]["value"])
    before = table.row()
    current = f"rummy:draw:{table.game_id}:{before['version']}"
    await table.wait_until(lambda: current in custom_ids(table.table_message()))  # the coalesced edit landed
    old_table = table.table_message()
    await table.bot.kill()  # SIGKILL: no chance to flush anything
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    after = table.row()
    # Nothing committed was lost; recovery is one logged change of its own (issue 14: it bumps the version).
    assert (after["version"], after["record"]) == (before["version"] + 1, before["record"])
    last = table.query("SELECT kind, move FROM actions WHERE game_id = ? ORDER BY id DESC", (table.game_id,))[0]
    assert tuple(last) == ("resume", None)
    assert table.fake.sync_count == 1  # the command tree did not change: no second sync
    # "My hand" on a message posted before the restart works.
    player = table.user_of(table.game().actors[0])
    rec = await (await table.fake.click(player, old_table, f"rummy:hand:{table.game_id}")).settled(timeout=20)
    assert answers(rec)[-1].ephemeral and answers(rec)[-1].attachments
    # The game goes on from its last committed move.
    choices = await table.suggestions(player)
    await table.play(player, choices[0]["value"])
    assert table.row()["version"] == after["version"] + 1
    # A turn button on the table posted before the restart (an older version now) says it is out
    # of date, changes nothing, and a fresh table is posted.
    stale = f"rummy:draw:{table.game_id}:{before['version']}"
    assert stale in custom_ids(old_table) and not old_table.deleted
    version = table.row()["version"]
    tables_before = len([m for m in table.fake.public_messages() if table.is_table(m)])
    rec = await (await table.fake.click(player, old_table, stale)).settled(timeout=20)
    assert table.row()["version"] == version
    texts = " ".join(m.content for m in answers(rec))
    assert "desactualizada" in texts or "out of date" in texts
    await table.wait_until(lambda: len([m for m in table.fake.public_messages() if table.is_table(m)]) > tables_before)
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_a_turn_whose_deadline_passed_while_the_bot_was_down_is_a_whole_turn(table: Table,
                                                                                 tmp_path: Path) -> None:
    """Issue 14: recovery runs before the clock serves any deadline, so the player to move is not
    timed out at the first tick for a turn that ran out while the bot was down."""
    table.users = table.users[:2]
    await table.open("gin", timer=1)
    player = table.user_of(table.game().actors[0])
    await table.bot.kill()
    with sqlite3.connect(table.db_path) as conn:  # the turn ran out an hour ago, while nobody was there
        conn.execute("UPDATE games SET turn_deadline = ? WHERE id = ?", (time.time() - 3600, table.game_id))
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    fresh = await table.fake.wait_for_message(
        lambda m: table.is_table(m) and "El bot se reinició" in m.content, timeout=20)
    deadline = table.row()["turn_deadline"]
    assert deadline > time.time() + 45  # a whole minute from the restart, not what was left
    assert f"<t:{int(deadline)}:R>" in fresh.content
    await asyncio.sleep(3)  # the clock has ticked since: still nobody timed out
    kinds = [r[0] for r in table.query("SELECT kind FROM actions WHERE game_id = ? ORDER BY id", (table.game_id,))]
    assert kinds[-1] == "resume" and "timeout" not in kinds
    assert not [m for m in table.fake.public_messages() if "Se acabó el tiempo" in m.content]
    choices = await table.suggestions(player)
    assert choices  # still their turn
    await table.play(player, choices[0]["value"])
    assert table.query("SELECT kind FROM actions WHERE game_id = ? ORDER BY id DESC", (table.game_id,))[0][0] == "move"
    assert table.fake.violations == []


async def test_double_click_applies_once_and_strangers_change_nothing(table: Table) -> None:
    stranger = table.fake.add_user("Eve", locale="en-US")
    table.users = table.users[:3]
    await table.open("basic")
    game = table.game()
    user = table.user_of(game.actors[0])
    other = next(u for u in table.users if u.id != user.id)
    tab = table.table_message()
    version = table.row()["version"]
    cid = f"rummy:draw:{table.game_id}:{version}"
    # A stranger and a seated player out of turn: private refusals, nothing changes.
    for intruder in (stranger, other):
        rec = await (await table.fake.click(intruder, tab, cid)).settled(timeout=20)
        assert table.row()["version"] == version
        replies = answers(rec)
        assert replies and all(m.ephemeral and m.visible_to == intruder.id for m in replies)
        assert not any(m.attachments for m in replies)  # no hand shown to them
    rec = await (await table.fake.click(stranger, tab, f"rummy:hand:{table.game_id}")).settled(timeout=20)
    assert not any(m.attachments for m in rec.messages if m.source != "channel")
    # Two fast clicks of Draw by the player to move: one draw.
    first, second = await asyncio.gather(table.fake.click(user, tab, cid), table.fake.click(user, tab, cid))
    await first.settled(timeout=20)
    await second.settled(timeout=20)
    assert table.row()["version"] == version + 1
    draws = table.query("SELECT COUNT(*) FROM actions WHERE game_id = ? AND kind = 'move'", (table.game_id,))
    assert draws[0][0] == 1
    scan_for_leaks(table.fake, [*table.users, stranger])
    # A seated player resigns: the other two play on.
    rec = await (await table.fake.slash(other, "rummy resign", {})).settled(timeout=20)
    assert answers(rec)[-1].ephemeral
    seat = table.query("SELECT resigned FROM seats WHERE game_id = ? AND user_id = ?", (table.game_id, other.id))
    assert seat[0]["resigned"] == 1 and table.row()["status"] == "playing"
    assert table.seat_of(other) not in table.game().actors
    table.check_action_log()
    assert table.fake.violations == []


async def test_rejected_input_is_explained_privately_in_the_users_language(table: Table) -> None:
    table.users = table.users[:2]
    # Spanish command names through Discord's localizations; the rules in the reader's language.
    rummy = next(c for c in table.fake.commands(table.fake.guild_id) if c["name"] == "rummy")
    new = next(o for o in rummy["options"] if o["name"] == "new")
    assert new["name_localizations"]["es-ES"] == "nueva"
    rec = await (await table.fake.slash(table.users[1], "rummy rules", {"variant": "gin"})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and "knock" in answers(rec)[-1].content.lower()
    rec = await (await table.fake.slash(table.users[0], "rummy rules", {"variant": "gin"})).settled(timeout=15)
    assert "cerrar" in answers(rec)[-1].content.lower()
    rec = await (await table.fake.slash(table.users[0], "rummy help", {})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and "/rummy nueva" in answers(rec)[-1].content
    rec = await (await table.fake.slash(table.users[1], "rummy help", {})).settled(timeout=15)
    assert "/rummy new" in answers(rec)[-1].content and "Strong bot" in answers(rec)[-1].content
    rec = await (await table.fake.slash(table.users[0], "rummy new", {"variant": "gin", "options": "nope=1"})).settled(
        timeout=15)
    message = answers(rec)[-1]
    assert message.ephemeral and "nope" in message.content and "knock_limit" in message.content
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 0
    await table.open("gin")
    game = table.game()
    user = table.user_of(game.actors[0])
    version = table.row()["version"]
    rec = await table.play(user, "descartar KS")
    assert answers(rec)[-1].ephemeral and table.row()["version"] == version
    english = table.users[1]
    if english.id == user.id:
        rec = await table.play(english, "meld AS 2S 3S")
        assert answers(rec)[-1].ephemeral
    # Cancelling: not a stranger's call, but a server manager's (checked when they click).
    stranger = table.fake.add_user("Eve", locale="en-US")
    rec = await (await table.fake.slash(stranger, "rummy cancel", {})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and table.row()["status"] == "playing"
    manager = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    rec = await (await table.fake.slash(manager, "rummy cancel", {})).settled(timeout=15)
    assert table.row()["status"] == "cancelled"
    assert table.fake.violations == []


async def test_gateway_reconnect_keeps_buttons_working_and_a_buried_table_is_posted_again(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("gin")
    resumes = table.fake.resume_count
    await table.fake.disconnect()
    await table.fake.wait_resumed(timeout=30, after=resumes)
    player = table.user_of(table.game().actors[0])
    rec = await (await table.fake.click(player, table.table_message(), f"rummy:hand:{table.game_id}")).settled(
        timeout=20)
    assert answers(rec)[-1].attachments and answers(rec)[-1].visible_to == player.id
    # Many messages under the table: the next change posts the table again instead of editing it.
    first = table.table_message()
    for i in range(10):
        await table.fake.post_user_message(table.users[1], f"chat {i}", channel=table.place)  # the game's thread
    choices = await table.suggestions(player)
    await table.play(player, choices[0]["value"])
    await table.wait_until(lambda: table.table_message().id != first.id)
    assert not first.deleted  # left in place: its buttons still answer
    assert table.fake.violations == []


async def test_rearranging_the_table_through_the_modal(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("tradicional")
    game = table.game()
    user = table.user_of(game.actors[0])
    version = table.row()["version"]
    rec = await (await table.fake.click(user, table.table_message(),
                                        f"rummy:draw:{table.game_id}:{version}")).settled(timeout=20)
    hand = answers(rec)[-1]
    button = next(c for c in custom_ids(hand) if c.startswith("rummy:h:table:"))
    rec = await (await table.fake.click(user, hand, button)).settled(timeout=20)
    assert rec.modal is not None and rec.modal.custom_id.startswith(f"rummy:m:{table.game_id}:")
    version = table.row()["version"]
    # An invalid table: refused privately, naming the problem, nothing changes.
    sub = await (await table.fake.submit_modal(user, rec.modal.custom_id, {"table": "AS 2S"})).settled(timeout=20)
    refusal = answers(sub)[-1]
    assert refusal.ephemeral and refusal.visible_to == user.id and not refusal.attachments
    assert table.row()["version"] == version
    # A valid one (a meld from the hand, written as the whole new table) is played.
    melds = [m for m in table.game().legal_moves(table.seat_of(user)) if m.startswith("meld ") and "|" not in m]
    if melds:
        rec = await (await table.fake.click(user, hand, button)).settled(timeout=20)
        cards = melds[0].split(" ", 1)[1]
        sub = await (await table.fake.submit_modal(user, rec.modal.custom_id, {"table": cards})).settled(timeout=20)
        assert table.row()["version"] == version + 1
        assert table.game().table, "the meld is on the table"
    assert table.fake.violations == []


@pytest.mark.flood
async def test_a_flooding_user_is_told_to_slow_down_and_nobody_else_waits(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("gin")
    flooder, other = table.users[1], table.users[0]  # Bea reads English, Ana Spanish
    tab = table.table_message()
    version = table.row()["version"]
    hand = f"rummy:hand:{table.game_id}"
    # 60 clicks of My hand at once (reliability.md R20), and the other player's click among them.
    clicks = [table.fake.click(flooder, tab, hand) for _ in range(60)]
    recs = await asyncio.gather(*clicks[:30], table.fake.click(other, tab, hand), *clicks[30:])
    for rec in recs:
        await rec.settled(timeout=30)
    mine = [r for r in recs if r.user.id == flooder.id]
    slowed = [r for r in mine if "too many clicks" in answers(r)[-1].content.lower()]
    shown = [r for r in mine if answers(r)[-1].attachments]
    # The burst of 8 is shown, then about 2 a second: most of the 60 are refused however slow the machine.
    assert len(slowed) + len(shown) == 60 and 30 <= len(slowed) <= 60 - 8
    for rec in slowed:
        reply = answers(rec)[-1]
        assert reply.ephemeral and reply.visible_to == flooder.id and not reply.attachments
        assert rec.responses[0].elapsed < 3  # answered at once, not queued behind the renders
    theirs = next(r for r in recs if r.user.id == other.id)
    assert answers(theirs)[-1].attachments and answers(theirs)[-1].visible_to == other.id
    assert table.row()["version"] == version  # looking at a hand changes nothing, flood or not
    # Twenty lobbies in twenty channels from one member: one is opened, the rest are refused privately.
    host = table.fake.add_user("Carlos", locale="es-ES")
    channels = [table.fake.add_channel(f"mesa-{i}") for i in range(20)]
    replies = []
    for cid in channels:
        rec = await (await table.fake.slash(host, "rummy new", {"variant": "basic"}, channel=cid)).settled(timeout=20)
        replies.append(answers(rec)[-1])
    lobbies = table.query("SELECT channel_id FROM games WHERE host_id = ? AND status = 'lobby'", (host.id,))
    assert [r["channel_id"] for r in lobbies] == [channels[0]]
    refused = replies[1:]
    assert all(r.ephemeral and r.visible_to == host.id for r in refused)
    assert any(f"<#{channels[0]}>" in r.content and "ya tienes una sala" in r.content.lower() for r in refused)
    assert all("ya tienes una sala" in r.content.lower() or "demasiados clics" in r.content.lower()
               for r in refused)
    assert table.fake.violations == []


async def test_standings_a_new_season_and_a_managers_powers(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("gin", "target=1")
    await table.play_until_over(random.Random(2))
    places = {r["user_id"]: r["place"] for r in table.query("SELECT user_id, place FROM results")}
    winner = next(u for u in (ana, bea) if places[u.id] == 1)
    # Standings, privately and in the reader's language: the winner first with one point.
    rec = await (await table.fake.slash(bea, "rummy scores", {})).settled(timeout=15)
    board = answers(rec)[-1]
    assert board.ephemeral and "Season 1" in board.content and "games: 1" in board.content
    lines = [line for line in board.content.splitlines() if line.startswith("`")]
    assert len(lines) == 2 and winner.name in lines[0] and "1 pts" in lines[0] and "0 pts" in lines[1]
    rec = await (await table.fake.slash(bea, "rummy stats", {"member": winner})).settled(timeout=15)
    record = answers(rec)[-1]
    assert record.ephemeral and winner.name in record.content and "wins: 1 (100%)" in record.content
    # A member without Manage Server: Discord hides the admin commands; exposed anyway, the bot refuses.
    with pytest.raises(PermissionError):
        await table.fake.slash(bea, "rummy-admin season", {})
    rec = await (await table.fake.slash(bea, "rummy-admin season", {}, overridden=True)).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and "server managers" in answers(rec)[-1].content
    assert table.query("SELECT COUNT(*) FROM seasons")[0][0] == 0
    # A manager asks twice, confirms both: one new season, then "already started"; one audit row.
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    asks = [answers(await (await table.fake.slash(mod, "rummy-admin season", {})).settled(timeout=15))[-1]
            for _ in range(2)]
    buttons = [next(c for c in custom_ids(a) if c.startswith("rummy:season:1:")) for a in asks]
    assert all(a.ephemeral and a.visible_to == mod.id for a in asks)
    await (await table.fake.click(mod, asks[0], buttons[0])).settled(timeout=15)
    # Announced in the channel in the server's language (Spanish here), with the closing standings.
    announce = await table.fake.wait_for_message(
        lambda m: m.public and "empieza la temporada 2" in m.content.lower(), timeout=15)
    assert winner.name in announce.content and [a.filename for a in announce.attachments] == ["standings.png"]
    rec = await (await table.fake.click(mod, asks[1], buttons[1])).settled(timeout=15)
    assert "already started" in answers(rec)[-1].content
    assert [tuple(r) for r in table.query("SELECT number, ended_at IS NULL FROM seasons ORDER BY number")] == [
        (1, 0), (2, 1)]
    rec = await (await table.fake.slash(ana, "rummy scores", {})).settled(timeout=15)
    assert "Temporada 2" in answers(rec)[-1].content and "partidas: 0" in answers(rec)[-1].content
    rec = await (await table.fake.slash(bea, "rummy scores", {"season": 1})).settled(timeout=15)
    archived = answers(rec)[-1].content
    assert [ln for ln in archived.splitlines() if ln.startswith("`")] == lines  # kept as they were
    assert "until <t:" in archived.splitlines()[0]
    # A manager takes a player out of a lobby (the rematch): the seat goes, the lobby message shows it.
    rematch = f"rummy:rematch:{table.game_id}"
    final = next(m for m in reversed(table.fake.public_messages()) if rematch in custom_ids(m))
    await (await table.fake.click(ana, final, rematch)).settled(timeout=15)
    lobby = await table.fake.wait_for_message(
        lambda m: any(c.startswith("rummy:join:") for c in custom_ids(m)) and f"<@{bea.id}>" in m.content, timeout=15)
    new_game = int(custom_ids(lobby)[0].split(":")[2])
    await (await table.fake.click(bea, lobby, f"rummy:join:{new_game}")).settled(timeout=15)  # Bea accepts
    await table.wait_until(lambda: "Bea" in table.fake.message(lobby.id).content)
    rec = await (await table.fake.slash(mod, "rummy-admin kick", {"member": bea})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and "Bea" in answers(rec)[-1].content
    seated = table.query("SELECT user_id FROM seats WHERE game_id = ? ORDER BY position", (new_game,))
    assert [r[0] for r in seated] == [ana.id]
    await table.wait_until(lambda: "Bea" not in table.fake.message(lobby.id).content)
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    log = answers(rec)[-1].content
    assert answers(rec)[-1].ephemeral and "new season (1->2)" in log and f"<@{bea.id}>" in log
    # Voiding a result: only managers; picked from a list; announced in the game's channel; undone.
    rec = await (await table.fake.slash(bea, "rummy-admin void", {"game": table.game_id}, overridden=True)
                 ).settled(timeout=15)
    assert "server managers" in answers(rec)[-1].content
    assert await table.fake.autocomplete(bea, "rummy-admin void", {"game": ""}, focused="game", overridden=True) == []
    choices = await table.fake.autocomplete(mod, "rummy-admin void", {"game": ""}, focused="game")
    assert [c["value"] for c in choices] == [table.game_id]
    assert f"#{table.game_id}" in choices[0]["name"] and "Ana" in choices[0]["name"] and "Bea" in choices[0]["name"]
    voiding = {"game": table.game_id, "reason": "@everyone **cheated**"}
    rec = await (await table.fake.slash(mod, "rummy-admin void", voiding)).settled(timeout=15)
    ask = answers(rec)[-1]  # season 1 is closed: its stored standings change only once confirmed
    assert ask.ephemeral and "season 1" in ask.content
    rec = await (await table.fake.click(mod, ask, custom_ids(ask)[0])).settled(timeout=15)
    assert answers(rec)[-1].ephemeral and "voided" in answers(rec)[-1].content
    note = await table.fake.wait_for_message(lambda m: m.public and "anuló el resultado" in m.content, timeout=15)
    assert f"partida {table.game_id}" in note.content and "Motivo" in note.content and "**cheated**" not in note.content
    rec = await (await table.fake.slash(bea, "rummy scores", {"season": 1})).settled(timeout=15)
    assert "games: 0" in answers(rec)[-1].content
    # Everyone can look the game up by its number in the history, marked as voided.
    rec = await (await table.fake.slash(bea, "rummy history", {"member": ana})).settled(timeout=15)
    listed = answers(rec)[-1]
    assert listed.ephemeral and "Ana" in listed.content.splitlines()[0]
    line = next(ln for ln in listed.content.splitlines() if ln.startswith(f"`#{table.game_id}`"))
    assert line.endswith("*voided by a manager*")
    rec = await (await table.fake.slash(mod, "rummy-admin void", {"game": table.game_id})).settled(timeout=15)
    assert "already voided" in answers(rec)[-1].content
    assert await table.fake.autocomplete(mod, "rummy-admin void", {"game": ""}, focused="game") == []
    assert [c["value"] for c in await table.fake.autocomplete(mod, "rummy-admin restore", {"game": ""},
                                                              focused="game")] == [table.game_id]
    rec = await (await table.fake.slash(mod, "rummy-admin restore", {"game": table.game_id})).settled(timeout=15)
    ask = answers(rec)[-1]
    rec = await (await table.fake.click(mod, ask, custom_ids(ask)[0])).settled(timeout=15)
    assert "counts again" in answers(rec)[-1].content
    rec = await (await table.fake.slash(bea, "rummy scores", {"season": 1})).settled(timeout=15)
    assert [ln for ln in answers(rec)[-1].content.splitlines() if ln.startswith("`")] == lines
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    log = answers(rec)[-1].content
    assert f"restored game {table.game_id}" in log and f"voided game {table.game_id}: @" in log
    table.check_action_log()
    scan_for_leaks(table.fake, [ana, bea, mod])
    assert table.fake.violations == []


async def test_seasons_start_by_themselves_on_the_managers_schedule(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    await table.open("gin", "target=1")
    await table.play_until_over(random.Random(3))
    rec = await (await table.fake.slash(mod, "rummy-admin schedule", {"every": "week"})).settled(timeout=15)
    said = answers(rec)[-1]
    assert said.ephemeral and "every week" in said.content and "<t:" in said.content
    [(every, next_at)] = [tuple(r) for r in table.query("SELECT every, next_at FROM season_schedules")]
    assert every == "week" and time.gmtime(next_at).tm_wday == 0 and next_at % 86400 == 0  # Monday 00:00 UTC
    rec = await (await table.fake.slash(bea, "rummy scores", {})).settled(timeout=15)
    assert f"Next season starts <t:{int(next_at)}:R>" in answers(rec)[-1].content
    # The boundary passes (the stored deadline is moved, as the clock would): the bot rolls the
    # season over by itself and posts the closing standings in the channel, in the server's language.
    with sqlite3.connect(table.db_path) as conn:
        conn.execute("UPDATE season_schedules SET next_at = ?", (time.time() - 1,))
    announce = await table.fake.wait_for_message(
        lambda m: m.public and "empieza la temporada 2" in m.content.lower(), timeout=15)
    assert [a.filename for a in announce.attachments] == ["standings.png"]
    assert [tuple(r) for r in table.query("SELECT number, ended_at IS NULL, started_by FROM seasons ORDER BY number")
            ] == [(1, 0, None), (2, 1, 0)]
    assert table.query("SELECT next_at FROM season_schedules")[0][0] > time.time()
    await asyncio.sleep(2.5)  # the clock ticks again: once per boundary
    assert len([m for m in table.fake.public_messages() if "empieza la temporada" in m.content.lower()]) == 1
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    log = answers(rec)[-1].content
    assert "the schedule · new season (1->2)" in log and "automatic seasons: every week" in log
    rec = await (await table.fake.slash(mod, "rummy-admin schedule", {"every": "off"})).settled(timeout=15)
    assert "are off" in answers(rec)[-1].content and table.query("SELECT COUNT(*) FROM season_schedules")[0][0] == 0
    rec = await (await table.fake.slash(mod, "rummy-admin schedule", {"every": "off"})).settled(timeout=15)
    assert "were not on" in answers(rec)[-1].content
    with pytest.raises(PermissionError):
        await table.fake.slash(bea, "rummy-admin schedule", {"every": "week"})
    assert table.fake.violations == []


async def test_playing_against_a_computer_player_to_the_end(fake: FakeDiscord, tmp_path: Path) -> None:
    ana = fake.add_user("Ana", locale="es-ES")
    bot = await boot(fake, tmp_path / "rummy.sqlite3", tmp_path / "bot.log",
                     # A pause of a whole clock tick: the bot's turn then lasts 1-2 s, long enough for this
                     # test to see it every time (at 0.1 s a tick could land before the test looked, and
                     # a short deal's every bot turn could go unseen: a flaky failure).
                     {"RUMMY_FLOOD": "off", "RUMMY_BOT_DELAY": "1.0"})
    table = Table(fake, bot, tmp_path / "rummy.sqlite3", [ana])
    try:
        table.lobby = await new_lobby(fake, ana, {"variant": "gin", "options": "target=1", "timer": 0})
        table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
        await (await fake.click(ana, table.lobby, f"rummy:bot:{table.game_id}")).settled(timeout=15)
        lobby = fake.message(table.lobby.id)
        assert "Bot 1" in lobby.content and f"rummy:unbot:{table.game_id}" in custom_ids(lobby)
        await (await fake.click(ana, lobby, f"rummy:start:{table.game_id}")).settled(timeout=15)
        await table.wait_table()
        rnd = random.Random(8)
        bot_turns = 0
        while table.row()["status"] == "playing":
            assert table.moves + bot_turns < 400
            game = table.game()
            if game.hand_over:
                await table.press_next_deal()
                continue
            seat = game.actors[0]
            uid = table.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (table.game_id, seat))[0][0]
            if uid < 0:  # the computer's turn: it moves by itself
                version = table.row()["version"]
                assert await table.suggestions(ana) == []
                await table.wait_until(lambda v=version: table.row()["version"] > v, timeout=20)
                bot_turns += 1
                continue
            choices = await table.suggestions(ana)
            await table.play(ana, table.pick(choices, rnd)["value"])
        # The counting gin bot often knocks within a few turns: at least one turn of its own, played
        # by itself while Ana had no suggestion, is what this checks (tests/bot/test_bots.py counts a
        # bot's moves over a longer game).
        assert table.row()["status"] == "finished" and bot_turns >= 1
        moved = table.query("SELECT COUNT(*) FROM actions WHERE game_id = ? AND kind = 'bot'", (table.game_id,))
        assert moved[0][0] >= bot_turns
        rec = await (await fake.slash(ana, "rummy scores", {})).settled(timeout=15)
        assert "partidas: 0" in answers(rec)[-1].content  # games with a computer player are not rated
        assert not any("<@-" in m.content for m in fake.messages)  # a bot is never mentioned
        table.check_action_log()
        scan_for_leaks(fake, [ana])
        assert fake.violations == []
    finally:
        await bot.terminate()
    assert "Traceback" not in bot.log_text(), bot.log_text()[-3000:]


async def test_a_fifteen_second_turn_timer_reminds_then_plays_for_the_silent_player(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("gin", timer=0.25)
    assert "15 s" in table.fake.message(table.lobby.id).content
    silent = table.user_of(table.game().actors[0])
    version = table.row()["version"]
    # The table shows the countdown to the stored deadline (Discord renders it for each reader).
    countdown = f"<t:{int(table.row()['turn_deadline'])}:R>"
    await table.wait_until(lambda: countdown in table.table_message().content)
    reminder = await table.fake.wait_for_message(
        lambda m: m.public and "⏰" in m.content and f"<@{silent.id}>" in m.content, timeout=25)
    assert "<t:" in reminder.content  # how long is left, as a countdown
    allowed = reminder.allowed_mentions or {}
    assert [int(u) for u in allowed.get("users", [])] == [silent.id] and not allowed.get("parse")
    await table.fake.wait_for_message(lambda m: m.public and "Se acabó el tiempo" in m.content, timeout=25)
    await table.wait_until(lambda: table.row()["version"] > version)
    kinds = [r[0] for r in table.query("SELECT kind FROM actions WHERE game_id = ? ORDER BY id", (table.game_id,))]
    assert kinds[-1] == "timeout"
    seat = table.query("SELECT timeouts FROM seats WHERE game_id = ? AND user_id = ?", (table.game_id, silent.id))
    assert seat[0][0] == 1
    table.check_action_log()
    assert table.fake.violations == []
