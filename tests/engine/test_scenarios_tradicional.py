"""Acceptance scenarios for Rummy tradicional: rules.md §4 and the edge cases of §7.4, in RGN.

Each test lays out a position with RGN tags (notation.md "Positions"), plays moves, and checks
what a player would notice: refused moves (code, unchanged game), the table in canonical form
(runs ascending, sets S H D C), hand points, the stock and pozo after a restock, claim windows
(option 2). Every scenario ends with a record round trip. Defaults: one 52-card deck, no jokers,
ace low, any number of melds a turn, manipulation from the first turn, restock = keep_top.
"""

from __future__ import annotations

import pytest

from tests.engine.rgn_helpers import deal_counts, load, play_all, refuse, roundtrip

PLAY = """
    [Variant "tradicional"]
    {options}
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "2C 3D TD KD AH 7H"]
    [Hand "cy" "5S 5H"]
    {table}
    [Turn "ana"]
    [Phase "play"]
"""


def position(hand, table="", options=""):
    return load(
        PLAY.format(
            hand=hand,
            table=f'[Table "{table}"]' if table else "",
            options=f'[Options "{options}"]' if options else "",
        )
    )


# ---------------------------------------------------------------------------------------------
# EC-46 · Legal manipulation: 6C comes off the end of 3C 4C 5C 6C into 6H 6D 6C.
# ---------------------------------------------------------------------------------------------
def test_ec46_legal_manipulation():
    g = position("6H 6D KS QH", "bea: 3C 4C 5C 6C | cy: 9H 9S 9D")
    assert g.table == [["3C", "4C", "5C", "6C"], ["9S", "9H", "9D"]]
    move = "table 3C 4C 5C | 9S 9H 9D | 6H 6D 6C"
    assert move in g.legal_moves("ana")
    g.play("ana", "table 3C 4C 5C | 9H 9S 9D | 6H 6D 6C")
    assert g.table == [["3C", "4C", "5C"], ["9S", "9H", "9D"], ["6H", "6D", "6C"]]
    assert g.record().splitlines()[-1] == f"ana {move}"
    assert sorted(g.hand("ana")) == ["KS", "QH"]
    g.play("ana", "discard KS")  # the compulsory discard still follows
    assert g.actors == ["bea"] and g.discard_pile[-1] == "KS"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-47 · Illegal manipulation: 4C taken out of the middle of 3C 4C 5C 6C leaves 3C and 5C 6C.
# The table move is judged on its own (§0.4), so it is refused at once.
# ---------------------------------------------------------------------------------------------
def test_ec47_hole_in_a_run():
    g = position("4H 4S KS QH", "bea: 3C 4C 5C 6C | cy: 9H 9S 9D")
    refuse(g, "ana", "table 3C | 5C 6C | 9S 9H 9D | 4S 4H 4C", "invalid_table_meld")
    refuse(g, "ana", "table 3C 5C 6C | 9S 9H 9D | 4S 4H 4C", "invalid_table_meld")
    assert g.table == [["3C", "4C", "5C", "6C"], ["9S", "9H", "9D"]]
    assert not any(m.startswith("table") for m in g.legal_moves("ana"))
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-48 · No table card into the hand: 9D taken off 9H 9S 9D 9C (9H 9S 9C stays valid).
# ---------------------------------------------------------------------------------------------
def test_ec48_no_table_card_into_the_hand():
    g = position("4H 4S KS QH", "bea: 9H 9S 9D 9C")
    err = refuse(g, "ana", "table 9H 9S 9C", "table_card_missing")
    assert err.params["card"] == "9D"
    assert g.table == [["9S", "9H", "9D", "9C"]] and "9D" not in g.hand("ana")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-50 · Ace options: default ace low; option 3 ace high or low; option 4 continuous.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "meld", "ok"),
    [
        ("", "QS KS AS", False),
        ("", "AS 2S 3S", True),
        ("", "KS AS 2S", False),
        ("opt3_ace_high_low=true", "QS KS AS", True),
        ("opt3_ace_high_low=true", "AS 2S 3S", True),
        ("opt3_ace_high_low=true", "KS AS 2S", False),
        ("opt4_continuous=true", "KS AS 2S", True),
        ("opt4_continuous=true", "QS KS AS", True),
        ("opt4_continuous=true", "AS 2S 3S", True),
    ],
)
def test_ec50_ace_options(options, meld, ok):
    g = position("QS KS AS 2S 3S 4D", options=options)
    if ok:
        g.play("ana", f"meld {meld}")
        assert sorted(g.table[0]) == sorted(meld.split())
    else:
        refuse(g, "ana", f"meld {meld}", "invalid_meld")
    roundtrip(g)


