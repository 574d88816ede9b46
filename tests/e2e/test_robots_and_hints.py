"""Computer players' levels and hints, the real bot against the fake Discord (issue 11).

The host seats a strong and an easy bot with the lobby's level buttons and the lobby says which is
which; the host turns hints off and on again; the game is played to its end, the bots by the
clock and the host by following hints: ``/rummy hint`` and the hand's Hint button answer
privately with the strong level's move and why, and the hint's button plays it. A stranger's press
of someone's hint button changes nothing; a rated game (people only) refuses hints in each
player's language.

What a user would notice if these failed: no way to pick a bot's strength, a bot whose name hides
it, a hint in public or in a rated game, a hint button that does nothing or plays for someone else.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks

pytestmark = pytest.mark.e2e

HINT_ES = "💡 El bot fuerte jugaría"


def stored(table: Table) -> tuple[list[tuple[Any, ...]], int]:
    """Every stored game row (its version and record among them) and the number of logged actions."""
    games = [(r["id"], r["status"], r["version"], r["record"]) for r in table.query("SELECT * FROM games ORDER BY id")]
    return games, table.query("SELECT COUNT(*) FROM actions")[0][0]


def is_bot(table: Table, seat: str) -> bool:
    return table.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (table.game_id, seat))[0][0] < 0


def moves_of(table: Table, user: Any) -> int:
    return table.query("SELECT COUNT(*) FROM actions WHERE game_id = ? AND user_id = ?", (table.game_id, user.id))[0][0]


def hint_button(message: Any) -> str:
    [cid] = [c for c in custom_ids(message) if c.startswith("rummy:hp:")]
    return cid


async def ask_hint(table: Table, user: Any) -> Any:
    """``/rummy hint``: one private answer, with the move, why, and the button that plays it."""
    rec = await (await table.fake.slash(user, "rummy hint", {})).settled(timeout=20)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == user.id, reply.content
    return reply


@pytest.mark.bot_env({"RUMMY_BOT_DELAY": "0.2"})
async def test_levels_from_the_lobby_and_a_game_played_by_following_hints(table: Table) -> None:
    fake = table.fake
    ana = table.users[0]
    eve = fake.add_user("Eve", locale="en-US")
    table.users = [ana]
    options = {"variant": "basic", "options": "game_end=hands:1 hand_turn_limit=30", "timer": 0}
    table.lobby = await new_lobby(fake, ana, options)
    gid = table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    # One button per level; the plain "bot" one seats a normal bot (as lobbies posted before did).
    assert {f"rummy:bot:{gid}:easy", f"rummy:bot:{gid}", f"rummy:bot:{gid}:strong"} <= set(custom_ids(table.lobby))
    await (await fake.click(ana, table.lobby, f"rummy:bot:{gid}:strong")).settled(timeout=15)
    await (await fake.click(ana, fake.message(table.lobby.id), f"rummy:bot:{gid}:easy")).settled(timeout=15)
    lobby = fake.message(table.lobby.id)
    assert "🤖 Bot 1 (fuerte)" in lobby.content and "🤖 Bot 2 (fácil)" in lobby.content
    levels = table.query("SELECT robot_level FROM seats WHERE game_id = ? ORDER BY position", (gid,))
    assert [r[0] for r in levels] == [None, "strong", "easy"]
    # Hints: on in a game with bots; the host turns them off, then on again.
    assert "Pistas: sí" in lobby.content
    await (await fake.click(ana, lobby, f"rummy:hints:{gid}")).settled(timeout=15)
    lobby = fake.message(table.lobby.id)
    assert "Pistas: no" in lobby.content and table.row()["hints_off"]
    await (await fake.click(ana, lobby, f"rummy:hints:{gid}")).settled(timeout=15)
    lobby = fake.message(table.lobby.id)
    assert "Pistas: sí" in lobby.content and not table.row()["hints_off"]
    await (await fake.click(ana, lobby, f"rummy:start:{gid}")).settled(timeout=15)
    await table.wait_table()

    followed = stranger_tried = from_hand = stale_tried = 0
    while table.row()["status"] == "playing":
        assert followed < 200
        game = table.game()
        seat = game.actors[0] if game.actors else None
        if game.hand_over or seat is None or is_bot(table, seat):  # the bots' turns: the clock plays them
            version = table.row()["version"]
            await table.wait_until(lambda v=version: table.row()["version"] > v
                                   or table.row()["status"] != "playing", timeout=20)
            continue
        if not from_hand:  # once, the Hint button of the hand message
            rec = await (await fake.slash(ana, "rummy hand", {})).settled(timeout=20)
            hand = answers(rec)[-1]
            cid = next(c for c in custom_ids(hand) if c.startswith("rummy:h:hint:"))
            rec = await (await fake.click(ana, hand, cid)).settled(timeout=20)
            reply = answers(rec)[-1]
            assert reply.ephemeral and reply.visible_to == ana.id and reply.content.startswith(HINT_ES)
            from_hand = 1
        reply = await ask_hint(table, ana)
        assert reply.content.startswith(HINT_ES), reply.content
        cid = hint_button(reply)
        if not stranger_tried:  # someone else pressing Ana's hint (a forged click: it is private)
            before = stored(table)
            rec = await (await fake.forged_click(eve, reply, cid)).settled(timeout=20)
            assert all(m.ephemeral and m.visible_to == eve.id for m in answers(rec)), rec.messages
            assert "not playing" in answers(rec)[-1].content
            assert stored(table) == before
            stranger_tried = 1
        spare = await ask_hint(table, ana) if not stale_tried else None  # a second hint at the same version
        version = table.row()["version"]
        rec = await (await fake.click(ana, reply, cid)).settled(timeout=20)
        await table.wait_until(lambda v=version: table.row()["version"] > v)
        kinds = table.query("SELECT kind, user_id FROM actions WHERE game_id = ? AND version = ?", (gid, version + 1))
        assert tuple(kinds[0]) == ("move", ana.id)  # played as Ana's own move, at the hint's version
        assert "Jugada hecha" in fake.message(reply.id).content  # the hint says what was played
        followed += 1
        if spare is not None:  # the game moved on: the older hint plays nothing
            # (the bots may move meanwhile: what must not change is Ana's own moves)
            before = moves_of(table, ana)
            rec = await (await fake.click(ana, spare, hint_button(spare))).settled(timeout=20)
            assert "Esa pista ya no vale" in answers(rec)[-1].content and answers(rec)[-1].ephemeral
            assert moves_of(table, ana) == before
            stale_tried = 1
    assert table.row()["status"] == "finished" and followed >= 1 and stranger_tried and from_hand and stale_tried
    moved = table.query("SELECT COUNT(DISTINCT user_id) FROM actions WHERE game_id = ? AND kind = 'bot' "
                        "AND user_id < 0", (gid,))
    assert moved[0][0] == 2  # both bots moved by themselves
    rec = await (await fake.slash(ana, "rummy scores", {})).settled(timeout=15)
    assert "partidas: 0" in answers(rec)[-1].content  # a game with bots of any level is not rated
    table.check_action_log()
    scan_for_leaks(fake, [ana])
    assert fake.violations == []


async def test_a_rated_game_refuses_hints_in_each_players_language(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("gin")
    lobby = table.fake.message(table.lobby.id)
    assert not any(c.startswith("rummy:hints:") for c in custom_ids(lobby)) and "Pistas" not in lobby.content
    before = stored(table)
    for user, words in ((ana, "En las partidas puntuadas no hay pistas"), (bea, "Rated games have no hints")):
        reply = await ask_hint(table, user)
        assert words in reply.content and not custom_ids(reply)
    actor = table.user_of(table.game().actors[0])
    rec = await (await table.fake.slash(actor, "rummy hand", {})).settled(timeout=20)
    assert not any(c.startswith("rummy:h:hint:") for c in custom_ids(answers(rec)[-1]))
    assert stored(table) == before
    assert table.fake.violations == []


@pytest.mark.bot_env({"RUMMY_BOT_DELAY": "0.2"})
async def test_another_players_press_of_my_hint_plays_nothing(table: Table) -> None:
    """Bea, seated at the same table, presses Ana's hint button (forged: it is Ana's private
    message): the hint was for Ana's seat, so nothing is played for either of them."""
    fake = table.fake
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    table.lobby = await new_lobby(fake, ana, {"variant": "basic", "timer": 0})
    gid = table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    await (await fake.click(bea, table.lobby, f"rummy:join:{gid}")).settled(timeout=15)
    await (await fake.click(ana, fake.message(table.lobby.id), f"rummy:bot:{gid}:strong")).settled(timeout=15)
    await (await fake.click(ana, fake.message(table.lobby.id), f"rummy:start:{gid}")).settled(timeout=15)
    await table.wait_table()
    await table.wait_until(lambda: not is_bot(table, table.game().actors[0]), timeout=20)
    asker = table.user_of(table.game().actors[0])
    other = bea if asker is ana else ana
    reply = await ask_hint(table, asker)
    before = stored(table)
    rec = await (await fake.forged_click(other, reply, hint_button(reply))).settled(timeout=20)
    assert all(m.ephemeral and m.visible_to == other.id for m in answers(rec)), rec.messages
    assert stored(table) == before
    rec = await (await fake.slash(other, "rummy hint", {})).settled(timeout=20)  # not their turn
    assert "no te toca" in answers(rec)[-1].content or "not your turn" in answers(rec)[-1].content
    assert stored(table) == before
    assert fake.violations == []


