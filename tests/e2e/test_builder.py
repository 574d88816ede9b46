"""The rearrange builder (issue 13) against the real bot and the fake Discord: a table rearranged
with clicks only, a joker's role asked with a select, a draft that survives a restart, and forged
and stale clicks that change nothing.

What a user would notice if these failed: a split run or a moved card that needs typing card
codes, a joker meld refused with "type JK=", a draft lost to a deploy, a click on somebody else's
builder (or on one from before the last move) that does something.

Each deal starts from a prepared position: the test opens a two-player game, then writes the
position's record into the database (version bumped, so the bot reloads it) before anyone moves
(so the action log does not replay to the record here: it starts from another deal).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.engine import load_game
from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids

pytestmark = pytest.mark.e2e


def lay_out(table: Table, position: str) -> None:
    with sqlite3.connect(table.db_path, timeout=10) as conn:
        conn.execute("UPDATE games SET record = ?, version = version + 1 WHERE id = ?",
                     (load_game(position).record(), table.game_id))


def builder_id(table: Table, action: str, select: bool = True) -> str:
    return f"rummy:{'bs' if select else 'b'}:{action}:{table.game_id}:"


def control(message: Any, prefix: str) -> str:
    found = [c for c in custom_ids(message) if c.startswith(prefix)]
    assert found, (prefix, custom_ids(message))
    return found[0]


def option(message: Any, prefix: str, label_has: str) -> str:
    """The value of the option of select ``prefix`` whose label holds ``label_has``."""
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("custom_id", "").startswith(prefix):
                for opt in comp.get("options", []):
                    if label_has in opt["label"]:
                        return str(opt["value"])
    raise AssertionError(f"no option {label_has!r} in {prefix}")


class Builder:
    """One player's builder message, driven by clicks."""

    def __init__(self, table: Table, user: Any, message: Any) -> None:
        self.table, self.user, self.id = table, user, message.id

    @property
    def message(self) -> Any:
        return self.table.fake.message(self.id)

    async def choose(self, action: str, labels: list[str]) -> Any:
        prefix = builder_id(self.table, action)
        values = [option(self.message, prefix, label) for label in labels]
        before = len(self.message.edits)
        rec = await (await self.table.fake.select(self.user, self.message, control(self.message, prefix),
                                                  values)).settled(timeout=20)
        await self.answered(rec, before)
        return rec

    async def press(self, action: str) -> Any:
        cid = control(self.message, builder_id(self.table, action, select=False))
        before = len(self.message.edits)
        rec = await (await self.table.fake.click(self.user, self.message, cid)).settled(timeout=20)
        await self.answered(rec, before)
        return rec

    async def answered(self, rec: Any, edits_before: int) -> None:
        """The builder acknowledges a click at once (type 6) and edits its message after: wait for
        that edit, or for the private answer a refusal gets, before anything is read."""
        await self.table.wait_until(
            lambda: len(self.message.edits) > edits_before or any(m.id != self.id for m in answers(rec)),
            timeout=20)


async def open_builder(table: Table, user: Any) -> Builder:
    rec = await (await table.fake.slash(user, "rummy hand", {})).settled(timeout=20)
    hand = answers(rec)[-1]
    cid = next(c for c in custom_ids(hand) if c.startswith("rummy:h:build"))
    rec = await (await table.fake.click(user, hand, cid)).settled(timeout=20)
    message = answers(rec)[-1]
    assert message.ephemeral and message.visible_to == user.id and message.attachments
    return Builder(table, user, message)


async def shows_own_hand(table: Table, user: Any, codes: str) -> None:
    """After the builder's Play it, the player's hand shows ``codes``, privately: their live hand
    edited in place, or a new one (cogs.hand.send_hand)."""
    def shown() -> bool:
        return any(m.visible_to == user.id and codes in (m.content or "") and not m.deleted
                   and any(c.startswith("rummy:s0:") for c in custom_ids(m))
                   for m in table.fake.ephemeral_messages(user))
    await table.wait_until(shown, timeout=20)


def draft_row(table: Table) -> list[Any]:
    return [tuple(r) for r in table.query("SELECT seat, base, state FROM drafts WHERE game_id = ?", (table.game_id,))]


