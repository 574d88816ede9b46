"""Reliability and security rows of ``reliability.md`` against the real bot and our fake Discord.

R7 forged custom_ids, R13 "my hand" with forged ids, R15 the managers' confirmation, R18 Discord's
errors (a failed acknowledgement, 429, 404 and 5xx on the table), R14 logs at DEBUG, R25 hostile
text in every field a user can type, a rearrange modal submitted across a restart, and R3 a
graceful stop (SIGTERM) in the middle of a move.

What a user would notice if these failed: a click that is never answered ("This interaction
failed"), a forged click that moves someone else's game or shows their hand, a Discord hiccup
that loses or doubles a move, a table that stops updating, a mention that pings the whole server,
a token or a hand in the bot's log, a rearrangement typed before a restart that is lost, a
deploy that swallows the answer to a move already made or loses a turn to the downtime.
"""

from __future__ import annotations

import asyncio
import random
import string
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(table: Table) -> Table:
    table.users = table.users[:2]  # two players here: Ana (es-ES) and Bea (en-US)
    return table


def state(table: Table) -> list[Any]:
    """What a game is: every game's version and record, the seats, the action log and results
    (not the ids of the messages that show it, which a re-post may change)."""
    return [
        [tuple(r) for r in table.query("SELECT id, status, version, record FROM games ORDER BY id")],
        [tuple(r) for r in table.query("SELECT * FROM seats ORDER BY game_id, position")],
        [tuple(r) for r in table.query("SELECT * FROM actions ORDER BY id")],
        [tuple(r) for r in table.query("SELECT * FROM results ORDER BY game_id, user_id")],
        [tuple(r) for r in table.query("SELECT * FROM seasons")],
    ]


def forged_ids(game: int, version: int, mod: int, rnd: random.Random) -> list[tuple[str, int]]:
    """(custom_id, component type) pairs no honest client sends for this user and message."""
    huge = "9" * 30
    ids = [
        (f"rummy:draw:{game + 1}:{version}", 2), (f"rummy:draw:{game}:{version + 5}", 2),
        (f"rummy:draw:{game}:{huge}", 2), (f"rummy:draw:-{game}:{version}", 2), (f"rummy:take:0:{version}", 2),
        (f"rummy:next:{game}:{version}", 2), (f"rummy:rematch:{game}", 2), (f"rummy:start:{game}", 2),
        (f"rummy:cancel:{game}", 2), (f"rummy:join:{game}", 2), (f"rummy:hand:{game + 7}", 2),
        (f"rummy:h:discard:{game}:{version}:{2 ** 60}:0", 2), (f"rummy:h:meld:{game}:{version}:7:9", 2),
        (f"rummy:h:layoff99:{game}:{version}:1:0", 2), (f"rummy:s0:{game}:{version}:0:0", 3),
        (f"rummy:s9:{game}:{version}:0:0", 3), (f"rummy:season:1:{mod}:1", 2), (f"rummy:season:0:{mod}:99", 2),
        (f"rummy:explode:{game}", 2), ("rummy:", 2), ("", 2), ("x" * 100, 2), ("rummy:draw:1:2:3:4:5", 2),
    ]
    alphabet = string.ascii_letters + string.digits + ":_-#@!' "
    ids += [("".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 100))), rnd.choice((2, 3)))
            for _ in range(150)]
    ids += [(f"rummy:{rnd.choice(['draw', 'take', 'hand', 'next', 'h:draw', 's1'])}:{rnd.randint(0, 10 ** 12)}:"
             f"{rnd.randint(0, 10 ** 9)}", rnd.choice((2, 3))) for _ in range(100)]
    return ids


