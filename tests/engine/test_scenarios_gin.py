"""Acceptance scenarios for Gin Rummy: rules.md §2 and the edge cases of §7.1, written as RGN.

Each test lays out a position with RGN tags (notation.md "Positions"), plays moves, and checks
what a player would notice: refused moves (code, unchanged game), deadwood, hand points, totals,
final scores. Every scenario ends with a record round trip. Defaults (rules.md §7.1): gin 20,
undercut 10, a tie is an undercut, layoffs allowed against gin, knock at 10 or less.

Card pictures are OpenSpiel-style grids: one row per suit, one column per rank.
"""

from __future__ import annotations

import pytest

from bot.engine import IllegalMove, load_game, new_game
from tests.engine.rgn_helpers import deal_counts, ledger_of, load, play_all, refuse, roundtrip, snapshot

# ---------------------------------------------------------------------------------------------
# EC-01 · Non-obvious split decides whether a knock is legal
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        ana has drawn (11 cards) and knocks with KD.
#   S     . 2 . . 5 . . . . . . . .        Best: 5H 5S 5D + 5C 6C 7C, deadwood
#   H     . . 3 4 5 . . . . . . . .        3H 4H AD 2S = 3+4+1+2 = 10.
#   D     A . . . 5 . . . . . . . K
#   C     . . . . 5 6 7 . . . . . .
#   bea   A 2 3 4 5 6 7 8 9 T J Q K        bea: 6S..QS, deadwood TH KH KC = 30,
#   S     . . . . . 6 7 8 9 T J Q .        nothing to lay off on ana's melds.
#   H     . . . . . . . . . T . . K
#   D     . . . . . . . . . . . . .
#   C     . . . . . . . . . . . . K
# ---------------------------------------------------------------------------------------------
EC01 = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "3H 4H 5H 5S 5D 5C 6C 7C AD 2S KD"]
    [Hand "bea" "6S 7S 8S 9S TS JS QS KH KC TH"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec01_wrong_splits_are_over_the_limit():
    g = load(EC01)
    assert "knock KD" in g.legal_moves("ana")
    # The greedy splits leave too much deadwood; a knock declared with them is refused.
    for arrangement, dead in (
        ("5H 5S 5D 5C", 3 + 4 + 6 + 7 + 1 + 2),  # 23
        ("3H 4H 5H | 5C 6C 7C", 5 + 5 + 1 + 2),  # 13
        ("3H 4H 5H | 5S 5D 5C", 6 + 7 + 1 + 2),  # 16
    ):
        err = refuse(g, "ana", f"knock KD : {arrangement}", "knock_too_high")
        assert err.params["deadwood"] == dead
    roundtrip(g)


@pytest.mark.parametrize("move", ["knock KD", "knock KD : 5H 5S 5D | 5C 6C 7C"])
def test_ec01_best_split_knocks_with_ten(move):
    g = load(EC01)
    events = g.play("ana", move)
    knocked = [e for e in events if e.kind == "knocked"]
    assert knocked and knocked[0].params["deadwood"] == 10
    assert g.table == [["5S", "5H", "5D"], ["5C", "6C", "7C"]]
    assert sorted(g.hand("ana")) == sorted(["3H", "4H", "AD", "2S"])
    assert g.discard_pile[-1] == "KD"
    # bea can lay nothing off: the deal ends at the knock. 30 - 10 = 20 to ana.
    assert g.hand_over and g.phase == "over" and g.actors == []
    assert deal_counts(g) == {"ana": 10, "bea": 30}
    assert g.hand_points == {"ana": 20, "bea": 0}
    assert g.totals == {"ana": 20, "bea": 0}
    assert "ana knock KD : 5S 5H 5D | 5C 6C 7C" in g.record().splitlines()
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-03 · Undercut on equal counts
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        ana knocks with JC: AS 2S 3S, 8H 8D 8C, KS KH KC,
#   S     A 2 3 . . . . . . . . . K        deadwood 7D = 7. Canonical meld numbers (by lowest
#   H     . . . . . . . 8 . . . . K        card in deck order): 1 = AS 2S 3S, 2 = KS KH KC,
#   D     . . . . . . 7 8 . . . . .        3 = 8H 8D 8C.
#   C     . . . . . . . 8 . . J . K
#   bea   A 2 3 4 5 6 7 8 9 T J Q K        bea melds 5H 5D 5C and TD JD QD, lays off 4S on 1
#   S     . . . 4 . . . 8 . . . . .        and 8S on 3: deadwood 3C 4C = 7 (3C 4C 5C instead
#   H     . . . . 5 . . . . . . . .        would leave 5H 5D = 10).
#   D     . . . . 5 . . . . T J Q .
#   C     . . 3 4 5 . . . . . . . .
# ---------------------------------------------------------------------------------------------
EC03 = """
    [Variant "gin"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 2S 3S 8H 8D 8C KS KH KC 7D JC"]
    [Hand "bea" "4S 5H 5D 5C TD JD QD 8S 3C 4C"]
    [Turn "ana"]
    [Phase "play"]
    ana knock JC
"""


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ("", {"ana": 0, "bea": 10}),  # 7 = 7: undercut, 10 + 0
        ('[Options "undercut_on_tie=false"]', {"ana": 0, "bea": 0}),  # OpenSpiel: nobody scores
        ('[Options "gin_bonus=25 undercut_bonus=25"]', {"ana": 0, "bea": 25}),
    ],
)
@pytest.mark.parametrize("defence", ["layoff 4S to 1\nbea layoff 8S to 3\nbea done", "auto"])
def test_ec03_tie_is_an_undercut(options, points, defence):
    g = load(EC03.format(options=options))
    assert g.table == [["AS", "2S", "3S"], ["KS", "KH", "KC"], ["8H", "8D", "8C"]]
    assert g.hand("ana") == ["7D"]
    assert g.phase == "layoff" and g.actors == ["bea"]
    assert g.legal_moves("ana") == []
    refuse(g, "ana", "done", "not_your_turn")
    refuse(g, "bea", "layoff 3C to 1", "invalid_layoff")  # 3C does not extend AS 2S 3S
    play_all(g, f"bea {defence}")
    assert g.hand_over
    assert g.table == [["AS", "2S", "3S", "4S"], ["KS", "KH", "KC"], ["8S", "8H", "8D", "8C"]]
    assert deal_counts(g) == {"ana": 7, "bea": 7}
    assert g.hand_points == points
    assert g.totals == points
    lines = g.record().splitlines()
    # auto is written out as the layoffs it made followed by done (notation.md)
    assert lines[-3:] == ["bea layoff 4S to 1", "bea layoff 8S to 3", "bea done"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-07 · Layoffs against gin (toggle)
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        ana goes gin (discard 5D): 2S..8S and JH QH KH.
#   S     . 2 3 4 5 6 7 8 . . . . .
#   H     . . . . . . . . . . J Q K
#   D     . . . . 5 . . . . . . . .
#   C     . . . . . . . . . . . . .
#   bea   A 2 3 4 5 6 7 8 9 T J Q K        bea: 9S..KS, AC 2C 3C; TH goes on JH QH KH,
#   S     . . . . . . . . 9 T J Q K        deadwood 8H = 8 -> 20 + 8 = 28.
#   H     . . . . . . . 8 . T . . .        Without layoffs on gin: 8 + 10 = 18 -> 38.
#   D     . . . . . . . . . . . . .
#   C     A 2 3 . . . . . . . . . .
# ---------------------------------------------------------------------------------------------
EC07 = """
    [Variant "gin"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "2S 3S 4S 5S 6S 7S 8S JH QH KH 5D"]
    [Hand "bea" "9S TS JS QS KS AC 2C 3C 8H TH"]
    [Turn "ana"]
    [Phase "play"]
"""


@pytest.mark.parametrize("knock", ["knock 5D : 2S 3S 4S 5S 6S 7S 8S | JH QH KH", "knock 5D"])
@pytest.mark.parametrize("defence", ["layoff TH to {hearts}\nbea done", "auto"])
def test_ec07_layoff_on_gin_allowed_by_default(knock, defence):
    g = load(EC07.format(options=""))
    events = g.play("ana", knock)
    assert any(e.kind == "knocked" and e.params["gin"] for e in events)
    assert g.hand("ana") == []
    assert g.phase == "layoff" and g.actors == ["bea"]
    # With "knock 5D" the engine may split the spades; the hearts meld is the last one.
    hearts = next(m.number for m in g.melds if "JH" in m.cards)
    assert g.melds[-1].cards == ("JH", "QH", "KH")
    assert f"layoff TH to {hearts}" in g.legal_moves("bea")
    play_all(g, "bea " + defence.format(hearts=hearts))
    assert g.hand_over
    assert deal_counts(g) == {"ana": 0, "bea": 8}
    assert g.hand_points == {"ana": 28, "bea": 0}
    assert ledger_of(g, "ana") == [(20, "gin_bonus"), (8, "opponent_deadwood")]
    assert g.record().splitlines()[-1] == "bea done"
    roundtrip(g)


@pytest.mark.parametrize(
    ("options", "points"),
    [("layoff_on_gin=false", 20 + 18), ("layoff_on_gin=false gin_bonus=25 undercut_bonus=25", 25 + 18)],
)
def test_ec07_no_layoff_on_gin_ends_the_deal_at_the_knock(options, points):
    g = load(EC07.format(options=f'[Options "{options}"]'))
    g.play("ana", "knock 5D")
    assert g.hand_over and g.phase == "over"
    assert deal_counts(g) == {"ana": 0, "bea": 18}
    assert g.hand_points == {"ana": points, "bea": 0}
    refuse(g, "bea", "layoff TH to 2", "deal_over")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-08 · Gin can never be undercut
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        ana gin (discard 2D): meld 1 = AS 2S 3S,
#   S     A 2 3 . . . . . 9 . . . .        meld 2 = 9S 9H 9D 9C, meld 3 = 4H 5H 6H.
#   H     . . . 4 5 6 . . 9 . . . .
#   D     . 2 . . . . . . 9 . . . .
#   C     . . . . . . . . 9 . . . .
#   bea   A 2 3 4 5 6 7 8 9 T J Q K        bea: KS KD KC, TC JC QC, 4S 5S 6S (own meld or
#   S     . . . 4 5 6 . . . . . . K        laid off on 1), 7H laid off on 3: deadwood 0.
#   H     . . . . . . 7 . . . . . .        Still gin: 20 + 0 = 20 to ana, nothing to bea.
#   D     . . . . . . . . . . . . K
#   C     . . . . . . . . . T J Q K
# ---------------------------------------------------------------------------------------------
EC08 = """
    [Variant "gin"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 2S 3S 4H 5H 6H 9C 9D 9S 9H 2D"]
    [Hand "bea" "4S 5S 6S 7H KC KD KS TC JC QC"]
    [Turn "ana"]
    [Phase "play"]
    ana knock 2D
"""


@pytest.mark.parametrize(
    "defence",
    ["layoff 7H to 3\nbea done", "layoff 7H to 3\nbea layoff 4S 5S 6S to 1\nbea done", "auto"],
)
def test_ec08_gin_with_zero_defender_deadwood_still_wins(defence):
    g = load(EC08.format(options=""))
    assert g.table == [["AS", "2S", "3S"], ["9S", "9H", "9D", "9C"], ["4H", "5H", "6H"]]
    play_all(g, f"bea {defence}")
    assert g.hand_over
    assert deal_counts(g) == {"ana": 0, "bea": 0}
    assert g.hand_points == {"ana": 20, "bea": 0}
    assert g.public_view().result.winner == "ana"
    roundtrip(g)


def test_ec08_without_layoffs_on_gin():
    g = load(EC08.format(options='[Options "layoff_on_gin=false"]'))
    assert g.hand_over
    assert deal_counts(g) == {"ana": 0, "bea": 7}
    assert g.hand_points == {"ana": 27, "bea": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# rules.md §2.4: the knocker's arrangement matters. ana goes gin either way (discard KD), but
# 5C 6C 7C 8C would take bea's 4C; 5S 5H 5D 5C + 6C 7C 8C would not. "knock KD" must pick the
# latter: 20 + 24 = 44 (the other arrangement gives 20 + 20 = 40).
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        bea   A 2 3 4 5 6 7 8 9 T J Q K
#   S     A 2 3 . 5 . . . . . . . .        S     . . . . . . . . . . J Q K
#   H     . . . . 5 . . . . . . . .        H     . . . . . . . . 9 . J Q K
#   D     . . . . 5 . . . . . . . K        D     . 2 . . . . . . 9 . . . .
#   C     . . . . 5 6 7 8 . . . . .        C     . . . 4 . . . . . . . . .
# ---------------------------------------------------------------------------------------------
ARRANGE = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Hand "ana" "5S 5H 5D 5C 6C 7C 8C AS 2S 3S KD"]
    [Hand "bea" "4C KH KS QH QS JH JS 9H 9D 2D"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_knocker_arrangement_chosen_against_defender_layoffs():
    g = load(ARRANGE)
    g.play("ana", "knock KD")
    assert g.table == [["AS", "2S", "3S"], ["5S", "5H", "5D", "5C"], ["6C", "7C", "8C"]]
    assert g.hand_over  # bea can lay off nothing
    assert deal_counts(g) == {"ana": 0, "bea": 24}
    assert g.hand_points == {"ana": 44, "bea": 0}
    roundtrip(g)


def test_knocker_may_choose_a_worse_arrangement():
    g = load(ARRANGE + "ana knock KD : AS 2S 3S | 5S 5H 5D | 5C 6C 7C 8C\n")
    assert g.phase == "layoff" and g.legal_moves("bea") == ["auto", "layoff 4C to 3", "done"]
    play_all(g, "bea layoff 4C to 3\nbea done")
    assert g.table[2] == ["4C", "5C", "6C", "7C", "8C"]
    assert g.hand_points == {"ana": 40, "bea": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-10 · Ace low only
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        After discarding 5C: 2H 2D 2C and 7H 8H 9H;
#   S     A . . . . . . . . . . Q K        QS KS AS is no meld: deadwood 10+10+1+10 = 31.
#   H     . 2 . . . . 7 8 9 . . . .
#   D     . 2 . . . . . . . T . . .
#   C     . 2 . . 5 . . . . . . . .
# ---------------------------------------------------------------------------------------------
EC10 = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Hand "ana" "QS KS AS 2H 2D 2C 7H 8H 9H TD 5C"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec10_queen_king_ace_is_not_a_meld():
    g = load(EC10)
    assert not any(m.startswith("knock") for m in g.legal_moves("ana"))
    err = refuse(g, "ana", "knock 5C", "knock_too_high")
    assert err.params["deadwood"] == 31
    refuse(g, "ana", "knock 5C : QS KS AS | 2H 2D 2C | 7H 8H 9H", "invalid_meld")
    g.play("ana", "discard 5C")
    assert g.phase == "draw" and g.actors == ["bea"]
    roundtrip(g)


@pytest.mark.parametrize(
    ("low", "ok"),
    [("KS AS 2S", False), ("AS 2S 3S", True)],
)
def test_ec10_round_the_corner_is_not_a_meld(low, ok):
    # ana: <low> + 4H 5H 6H + 7C 7D 7S + 4D, discards QD: deadwood 4 if <low> is a meld.
    g = load(f"""
        [Variant "gin"]
        [Seats "ana bea"]
        [Hand "ana" "{low} 4H 5H 6H 7C 7D 7S 4D QD"]
        [Turn "ana"]
        [Phase "play"]
    """)
    move = f"knock QD : {low} | 4H 5H 6H | 7C 7D 7S"
    if ok:
        g.play("ana", move)
        assert g.table[0] == ["AS", "2S", "3S"]
    else:
        refuse(g, "ana", move, "invalid_meld")
        refuse(g, "ana", "knock QD", "knock_too_high")  # KS AS 2S 4D = 10+1+2+4 = 17
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-11 · Initial upcard offer. Upcard 9D; ana is the non-dealer, bea the dealer. No [Stock]:
# the stock is the rest of the deck in canonical order, top first: AS 8S 9S ...
# ---------------------------------------------------------------------------------------------
EC11 = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "2S 3S 4S 6H 7H 8H TC JC QC KD"]
    [Hand "bea" "5S 6S 7S 2H 3H 4C 5C 6D JD QD"]
    [Discard "9D"]
    [Phase "upcard"]
"""


def test_ec11a_both_pass_then_non_dealer_draws():
    g = load(EC11)
    assert g.phase == "upcard" and g.actors == ["ana"]
    assert sorted(g.legal_moves("ana")) == ["pass", "take"]
    refuse(g, "ana", "draw", "wrong_phase")
    refuse(g, "ana", "discard KD", "wrong_phase")
    refuse(g, "bea", "take", "not_your_turn")
    g.play("ana", "pass")
    assert g.actors == ["bea"] and g.phase == "upcard"
    g.play("bea", "pass")
    # Nobody discarded while passing.
    assert len(g.hand("ana")) == 10 and len(g.hand("bea")) == 10
    assert g.discard_pile == ["9D"]
    assert g.phase == "draw" and g.actors == ["ana"]
    assert g.legal_moves("ana") == ["draw"]
    refuse(g, "ana", "take", "must_draw_stock")
    g.play("ana", "draw")
    assert "AS" in g.hand("ana")
    g.play("ana", "discard AS")
    assert g.discard_pile == ["9D", "AS"]
    assert g.actors == ["bea"] and g.phase == "draw"
    roundtrip(g)


def test_ec11a_dealer_half_of_the_offer_as_a_position():
    # [Turn "bea"] in phase upcard: ana (non-dealer) has passed, the offer is bea's. If bea passes
    # too, both have passed: ana draws from the stock (rules.md §2.3.1).
    g = load(EC11.replace('[Phase "upcard"]', '[Phase "upcard"]\n[Turn "bea"]'))
    assert g.actors == ["bea"] and sorted(g.legal_moves("bea")) == ["pass", "take"]
    g.play("bea", "pass")
    assert g.phase == "draw" and g.actors == ["ana"]
    assert g.legal_moves("ana") == ["draw"]
    roundtrip(g)


def test_ec11b_taken_upcard_cannot_be_thrown_back():
    g = load(EC11)
    g.play("ana", "take")
    assert "9D" in g.hand("ana") and len(g.hand("ana")) == 11
    assert g.phase == "play"
    refuse(g, "ana", "discard 9D", "discard_taken_card")
    refuse(g, "ana", "knock 9D", "discard_taken_card")
    g.play("ana", "discard KD")
    # Normal alternation continues from the other player.
    assert g.actors == ["bea"] and g.phase == "draw"
    assert sorted(g.legal_moves("bea")) == ["draw", "take"]
    roundtrip(g)


def test_ec11c_dealer_takes_after_non_dealer_passes():
    g = load(EC11)
    g.play("ana", "pass")
    g.play("bea", "take")
    refuse(g, "bea", "discard 9D", "discard_taken_card")
    g.play("bea", "discard 4C")
    assert g.actors == ["ana"] and g.phase == "draw"
    g.play("ana", "take")
    assert "4C" in g.hand("ana")
    assert g.discard_pile[-1:] != ["4C"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-12 · Dead hand at two stock cards. Stock QC 5D 8D (top first), ana to draw.
#
#   ana   A 2 3 4 5 6 7 8 9 T J Q K        ana: AS 2S 3S, 4H 5H 6H, 7C 7D 7S + 9D; draws QC.
#   S     A 2 3 . . . . 7 . . . . .        bea: no meld at all, 10+10+10+10+9+9+8+6+4+2 = 78.
#   H     . . . 4 5 6 . . . . . . .
#   D     . . . . . . 7 . 9 . . . .
#   C     . . . . . . 7 . . . . . .
# ---------------------------------------------------------------------------------------------
EC12 = """
    [Variant "gin"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Totals "ana=30 bea=12"]
    [Won "ana=2 bea=1"]
    [Hand "ana" "AS 2S 3S 4H 5H 6H 7C 7D 7S 9D"]
    [Hand "bea" "KS KH QD JD 9C 9H 8C 6D 4D 2C"]
    [Stock "QC 5D 8D"]
    [Turn "ana"]
"""


def test_ec12a_discard_without_knock_at_two_cards_voids_the_hand():
    g = load(EC12.format(options=""))
    assert g.stock_count == 3
    g.play("ana", "draw")
    assert g.stock_count == 2 and g.phase == "play"
    g.play("ana", "discard QC")
    assert g.hand_over and g.actors == []
    assert g.hand_points == {"ana": 0, "bea": 0}
    assert g.totals == {"ana": 30, "bea": 12}
    assert g.public_view().result.outcome == "void"
    assert {s.name: s.deals_won for s in g.public_view().seats} == {"ana": 2, "bea": 1}
    # (c) default: bea never draws from the 2-card stock.
    refuse(g, "bea", "draw", "deal_over")
    roundtrip(g)
    g.next_deal()
    assert g.public_view().dealer == "bea"  # the same dealer redeals
    roundtrip(g)


def test_ec12b_knock_at_two_cards_is_scored():
    g = load(EC12.format(options=""))
    g.play("ana", "draw")
    assert "knock QC" in g.legal_moves("ana")
    g.play("ana", "knock QC")
    assert g.hand_over
    assert deal_counts(g) == {"ana": 9, "bea": 78}
    assert g.hand_points == {"ana": 69, "bea": 0}
    assert g.totals == {"ana": 99, "bea": 12}
    roundtrip(g)


def test_ec12_immediate_dead_hand():
    g = load(EC12.format(options='[Options "dead_hand=immediate"]'))
    g.play("ana", "draw")
    assert g.hand_over and g.stock_count == 2
    assert g.hand_points == {"ana": 0, "bea": 0}
    refuse(g, "ana", "knock QC", "deal_over")
    roundtrip(g)


# dead_hand=wall: ana draws 5D (stock 2) and discards; bea may not draw, may take the discard only
# to knock. bea + QC = JC QC KC, 2H 2D 2C, 3H 3D 3C, 9H 9S -> knock 9H with 9 deadwood.
EC12_WALL = """
    [Variant "gin"]
    [Options "dead_hand=wall"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 2S 3S 4H 5H 6H 7C 7D 7S QC"]
    [Hand "bea" "JC KC 2H 2D 2C 3H 3D 3C 9H 9S"]
    [Stock "5D 6D 8D"]
    [Turn "ana"]
    ana draw
"""


def test_ec12c_wall_take_only_to_knock():
    g = load(EC12_WALL + "ana discard QC\n")
    assert g.phase == "draw" and g.actors == ["bea"] and g.stock_count == 2
    assert sorted(g.legal_moves("bea")) == ["pass", "take"]
    refuse(g, "bea", "draw", "wall_no_draw")
    g.play("bea", "take")
    refuse(g, "bea", "discard 9H", "wall_take_to_knock")
    g.play("bea", "knock 9H")
    # ana (defender) keeps AS 2S 3S, 4H 5H 6H, 7C 7D 7S: deadwood 5D = 5 < 9: undercut 10 + 4.
    assert g.phase == "layoff" and g.actors == ["ana"]
    g.play("ana", "done")
    assert g.hand_over
    assert deal_counts(g) == {"ana": 5, "bea": 9}
    assert g.hand_points == {"ana": 14, "bea": 0}
    roundtrip(g)


def test_ec12c_wall_pass_voids_the_hand():
    g = load(EC12_WALL + "ana discard 5D\n")
    assert g.legal_moves("bea") == ["pass"]
    refuse(g, "bea", "take", "wall_take_to_knock")
    refuse(g, "bea", "draw", "wall_no_draw")
    g.play("bea", "pass")
    assert g.hand_over and g.hand_points == {"ana": 0, "bea": 0}
    assert g.public_view().result.outcome == "void"
    roundtrip(g)


# The same states written directly as positions (notation.md "Positions"): a stock of two cards
# at the start of bea's turn. Nobody draws from it (rules.md §2.6); under dead_hand=wall this is
# exactly the wall, where bea may only take QC to knock, or pass.
EC12_TWO_LEFT = """
    [Variant "gin"]
    {options}
    [Seats "ana bea"]
    [Dealer "ana"]
    [Hand "ana" "AS 2S 3S 4H 5H 6H 7C 7D 7S 5D"]
    [Hand "bea" "JC KC 2H 2D 2C 3H 3D 3C 9H 9S"]
    [Stock "6D 8D"]
    [Discard "QC"]
    [Turn "bea"]
"""


# By default a turn never starts at a stock of two: the deal is over before it. The legal
# position is the one before: ana has drawn the third-last card (phase play, stock 6D 8D).
EC12_LAST_DRAW = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 2S 3S 4H 5H 6H 7C 7D 7S 9D 5D"]
    [Hand "bea" "JC KC 2H 2D 2C 3H 3D 3C 9H 9S"]
    [Stock "6D 8D"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec12_position_two_stock_cards_nobody_draws():
    g = load(EC12_LAST_DRAW)
    assert g.stock_count == 2 and g.actors == ["ana"]
    g.play("ana", "discard 9D")  # no knock at two stock cards: the hand is void (§2.6)
    assert g.hand_over and g.public_view().result.outcome == "void"
    assert "draw" not in g.legal_moves("bea")
    before = snapshot(g)
    with pytest.raises(IllegalMove) as refused:
        g.play("bea", "draw")
    assert refused.value.code == "deal_over"
    assert snapshot(g) == before and g.stock_count == 2
    roundtrip(g)


def test_ec12_position_starting_a_turn_at_two_stock_cards_is_refused_by_default():
    with pytest.raises(IllegalMove) as refused:
        load(EC12_TWO_LEFT.format(options=""))
    assert refused.value.code == "bad_layout"


def test_ec12c_wall_as_a_position():
    g = load(EC12_TWO_LEFT.format(options='[Options "dead_hand=wall"]'))
    assert g.stock_count == 2 and g.actors == ["bea"]
    assert sorted(g.legal_moves("bea")) == ["pass", "take"]
    refuse(g, "bea", "draw", "wall_no_draw")
    g.play("bea", "pass")
    assert g.hand_over and g.public_view().result.outcome == "void"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# End of game (rules.md §2.7): target 100, then game bonus 100, line bonus 20 per hand won,
# shutout 100 when the loser won nothing. Bonuses are not in totals or hand points.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("totals", "won", "final"),
    [
        # ana 90 + 28 = 118 >= 100. ana: 118 + 100 + 5*20 = 318; bea: 35 + 2*20 = 75.
        ("ana=90 bea=35", "ana=4 bea=2", {"ana": 318, "bea": 75}),
        # Shutout: bea won no hand: ana 118 + 100 + 5*20 + 100 = 418; bea 0.
        ("ana=90 bea=0", "ana=4 bea=0", {"ana": 418, "bea": 0}),
    ],
)
def test_game_end_bonuses(totals, won, final):
    g = load(
        EC07.format(options="")
        + f"""
    [Totals "{totals}"]
    [Won "{won}"]
    ana knock 5D : 2S 3S 4S 5S 6S 7S 8S | JH QH KH
    bea layoff TH to 2
    bea done
    """
    )
    assert g.hand_over and g.game_over
    assert g.hand_points == {"ana": 28, "bea": 0}
    ana_before, bea_before = (int(x.split("=")[1]) for x in totals.split())
    assert g.totals == {"ana": ana_before + 28, "bea": bea_before}  # no bonus in totals
    assert g.final_scores == final
    assert g.winners == ["ana"]
    codes = {(s, code): points for s, points, code, _ in g.ledger}
    assert codes[("ana", "game_bonus")] == 100
    assert codes[("ana", "line_bonus")] == 100
    if "bea=0" in won:
        assert codes[("ana", "shutout_bonus")] == 100
        assert ("bea", "line_bonus") not in codes
    else:
        assert ("ana", "shutout_bonus") not in codes
        assert codes[("bea", "line_bonus")] == 40
    assert g.actors == [] and g.legal_moves("ana") == []
    with pytest.raises(IllegalMove) as info:
        g.next_deal()
    assert info.value.code == "game_over"
    refuse(g, "bea", "draw", "game_over")
    roundtrip(g)


def test_target_not_reached_no_bonus():
    g = load(EC07.format(options="") + '[Totals "ana=71 bea=35"]\nana knock 5D\nbea auto\n')
    assert g.totals == {"ana": 99, "bea": 35}
    assert not g.game_over and g.final_scores == {} and g.winners == []
    g.next_deal()
    assert g.public_view().dealer == "ana"  # next dealer = winner of the hand
    roundtrip(g)


@pytest.mark.parametrize(("mode", "dealer"), [("winner", "ana"), ("loser", "bea"), ("alternate", "ana")])
def test_next_dealer(mode, dealer):
    # bea dealt; ana wins the deal with gin.
    g = load(EC07.format(options=f'[Options "next_dealer={mode}"]') + "ana knock 5D\nbea auto\n")
    assert g.public_view().dealer == "bea"
    g.next_deal()
    assert g.public_view().dealer == dealer
    assert g.phase == "upcard" and len(g.hand("ana")) == len(g.hand("bea")) == 10
    assert g.actors == ["bea" if dealer == "ana" else "ana"]  # the non-dealer is offered the upcard
    roundtrip(g)


def test_no_upcard_offer():
    g = load(EC11.replace('[Phase "upcard"]', '[Options "upcard_offer=false"]'))
    assert g.phase == "draw" and g.actors == ["ana"]
    assert sorted(g.legal_moves("ana")) == ["draw", "take"]
    refuse(g, "ana", "pass", "wrong_phase")
    roundtrip(g)


def test_turn_cap_voids_the_hand():
    # rules.md §0.4: a gin hand that reaches hand_turn_limit turns is void; the same dealer deals.
    g = load(EC11.replace('[Phase "upcard"]', '[Phase "upcard"]\n[Options "hand_turn_limit=20"]'))
    play_all(g, "ana pass\nbea pass")
    turns = 0
    while not g.hand_over:
        seat = g.actors[0]
        before = g.hand(seat)
        g.play(seat, "draw")
        (card,) = [c for c in g.hand(seat) if c not in before]
        g.play(seat, f"discard {card}")
        turns += 1
    assert turns == 20 and g.stock_count > 2
    assert g.public_view().result.outcome == "void"
    assert g.hand_points == {"ana": 0, "bea": 0}
    g.next_deal()
    assert g.public_view().dealer == "bea"
    roundtrip(g)


def _greedy(game, seat):
    """A simple deterministic player: pass the upcard, draw, knock when possible, else the
    discard the engine lists first (least deadwood), auto in the layoff phase."""
    moves = game.legal_moves(seat)
    for wanted in ("pass", "auto", "draw"):
        if wanted in moves:
            return wanted
    return moves[0]


def test_full_game_to_target():
    g = new_game("gin", ["ana", "bea"], seed="fullgame7", dealer="bea")
    won = {"ana": 0, "bea": 0}
    hand_sum = {"ana": 0, "bea": 0}
    deals = 0
    while not g.game_over:
        if g.hand_over:
            assert max(g.totals.values()) < 100
            g.next_deal()
        seat = g.actors[0]
        g.play(seat, _greedy(g, seat))
        if g.hand_over:
            deals += 1
            for s, p in g.hand_points.items():
                hand_sum[s] += p
            result = g.public_view().result
            if result.winner is not None:
                won[result.winner] += 1
        assert deals < 60
    assert g.totals == hand_sum
    (winner,) = g.winners
    loser = "bea" if winner == "ana" else "ana"
    assert g.totals[winner] >= 100 > g.totals[loser]
    expected = {s: g.totals[s] + 20 * won[s] for s in g.totals}
    expected[winner] += 100 + (100 if won[loser] == 0 else 0)
    assert g.final_scores == expected
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Timeouts (rules.md §0.4): pass the upcard offer; draw then discard the drawn card; after a take,
# the highest-valued legal discard; auto in the layoff phase.
# ---------------------------------------------------------------------------------------------
def test_timeout_upcard_offer_passes():
    g = load(EC11)
    refuse_timeout(g, "bea")
    g.timeout("ana")
    assert g.phase == "upcard" and g.actors == ["bea"]
    assert len(g.hand("ana")) == 10 and g.discard_pile == ["9D"]
    g.timeout("bea")
    assert g.phase == "draw" and g.actors == ["ana"] and g.legal_moves("ana") == ["draw"]
    assert g.record().splitlines()[-2:] == ["ana timeout", "bea timeout"]
    roundtrip(g)


def refuse_timeout(g, seat):
    before = snapshot(g)
    with pytest.raises(IllegalMove) as info:
        g.timeout(seat)
    assert info.value.code == "not_your_turn"
    assert snapshot(g) == before


def test_timeout_draw_phase_draws_and_discards_the_drawn_card():
    g = load(EC11 + "ana pass\nbea pass\n")
    hand = g.hand("ana")
    g.timeout("ana")
    assert g.hand("ana") == hand  # drew AS and threw it away
    assert g.discard_pile == ["9D", "AS"]
    assert g.actors == ["bea"] and g.phase == "draw"
    assert g.record().splitlines()[-1] == "ana timeout"
    roundtrip(g)


def test_timeout_after_take_discards_highest_legal_card():
    # ana took KD from the discard pile; it may not go back, so her highest other card goes: 9D.
    g = load("""
        [Variant "gin"]
        [Seats "ana bea"]
        [Hand "ana" "2S 3S 4S 6H 7H 8H 2C 3C 5D 9D KD"]
        [Discard "AC"]
        [Turn "ana"]
        [Phase "play"]
        [Took "KD"]
    """)
    refuse(g, "ana", "discard KD", "discard_taken_card")
    g.timeout("ana")
    assert "KD" in g.hand("ana") and "9D" not in g.hand("ana")
    assert g.discard_pile == ["AC", "9D"]
    assert g.actors == ["bea"]
    roundtrip(g)


def test_timeout_play_phase_after_stock_draw():
    g = load(EC11 + "ana pass\nbea pass\nana draw\n")
    assert g.phase == "play"
    g.timeout("ana")
    assert g.discard_pile == ["9D", "AS"] and g.actors == ["bea"]
    roundtrip(g)


def test_timeout_layoff_phase_is_auto():
    g = load(EC07.format(options="") + "ana knock 5D\n")
    assert g.phase == "layoff"
    refuse_timeout(g, "ana")
    g.timeout("bea")
    assert g.hand_over and g.hand_points == {"ana": 28, "bea": 0}
    assert g.record().splitlines()[-1] == "bea timeout"
    roundtrip(g)


def test_timeout_after_taking_at_the_wall_knocks():
    g = load(EC12_WALL + "ana discard QC\nbea take\n")
    g.timeout("bea")
    assert g.phase == "layoff"  # bea knocked; ana could lay 2S or 3S off
    assert g.table == [["2H", "2D", "2C"], ["3H", "3D", "3C"], ["JC", "QC", "KC"]]
    assert g.hand("bea") in (["9S"], ["9H"])
    roundtrip(g)


def test_timeout_at_the_wall_passes():
    g = load(EC12_WALL + "ana discard QC\n")
    g.timeout("bea")
    assert g.hand_over and g.public_view().result.outcome == "void"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Resigning in a two-player game: the other seat wins at once.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("who", ["ana", "bea"])
def test_resign_two_player_gin(who):
    g = load(EC11.replace('[Phase "upcard"]', '[Phase "upcard"]\n[Totals "ana=60 bea=20"]'))
    g.play(who, "resign")
    other = "bea" if who == "ana" else "ana"
    assert g.game_over and g.winners == [other]
    assert g.actors == [] and g.legal_moves(other) == []
    refuse(g, other, "take", "game_over")
    assert g.record().splitlines()[-1] == f"{who} resign"
    roundtrip(g)


def test_refused_moves_leave_the_game_unchanged():
    g = load(EC01)
    refuse(g, "bea", "draw", "not_your_turn")
    refuse(g, "ana", "draw", "wrong_phase")
    refuse(g, "ana", "discard 9H", "not_in_hand")
    refuse(g, "ana", "layoff 3H to 1", "wrong_phase")
    refuse(g, "ana", "swap 3H to 1", "unknown_move")
    refuse(g, "ana", "discard ZZ", "bad_card")
    roundtrip(g)


def test_layout_count_contradicting_phase_is_refused():
    with pytest.raises(IllegalMove) as info:
        load_game('[Variant "gin"]\n[Seats "ana bea"]\n[Hand "ana" "AS 2S 3S"]\n[Phase "play"]\n')
    assert info.value.code == "bad_layout"