async def test_a_practice_game_from_the_lobby_gives_hints_and_counts_for_nothing(table: Table) -> None:
    """Two people, no bot: the host makes the lobby a practice game with its button. The lobby
    says so, hints are on (a gin hint with its hand picture), and when the game ends its final
    message says it was practice and the standings do not count it."""
    fake = table.fake
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    table.lobby = await new_lobby(fake, ana, {"variant": "gin", "timer": 0})
    gid = table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    await (await fake.click(bea, table.lobby, f"rummy:join:{gid}")).settled(timeout=15)
    await table.wait_until(lambda: table.seats() == 2)
    lobby = fake.message(table.lobby.id)
    assert "Pistas" not in lobby.content and f"rummy:practice:{gid}" in custom_ids(lobby)
    rec = await (await fake.click(bea, lobby, f"rummy:practice:{gid}")).settled(timeout=15)  # not the host
    assert not table.row()["practice"] and answers(rec)[-1].ephemeral
    await (await fake.click(ana, lobby, f"rummy:practice:{gid}")).settled(timeout=15)
    await table.wait_until(lambda: "práctica" in fake.message(table.lobby.id).content)
    lobby = fake.message(table.lobby.id)
    assert "Partida de práctica: no puntúa" in lobby.content and "Pistas: sí" in lobby.content
    assert table.row()["practice"] and f"rummy:hints:{gid}" in custom_ids(lobby)
    await (await fake.click(ana, lobby, f"rummy:start:{gid}")).settled(timeout=15)
    await table.wait_table()
    actor = table.user_of(table.game().actors[0])
    reply = await ask_hint(table, actor)
    assert reply.content.startswith("💡") and hint_button(reply)
    # Gin: the hint comes with the hand as its move leaves it, grouped into melds (privately).
    assert [a.filename.split(".")[0] for a in reply.attachments] == ["hand"], reply.attachments
    version = table.row()["version"]
    await (await fake.click(actor, reply, hint_button(reply))).settled(timeout=20)
    await table.wait_until(lambda: table.row()["version"] > version)
    rec = await (await fake.slash(ana, "rummy resign", {})).settled(timeout=20)
    rematch = f"rummy:rematch:{gid}"
    final = await fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    assert "Partida de práctica: no puntúa" in final.content
    assert len(table.query("SELECT * FROM results WHERE game_id = ?", (gid,))) == 2
    rec = await (await fake.slash(bea, "rummy scores", {})).settled(timeout=15)
    assert "games: 0" in answers(rec)[-1].content, answers(rec)[-1].content
    assert fake.violations == []