async def test_forged_custom_ids_are_all_answered_and_change_nothing(table: Table) -> None:
    await table.open("gin")
    game = table.game()
    player = table.user_of(game.actors[0])
    other = next(u for u in table.users if u.id != player.id)
    stranger = table.fake.add_user("Eve", locale="en-US")
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    tab = table.table_message()
    version = table.row()["version"]
    before = state(table)
    rnd = random.Random(7)
    records = []
    for user in (player, other, stranger, mod):
        for cid, kind in forged_ids(table.game_id, version, mod.id, rnd)[:90]:
            values = ["0", "1"] if kind == 3 else None
            records.append(await table.fake.forged_click(user, tab, cid, component_type=kind, values=values))
    unanswered = []
    for rec in records:
        try:
            await rec.settled(timeout=20 if not unanswered else 0.5)
        except TimeoutError:
            unanswered.append(rec.payload["data"])
    assert unanswered == [], "never answered"
    for rec in records:
        replies = answers(rec)
        assert all(m.ephemeral and m.visible_to == rec.user.id for m in replies), replies
    assert state(table) == before
    # "My hand" shows the clicker's own hand whatever the id says; a stranger gets no hand at all.
    for user in (player, other):
        rec = await (await table.fake.forged_click(user, tab, f"rummy:hand:{table.game_id}")).settled(timeout=20)
        reply = answers(rec)[-1]
        assert reply.attachments and reply.visible_to == user.id
        assert all(code in reply.content for code in table.game().hand(table.seat_of(user)))
    scan_for_leaks(table.fake, [*table.users, stranger, mod])
    assert table.fake.violations == []


# Errors of the bot token's routes (RUMMY_NEWS_BY_TOKEN=off: every post and edit is the bot's);
# those of the interaction tokens that carry the news otherwise: tests/e2e/test_budget.py.
@pytest.mark.bot_env({"RUMMY_NEWS_BY_TOKEN": "off"})
async def test_discord_errors_never_lose_or_double_a_move(table: Table) -> None:
    await table.open("basic")
    player = table.user_of(table.game().actors[0])
    version = table.row()["version"]
    draw = f"rummy:draw:{table.game_id}:{version}"
    # The acknowledgement fails (10062 Unknown interaction): the click did nothing.
    table.fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062)
    await table.fake.click(player, table.table_message(), draw)
    await table.wait_until(lambda: "10062" in table.bot.log_text())  # Discord refused; the bot gave up
    assert table.row()["version"] == version
    assert table.query("SELECT COUNT(*) FROM actions WHERE kind = 'move'")[0][0] == 0
    # Pressed again, it plays once.
    rec = await (await table.fake.click(player, table.table_message(), draw)).settled(timeout=20)
    assert table.row()["version"] == version + 1, [m.content for m in answers(rec)]
    # 429 on the table edit: discord.py waits and the edit lands; the game state is already saved.
    tab = table.table_message()
    table.fake.fail_next("PATCH", rf"/channels/\d+/messages/{tab.id}", 429, retry_after=1.0)
    choices = await table.suggestions(player)
    await table.play(player, choices[0]["value"])
    after = table.row()["version"]
    await table.wait_until(lambda: f"rummy:hand:{table.game_id}" in custom_ids(table.table_message())
                           and (table.fake.message(tab.id).edited or table.table_message().id != tab.id), timeout=20)
    # 404 on the table edit (somebody deleted it): posted again once, no retry loop.
    tables = len([m for m in table.fake.public_messages() if table.is_table(m)])
    table.fake.fail_next("PATCH", rf"/channels/\d+/messages/{table.table_message().id}", 404, 10008)
    mover = table.user_of(table.game().actors[0])
    choices = await table.suggestions(mover)
    await table.play(mover, choices[0]["value"])
    await table.wait_until(lambda: len([m for m in table.fake.public_messages() if table.is_table(m)]) == tables + 1)
    assert table.row()["version"] == after + 1
    # 5xx while posting the turn mention: the move stands and the game goes on.
    table.fake.fail_next("POST", r"/channels/\d+/messages", 503, times=10)
    mover = table.user_of(table.game().actors[0])
    choices = await table.suggestions(mover)
    await table.play(mover, choices[0]["value"])
    assert table.row()["version"] == after + 2
    mover = table.user_of(table.game().actors[0])
    choices = await table.suggestions(mover)
    assert choices
    await table.play(mover, choices[0]["value"])
    assert table.row()["version"] == after + 3
    moves = table.query("SELECT COUNT(*) FROM actions WHERE kind = 'move'")[0][0]
    assert moves == 5  # every accepted move logged once, none twice
    table.check_action_log()
    assert table.fake.violations == []


HOSTILE = [
    "@everyone", "@here discard KS", "<@&123456789012345678> draw", "<@1> meld AS 2S 3S", "**draw**", "`draw`",
    "dr\u200baw", "\u202edraw", "draw\nmeld", "'; DROP TABLE games; --", "discard " + "K" * 3990,
    "x" * 4000, "\x00\x01\x02", "meld 🂡 🂢 🂣", "layoff 9H to 99999999999999999999", "table AS 2S | ; | ",
]


