"""R2 as a player sees it: the database refuses the COMMIT of a move, with the real bot running.

The test makes SQLite refuse the COMMIT of this game's next move (a deferred foreign key, checked
only at COMMIT: ``tests/bot/test_crash.py`` does the same on both backends at the service level),
then the player to move presses Draw.

What a user would notice if this failed: the press left unanswered ("This interaction failed"), an
error said in the channel, a table that shows a move the database does not have, or a game stuck
after the failure (the same button refused as "already done", or nothing answering at all).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

FAILED = ("no ha cambiado nada", "nothing changed")  # refusal.error, in Spanish and in English


def _sql(db: Path, *statements: str) -> None:
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn, conn:
        for statement in statements:
            conn.execute(statement)


def start_announced(table: Table) -> bool:
    """Whether the start's posts are all on the game's row: the announcer posts the table, then the
    turn call, and stores each message's id a moment after Discord took it (``set_messages``)."""
    row = table.row()
    shown = {m.id for m in table.fake.public_messages()}
    tables = [m for m in table.fake.public_messages() if table.is_table(m)]
    return (bool(tables) and row["table_message_id"] == tables[-1].id
            and row["turn_message_id"] is not None and row["turn_message_id"] in shown)


async def test_a_move_whose_commit_fails_is_answered_privately_and_the_game_goes_on(
        fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "rummy.sqlite3"
    users = [fake.add_user("Ana", locale="es-ES"), fake.add_user("Bea", locale="en-US")]
    bot = await boot(fake, db, tmp_path / "bot.log", {"RUMMY_FLOOD": "off"})
    table = Table(fake, bot, db, users)
    try:
        await table.open("basic")
        player = table.user_of(table.game().actors[0])
        # The row is compared whole below: first let the start's announcement finish writing it.
        await table.wait_until(lambda: start_announced(table), timeout=20)
        before = table.row()
        actions = table.query("SELECT COUNT(*) FROM actions")[0][0]
        _sql(db,
             "CREATE TABLE commit_bomb (game_id INTEGER REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED)",
             f"CREATE TRIGGER commit_bomb_arm AFTER INSERT ON actions WHEN NEW.game_id = {table.game_id} "
             "BEGIN INSERT INTO commit_bomb VALUES (-1); END")
        draw = f"rummy:draw:{table.game_id}:{before['version']}"
        await table.wait_until(lambda: draw in custom_ids(table.table_message()), timeout=20)
        tab = table.table_message()
        public = [(m.id, len(m.edits)) for m in fake.public_messages()]

        rec = await (await fake.click(player, tab, draw)).settled(
            timeout=20, until=lambda r: any(any(f in m.content for f in FAILED) for m in answers(r)))
        assert rec.response is not None and rec.response.elapsed < 3
        reply = next(m for m in answers(rec) if any(f in m.content for f in FAILED))
        assert reply.ephemeral and reply.visible_to == player.id and not reply.attachments
        await table.wait_until(lambda: "FOREIGN KEY constraint failed" in bot.log_text())  # logged for the admin
        assert dict(table.row()) == dict(before)  # nothing of the move was stored
        assert table.query("SELECT COUNT(*) FROM actions")[0][0] == actions
        assert [(m.id, len(m.edits)) for m in fake.public_messages()] == public  # nothing said in the channel

        # The database accepts writes again: the same button plays the move, once.
        _sql(db, "DROP TRIGGER commit_bomb_arm")
        rec = await (await fake.click(player, tab, draw)).settled(
            timeout=20, until=lambda r: any(m.attachments for m in answers(r)))
        hand = next(m for m in answers(rec) if m.attachments)
        assert hand.ephemeral and hand.visible_to == player.id
        await table.wait_until(lambda: table.row()["version"] == before["version"] + 1)
        assert table.query("SELECT COUNT(*) FROM actions")[0][0] == actions + 1
        table.check_action_log()
        scan_for_leaks(fake, users)
        assert fake.violations == []
    finally:
        await bot.terminate()
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