async def test_a_rami_table_is_split_moved_added_to_and_played_with_clicks(table: Table) -> None:
    table.users = table.users[:2]
    await table.open("rami", "table_manipulation=true")
    ana, bea = table.users
    a, b = table.seat_of(ana), table.seat_of(bea)
    lay_out(table, f"""[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "{a} {b}"]
[Hand "{a}" "6H 6D KD KS KC 2S 5D"]
[Hand "{b}" "AD 3D 9S 8H 4C 4S 7D"]
[Table "{a}: 3C 4C 5C 6C 7C 8C 9C | {b}: TH JH QH KH"]
[Opened "{a} {b}"]
[Turn "{a}"]
[Phase "play"]
""")
    version = table.row()["version"]
    builder = await open_builder(table, ana)
    assert "cartas tuyas puestas: 0" in builder.message.content
    # Suggest fills the draft with the strong level's rearrangement; Start over empties it again.
    await builder.press("suggest")
    assert "cartas tuyas puestas: 0" not in builder.message.content
    await builder.press("reset")
    assert "cartas tuyas puestas: 0" in builder.message.content
    # Split the run: 6C out, with 6H 6D from the hand as a new set; then 7C 8C 9C a meld of their own.
    await builder.choose("out", ["De la 1: 6♣"])
    assert "❌ 1:" in builder.message.content  # 3C 4C 5C 7C 8C 9C is no meld
    await builder.press("undo")
    assert "❌" not in builder.message.content
    await builder.choose("out", ["De la 1: 6♣"])
    await builder.choose("pick", ["Pendiente: 6♣", "De tu mano: 6♥", "De tu mano: 6♦"])
    await builder.choose("put", ["Combinación nueva"])
    await builder.choose("out", ["De la 1: 7♣", "De la 1: 8♣", "De la 1: 9♣"])
    await builder.choose("put", ["Combinación nueva"])
    # The kings from the hand, then KH moved to them from the hearts run.
    await builder.choose("pick", ["De tu mano: K♦", "De tu mano: K♠", "De tu mano: K♣"])
    await builder.choose("put", ["Combinación nueva"])
    await builder.choose("out", ["De la 2: K♥"])
    await builder.choose("put", ["Añadir a la 5"])
    assert "todo válido" in builder.message.content and "cartas tuyas puestas: 5" in builder.message.content
    assert table.row()["version"] == version  # nothing played yet
    # Somebody else pressing this builder's controls (a forged click) changes nothing.
    before = draft_row(table)
    rec = await (await table.fake.forged_click(bea, builder.message, control(
        builder.message, builder_id(table, "reset", select=False)))).settled(timeout=20)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == bea.id and "out of date" in reply.content
    assert draft_row(table) == before and table.row()["version"] == version
    rec = await builder.press("play")
    assert table.row()["version"] == version + 1
    game = table.game()
    assert sorted(map(sorted, game.table)) == sorted(map(sorted, [
        ["3C", "4C", "5C"], ["TH", "JH", "QH"], ["6C", "6H", "6D"], ["7C", "8C", "9C"], ["KD", "KS", "KC", "KH"]]))
    assert sorted(game.hand(a)) == ["2S", "5D"]
    await shows_own_hand(table, ana, "`2S 5D`")  # the hand, privately, to go on with the turn
    assert table.query("SELECT COUNT(*) FROM drafts")[0][0] == 0
    assert table.fake.violations == []


