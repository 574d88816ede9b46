"""Strangers' clicks (reliability.md R6), against the real bot and our fake Discord.

A member who is not seated presses every public button of someone else's game: the lobby's Start,
Cancel and Add a bot, the table's Take, Next deal between deals, and Rematch at the end. Each is
answered privately and changes nothing: the stored game rows and the action log are as before.

What a user would notice if these failed: a passer-by who starts, cancels or fills a lobby with
computer players, takes a card on someone's turn, hurries the next deal or opens a rematch lobby
in their name.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks

pytestmark = pytest.mark.e2e


# What shows a game, not the game: message ids, and when its end or quarantine notice was posted (the
# announcer records those a moment after the post, whatever anyone presses meanwhile).
VIEWS = {"lobby_message_id", "table_message_id", "turn_message_id", "table_posted_at", "final_announced_at",
         "quarantine_announced_at"}


def stored(table: Table) -> tuple[list[dict[str, Any]], int]:
    """Every stored game row and the number of logged actions (not the ids of the messages that
    show a game, which the announcer may set a moment after a change it is still posting)."""
    games = [{k: v for k, v in zip(r.keys(), tuple(r), strict=True) if k not in VIEWS}
             for r in table.query("SELECT * FROM games ORDER BY id")]
    return games, table.query("SELECT COUNT(*) FROM actions")[0][0]


async def press(table: Table, user: Any, message: Any, cid: str) -> None:
    """``user`` presses ``cid`` on ``message``: a private answer only they see, and nothing changes."""
    before = stored(table)
    rec = await (await table.fake.click(user, message, cid)).settled(timeout=20)
    replies = answers(rec)
    assert replies, (cid, rec.responses)
    assert all(m.ephemeral and m.visible_to == user.id and not m.attachments for m in replies), (cid, replies)
    assert stored(table) == before, cid


async def test_strangers_pressing_a_games_buttons_change_nothing(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    eve = table.fake.add_user("Eve", locale="en-US")
    # Two short deals (a deal ends after 20 turns at most), no turn timer.
    options = {"variant": "basic", "options": "game_end=hands:2 hand_turn_limit=20", "timer": 0}
    table.lobby = await new_lobby(table.fake, ana, options)
    table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    await (await table.fake.click(bea, table.lobby, f"rummy:join:{table.game_id}")).settled(timeout=15)
    # The lobby: Start, Cancel and Add a bot, by a stranger and (Start, Add a bot) by a seated guest.
    lobby = table.fake.message(table.lobby.id)
    for verb in ("start", "cancel", "bot"):
        await press(table, eve, lobby, f"rummy:{verb}:{table.game_id}")
    for verb in ("start", "bot"):
        await press(table, bea, lobby, f"rummy:{verb}:{table.game_id}")
    assert table.row()["status"] == "lobby"
    await (await table.fake.click(ana, lobby, f"rummy:start:{table.game_id}")).settled(timeout=15)
    assert table.row()["status"] == "playing"
    await table.wait_table()
    # The table: Take (and Draw) on the current version.
    version = table.row()["version"]
    take = f"rummy:take:{table.game_id}:{version}"
    await table.wait_until(lambda: take in custom_ids(table.table_message()), timeout=20)
    for verb in ("take", "draw"):
        await press(table, eve, table.table_message(), f"rummy:{verb}:{table.game_id}:{version}")
    # Next deal, between deals (the clock deals by itself after a pause: pressed well within it).
    rnd = random.Random(6)
    while not table.game().hand_over:
        user = table.user_of(table.game().actors[0])
        choices = await table.suggestions(user)
        await table.play(user, table.pick(choices, rnd)["value"])
    version = table.row()["version"]
    following = f"rummy:next:{table.game_id}:{version}"
    message = await table.fake.wait_for_message(lambda m: following in custom_ids(m), timeout=15)
    await press(table, eve, message, following)
    assert table.game().hand_over and table.row()["version"] == version
    # Rematch, at the end: no lobby opens for the stranger.
    await table.press_next_deal()
    await table.play_until_over(rnd)
    rematch = f"rummy:rematch:{table.game_id}"
    final = await table.fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    await press(table, eve, final, rematch)
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 1
    table.check_action_log()
    scan_for_leaks(table.fake, [ana, bea, eve])
    assert table.fake.violations == []