async def test_hostile_text_is_refused_privately_and_pings_nobody(table: Table) -> None:
    await table.open("tradicional")
    player = table.user_of(table.game().actors[0])
    before = state(table)
    for text in HOSTILE:
        for user in table.users:
            rec = await table.play(user, text)
            reply = answers(rec)[-1]
            assert reply.ephemeral and reply.visible_to == user.id and len(reply.content) <= 2000
    for text in HOSTILE[:6]:
        rec = await (await table.fake.slash(table.users[0], "rummy new",
                                            {"variant": "gin", "options": text[:100]})).settled(timeout=15)
        assert answers(rec)[-1].ephemeral
    assert state(table) == before
    # The same through the rearrange modal (the largest text box we offer).
    rec = await (await table.fake.click(player, table.table_message(),
                                        f"rummy:draw:{table.game_id}:{table.row()['version']}")).settled(timeout=20)
    before = state(table)
    hand = answers(rec)[-1]
    button = next(c for c in custom_ids(hand) if c.startswith("rummy:h:table:"))
    for text in HOSTILE:
        opened = await (await table.fake.click(player, hand, button)).settled(timeout=20)
        sub = await (await table.fake.submit_modal(player, opened.modal.custom_id, {"table": text[:4000]})
                     ).settled(timeout=20)
        assert answers(sub)[-1].ephemeral
    assert state(table) == before
    assert table.fake.violations == []  # the fake checks every message's allowed_mentions


async def test_a_rearrange_modal_submitted_across_a_restart_is_answered(table: Table, tmp_path: Path) -> None:
    await table.open("tradicional")
    player = table.user_of(table.game().actors[0])
    rec = await (await table.fake.click(player, table.table_message(),
                                        f"rummy:draw:{table.game_id}:{table.row()['version']}")).settled(timeout=20)
    hand = answers(rec)[-1]
    button = next(c for c in custom_ids(hand) if c.startswith("rummy:h:table:"))
    opened = await (await table.fake.click(player, hand, button)).settled(timeout=20)
    version = table.row()["version"]
    await table.bot.kill()
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    # Recovery is a change of its own (issue 14: it bumps the version), so the modal opened before
    # the restart shows an out-of-date table: it is answered privately, nothing is played, and a
    # fresh table is posted.
    resumed = version + 1
    assert table.row()["version"] == resumed
    sub = await (await table.fake.submit_modal(player, opened.modal.custom_id, {"table": "AS 2S"})).settled(timeout=20)
    reply = answers(sub)[-1]
    assert reply.ephemeral and ("desactualizada" in reply.content or "out of date" in reply.content)
    assert table.row()["version"] == resumed
    # Through the modal opened again: an invalid table is refused with the rule's reason; a valid one
    # (a meld from hand) is played.
    rec = await (await table.fake.click(player, table.table_message(), f"rummy:hand:{table.game_id}")).settled(
        timeout=20)
    hand = answers(rec)[-1]
    button = next(c for c in custom_ids(hand) if c.startswith("rummy:h:table:"))
    opened = await (await table.fake.click(player, hand, button)).settled(timeout=20)
    sub = await (await table.fake.submit_modal(player, opened.modal.custom_id, {"table": "AS 2S"})).settled(timeout=20)
    assert answers(sub)[-1].ephemeral and table.row()["version"] == resumed
    assert "desactualizada" not in answers(sub)[-1].content and "out of date" not in answers(sub)[-1].content
    melds = [m for m in table.game().legal_moves(table.seat_of(player)) if m.startswith("meld ") and "|" not in m]
    if melds:
        sub = await (await table.fake.submit_modal(player, opened.modal.custom_id,
                                                   {"table": melds[0].split(" ", 1)[1]})).settled(timeout=20)
        assert table.row()["version"] == resumed + 1
    assert "Traceback" not in table.bot.log_text()
    assert table.fake.violations == []