@pytest.mark.parametrize(("options", "count"), [("", 1 + 10), ("opt3_ace_high_low=true", 11 + 10)])
def test_ace_counts_eleven_in_hand_with_option_3(options, count):
    g = load(
        PLAY.format(hand="7H 8H 9H 2C", table="", options=f'[Options "{options}"]' if options else "")
        .replace('"2C 3D TD KD AH 7H"', '"AS KD"')
        .replace('[Hand "cy" "5S 5H"]', '[Hand "cy" "5S"]')
    )
    play_all(g, "ana meld 7H 8H 9H\nana discard 2C")
    assert deal_counts(g)["bea"] == count
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-51 · Option 5 blocks a one-turn out (and so the Rummy double).
#   ana (3 players, nothing placed yet) holds 5C 6C 7C 8C 9C 9D 9S 9H after drawing.
#   bea: 2C 3D TD KD AH 7H = 2+3+10+10+1+7 = 33; cy: 5S 5H = 10, a pair counted in full.
# ---------------------------------------------------------------------------------------------
RUMMY_HAND = "5C 6C 7C 8C 9C 9D 9S 9H"


def test_ec51_rummy_pays_double():
    g = position(RUMMY_HAND)
    assert g.notices == []
    g.play("ana", "meld 5C 6C 7C 8C 9C | 9D 9S 9H")  # no final discard needed
    assert g.hand_over and g.public_view().result.winner == "ana"
    assert g.public_view().result.going_rummy is True
    assert deal_counts(g) == {"ana": 0, "bea": 33, "cy": 10}
    assert g.hand_points == {"ana": (33 + 10) * 2, "bea": 0, "cy": 0}
    roundtrip(g)


def test_no_rummy_after_an_earlier_placement():
    g = load(PLAY.format(hand=RUMMY_HAND, table="", options='[Placed "ana"]'))
    g.play("ana", "meld 5C 6C 7C 8C 9C | 9D 9S 9H")
    assert g.public_view().result.going_rummy is False
    assert g.hand_points == {"ana": 33 + 10, "bea": 0, "cy": 0}
    roundtrip(g)


def test_losers_hand_counts_in_full_including_combinations():
    g = load(PLAY.format(hand="8H 9H TH 2D", table="", options='[Placed "ana"]').replace('"5S 5H"', '"5S 5H 5D"'))
    play_all(g, "ana meld 8H 9H TH\nana discard 2D")
    assert deal_counts(g)["cy"] == 15  # cy's set 5S 5H 5D was never melded: it counts
    assert g.hand_points["ana"] == 33 + 15
    roundtrip(g)


def test_ec51_option5_refuses_going_out_in_the_first_placing_turn():
    g = position(RUMMY_HAND, options="opt5_two_turns=true")
    # The table is told when the game starts that option 5 rules out the Rummy double (§4.7.5).
    assert [code for code, _ in g.notices] == ["opt5_no_rummy_double"]
    refuse(g, "ana", "meld 5C 6C 7C 8C 9C | 9D 9S 9H", "two_turns_required")
    g.play("ana", "meld 5C 6C 7C 8C 9C")
    # Three cards left: one more meld would leave nothing to keep for a later turn.
    refuse(g, "ana", "meld 9S 9H 9D", "two_turns_required")
    assert not any(m.startswith("meld") for m in g.legal_moves("ana"))
    g.play("ana", "discard 9H")
    roundtrip(g)


