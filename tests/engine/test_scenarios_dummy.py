"""Acceptance scenarios for Dummy rummy: rules.md §5 and the edge cases of §7.5, written as RGN.

Each test lays out a position with RGN tags (notation.md "Positions"; [Contract], [Opened] =
laid down this deal, [Cuts]), plays moves, and checks what a player would notice: refused moves
(code, unchanged game), the table in canonical form (sets S H D C with wilds last, runs ascending,
every wild annotated), hand points, contracts after a deal, cut-in windows and the end of the
game. Every scenario ends with a record round trip. Defaults: 2 decks + 4 jokers, twos and jokers
wild, contract sizes are minimums, no layoff in the lay-down turn, no playable discard, card values
A / 2 / JK 15, K Q J T 10, others pip.
"""

from __future__ import annotations

import pytest

from tests.engine.rgn_helpers import deal_counts, load, play_all, refuse, roundtrip

BEA = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AD 3D"
CY = "3H 4H 5H 6H 7H 8H TH JH QH KH AH 3C 4C"
POS = """
    [Variant "dummy"]
    {options}
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "{bea}"]
    [Hand "cy" "{cy}"]
    {extra}
    [Turn "ana"]
    [Phase "play"]
"""


def position(hand, contract=1, options="", extra="", bea=BEA, cy=CY):
    return load(
        POS.format(
            hand=hand,
            bea=bea,
            cy=cy,
            options=f'[Options "{options}"]' if options else "",
            extra=f'[Contract "ana={contract}"]\n{extra}',
        )
    )


# ---------------------------------------------------------------------------------------------
# EC-54 · Contract 1 (two sets of three) with wild cards: a joker and a two each fill a set.
# ---------------------------------------------------------------------------------------------
def test_ec54_contract_1_with_wild_cards():
    g = position("7H 7S JK QD QC 2H 5C 6C 9D KD")
    assert g.contracts == {"ana": 1, "bea": 1, "cy": 1}
    assert "ana" not in g.opened
    g.play("ana", "meld 7H 7S JK | QD QC 2H")
    assert g.table == [["7S", "7H", "JK=7"], ["QD", "QC", "2H=Q"]]
    assert "ana" in g.opened
    assert g.contracts["ana"] == 1  # advances only when the deal ends
    refuse(g, "ana", "meld 5C 6C 9D", "already_laid_down")  # no new melds after the lay-down
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-55 · Contract 11: eight of a kind with duplicates and wilds; at least one natural card.
# ---------------------------------------------------------------------------------------------
def test_ec55_eight_of_a_kind_with_duplicates_and_wilds():
    g = position("9H 9H 9S 9D 9C JK 2S 2D 5C", contract=11)
    g.play("ana", "meld 9H 9H 9S 9D 9C JK 2S 2D")
    assert g.table == [["9S", "9H", "9H", "9D", "9C", "2S=9", "2D=9", "JK=9"]]
    roundtrip(g)


def test_ec55_eight_wilds_are_not_a_meld():
    g = position("JK JK 2S 2D 2C 2H 2S 2D 5C", contract=11)
    refuse(g, "ana", "meld JK JK 2S 2D 2C 2H 2S 2D", "invalid_meld")
    # With the natural 5C, eight cards make a legal eight of a kind (7 wilds): that is what is offered.
    melds = [m for m in g.legal_moves("ana") if m.startswith("meld")]
    assert melds and all("5C" in m for m in melds)
    g.play("ana", melds[0])
    assert g.table[0][0] == "5C" and len(g.table[0]) == 8 and all(c.endswith("=5") for c in g.table[0][1:])
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-57 · Contract 2 (one set of 3, one run of 4): sizes are minimums, no extra meld.
# ---------------------------------------------------------------------------------------------
EC57_HAND = "8H 8S 8D 8C 3C 4D 5C 6H KS KD KC JK 9D"


