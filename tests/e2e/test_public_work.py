"""Expensive public work (issue 15, hole 5) against the real bot and our fake Discord.

``/rummy replay`` of a finished deal is drawn once, then served from the cache (the bot logs which);
``/rummy table`` re-posts a channel's table at most once per cooldown, and a second ask within it is
refused privately, saying when to ask again, and posts nothing.

What a user would notice if these failed: hand pictures arriving late while somebody asks for the
same replay again and again, or the channel flooded with copies of the table.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.helpers import Table, answers, scan_for_leaks

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(table: Table) -> Table:
    table.users = table.users[:2]  # two players here: Ana (es-ES) and Bea (en-US)
    return table


async def test_a_second_replay_of_a_deal_is_served_from_the_cache(table: Table) -> None:
    await table.open("gin", "target=1")
    await table.play_until_over(random.Random(1))
    pictures = []
    for user in (table.users[1], table.users[0]):
        rec = await (await table.fake.slash(user, "rummy replay", {})).settled(timeout=60)
        replay = answers(rec)[-1]
        assert not replay.ephemeral and replay.attachments[0].filename == "replay.gif"
        pictures.append(replay.attachments[0])
    assert pictures[0].data == pictures[1].data
    log = table.bot.log_text()
    deal = table.game().public_view().deal_number  # the last deal (a void gin deal makes it 2 or more)
    assert log.count(f"replay of game {table.game_id} deal {deal} rendered") == 1, log[-3000:]
    assert log.count(f"replay of game {table.game_id} deal {deal} served from cache") == 1, log[-3000:]
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_a_second_table_repost_within_the_cooldown_is_refused_privately(table: Table) -> None:
    await table.open("gin")
    first = await table.wait_table()
    # Bea asks for the table: told privately, and a new table is posted in the channel.
    rec = await (await table.fake.slash(table.users[1], "rummy table", {})).settled(timeout=20)
    said = answers(rec)
    assert [m.content for m in said] == ["Posting the table again."] and said[0].ephemeral
    await table.fake.wait_for_message(lambda m: table.is_table(m) and m.id != first.id, timeout=15)
    tables = [m for m in table.fake.public_messages() if table.is_table(m)]
    # Ana asks again at once: refused privately in her language, saying when; nothing is posted.
    rec = await (await table.fake.slash(table.users[0], "rummy table", {})).settled(timeout=20, quiet=1.0)
    said = answers(rec)
    assert len(said) == 1 and said[0].ephemeral and said[0].visible_to == table.users[0].id, said
    assert said[0].content.startswith("La mesa se acaba de publicar de nuevo: puedes volver a pedirla dentro de ")
    assert said[0].content.endswith(" s. No se ha publicado nada.")
    assert [m for m in table.fake.public_messages() if table.is_table(m)] == tables
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []
