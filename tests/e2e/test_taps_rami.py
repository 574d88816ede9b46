"""A Rami game played to its end by taps only (issue 36): no ``/rummy play``, only the table's My
hand button, the hand's select and buttons and the rearrange builder, against the real bot and the
fake Discord.

Three players; openings of three melds (Ana) and two (Bea, Carlos), each one Meld tap; layoffs,
one to a meld picked among two by its button ("Añadir a la 3 · 5♠ 6♠ 7♠"), one where a single
meld accepts; a rearrangement through the builder (``table_manipulation=true``: a 4♦ taken out of
a group into a new run); Ana goes out and the game (one round) is over. The interactions of every
turn are printed, and an ordinary turn (draw, one meld or layoff, discard) takes at most 6.

What a user would notice if these failed: an opening of two or three melds refused as "not a
valid meld" or "at least 50 points" when tapped, a layoff that needs a typed command, a turn that
takes more taps than a phone player will make.

The deal is a prepared position written into the database before anyone moves (as in
``test_builder``), so the game is the same on every run.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot.engine import load_game
from tests.e2e.helpers import Table, answers, custom_ids

pytestmark = pytest.mark.e2e

ORDINARY_TURN_MAX = 6


def lay_out(table: Table, position: str) -> None:
    with sqlite3.connect(table.db_path, timeout=10) as conn:
        conn.execute("UPDATE games SET record = ?, version = version + 1 WHERE id = ?",
                     (load_game(position).record(), table.game_id))


class Taps:
    """The players' taps, counted per turn; each player's newest private hand message."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.count = 0

    def hand_message(self, user: Any) -> Any | None:
        prefix = f"rummy:s0:{self.table.game_id}:"
        mine = [m for m in self.table.fake.ephemeral_messages(user)
                if not m.deleted and any(c.startswith(prefix) for c in custom_ids(m))]
        return mine[-1] if mine else None

    def current(self, message: Any) -> bool:
        version = self.table.row()["version"]
        prefix = f"rummy:s0:{self.table.game_id}:{version}:"
        return any(c.startswith(prefix) for c in custom_ids(message))

    async def settle(self, rec: Any, message: Any, edits: int, version: int) -> None:
        """A tap is acknowledged at once and answered after: wait for the edit of its message, a
        new private message, or the move's commit."""
        await self.table.wait_until(
            lambda: len(self.table.fake.message(message.id).edits) > edits
            or any(m.id != message.id for m in answers(rec)) or self.table.row()["version"] > version,
            timeout=20)

    async def hand(self, user: Any) -> Any:
        """The player's hand as it stands: their open hand message if it shows this version, else
        the table's My hand button (one tap)."""
        shown = self.hand_message(user)
        if shown is not None and self.current(shown):
            return shown
        self.count += 1
        rec = await (await self.table.fake.click(user, self.table.table_message(),
                                                 f"rummy:hand:{self.table.game_id}")).settled(timeout=20)
        assert answers(rec), rec.responses
        await self.table.wait_until(lambda: (m := self.hand_message(user)) is not None and self.current(m))
        return self.hand_message(user)

    async def click(self, user: Any, message: Any, prefix: str) -> Any:
        found = [c for c in custom_ids(message) if c.startswith(prefix)]
        assert found, (prefix, custom_ids(message), message.content)
        self.count += 1
        edits, version = len(message.edits), self.table.row()["version"]
        rec = await (await self.table.fake.click(user, message, found[0])).settled(timeout=20)
        await self.settle(rec, message, edits, version)
        return rec

    async def pick(self, user: Any, message: Any, cards: list[str], prefix: str = "rummy:s0:") -> Any:
        """The cards picked in the hand's select (by their codes, shown in the labels)."""
        values: list[str] = []
        cid = ""
        for row in message.components:
            for comp in row.get("components", []):
                if comp.get("custom_id", "").startswith(prefix):
                    cid = comp["custom_id"]
                    for code in cards:
                        value = next(str(o["value"]) for o in comp["options"]
                                     if f"({code})" in o["label"] and str(o["value"]) not in values)
                        values.append(value)
        assert cid, (prefix, custom_ids(message))
        self.count += 1
        edits, version = len(message.edits), self.table.row()["version"]
        rec = await (await self.table.fake.select(user, message, cid, values)).settled(timeout=20)
        await self.settle(rec, message, edits, version)
        return rec

    def refusal(self, rec: Any, message: Any) -> str | None:
        said = [m for m in answers(rec) if m.id != message.id and not any(
            c.startswith(f"rummy:s0:{self.table.game_id}:") for c in custom_ids(m))]
        return said[-1].content if said else None