@pytest.mark.parametrize(
    "melds",
    [
        "8H 8S 8D | 3C 4D 5C",  # run too short
        "8H 8S 8D",  # partial lay-down
        "8H 8S 8D | 3C 4D 5C 6H | KS KD KC",  # extra meld
        "3C 4D 5C 6H",  # the run alone
    ],
)
def test_ec57_contract_shape_refused(melds):
    g = position(EC57_HAND, contract=2)
    err = refuse(g, "ana", f"meld {melds}", "contract_not_met")
    assert err.params["contract"] == 2
    roundtrip(g)


def test_ec57_four_of_a_kind_meets_three_of_a_kind():
    g = position(EC57_HAND, contract=2)
    g.play("ana", "meld 8H 8S 8D 8C | 3C 4D JK 6H")
    assert g.table == [["8S", "8H", "8D", "8C"], ["3C", "4D", "JK=5", "6H"]]  # mixed suits
    assert "ana" in g.opened
    roundtrip(g)


def test_lay_down_must_keep_a_card_to_discard():
    g = position("7H 7S JK QD QC 2H", contract=1)
    refuse(g, "ana", "meld 7H 7S JK | QD QC 2H", "keep_a_discard")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-58 · Stock only after laying down.
# ---------------------------------------------------------------------------------------------
def test_ec58_stock_only_after_laying_down():
    g = load("""
        [Variant "dummy"]
        [Seats "ana bea cy"]
        [Dealer "cy"]
        [Hand "ana" "KD 9C 5D"]
        [Hand "bea" "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AD 3D"]
        [Hand "cy" "3H 4H 5H 6H 7H 8H TH JH QH KH AH 3C 4C"]
        [Table "ana: 7S 7H JK=7 | ana: QD QC 2H=Q"]
        [Discard "6C"]
        [Opened "ana"]
        [Turn "ana"]
    """)
    assert g.legal_moves("ana") == ["draw"]
    refuse(g, "ana", "take", "stock_only")
    g.play("ana", "draw")
    roundtrip(g)
    g = load(g.record().replace('[Opened "ana"]\n', "").replace("ana draw\n", ""))
    assert sorted(g.legal_moves("ana")) == ["draw", "take"]  # before laying down: either pile


