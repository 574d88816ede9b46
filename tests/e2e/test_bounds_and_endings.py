"""Issue 15 against the real bot and our fake Discord: unbounded inputs (hole 4) and a resignation
that ends a game early (hole 7).

What a user would notice if these failed: a forged select with huge values stalls the bot, so
another player's click right after goes unanswered ("This interaction failed"); a two-player game
ended by a resignation before the deal was over ends in silence, with no final message and no
Rematch button.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, components, custom_ids, scan_for_leaks

pytestmark = pytest.mark.e2e

ACK = 3.0  # Discord's deadline for answering an interaction


@pytest.fixture
def table(table: Table) -> Table:
    table.users = table.users[:2]  # two players: Ana (es-ES) and Bea (en-US)
    return table


def committed(table: Table) -> list[Any]:
    return [[tuple(r) for r in table.query("SELECT id, status, version, record FROM games ORDER BY id")],
            [tuple(r) for r in table.query("SELECT * FROM actions ORDER BY id")]]


async def test_a_forged_select_with_huge_values_is_refused_at_once_and_another_click_is_answered(
        table: Table) -> None:
    await table.open("gin")
    ana, bea = table.users
    tab = table.table_message()
    rec = await (await table.fake.click(bea, tab, f"rummy:hand:{table.game_id}")).settled(timeout=20)
    hand = answers(rec)[-1]
    assert hand.ephemeral and hand.visible_to == bea.id
    select = next(c["custom_id"] for c in components(hand) if c.get("type") == 3)
    edits = len(hand.edits)
    before = committed(table)
    huge = [str(2_000_000_000 + i) for i in range(25)]
    start = time.monotonic()
    forged = await table.fake.forged_click(bea, hand, select, component_type=3, values=huge)
    other = await table.fake.click(ana, tab, f"rummy:hand:{table.game_id}")  # right after, not waiting
    await forged.settled(timeout=20, until=lambda r: bool(r.followups))
    refused_after = time.monotonic() - start
    await other.settled(timeout=20)
    # The forged select: acknowledged in time, refused privately in Bea's language, nothing changed.
    assert forged.response is not None and forged.response.elapsed < ACK
    assert refused_after < ACK, refused_after
    reply = forged.followups[-1]
    assert reply.ephemeral and reply.visible_to == bea.id
    assert "not offered" in reply.content, reply.content
    assert len(hand.edits) == edits  # the hand message was not redrawn with anything selected
    assert committed(table) == before
    # Ana's click right after was answered in time, with her own hand.
    assert other.response is not None and other.response.elapsed < ACK
    mine = answers(other)[-1]
    assert mine.ephemeral and mine.visible_to == ana.id and mine.attachments
    assert all(code in mine.content for code in table.game().hand(table.seat_of(ana)))
    # A select of what the message offered still works afterwards.
    rec = await (await table.fake.select(bea, hand, select, ["0", "1"])).settled(
        timeout=20, until=lambda r: len(hand.edits) > edits)
    assert not rec.followups
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_a_resignation_in_the_middle_of_a_gin_deal_posts_the_final_message_with_rematch(
        table: Table) -> None:
    await table.open("gin")
    ana, bea = table.users
    game = table.game()
    assert not game.hand_over
    quitter = next(u for u in table.users if table.seat_of(u) != game.actors[0])  # resigns out of turn
    rec = await (await table.fake.slash(quitter, "rummy resign", {})).settled(timeout=20)
    assert answers(rec) and all(m.ephemeral for m in answers(rec))
    rematch = f"rummy:rematch:{table.game_id}"
    final = await table.fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    assert final.public and not final.ephemeral
    winner = next(u for u in table.users if u is not quitter)
    assert winner.name in final.content
    assert table.row()["status"] == "finished"
    assert "Traceback" not in table.bot.log_text(), table.bot.log_text()[-3000:]
    scan_for_leaks(table.fake, [ana, bea])