@pytest.mark.bot_env({"RUMMY_LOG_LEVEL": "DEBUG"})
async def test_debug_logs_carry_no_token_and_no_hand(table: Table) -> None:
    await table.open("gin", "target=1")
    hands: set[str] = set()
    rnd = random.Random(4)
    tokens = []
    for _ in range(30):
        game = table.game()
        if table.row()["status"] != "playing":
            break
        if game.hand_over:
            await table.press_next_deal()
            continue
        for seat in game.seats:
            if game.hand(seat):  # an emptied hand (gone out) is no secret to leak
                hands.add(" ".join(game.hand(seat)))
        user = table.user_of(game.actors[0])
        choices = await table.suggestions(user)
        rec = await table.play(user, table.pick(choices, rnd)["value"])
        tokens.append(rec.token)
    log = table.bot.log_text()
    assert " DEBUG " in log  # the level took effect
    assert table.fake.token not in log
    assert not [t for t in tokens if t in log]
    assert not [h for h in hands if h in log]
    noisy = [ln for ln in log.splitlines() if "DEBUG" in ln and ("discord." in ln or "aiosqlite" in ln)]
    assert noisy == []


async def test_a_graceful_stop_finishes_the_move_in_flight_and_refuses_new_clicks(table: Table, tmp_path: Path) -> None:
    await table.open("basic", timer=5)
    mover = table.user_of(table.game().actors[0])
    other = next(u for u in table.users if u is not mover)
    version = table.row()["version"]
    deadline = table.row()["turn_deadline"]
    tab = table.table_message()
    # Discord holds up the private answer to the draw (429, retry after 3 s): the move is committed
    # and its answer is still to come when the deploy sends SIGTERM.
    table.fake.fail_next("POST", r"/webhooks/\d+/[^/]+", 429, retry_after=3.0)
    click = await table.fake.click(mover, tab, f"rummy:draw:{table.game_id}:{version}")
    await table.wait_until(lambda: table.row()["version"] == version + 1)
    stopping = asyncio.create_task(table.bot.terminate(timeout=30))
    await table.bot.wait_for_log("stopping: new interactions are refused")
    # A click after the stop began is answered, privately, and does nothing.
    before = state(table)
    late = await (await table.fake.click(other, tab, f"rummy:hand:{table.game_id}")).settled(timeout=10)
    assert [m.ephemeral for m in answers(late)] == [True]
    said = answers(late)[0]
    assert ("restarting" in said.content or "reiniciando" in said.content) and not said.attachments
    assert state(table) == before
    assert await stopping == 0
    # The move in flight was finished before the bot went away: the player got their hand (with the
    # drawn card) and the table was brought up to date.
    rec = await click.settled(timeout=5)
    hand = answers(rec)[-1]
    assert hand.ephemeral and hand.visible_to == mover.id and hand.attachments
    # (edited, or posted afresh by a player's token: issue 37)
    assert table.fake.message(tab.id).edited or table.table_message().id != tab.id
    assert "work in flight finished" in table.bot.log_text()
    # Back up: the table is posted again with a note, and the player to move gets a whole turn.
    restarted = time.time()
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    await table.fake.wait_for_message(lambda m: table.is_table(m) and m.id != tab.id and not m.deleted
                                      and ("reinici" in m.content or "restarted" in m.content), timeout=20)
    assert table.row()["turn_deadline"] >= restarted + 5 * 60 > deadline
    assert table.row()["version"] == version + 2  # the move, then the recovery (issue 14: it bumps the version)
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_a_stop_before_the_bot_is_ready_exits_cleanly_and_the_next_start_resumes(table: Table,
                                                                                     tmp_path: Path) -> None:
    """A deploy that stops the bot right after it connected (a game to resume, READY not yet
    handled) ends the process cleanly: the database is closed before the event loop, no error in
    the log, exit code 0; the next start resumes the game and posts its table."""
    await table.open("gin")
    before = table.row()
    await table.bot.kill()
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    # The fake has sent READY; discord.py waits for the guilds a little before its ready event.
    assert await table.bot.terminate(timeout=30) == 0
    log = table.bot.log_text()
    assert "stopping: new interactions are refused" in log and "Traceback" not in log, log[-3000:]
    assert table.row()["version"] == before["version"] + 1  # resumed once, before the stop
    tables = len([m for m in table.fake.public_messages() if table.is_table(m)])
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot3.log", {"RUMMY_FLOOD": "off"})
    await table.fake.wait_for_message(
        lambda m: table.is_table(m) and ("El bot se reinició" in m.content or "restarted" in m.content), timeout=20)
    assert len([m for m in table.fake.public_messages() if table.is_table(m)]) > tables
    player = table.user_of(table.game().actors[0])
    await table.play(player, (await table.suggestions(player))[0]["value"])
    assert table.row()["version"] == before["version"] + 3
