"""Issue 15, hole 1 (reliability R23): one game whose record will not load must not stop the
clock for every other game. The real bot boots on a database where one game's record is damaged
while another game's turn timer runs out."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table

pytestmark = pytest.mark.e2e

QUARANTINED = "No se pudo cargar el registro guardado de esta partida"  # game.quarantined, es


async def test_a_damaged_game_is_set_aside_once_and_the_other_games_keep_their_clock(table: Table,
                                                                                      tmp_path: Path) -> None:
    everyone = table.users
    table.users = everyone[:2]  # Ana's game: its record gets damaged
    await table.open("gin", timer=1)
    damaged = table.game_id
    healthy = Table(table.fake, table.bot, table.db_path, everyone[2:4], channel=table.fake.add_channel("mesa-2"))
    await healthy.open("gin", timer=1)
    await table.bot.kill()
    past = time.time() - 3600
    with sqlite3.connect(table.db_path) as conn:
        # A damaged row (or a record an engine change no longer reads), its deadline long passed...
        conn.execute("UPDATE games SET record = 'garbage', turn_deadline = ? WHERE id = ?", (past, damaged))
        # ...and a healthy game whose turn runs out 15 s after the restart (a whole turn: issue 14).
        conn.execute("UPDATE games SET timer_minutes = 0.25, turn_deadline = ? WHERE id = ?", (past, healthy.game_id))
    table.bot = healthy.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})

    # The healthy game's player is timed out by the clock.
    await table.fake.wait_for_message(
        lambda m: m.channel_id == healthy.place and "Se acabó el tiempo" in m.content, timeout=45)
    assert healthy.query("SELECT kind FROM actions WHERE game_id = ? ORDER BY id DESC", (healthy.game_id,))[0][0] \
        == "timeout"
    await asyncio.sleep(3)  # more ticks: the damaged game is still said to be set aside once
    notices = [m for m in table.fake.public_messages(table.place) if QUARANTINED in m.content]
    assert len(notices) == 1, [m.content for m in notices]
    row = table.row()
    assert row["quarantined_at"] is not None and row["status"] == "playing"
    log = table.bot.log_text()
    assert "Traceback" not in log, log[-3000:]
    assert log.count(f"game {damaged}: its record does not load") == 1, log[-3000:]
    assert table.fake.violations == []