# ---------------------------------------------------------------------------------------------
# No playable discard (§5.5): a card that could be laid off may not be discarded, whatever the
# discarder's own lay-down status, unless every card in hand could be.
# ---------------------------------------------------------------------------------------------
NOPLAY = """
    [Variant "dummy"]
    {options}
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AD 3D"]
    [Hand "cy" "3H 4H 5H 6H 7H 8H TH JH QH KH AH 3C 4C"]
    [Table "bea: 7S 7H 7D | bea: 9C TC JC QC"]
    [Opened "bea"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_no_playable_discard():
    g = load(NOPLAY.format(options="", hand="7C KC 2S 4D"))
    assert sorted(g.legal_moves("ana")) == ["discard 4D"]
    refuse(g, "ana", "discard 7C", "playable_discard")  # fits the sevens
    refuse(g, "ana", "discard KC", "playable_discard")  # extends 9C..QC
    refuse(g, "ana", "discard 2S", "playable_discard")  # a wild fits any meld
    g.play("ana", "discard 4D")
    roundtrip(g)


def test_every_card_playable_any_discard_is_allowed():
    g = load(NOPLAY.format(options="", hand="7C KC"))
    assert sorted(g.legal_moves("ana")) == ["discard 7C", "discard KC"]
    g.play("ana", "discard 7C")
    roundtrip(g)


def test_no_playable_discard_toggle_off():
    g = load(NOPLAY.format(options='[Options "no_playable_discard=false"]', hand="7C KC 2S 4D"))
    g.play("ana", "discard 7C")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-62 · Hand scoring (Bicycle values). ana goes out; bea holds JK 2C AS KD 7H = 15+15+15+10+7
# = 62; cy holds 3S 4S = 7. ana laid down contract 1 this deal and advances to 2.
# ---------------------------------------------------------------------------------------------
EC62 = """
    [Variant "dummy"]
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "9D"]
    [Hand "bea" "JK 2C AS KD 7H"]
    [Hand "cy" "3S 4S"]
    [Table "ana: 9S 9H 9C | ana: QD QC 2H=Q"]
    [Opened "ana"]
    [Contract "ana=1 bea=1 cy=1"]
    [Totals "ana=10 bea=20 cy=5"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec62_hand_scoring_and_contract_advance():
    g = load(EC62)
    assert g.legal_moves("ana") == ["discard 9D"]  # 9D is playable, but it is the only card
    g.play("ana", "discard 9D")
    assert g.hand_over and g.public_view().result.winner == "ana"
    assert deal_counts(g) == {"ana": 0, "bea": 62, "cy": 7}
    assert g.hand_points == {"ana": 0, "bea": 62, "cy": 7}
    assert g.totals == {"ana": 10, "bea": 82, "cy": 12}
    # Only the seat that laid down advances; the others try again next deal (§5.3).
    assert g.contracts == {"ana": 2, "bea": 1, "cy": 1}
    assert not g.game_over
    roundtrip(g)
    g.next_deal()
    assert g.contracts == {"ana": 2, "bea": 1, "cy": 1}
    assert not g.opened
    assert all(len(g.hand(s)) == 13 for s in ("ana", "bea", "cy"))
    assert len(g.discard_pile) == 1  # an upcard is turned
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-63 · Laying off in the lay-down turn: refused by default; next turn legal; with
# layoff_same_turn=true legal at once.
# ---------------------------------------------------------------------------------------------
EC63 = """
    [Variant "dummy"]
    {options}
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "7H 7S JK QD QC 2H 7D KD 9C"]
    [Hand "bea" "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AD 3D"]
    [Hand "cy" "3H 4H 5H 6H 7H 8H TH JH QH KH AH 3C 4C"]
    [Stock "5C 6C 7C 8C 9D"]
    [Turn "ana"]
    [Phase "play"]
    ana meld 7H 7S JK | QD QC 2H
"""


def test_ec63_no_layoff_in_the_lay_down_turn():
    g = load(EC63.format(options=""))
    refuse(g, "ana", "layoff 7D to 1", "layoff_next_turn")
    assert not any(m.startswith("layoff") for m in g.legal_moves("ana"))
    assert "discard 7D" not in g.legal_moves("ana")  # 7D could be laid off: no discarding it
    play_all(g, "ana discard 9C\nbea draw\nbea discard 3D\ncy draw\ncy discard 3C\nana draw")
    assert "layoff 7D to 1" in g.legal_moves("ana")
    g.play("ana", "layoff 7D to 1")
    assert g.table[0] == ["7S", "7H", "7D", "JK=7"]
    roundtrip(g)


def test_ec63_layoff_same_turn_option():
    g = load(EC63.format(options='[Options "layoff_same_turn=true"]'))
    assert "layoff 7D to 1" in g.legal_moves("ana")
    g.play("ana", "layoff 7D to 1")
    assert g.table == [["7S", "7H", "7D", "JK=7"], ["QD", "QC", "2H=Q"]]
    refuse(g, "ana", "layoff KD 9C to 2", "invalid_layoff")
    g.play("ana", "discard 9C")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-64 · Wild cards adjacent in a run: 5H JK 2C 8S (wilds for 6 and 7) is a run of 4.
# ---------------------------------------------------------------------------------------------
def test_ec64_adjacent_wilds_in_a_run():
    g = position("9S 9H 9D 5H JK 2C 8S KD", contract=2)
    g.play("ana", "meld 9S 9H 9D | 5H JK 2C 8S")
    assert g.table[0] == ["9S", "9H", "9D"]
    assert g.table[1] in (["5H", "JK=6", "2C=7", "8S"], ["5H", "2C=6", "JK=7", "8S"])
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Cut-ins (cut_ins=true, §5.5). 4 players; ana discards KD; bea (next) decides; cy and dan may
# ask. The winner takes KD and the top 3 stock cards (9H 9D 9C) and does not discard; then bea
# draws normally. Priority: the requester nearest after bea in turn order.
# ---------------------------------------------------------------------------------------------
CUT = """
    [Variant "dummy"]
    [Options "cut_ins=true"]
    [Seats "ana bea cy dan"]
    [Dealer "dan"]
    [Hand "ana" "KD 3S 4S"]
    [Hand "bea" "5S 6S 7S 8S 9S TS JS QS KS AD 3D 4D 5D"]
    [Hand "cy" "3H 4H 5H 6H 7H 8H TH JH QH KH AH 3C 4C"]
    [Hand "dan" "5C 6C 7C 8C 9C TC JC QC KC AC 6D 7D 8D"]
    {extra}
    [Stock "9H 9D 9C TD JD"]
    [Turn "ana"]
    [Phase "play"]
    ana discard KD
"""


def test_cut_in_priority_and_allow():
    g = load(CUT.format(extra=""))
    assert g.phase == "window" and g.actors == ["cy", "dan"]
    assert g.legal_moves("cy") == ["cut", "pass"]
    refuse(g, "bea", "draw", "not_your_turn")  # bea decides only once someone asks
    g.play("dan", "cut")
    g.play("cy", "cut")
    assert g.actors == ["bea"] and sorted(g.legal_moves("bea")) == ["allow", "take"]
    g.play("bea", "allow")
    cy = g.hand("cy")
    assert len(cy) == 13 + 4 and all(c in cy for c in ("KD", "9H", "9D", "9C"))
    assert len(g.hand("dan")) == 13
    assert g.stock_count == 2 and g.discard_pile[-1] != "KD"
    assert g.phase == "draw" and g.actors == ["bea"]
    g.play("bea", "draw")
    assert "TD" in g.hand("bea")
    roundtrip(g)


def test_cut_in_cancelled_when_the_next_player_takes():
    g = load(CUT.format(extra=""))
    play_all(g, "cy pass\ndan cut\nbea take")
    assert "KD" in g.hand("bea") and g.phase == "play" and g.actors == ["bea"]
    assert len(g.hand("dan")) == 13 and g.stock_count == 5
    roundtrip(g)


def test_cut_window_passes_and_timeouts():
    g = load(CUT.format(extra=""))
    g.play("cy", "pass")
    g.timeout("dan")  # a silent seat passes
    assert g.phase == "draw" and g.actors == ["bea"] and g.discard_pile[-1] == "KD"
    roundtrip(g)
    g = load(CUT.format(extra=""))
    play_all(g, "cy cut\ndan pass")
    g.timeout("bea")  # the deciding player's timeout allows the cut
    assert "KD" in g.hand("cy") and len(g.hand("cy")) == 17
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# The next player answers a cut-in at any point of the window (notation.md "Windows": every
# eligible seat is in game.actors until it acts or passes; rules.md §5.5). dan asks; bea (next)
# answers at once, before cy (between them) has said anything. Priority is settled when the
# window closes: cy, nearer after bea, still may ask, and then her cut-in comes first.
# ---------------------------------------------------------------------------------------------
def test_next_player_allows_before_the_seats_between_have_answered():
    g = load(CUT.format(extra=""))
    g.play("dan", "cut")
    assert g.phase == "window" and g.actors == ["bea", "cy"]
    assert sorted(g.legal_moves("bea")) == ["allow", "take"] and g.legal_moves("cy") == ["cut", "pass"]
    refuse(g, "bea", "pass", "wrong_phase")  # the next player takes or allows; nothing else
    refuse(g, "bea", "cut", "wrong_phase")
    refuse(g, "cy", "allow", "wrong_phase")  # only the next player answers
    refuse(g, "cy", "take", "wrong_phase")
    g.play("bea", "allow")
    assert g.phase == "window" and g.actors == ["cy"] and len(g.hand("dan")) == 13  # cy may still ask
    roundtrip(g)
    g.play("cy", "pass")
    assert len(g.hand("dan")) == 13 + 4 and "KD" in g.hand("dan") and len(g.hand("cy")) == 13
    assert g.phase == "draw" and g.actors == ["bea"]
    roundtrip(g)


def test_seat_between_cutting_after_the_allow_has_priority():
    g = load(CUT.format(extra=""))
    play_all(g, "dan cut\nbea allow\ncy cut")
    assert len(g.hand("cy")) == 13 + 4 and "KD" in g.hand("cy") and len(g.hand("dan")) == 13
    assert g.phase == "draw" and g.actors == ["bea"] and g.stock_count == 2
    roundtrip(g)


def test_next_player_takes_before_the_seats_between_have_answered():
    g = load(CUT.format(extra=""))
    play_all(g, "dan cut\nbea take")
    assert "KD" in g.hand("bea") and g.phase == "play" and g.actors == ["bea"]
    assert len(g.hand("dan")) == 13 and len(g.hand("cy")) == 13 and g.stock_count == 5
    roundtrip(g)


def test_next_player_timing_out_mid_window_allows():
    g = load(CUT.format(extra=""))
    g.play("dan", "cut")
    g.timeout("bea")
    assert g.record().splitlines()[-1] == "bea timeout" and g.actors == ["cy"]
    g.timeout("cy")  # a silent seat passes
    assert "KD" in g.hand("dan") and g.phase == "draw" and g.actors == ["bea"]
    roundtrip(g)


ROUND_AFTER_CUT = """
    cy cut
    dan pass
    bea allow
    bea draw
    bea discard AD
    dan pass
    ana pass
    cy draw
    cy discard 4C
    ana pass
    bea pass
    dan draw
    dan discard 6D
"""


def test_cuts_per_hand_limit():
    g = load(CUT.format(extra='[Cuts "cy=2"]'))
    assert g.actors == ["dan"]  # cy has used both her cut-ins
    roundtrip(g)
    g = load(CUT.format(extra='[Cuts "cy=2 dan=2"]'))
    assert g.phase == "draw" and g.actors == ["bea"]  # nobody may cut in: no window
    roundtrip(g)
    # cy's second cut-in uses up her allowance; the next window where she could ask leaves her out.
    g = load(CUT.format(extra='[Cuts "cy=1"]'))
    play_all(g, ROUND_AFTER_CUT)
    assert g.phase == "window" and g.actors == ["bea"]  # cy (2 cuts) is not asked
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# End of the game (§5.6): after the deal in which someone completes contract 12. ana laid down
# her run of ten; cy goes out. ana has the highest total but is the only one to finish: she wins.
# ---------------------------------------------------------------------------------------------
END = """
    [Variant "dummy"]
    {options}
    [Seats "ana bea cy"]
    [Dealer "cy"]
    [Hand "ana" "9D KD"]
    [Hand "bea" "JK 2C AS KD 7H"]
    [Hand "cy" "6H"]
    [Table "ana: 3S 4S 5S 6S 7S 8S 9S TS JS QS | cy: 8H 8D 8C | cy: 4C 5C 6C 7C"]
    [Opened "ana cy"]
    [Contract "ana=12 bea=5 cy=2"]
    [Totals "ana=120 bea=30 cy=40"]
    [Turn "cy"]
    [Phase "play"]
    cy discard 6H
"""


def test_game_ends_when_contract_12_is_completed():
    g = load(END.format(options=""))
    assert g.hand_over and g.game_over
    assert g.hand_points == {"ana": 9 + 10, "bea": 62, "cy": 0}
    assert g.totals == {"ana": 139, "bea": 92, "cy": 40}
    assert g.winners == ["ana"]
    assert g.final_scores == g.totals
    assert g.contracts["ana"] == 12 and g.contracts["cy"] == 3
    assert g.actors == []
    roundtrip(g)


def test_all_finish_option_plays_on():
    g = load(END.format(options='[Options "game_end=all_finish"]'))
    assert g.hand_over and not g.game_over
    roundtrip(g)