async def test_a_joker_is_asked_about_the_draft_survives_a_restart_and_stale_clicks_do_nothing(
        table: Table, tmp_path: Path) -> None:
    table.users = table.users[:2]
    await table.open("rami", "table_manipulation=true")
    ana, bea = table.users
    a, b = table.seat_of(ana), table.seat_of(bea)
    lay_out(table, f"""[Variant "rami"]
[Options "table_manipulation=true first_meld_min=30"]
[Seats "{a} {b}"]
[Hand "{a}" "7H 8H JK KD KS KC 4S 9D"]
[Hand "{b}" "AD 3D 9S 8H 4C 4S 7D"]
[Table "{b}: TC JC QC"]
[Opened "{b}"]
[Turn "{a}"]
[Phase "play"]
""")
    builder = await open_builder(table, ana)
    assert "apertura 0/30" in builder.message.content  # not opened yet: the builder counts the opening
    await builder.choose("pick", ["De tu mano: 7♥", "De tu mano: 8♥", "De tu mano: 🃏"])
    await builder.choose("put", ["Combinación nueva"])
    assert "comodines por aclarar: 1" in builder.message.content
    assert any(c.startswith(builder_id(table, "joker")) for c in custom_ids(builder.message))
    # A restart: the draft is in the database, and the message's controls still work.
    await table.bot.kill()
    table.bot = await boot(table.fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    await builder.choose("joker", ["🃏=9♥"])
    assert "🃏=9♥" in builder.message.content and "apertura 15/30" in builder.message.content
    version = table.row()["version"]
    # 15 points do not open (30 needed): refused with the rule's reason; the draft stays to be fixed.
    rec = await builder.press("play")
    assert table.row()["version"] == version
    assert "30" in answers(rec)[-1].content and answers(rec)[-1].ephemeral
    assert custom_ids(builder.message)  # still there
    second = await open_builder(table, ana)  # the same draft, opened again from the hand
    assert "🃏=9♥" in second.message.content
    await builder.choose("pick", ["De tu mano: K♦", "De tu mano: K♠", "De tu mano: K♣"])
    await builder.choose("put", ["Combinación nueva"])
    assert "apertura 45/30" in builder.message.content
    await builder.press("play")
    assert table.row()["version"] == version + 1
    assert sorted(map(sorted, table.game().table)) == sorted(map(sorted, [
        ["TC", "JC", "QC"], ["7H", "8H", "JK=9H"], ["KD", "KS", "KC"]]))
    # Ana discards, Bea draws: the other builder message is out of date and changes nothing.
    await table.play(ana, "discard 9D")
    await table.play(bea, "draw")
    version = table.row()["version"]
    rec = await second.press("undo")
    reply = answers(rec)[-1]
    assert reply.ephemeral and "desactualizado" in reply.content
    assert table.row()["version"] == version and table.query("SELECT COUNT(*) FROM drafts")[0][0] == 0
    assert table.fake.violations == []


async def test_the_hand_meld_button_asks_which_card_a_joker_stands_for(table: Table) -> None:
    """Issue 13: a meld with a joker of several possible roles, built with the hand's buttons, is
    no longer refused with "type JK=...": a select asks which card it stands for."""
    table.users = table.users[:2]
    await table.open("rami")
    ana, bea = table.users
    a, b = table.seat_of(ana), table.seat_of(bea)
    lay_out(table, f"""[Variant "rami"]
[Seats "{a} {b}"]
[Hand "{a}" "7H 8H JK 4S 9D"]
[Hand "{b}" "AD 3D 9S 8H 4C 4S 7D"]
[Table "{b}: TC JC QC"]
[Opened "{a} {b}"]
[Turn "{a}"]
[Phase "play"]
""")
    version = table.row()["version"]
    rec = await (await table.fake.slash(ana, "rummy hand", {})).settled(timeout=20)
    hand = answers(rec)[-1]
    select = next(c for c in custom_ids(hand) if c.startswith("rummy:s0:"))
    values = [option(hand, select, code) for code in ("(7H)", "(8H)", "(JK)")]
    await (await table.fake.select(ana, hand, select, values)).settled(timeout=20)
    hand = table.fake.message(hand.id)
    rec = await (await table.fake.click(ana, hand, control(hand, "rummy:h:meld:"))).settled(timeout=20)
    question = answers(rec)[-1]
    assert question.ephemeral and "JK=" not in question.content and "comodín" in question.content
    assert table.row()["version"] == version
    joker = control(question, "rummy:hj:")
    await (await table.fake.select(ana, question, joker, [option(question, joker, "🃏=9♥")])).settled(timeout=20)
    assert table.row()["version"] == version + 1
    assert ["7H", "8H", "JK=9H"] in table.game().table
    assert table.fake.violations == []


async def test_a_tradicional_table_is_split_and_added_to_with_clicks(table: Table) -> None:
    """Tradicional (rules.md §4.2: manipulation from the first turn, no opening minimum, no
    jokers): a run split in two around a set made with hand cards, played through the builder."""
    table.users = table.users[:2]
    await table.open("tradicional", "")
    ana, bea = table.users
    a, b = table.seat_of(ana), table.seat_of(bea)
    lay_out(table, f"""[Variant "tradicional"]
[Seats "{a} {b}"]
[Hand "{a}" "6H 6D 2S 5D 9H"]
[Hand "{b}" "AD 3D 9S 8H 4D 4S 7D"]
[Table "3C 4C 5C 6C 7C 8C 9C | TH JH QH KH"]
[Turn "{a}"]
[Phase "play"]
""")
    version = table.row()["version"]
    builder = await open_builder(table, ana)
    await builder.choose("out", ["De la 1: 6♣"])
    await builder.choose("pick", ["Pendiente: 6♣", "De tu mano: 6♥", "De tu mano: 6♦"])
    await builder.choose("put", ["Combinación nueva"])
    assert "❌ 1:" in builder.message.content  # 3C 4C 5C 7C 8C 9C is no meld until it is split
    await builder.choose("out", ["De la 1: 7♣", "De la 1: 8♣", "De la 1: 9♣"])
    await builder.choose("put", ["Combinación nueva"])
    await builder.choose("pick", ["De tu mano: 9♥"])
    await builder.choose("put", ["Añadir a la 2"])
    assert "todo válido" in builder.message.content and "cartas tuyas puestas: 3" in builder.message.content
    assert table.row()["version"] == version  # nothing played yet
    await builder.press("play")
    assert table.row()["version"] == version + 1
    game = table.game()
    assert sorted(map(sorted, game.table)) == sorted(map(sorted, [
        ["3C", "4C", "5C"], ["9H", "TH", "JH", "QH", "KH"], ["6C", "6H", "6D"], ["7C", "8C", "9C"]]))
    assert sorted(game.hand(a)) == ["2S", "5D"]
    await shows_own_hand(table, ana, "`2S 5D`")  # the hand, privately, to go on with the turn
    assert table.query("SELECT COUNT(*) FROM drafts")[0][0] == 0
    assert table.fake.violations == []
