"""Every path that shows a hand (reliability.md R12), against the real bot and our fake Discord.

``/rummy hand``, the table's My hand button, both again after a refusal, after ``/rummy table``
re-posted the table and after a restart (SIGKILL, then a new process): each answer is the caller's
own hand, in a message only they see, with the hand picture; and the leak scan (``scan_for_leaks``,
which checks pictures by name and by bytes) finds no hand in any public message.

What a user would notice if these failed: their cards, as text or as the picture, posted for the
whole channel; a hand that asks for it answered with nothing, or with someone else's cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, scan_for_leaks

pytestmark = pytest.mark.e2e


def assert_own_hand(table: Table, rec: Any, user: Any) -> None:
    """The last answer to ``rec`` is ``user``'s hand as it stands, privately, with its picture."""
    shown = answers(rec)
    assert shown, rec.responses
    hand = shown[-1]
    assert all(m.ephemeral and m.visible_to == user.id for m in shown), shown
    assert [a.filename.split(".")[0] for a in hand.attachments] == ["hand"], hand.attachments
    cards = table.game().hand(table.seat_of(user))
    assert cards and all(code in hand.content for code in cards), (hand.content, cards)


async def hand_command(table: Table, user: Any) -> Any:
    return await (await table.fake.slash(user, "rummy hand", {}, channel=table.channel)).settled(timeout=20)


async def hand_button(table: Table, user: Any, message: Any = None) -> Any:
    message = message or table.table_message()
    return await (await table.fake.click(user, message, f"rummy:hand:{table.game_id}")).settled(timeout=20)


async def test_every_way_to_see_a_hand_is_private_and_shows_the_callers_own(table: Table, tmp_path: Path) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    stranger = table.fake.add_user("Eve", locale="en-US")
    await table.open("gin")
    # The command and the button, for both players (the one to move and the other).
    for user in (ana, bea):
        assert_own_hand(table, await hand_command(table, user), user)
        assert_own_hand(table, await hand_button(table, user), user)
    # A stranger is refused privately, and sees no hand at all.
    for rec in (await hand_command(table, stranger), await hand_button(table, stranger)):
        assert answers(rec) and all(m.ephemeral and m.visible_to == stranger.id and not m.attachments
                                    for m in answers(rec))
    # After a refusal (an illegal move by the player to move, a move out of turn by the other): the
    # refusal is private, nothing changes, and the hand is still there for the asking.
    mover = table.user_of(table.game().actors[0])
    other = bea if mover is ana else ana
    version = table.row()["version"]
    for user, move in ((mover, "meld AS 2S 3S"), (mover, "discard ZZ"), (other, "draw")):
        rec = await table.play(user, move)
        assert all(m.ephemeral and m.visible_to == user.id for m in answers(rec))
        assert table.row()["version"] == version
        assert_own_hand(table, await hand_command(table, user), user)
        assert_own_hand(table, await hand_button(table, user), user)
    # /rummy table posts the table again, publicly (no hand in it); its My hand button works.
    tables = [m.id for m in table.fake.public_messages() if table.is_table(m)]
    rec = await (await table.fake.slash(other, "rummy table", {}, channel=table.channel)).settled(timeout=20)
    assert answers(rec) and all(m.ephemeral and not m.attachments for m in answers(rec))
    reposted = await table.fake.wait_for_message(lambda m: table.is_table(m) and m.id not in tables, timeout=20)
    assert reposted.public and all(a.filename.split(".")[0] == "table" for a in reposted.attachments)
    for user in (ana, bea):
        assert_own_hand(table, await hand_button(table, user, reposted), user)
    # After a restart (SIGKILL, then a new process): the command, the re-posted table's button and
    # the button of a table posted before the restart all still show the caller's own hand.
    await table.bot.kill()
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    await table.wait_until(lambda: table.table_message().id != reposted.id)
    for user in (ana, bea):
        assert_own_hand(table, await hand_command(table, user), user)
        assert_own_hand(table, await hand_button(table, user), user)
        assert_own_hand(table, await hand_button(table, user, reposted), user)
    # And after a move, the hand that answers it.
    mover = table.user_of(table.game().actors[0])
    choices = await table.suggestions(mover)
    rec = await table.play(mover, choices[0]["value"])
    assert_own_hand(table, rec, mover)
    table.check_action_log()
    scan_for_leaks(table.fake, [ana, bea, stranger])
    assert "Traceback" not in table.bot.log_text()
    assert table.fake.violations == []
