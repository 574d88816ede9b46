"""Dummy's contract and cut-ins by taps only (issue 36, "Dummy's contracts and cut-ins are
included"), against the real bot and the fake Discord: no ``/rummy play``.

Three players, cut-ins on. Carlos discards K♦ from his hand (one pick); the cut-in window opens,
and Bea, who is not the next player, finds Cut in her hand (from the table's My hand button) and
taps it; Ana, the next player, is asked and taps Allow; Bea gets the K♦ and three stock cards.
Then Ana plays an ordinary turn: draw, her contract (two sets) in one Meld tap, discard. Every hand
shown offers only what the phase allows (no Draw in the window, no Cut for the next player).

What a user would notice if this failed: a cut-in that needs a typed command, a window where
nobody's hand has a button for it, a Draw button that answers "not now", a contract of two sets
refused when tapped together.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Verb
from tests.e2e.helpers import Table, custom_ids
from tests.e2e.test_taps_rami import ORDINARY_TURN_MAX, Taps, discard, draw, lay_out, meld

pytestmark = pytest.mark.e2e

OPTIONS = "cut_ins=true cut_window_s=60"  # a window long enough for a busy machine's taps


def verbs(message: Any, game_id: int) -> set[str]:
    """The move buttons a hand message offers (``rummy:h:<verb>...``; not Sort or Clear)."""
    named = {c.split(":")[2].rstrip("0123456789") for c in custom_ids(message) if c.startswith("rummy:h:")}
    return named & {v.value for v in Verb}


async def test_a_dummy_cut_in_and_contract_by_taps(table: Table) -> None:
    table.users = table.users[:3]
    await table.open("dummy", OPTIONS)
    ana, bea, carlos = table.users
    a, b, c = (table.seat_of(u) for u in table.users)
    # Carlos has drawn; Ana plays after him, then Bea.
    lay_out(table, f"""[Variant "dummy"]
[Options "{OPTIONS}"]
[Seats "{a} {b} {c}"]
[Dealer "{b}"]
[Hand "{a}" "7H 7S 7C 9D 9S 2C KH 5H 6H 3S"]
[Hand "{b}" "5S 6S 7D 8S TS JS QS KS 3D 4D"]
[Hand "{c}" "KD 3H 4H 5C 6C 8C TC JC QC AC 4S"]
[Stock "9H 9C TD JD QD 4C 5D 6D"]
[Discard "8D"]
[Turn "{c}"]
[Phase "play"]
""")
    taps = Taps(table)
    game = table.game()
    assert game.seats[(game.seats.index(c) + 1) % 3] == a  # Ana is next after Carlos

    # Carlos discards K♦: a window opens for Bea's cut-in; the next player is asked only once she asks.
    await discard(taps, carlos, "KD")
    await table.wait_until(lambda: table.game().phase == "window")
    assert table.game().actors == [b]
    taps.count = 0
    hand = await taps.hand(bea)
    assert verbs(hand, table.game_id) == {"cut", "pass"}, custom_ids(hand)  # no Draw the window refuses
    await taps.click(bea, hand, "rummy:h:cut")
    cut_taps = taps.count
    await table.wait_until(lambda: table.game().actors == [a])
    taps.count = 0
    hand = await taps.hand(ana)
    assert verbs(hand, table.game_id) == {"take", "allow"}, custom_ids(hand)
    await taps.click(ana, hand, "rummy:h:allow")
    await table.wait_until(lambda: table.game().phase == "draw")
    bea_hand = table.game().hand(b)
    assert len(bea_hand) == 10 + 4 and all(x in bea_hand for x in ("KD", "9H", "9C", "TD")), bea_hand
    allow_taps = taps.count

    # Ana's ordinary turn: draw, her contract of two sets in one Meld tap, discard.
    taps.count = 0
    await draw(taps, ana)
    await meld(taps, ana, ["7H", "7S", "7C", "9D", "9S", "2C"])
    assert a in table.game().opened and len(table.game().table) == 2
    await discard(taps, ana, "3S")
    ordinary = taps.count
    assert table.game().actors != [a]
    print(f"\ntap-only Dummy: Bea's cut-in {cut_taps}, Ana's allow {allow_taps}, "
          f"Ana's ordinary turn with her contract {ordinary}")
    assert cut_taps <= 2 and allow_taps <= 2 and ordinary <= ORDINARY_TURN_MAX