async def draw(taps: Taps, user: Any) -> None:
    hand = await taps.hand(user)
    version = taps.table.row()["version"]
    await taps.click(user, hand, "rummy:h:draw")
    assert taps.table.row()["version"] > version


async def meld(taps: Taps, user: Any, cards: list[str]) -> None:
    hand = await taps.hand(user)
    await taps.pick(user, hand, cards)
    hand = taps.table.fake.message(hand.id)
    version = taps.table.row()["version"]
    rec = await taps.click(user, hand, "rummy:h:meld")
    assert taps.table.row()["version"] > version, taps.refusal(rec, hand)


async def layoff(taps: Taps, user: Any, cards: list[str], to: int) -> None:
    hand = await taps.hand(user)
    await taps.pick(user, hand, cards)
    hand = taps.table.fake.message(hand.id)
    version = taps.table.row()["version"]
    rec = await taps.click(user, hand, f"rummy:h:layoff{to}:")
    assert taps.table.row()["version"] > version, taps.refusal(rec, hand)


async def discard(taps: Taps, user: Any, card: str) -> None:
    hand = await taps.hand(user)
    version = taps.table.row()["version"]
    if any(c.startswith("rummy:hv:discard:") for c in custom_ids(hand)):
        await taps.pick(user, hand, [card], prefix="rummy:hv:discard:")  # one pick discards it
    else:
        await taps.pick(user, hand, [card])
        await taps.click(user, taps.table.fake.message(hand.id), "rummy:h:discard")
    assert taps.table.row()["version"] > version