def test_option5_going_out_on_a_later_turn_is_not_a_rummy():
    g = load("""
        [Variant "tradicional"]
        [Options "opt5_two_turns=true"]
        [Seats "ana bea cy"]
        [Dealer "cy"]
        [Hand "ana" "5C 6C 7C 8C 9D 9S 9H"]
        [Hand "bea" "2C 3D TD KD AH 7H"]
        [Hand "cy" "5S 5H"]
        [Stock "KS 2D 3H 4C"]
        [Turn "ana"]
        ana draw
        ana meld 9D 9S 9H
        ana discard KS
        bea draw
        bea discard 2D
        cy draw
        cy discard 3H
        ana draw
    """)
    g.play("ana", "meld 4C 5C 6C 7C 8C")
    assert g.hand_over and g.public_view().result.going_rummy is False
    assert g.hand_points == {"ana": 33 + 10, "bea": 0, "cy": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-53 · Restock. The pozo's bottom cards are 4D 9C QH, its top card 2S, and the stock runs out.
#   keep_top: 2S stays as the pozo; new stock 4D 9C QH ...; the player takes 2S or draws 4D.
#   flip_all_then_upcard: stock 4D 9C QH ... 2S; 4D is turned up; the player takes 4D or draws 9C.
# bea draws the last stock card (8S) and discards 2S; it is then ana's turn.
# ---------------------------------------------------------------------------------------------
EC53 = """
    [Variant "tradicional"]
    {options}
    [Seats "ana bea"]
    [Dealer "ana"]
    [Hand "ana" "2C 3D TD KD AH 7H 8C"]
    [Hand "bea" "5S 5H 6D 7D JC QC 2S"]
    [Stock "8S"]
    [Discard "4D 9C QH 3C"]
    [Turn "bea"]
    bea draw
    bea discard 2S
"""


@pytest.mark.parametrize(
    ("options", "pozo", "take", "draw"),
    [("", ["2S"], "2S", "4D"), ('[Options "restock=flip_all_then_upcard"]', ["4D"], "4D", "9C")],
)
def test_ec53_restock(options, pozo, take, draw):
    g = load(EC53.format(options=options))
    assert g.actors == ["ana"] and g.phase == "draw"
    assert g.discard_pile == pozo
    # 52 - 14 in hands = 38 cards: the whole pozo but the kept card is the new stock.
    assert g.stock_count == 38 - 1
    assert sorted(g.legal_moves("ana")) == ["draw", "take"]
    hand = g.hand("ana")
    taker = load(g.record())
    g.play("ana", "draw")
    assert [c for c in g.hand("ana") if c not in hand] == [draw]
    assert g.discard_pile == pozo
    taker.play("ana", "take")
    assert [c for c in taker.hand("ana") if c not in hand] == [take]
    assert taker.discard_pile == [] and taker.stock_count == 38 - 1
    # The order of the new stock: the oldest discards come first.
    g.play("ana", f"discard {draw}")
    order = [draw]
    for seat in ["bea", "ana"]:
        before = g.hand(seat)
        g.play(seat, "draw")
        (card,) = [c for c in g.hand(seat) if c not in before]
        order.append(card)
        g.play(seat, f"discard {card}")
    expected = ["4D", "9C", "QH"] if not options else ["9C", "QH"]  # then the cards between QH and 3C
    assert order[: len(expected)] == expected
    roundtrip(g)
    roundtrip(taker)


def test_ec53_layout_with_an_empty_stock_restocks_at_the_start_of_the_turn():
    """The EC-53 setup written as a position: the stock is empty at the start of ana's turn, the
    pozo's bottom cards are 4D 9C QH and its top card 2S. §4.4: 2S stays, the rest is turned
    over as the stock, and ana takes 2S or draws 4D."""
    g = load("""
        [Variant "tradicional"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "2C 3D TD KD AH 7H 8C"]
        [Hand "bea" "5S 5H 6D 7D JC QC KC"]
        [Stock ""]
        [Discard "4D 9C QH 2S"]
        [Turn "ana"]
    """)
    assert sorted(g.legal_moves("ana")) == ["draw", "take"]
    g.play("ana", "draw")
    assert "4D" in g.hand("ana") and g.discard_pile == ["2S"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Option 2 (¡Rummy!): claim window after each discard. 4 players; ana discards KD, which fits
# dan's 9D TD JD QD. bea (next) may only take it as her draw; cy and dan may claim, leaving a card
# in exchange. Both claim: cy, nearer the discarder's left, wins.
# ---------------------------------------------------------------------------------------------
CLAIM = """
    [Variant "tradicional"]
    [Options "opt2_rummy_call=true"]
    [Seats "ana bea cy dan"]
    [Dealer "dan"]
    [Hand "ana" "KD 2C 3D 4H 5S 6H 8C 9H"]
    [Hand "bea" "JC QC 2H 3H TS 4C 7S"]
    [Hand "cy" "KH KS 5D 6C 7H 8D 9S"]
    [Hand "dan" "KC AS 2S 3S 4S JH JS"]
    [Table "dan: 9D TD JD QD"]
    [Stock "AD 5C 6S"]
    [Turn "ana"]
    [Phase "play"]
    ana discard KD
"""


def test_claim_window_priority_nearest_the_discarders_left():
    g = load(CLAIM)
    assert g.phase == "window" and g.actors == ["cy", "dan"]
    assert g.legal_moves("bea") == [] and g.legal_moves("ana") == []
    assert "pass" in g.legal_moves("cy") and "claim 5D" in g.legal_moves("cy")
    refuse(g, "bea", "draw", "not_your_turn")  # bea waits for the window to close
    refuse(g, "ana", "claim 9H", "not_your_turn")
    g.play("dan", "claim 2S")  # dan claims first in time ...
    assert g.actors == ["cy"] and g.discard_pile[-1] == "KD"
    g.play("cy", "claim 5D")  # ... but cy sits nearer ana's left
    assert g.phase == "draw" and g.actors == ["bea"]
    assert "KD" in g.hand("cy") and "5D" not in g.hand("cy") and len(g.hand("cy")) == 7
    assert "KD" not in g.hand("dan") and "2S" in g.hand("dan")
    assert g.discard_pile[-1] == "5D"  # the card left in exchange
    assert g.table == [["9D", "TD", "JD", "QD"]]  # nothing is melded out of turn
    assert sorted(g.legal_moves("bea")) == ["draw", "take"]
    g.play("bea", "take")
    assert "5D" in g.hand("bea")
    roundtrip(g)


def test_claim_window_single_claim_and_passes():
    g = load(CLAIM)
    play_all(g, "cy pass\ndan claim 2S")
    assert "KD" in g.hand("dan") and g.discard_pile[-1] == "2S" and g.actors == ["bea"]
    roundtrip(g)
    g = load(CLAIM)
    play_all(g, "cy pass\ndan pass")
    assert g.discard_pile[-1] == "KD" and g.phase == "draw" and g.actors == ["bea"]
    g.play("bea", "take")  # the next player may simply take it as her draw
    assert "KD" in g.hand("bea")
    roundtrip(g)


def test_claim_must_be_playable():
    g = load(CLAIM.replace("ana discard KD", "ana discard 9H"))
    assert g.phase == "window"
    assert g.legal_moves("cy") == ["pass"] and g.legal_moves("dan") == ["pass"]
    refuse(g, "cy", "claim 5D", "claim_not_playable")
    refuse(g, "dan", "claim 2S", "claim_not_playable")
    g.timeout("cy")  # a timeout in a window is a pass
    assert g.actors == ["dan"]
    roundtrip(g)


def test_claim_window_three_players():
    g = load("""
        [Variant "tradicional"]
        [Options "opt2_rummy_call=true"]
        [Seats "ana bea cy"]
        [Dealer "cy"]
        [Hand "ana" "KD 2C 3D 4H 5S 6H 8C 9H"]
        [Hand "bea" "JC QC 2H 3H TS 4C 7S"]
        [Hand "cy" "KH KS 5D 6C 7H 8D 9S"]
        [Stock "AD 5C 6S"]
        [Turn "ana"]
        [Phase "play"]
        ana discard KD
    """)
    assert g.actors == ["cy"]  # only the third player may claim
    g.play("cy", "claim 9S")  # KD makes KS KH KD with cy's kings
    assert g.discard_pile[-1] == "9S" and g.actors == ["bea"]
    roundtrip(g)


def test_no_claim_window_without_option_2():
    g = load(CLAIM.replace('[Options "opt2_rummy_call=true"]\n', ""))
    assert g.phase == "draw" and g.actors == ["bea"]
    refuse(g, "cy", "claim 5D", "not_your_turn")
    roundtrip(g)