async def test_a_rami_game_is_played_to_its_end_by_taps(table: Table) -> None:
    table.users = table.users[:3]
    await table.open("rami", "table_manipulation=true rounds_per_game=1")
    ana, bea, carlos = table.users
    a, b, c = (table.seat_of(u) for u in table.users)
    lay_out(table, f"""[Variant "rami"]
[Options "table_manipulation=true rounds_per_game=1"]
[Seats "{a} {b} {c}"]
[Hand "{a}" "JH QH KH 4S 4H 4C 4D 5S 6S 7S 9D 3C"]
[Hand "{b}" "8C 9C TC KD KS KC 3D 5D 6D"]
[Hand "{c}" "QS QD QC 9S TS JS 6C 2C"]
[Stock "2H 7H 8D 8S 9H JC AH 3S 5C 7C 7D 8H"]
[Discard "2S"]
[Turn "{a}"]
[Phase "draw"]
""")
    taps = Taps(table)
    turns: list[tuple[str, str, int]] = []

    async def turn(user: Any, kind: str, *steps: Any) -> None:
        taps.count = 0
        for step in steps:
            await step
        turns.append((user.name, kind, taps.count))

    # Ana opens with three melds in one Meld tap: J♥Q♥K♥, four 4s and 5♠6♠7♠ (65 points).
    await turn(ana, "opening of 3 melds", draw(taps, ana),
               meld(taps, ana, ["JH", "QH", "KH", "4S", "4H", "4C", "4D", "5S", "6S", "7S"]), discard(taps, ana, "9D"))
    assert a in table.game().opened and len(table.game().table) == 3
    # Bea: a short selection is refused saying which cards reach the opening; then two melds.
    taps.count = 0
    await draw(taps, bea)
    drawn = taps.count
    hand = await taps.hand(bea)
    await taps.pick(bea, hand, ["KD", "KS", "KC"])
    assert "30 of 50" in taps.table.fake.message(hand.id).content  # the opening's points as she builds it
    rec = await taps.click(bea, taps.table.fake.message(hand.id), "rummy:h:meld")
    said = taps.refusal(rec, hand) or ""
    assert "50" in said and "8♣" in said, said
    taps.count = drawn  # the refused pick and tap are the test's, not the turn's
    await meld(taps, bea, ["8C", "9C", "TC", "KD", "KS", "KC"])
    await discard(taps, bea, "3D")
    turns.append((bea.name, "opening of 2 melds", taps.count))
    # Carlos opens with two melds.
    await turn(carlos, "opening of 2 melds", draw(taps, carlos),
               meld(taps, carlos, ["QS", "QD", "QC", "9S", "TS", "JS"]), discard(taps, carlos, "6C"))
    # Ana draws 8♠: 5♠6♠7♠ (meld 3) and 9♠10♠J♠ (meld 6) both take it; she picks meld 3 by its button.
    spades = next(n for n, m in enumerate(table.game().table, start=1) if "5S" in m)
    await turn(ana, "ordinary: draw, layoff, discard", draw(taps, ana), layoff(taps, ana, ["8S"], spades),
               discard(taps, ana, "2H"))
    assert "8S" in table.game().table[spades - 1]
    # Bea rearranges through the builder: 4♦ out of the four 4s, into a new run with her 5♦ 6♦.
    taps.count = 0
    await draw(taps, bea)
    hand = await taps.hand(bea)
    await taps.click(bea, hand, "rummy:h:build")
    builder = next(m for m in reversed(table.fake.ephemeral_messages(bea))
                   if any(x.startswith(f"rummy:b:play:{table.game_id}:") for x in custom_ids(m)))
    fours = next(n for n, m in enumerate(table.game().table, start=1) if "4D" in m)
    position = list(table.game().table[fours - 1]).index("4D")
    await taps_select(taps, bea, builder, "out", [f"c{fours}.{position}"])
    await taps_select(taps, bea, builder, "pick", builder_values(table, builder, "pick", ["4♦", "5♦", "6♦"]))
    await taps_select(taps, bea, builder, "put", ["new"])
    version = table.row()["version"]
    await taps.click(bea, table.fake.message(builder.id), f"rummy:b:play:{table.game_id}:")
    assert table.row()["version"] > version and ["4D", "5D", "6D"] in [sorted(m) for m in table.game().table]
    await discard(taps, bea, "9H")
    turns.append((bea.name, "rearrangement by the builder", taps.count))
    # Carlos draws J♣ and lays it off on 8♣9♣10♣, the one meld that takes it.
    clubs = next(n for n, m in enumerate(table.game().table, start=1) if "8C" in m)
    await turn(carlos, "ordinary: draw, layoff, discard", draw(taps, carlos),
               layoff(taps, carlos, ["JC"], clubs), discard(taps, carlos, "2C"))
    # Ana draws A♥, lays it off on J♥Q♥K♥ and goes out with her last discard: the game is over.
    hearts = next(n for n, m in enumerate(table.game().table, start=1) if "JH" in m)
    await turn(ana, "ordinary: draw, layoff, discard (out)", draw(taps, ana),
               layoff(taps, ana, ["AH"], hearts), discard(taps, ana, "3C"))
    await table.wait_until(lambda: table.row()["status"] == "finished")

    print("\ninteractions per turn (tap-only Rami):")
    for name, kind, count in turns:
        print(f"  {name:7} {kind:40} {count}")
    ordinary = [count for _, kind, count in turns if kind.startswith("ordinary")]
    assert ordinary and max(ordinary) <= ORDINARY_TURN_MAX, turns


def builder_values(table: Table, message: Any, action: str, labels: list[str]) -> list[str]:
    prefix = f"rummy:bs:{action}:{table.game_id}:"
    current = table.fake.message(message.id)
    for row in current.components:
        for comp in row.get("components", []):
            if comp.get("custom_id", "").startswith(prefix):
                return [next(str(o["value"]) for o in comp["options"] if label in o["label"]) for label in labels]
    raise AssertionError((action, custom_ids(current)))


async def taps_select(taps: Taps, user: Any, message: Any, action: str, values: list[str]) -> None:
    current = taps.table.fake.message(message.id)
    cid = next(x for x in custom_ids(current) if x.startswith(f"rummy:bs:{action}:{taps.table.game_id}:"))
    taps.count += 1
    edits, version = len(current.edits), taps.table.row()["version"]
    rec = await (await taps.table.fake.select(user, current, cid, values)).settled(timeout=20)
    await taps.settle(rec, current, edits, version)
