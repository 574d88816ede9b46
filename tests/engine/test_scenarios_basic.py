"""Acceptance scenarios for Basic Rummy and Wrotham: rules.md §1 and the edge cases of §7.2, in RGN.

Each test lays out a position with RGN tags (notation.md "Positions"), plays moves, and checks
what a player would notice: refused moves (code, unchanged game), hand counts, hand points,
totals, final scores, the stock order after the pile is turned over. Every scenario ends with a
record round trip. Unless an [Options] tag says otherwise, the defaults of rules.md §1.7 apply.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine import IllegalMove
from tests.engine.rgn_helpers import deal_counts, ledger_of, load, play_all, refuse, roundtrip, snapshot

# ---------------------------------------------------------------------------------------------
# EC-15 · Deal sizes and stock: 2p 10/31, 3p 7/30, 4p 7/23, 5p 6/21, 6p 6/15.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "stock"), [(2, 10, 31), (3, 7, 30), (4, 7, 23), (5, 6, 21), (6, 6, 15)])
def test_ec15_deal_sizes(players, size, stock):
    seats = [f"p{i}" for i in range(1, players + 1)]
    g = load(f"""
        [Variant "basic"]
        [Seats "{" ".join(seats)}"]
        [Seed "ec15"]
    """)
    assert all(len(g.hand(s)) == size for s in seats)
    assert len(g.discard_pile) == 1  # the upcard
    assert g.stock_count == stock == 52 - players * size - 1
    every = [c for s in seats for c in g.hand(s)] + g.discard_pile
    assert len(set(every)) == len(every)
    # Dealer = last seat; the first player is the non-dealer (2p) or the dealer's left: p1.
    assert g.public_view().dealer == seats[-1]
    assert g.phase == "draw" and g.actors == ["p1"]
    assert sorted(g.legal_moves("p1")) == ["draw", "take"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-16 · One meld per turn. ana (3 players) has drawn: 5C 6C 7C 9D 9S 9H KD KH.
# bob's TD JD QD is on the table, so KD can be laid off.
# ---------------------------------------------------------------------------------------------
EC16 = """
    [Variant "basic"]
    {options}
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Hand "ana" "5C 6C 7C 9D 9S 9H KD KH"]
    [Table "bob: TD JD QD"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec16_second_meld_refused_layoff_allowed():
    g = load(EC16.format(options=""))
    refuse(g, "ana", "meld 5C 6C 7C | 9D 9S 9H", "one_meld_per_turn")
    g.play("ana", "meld 5C 6C 7C")
    assert g.table == [["TD", "JD", "QD"], ["5C", "6C", "7C"]]
    assert not any(m.startswith("meld") for m in g.legal_moves("ana"))
    refuse(g, "ana", "meld 9D 9S 9H", "one_meld_per_turn")
    g.play("ana", "layoff KD to 1")
    assert g.table[0] == ["TD", "JD", "QD", "KD"]
    g.play("ana", "discard KH")
    assert g.hand("ana") == ["9S", "9H", "9D"] and g.actors == ["bob"]
    roundtrip(g)


@pytest.mark.parametrize("melds", ["meld 5C 6C 7C\nana meld 9D 9S 9H", "meld 5C 6C 7C | 9D 9S 9H"])
def test_ec16_multiple_melds_per_turn(melds):
    g = load(EC16.format(options='[Options "multiple_melds_per_turn=true"]'))
    play_all(g, f"ana {melds}\nana layoff KD to 1\nana discard KH")
    assert g.table == [["TD", "JD", "QD", "KD"], ["5C", "6C", "7C"], ["9S", "9H", "9D"]]
    assert g.hand_over and g.hand("ana") == []  # ana went out with the discard
    assert g.public_view().result.winner == "ana"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-17 · No rearranging when laying off (the seed's own example).
# ---------------------------------------------------------------------------------------------
EC17 = """
    [Variant "basic"]
    [Seats "ana bob"]
    [Hand "ana" "AS 6S 9C KD"]
    [Table "bob: 2C 2H 2D 2S | bob: 3S 4S 5S"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec17_no_rearranging():
    g = load(EC17)
    assert g.table == [["2S", "2H", "2D", "2C"], ["3S", "4S", "5S"]]
    refuse(g, "ana", "layoff AS to 2", "invalid_layoff")  # would need 2S moved into the run
    refuse(g, "ana", "layoff AS to 1", "invalid_layoff")
    assert "layoff 6S to 2" in g.legal_moves("ana")
    g.play("ana", "layoff 6S to 2")
    assert g.table == [["2S", "2H", "2D", "2C"], ["3S", "4S", "5S", "6S"]]
    refuse(g, "ana", "layoff AS to 2", "invalid_layoff")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-18 · A taken discard cannot be thrown back the same turn; a stock card can be at once.
# ---------------------------------------------------------------------------------------------
EC18 = """
    [Variant "basic"]
    [Seats "ana bob"]
    [Dealer "bob"]
    [Hand "ana" "AH 3H 5H 7H 9H JH 2D 4D 6D 8D"]
    [Hand "bob" "AC 3C 5C 7C 9C JC KC 2S 4S 6S"]
    [Discard "9D"]
    [Stock "2C 4C 3D KS"]
    [Turn "ana"]
"""


def test_ec18_taken_discard_not_thrown_back():
    g = load(EC18)
    g.play("ana", "take")
    assert "9D" in g.hand("ana")
    refuse(g, "ana", "discard 9D", "discard_taken_card")
    g.play("ana", "discard JH")
    play_all(g, "bob draw\nbob discard 2C")
    g.play("ana", "draw")
    assert "4C" in g.hand("ana")
    assert "discard 4C" in g.legal_moves("ana")
    g.play("ana", "discard 4C")  # drawn from the stock: may go at once
    play_all(g, "bob draw\nbob discard 3D\nana draw")
    g.play("ana", "discard 9D")  # a later turn: legal
    assert g.discard_pile[-1] == "9D"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-19 · Winner collects. ana goes out; bob holds KH 5C AS = 16, cy holds 9D 9S = 18.
# ---------------------------------------------------------------------------------------------
EC19 = """
    [Variant "basic"]
    {options}
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Hand "ana" "2D 3D 4D"]
    [Hand "bob" "KH 5C AS"]
    [Hand "cy" "9D 9S"]
    [Stock "KC"]
    [Turn "ana"]
    ana draw
    ana meld 2D 3D 4D
    ana discard KC
"""


def test_ec19_winner_collects():
    g = load(EC19.format(options=""))
    assert g.hand_over and not g.game_over
    assert deal_counts(g) == {"ana": 0, "bob": 16, "cy": 18}
    assert g.hand_points == {"ana": 34, "bob": 0, "cy": 0}
    assert g.totals == {"ana": 34, "bob": 0, "cy": 0}
    assert sorted(ledger_of(g, "ana")) == [(16, "hand_count"), (18, "hand_count")]
    roundtrip(g)
    g.next_deal()
    assert g.public_view().dealer == "ana"  # the deal passes clockwise
    assert g.actors == ["bob"] and all(len(g.hand(s)) == 7 for s in ("ana", "bob", "cy"))
    roundtrip(g)


def test_hand_points_show_the_last_finished_deal_during_the_next():
    # notation.md: hand_points is "what the last finished deal added to each total"; while deal 2
    # is played, that is still deal 1. The ledger is "this deal" and starts empty.
    g = load(EC19.format(options=""))
    g.next_deal()
    assert not g.hand_over and g.ledger == []
    assert g.hand_points == {"ana": 34, "bob": 0, "cy": 0}
    assert g.totals == {"ana": 34, "bob": 0, "cy": 0}
    roundtrip(g)


def test_settle_mode_losers_pay_the_winner():
    g = load(EC19.format(options='[Options "scoring_mode=settle game_end=hands:1"]'))
    assert g.hand_points == {"ana": 34, "bob": -16, "cy": -18}
    assert g.totals == {"ana": 34, "bob": -16, "cy": -18}
    assert g.game_over and g.winners == ["ana"]
    assert g.final_scores == g.totals
    roundtrip(g)


def test_target_reached_ends_the_game():
    g = load(EC19.format(options='[Totals "ana=70 bob=90 cy=5"]'))
    assert g.totals == {"ana": 104, "bob": 90, "cy": 5}
    assert g.game_over and g.winners == ["ana"] and g.final_scores == g.totals
    with pytest.raises(IllegalMove) as info:
        g.next_deal()
    assert info.value.code == "game_over"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-20 · Ace modes. QS KS AS: low refused, high_low legal. KS AS 2S: high_low refused,
# round_the_corner legal. A loser's AS KD counts 11 (low) or 25 (ace 15).
# ---------------------------------------------------------------------------------------------
ACE = """
    [Variant "basic"]
    [Options "ace_mode={mode}"]
    [Seats "ana bob"]
    [Hand "ana" "{hand} 9C 8D"]
    [Hand "bob" "AD KD 7S"]
    [Turn "ana"]
    [Phase "play"]
"""


@pytest.mark.parametrize(
    ("mode", "meld", "ok"),
    [
        ("low", "QS KS AS", False),
        ("high_low", "QS KS AS", True),
        ("round_the_corner", "QS KS AS", True),
        ("low", "KS AS 2S", False),
        ("high_low", "KS AS 2S", False),
        ("round_the_corner", "KS AS 2S", True),
        ("low", "AS 2S 3S", True),
        ("high_low", "AS 2S 3S", True),
        ("round_the_corner", "AS 2S 3S", True),
    ],
)
def test_ec20_ace_modes(mode, meld, ok):
    g = load(ACE.format(mode=mode, hand=meld))
    if ok:
        g.play("ana", f"meld {meld}")
        assert sorted(g.table[0]) == sorted(meld.split())
    else:
        refuse(g, "ana", f"meld {meld}", "invalid_meld")
    roundtrip(g)


@pytest.mark.parametrize(("mode", "ok"), [("low", False), ("high_low", True), ("round_the_corner", True)])
def test_ec20_ace_laid_off_above_the_king(mode, ok):
    g = load(f"""
        [Variant "basic"]
        [Options "ace_mode={mode}"]
        [Seats "ana bob"]
        [Hand "ana" "AS 9C 8D"]
        [Table "bob: JS QS KS"]
        [Turn "ana"]
        [Phase "play"]
    """)
    if ok:
        g.play("ana", "layoff AS to 1")
        assert g.table == [["JS", "QS", "KS", "AS"]]
    else:
        refuse(g, "ana", "layoff AS to 1", "invalid_layoff")
    roundtrip(g)


@pytest.mark.parametrize(("mode", "count"), [("low", 1 + 10), ("high_low", 15 + 10), ("round_the_corner", 15 + 10)])
def test_ec20_ace_value_in_a_losing_hand(mode, count):
    g = load(f"""
        [Variant "basic"]
        [Options "ace_mode={mode}"]
        [Seats "ana bob"]
        [Hand "ana" "7H 8H 9H 2C"]
        [Hand "bob" "AS KD"]
        [Turn "ana"]
        [Phase "play"]
        ana meld 7H 8H 9H
        ana discard 2C
    """)
    assert deal_counts(g)["bob"] == count
    assert g.hand_points == {"ana": count, "bob": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-22 · Going rummy. ana has placed nothing, draws KD, melds 5C 6C 7C | 9D 9S 9H and
# discards KD. bob holds 5H 7S = 12, cy holds 8C = 8.
# ---------------------------------------------------------------------------------------------
EC22 = """
    [Variant "basic"]
    [Options "multiple_melds_per_turn=true{options}"]
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Hand "ana" "5C 6C 7C 9D 9S 9H"]
    [Hand "bob" "5H 7S"]
    [Hand "cy" "8C"]
    [Stock "KD"]
    [Turn "ana"]
    {placed}
    ana draw
    ana meld 5C 6C 7C | 9D 9S 9H
    ana discard KD
"""


@pytest.mark.parametrize(
    ("options", "placed", "points", "rummy"),
    [
        ("", "", 20, False),  # going_rummy=off
        (" going_rummy=double", "", (12 + 8) * 2, True),
        (" going_rummy=plus10", "", 12 + 8 + 10, True),
        (" going_rummy=double", '[Placed "ana"]', 20, False),  # ana put cards down earlier
    ],
)
def test_ec22_going_rummy(options, placed, points, rummy):
    g = load(EC22.format(options=options, placed=placed))
    assert g.hand_over
    assert g.hand_points == {"ana": points, "bob": 0, "cy": 0}
    assert g.public_view().result.going_rummy is rummy
    roundtrip(g)


def test_ec22_layoff_two_turns_earlier_is_not_rummy():
    # ana lays KH off on bob's TH JH QH, then goes out on her next turn: plain 12 + 8.
    g = load("""
        [Variant "basic"]
        [Options "multiple_melds_per_turn=true going_rummy=double"]
        [Seats "ana bob cy"]
        [Dealer "cy"]
        [Hand "ana" "KH 4D 5C 6C 7C 9D 9S 9H"]
        [Hand "bob" "5H 7S"]
        [Hand "cy" "8C"]
        [Table "bob: TH JH QH"]
        [Stock "2S 3S QD"]
        [Turn "ana"]
        [Phase "play"]
        ana layoff KH to 1
        ana discard 4D
        bob draw
        bob discard 2S
        cy draw
        cy discard 3S
        ana draw
        ana meld 5C 6C 7C | 9D 9S 9H
        ana discard QD
    """)
    assert g.hand_over
    assert g.hand_points == {"ana": 20, "bob": 0, "cy": 0}
    assert g.public_view().result.going_rummy is False
    roundtrip(g)


def test_ec22_meld_owned_on_the_table_is_not_rummy():
    # The table shows a meld ana made earlier this deal (rules.md §6.1: the owner is the player
    # who created it), so she has placed cards before: no going rummy, plain 12 + 8 = 20.
    g = load(
        EC22.format(options=" going_rummy=double", placed="").replace(
            '[Turn "ana"]', '[Turn "ana"]\n[Table "ana: TH JH QH"]'
        )
    )
    assert g.hand_over
    assert g.hand_points == {"ana": 20, "bob": 0, "cy": 0}
    assert g.public_view().result.going_rummy is False
    roundtrip(g)


def test_going_rummy_double_in_penalty_mode_doubles_each_penalty():
    g = load(EC22.format(options=" going_rummy=double scoring_mode=penalty", placed=""))
    assert g.hand_points == {"ana": 0, "bob": 24, "cy": 16}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-23 · Last discard required. ana holds 7H 8H and draws 9H.
# ---------------------------------------------------------------------------------------------
EC23 = """
    [Variant "basic"]
    {options}
    [Seats "ana bob"]
    [Dealer "bob"]
    [Hand "ana" "7H 8H"]
    [Hand "bob" "2C 3D"]
    [Stock "9H"]
    [Turn "ana"]
    ana draw
"""


def test_ec23_default_going_out_without_discard():
    g = load(EC23.format(options=""))
    assert "meld 7H 8H 9H" in g.legal_moves("ana")
    g.play("ana", "meld 7H 8H 9H")
    assert g.hand_over and g.hand("ana") == []
    assert g.hand_points == {"ana": 5, "bob": 0}
    roundtrip(g)


def test_ec23_last_discard_required():
    g = load(EC23.format(options='[Options "last_discard_required=true"]'))
    refuse(g, "ana", "meld 7H 8H 9H", "last_discard_required")
    g.play("ana", "discard 9H")
    assert g.hand("ana") == ["7H", "8H"] and not g.hand_over
    assert g.actors == ["bob"]
    roundtrip(g)


def test_going_out_by_laying_off_the_last_card():
    g = load("""
        [Variant "basic"]
        [Seats "ana bob"]
        [Hand "ana" "9H"]
        [Hand "bob" "2C 3D"]
        [Table "bob: 6H 7H 8H"]
        [Turn "ana"]
        [Phase "play"]
        ana layoff 9H to 1
    """)
    assert g.hand_over and g.public_view().result.winner == "ana"
    assert g.hand_points == {"ana": 5, "bob": 0}
    roundtrip(g)


def test_ec23_last_discard_required_applies_to_layoffs():
    g = load("""
        [Variant "basic"]
        [Options "last_discard_required=true"]
        [Seats "ana bob"]
        [Hand "ana" "9H"]
        [Table "bob: 6H 7H 8H"]
        [Turn "ana"]
        [Phase "play"]
    """)
    refuse(g, "ana", "layoff 9H to 1", "last_discard_required")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-24 · Stock turned over without shuffling.
# The table holds 39 cards in four unowned runs (nobody lays off in these tests); the hands hold
# 2C 4C KH (16) and AC 3C QH (14); each player draws and throws the drawn card away.
# [Stock ""] is empty, so the four cards no tag placed (TH JH QD KD, canonical order) lie
# between 9H and JD: the pile is 5C 9H TH JH QD KD JD.
# ---------------------------------------------------------------------------------------------
EC24 = """
    [Variant "basic"]
    [Options "stock_exhaustion={mode}"]
    [Seats "ana bob"]
    [Dealer "bob"]
    [Table "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS | AH 2H 3H 4H 5H 6H 7H 8H | AD 2D 3D 4D 5D 6D 7D 8D 9D TD | 6C 7C 8C 9C TC JC QC KC"]
    [Hand "ana" "2C 4C KH"]
    [Hand "bob" "AC 3C QH"]
    [Stock ""]
    [Discard "5C 9H JD"]
    [Turn "ana"]
"""  # noqa: E501
PILE = ["5C", "9H", "TH", "JH", "QD", "KD", "JD"]


def _draw_and_throw(g):
    """The seat to act draws from the stock and discards the drawn card; returns that card."""
    seat = g.actors[0]
    before = list(g.hand(seat))
    g.play(seat, "draw")
    if g.hand_over:
        return None
    (card,) = [c for c in g.hand(seat) if c not in before]
    g.play(seat, f"discard {card}")
    return card


def test_ec24_turned_over_without_shuffling():
    g = load(EC24.format(mode="turn_over"))
    assert g.stock_count == 0 and g.discard_pile == PILE
    assert sorted(g.legal_moves("ana")) == ["draw", "take"]  # ana may still take JD
    g.play("ana", "draw")  # declines JD: the pile becomes the stock, 5C on top
    assert "5C" in g.hand("ana")
    assert g.discard_pile == [] and g.stock_count == len(PILE) - 1
    g.play("ana", "discard 5C")
    drawn = ["5C"] + [_draw_and_throw(g) for _ in range(len(PILE) - 1)]
    assert drawn == PILE  # top -> bottom: 5C 9H ... JD
    assert g.stock_count == 0
    # Second time round: the same order again (the pile was discarded in that order).
    assert [_draw_and_throw(g) for _ in range(len(PILE))] == PILE
    assert not g.hand_over
    roundtrip(g)


def test_ec24_shuffle():
    g = load(EC24.format(mode="shuffle"))
    drawn = [_draw_and_throw(g) for _ in range(len(PILE))]
    assert sorted(drawn) == sorted(PILE)
    assert drawn != PILE
    roundtrip(g)  # the reshuffle replays identically


def test_ec24_take_from_empty_stock_position():
    g = load(EC24.format(mode="turn_over"))
    g.play("ana", "take")
    assert "JD" in g.hand("ana") and g.stock_count == 0
    refuse(g, "ana", "discard JD", "discard_taken_card")
    roundtrip(g)


@pytest.mark.parametrize(("mode", "blocked_at"), [("block", 1), ("reuse_once", 2), ("limit:3", 3), ("limit:1", 1)])
def test_ec24_exhaustion_limits_end_the_hand_blocked(mode, blocked_at):
    g = load(EC24.format(mode=mode))
    exhaustions = 0
    while True:
        if g.stock_count == 0:
            exhaustions += 1
        card = _draw_and_throw(g)
        if card is None:
            break
        assert exhaustions < blocked_at
    assert exhaustions == blocked_at
    # Blocked (§1.7): ana 2+4+10 = 16, bob 1+3+10 = 14: bob scores 16 - 14 = 2.
    assert g.hand_over and g.public_view().result.outcome == "blocked"
    assert deal_counts(g) == {"ana": 16, "bob": 14}
    assert g.hand_points == {"ana": 0, "bob": 2}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Blocked hands (§1.7): the lowest count wins the differences; ties share (exact fractions).
# ---------------------------------------------------------------------------------------------
BLOCKED4 = """
    [Variant "basic"]
    [Options "stock_exhaustion=block{options}"]
    [Seats "ana bob cy dan"]
    [Dealer "dan"]
    [Hand "ana" "AS 5S"]
    [Hand "bob" "5H KH"]
    [Hand "cy" "7D"]
    [Hand "dan" "KC QC AC"]
    [Stock ""]
    [Discard "2D"]
    [Turn "ana"]
    ana draw
"""


@pytest.mark.parametrize(
    ("options", "points"),
    [
        # A 6, B 15, C 7, D 21: A scores 9 + 1 + 15 = 25 (the seed's example).
        ("", {"ana": 25, "bob": 0, "cy": 0, "dan": 0}),
        (" scoring_mode=penalty", {"ana": 6, "bob": 15, "cy": 7, "dan": 21}),
        (" scoring_mode=settle", {"ana": 25, "bob": -9, "cy": -1, "dan": -15}),
    ],
)
def test_blocked_hand_seed_example(options, points):
    g = load(BLOCKED4.format(options=options))
    assert g.hand_over
    assert deal_counts(g) == {"ana": 6, "bob": 15, "cy": 7, "dan": 21}
    assert g.hand_points == points
    roundtrip(g)


def test_blocked_hand_tied_lowest_share_halves():
    g = load("""
        [Variant "basic"]
        [Options "stock_exhaustion=block"]
        [Seats "ana bob cy"]
        [Dealer "cy"]
        [Totals "ana=1/2 bob=3 cy=0"]
        [Hand "ana" "2C 3D"]
        [Hand "bob" "AH 4S"]
        [Hand "cy" "KD 4C"]
        [Stock ""]
        [Discard "9S"]
        [Turn "ana"]
        ana draw
    """)
    # ana 5, bob 5, cy 14: pot 9 shared by ana and bob, 9/2 each.
    assert g.hand_points == {"ana": Fraction(9, 2), "bob": Fraction(9, 2), "cy": 0}
    assert isinstance(g.hand_points["ana"], Fraction)
    assert g.totals == {"ana": 5, "bob": Fraction(15, 2), "cy": 0}
    assert {s.name: s.deals_won for s in g.public_view().seats} == {"ana": 1, "bob": 1, "cy": 0}
    roundtrip(g)


def test_blocked_tie_reaching_the_target_is_a_shared_win():
    g = load("""
        [Variant "basic"]
        [Options "stock_exhaustion=block"]
        [Seats "ana bob cy"]
        [Dealer "cy"]
        [Totals "ana=98 bob=98 cy=0"]
        [Hand "ana" "2C 3D"]
        [Hand "bob" "AH 4S"]
        [Hand "cy" "KD 4C"]
        [Stock ""]
        [Discard "9S"]
        [Turn "ana"]
        ana draw
    """)
    assert g.totals == {"ana": Fraction(205, 2), "bob": Fraction(205, 2), "cy": 0}
    assert g.game_over and sorted(g.winners) == ["ana", "bob"]
    roundtrip(g)


def test_turn_cap_scores_the_hand_as_blocked():
    # rules.md §0.4: after hand_turn_limit turns a basic hand is scored as blocked.
    g = load(EC24.format(mode="turn_over").replace("stock_exhaustion=turn_over", "hand_turn_limit=20"))
    turns = 0
    while not g.hand_over:
        _draw_and_throw(g)
        turns += 1
    assert turns == 20
    assert g.public_view().result.outcome == "blocked"
    assert g.hand_points == {"ana": 0, "bob": 2}
    roundtrip(g)


def test_blocked_tie_in_settle_mode():
    g = load("""
        [Variant "basic"]
        [Options "stock_exhaustion=block scoring_mode=settle game_end=hands:3"]
        [Seats "ana bob cy"]
        [Dealer "cy"]
        [Hand "ana" "2C 3D"]
        [Hand "bob" "AH 4S"]
        [Hand "cy" "KD 4C"]
        [Stock ""]
        [Discard "9S"]
        [Turn "ana"]
        ana draw
    """)
    # cy pays the difference 14 - 5 = 9, shared by ana and bob.
    assert g.hand_points == {"ana": Fraction(9, 2), "bob": Fraction(9, 2), "cy": -9}
    assert not g.game_over
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-25 · Layoff requires an own meld (toggle). bob's 4H 5H 6H is on the table.
# ---------------------------------------------------------------------------------------------
EC25 = """
    [Variant "basic"]
    {options}
    [Seats "ana bob"]
    [Hand "ana" "7H 2C 3C 4C KD"]
    [Table "bob: 4H 5H 6H"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec25_default_layoff_on_others_meld():
    g = load(EC25.format(options=""))
    g.play("ana", "layoff 7H to 1")
    assert g.table == [["4H", "5H", "6H", "7H"]]
    roundtrip(g)


def test_ec25_layoff_requires_own_meld():
    g = load(EC25.format(options='[Options "layoff_requires_own_meld=true"]'))
    refuse(g, "ana", "layoff 7H to 1", "layoff_needs_own_meld")
    g.play("ana", "meld 2C 3C 4C")
    g.play("ana", "layoff 7H to 1")  # now ana has melded
    assert g.table == [["4H", "5H", "6H", "7H"], ["2C", "3C", "4C"]]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-27 · Wrotham deals 4-6: all seven at once; deal 1: the starting player holds 8, no upcard,
# and begins by discarding.
# ---------------------------------------------------------------------------------------------
WROTHAM = """
    [Variant "wrotham"]
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Deal "{deal}"]
    [Hand "ana" "{hand}"]
    [Hand "bob" "JK 5S"]
    [Hand "cy" "QH"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec27_deal4_all_seven_goes_out():
    g = load(WROTHAM.format(deal=4, hand="3H 4H 5H 6H 9C 9D 9S KD"))
    refuse(g, "ana", "meld 3H 4H 5H 6H", "all_seven_required")
    refuse(g, "ana", "meld 9C 9D 9S", "all_seven_required")
    g.play("ana", "meld 3H 4H 5H 6H | 9C 9D 9S")
    g.play("ana", "discard KD")
    assert g.hand_over and g.hand("ana") == []
    # bob: joker 15 + 5; cy: 10.
    assert deal_counts(g) == {"ana": 0, "bob": 20, "cy": 10}
    assert g.hand_points == {"ana": 30, "bob": 0, "cy": 0}
    assert not g.game_over
    roundtrip(g)


def test_wrotham_six_deals_make_a_game():
    g = load(
        WROTHAM.format(deal=6, hand="3H 4H 5H 6H 9C 9D 9S KD")
        + """
        [Totals "ana=10 bob=45 cy=5"]
        ana meld 3H 4H 5H 6H | 9C 9D 9S
        ana discard KD
    """
    )
    assert g.totals == {"ana": 40, "bob": 45, "cy": 5}
    assert g.game_over and g.winners == ["bob"]
    roundtrip(g)


@pytest.mark.parametrize(("deal", "ok"), [(1, True), (3, True), (4, False), (6, False)])
def test_ec27_partial_meld_by_deal(deal, ok):
    g = load(WROTHAM.format(deal=deal, hand="3H 4H 5H 9C 9D 9S KD QC"))
    if ok:
        g.play("ana", "meld 3H 4H 5H")
        assert g.table == [["3H", "4H", "5H"]]
    else:
        refuse(g, "ana", "meld 3H 4H 5H", "all_seven_required")
        refuse(g, "ana", "meld 3H 4H 5H | 9C 9D 9S", "all_seven_required")
    roundtrip(g)


def test_ec27_deal1_starting_player_discards_first():
    g = load("""
        [Variant "wrotham"]
        [Seats "ana bob cy"]
        [Dealer "cy"]
        [Seed "ec27"]
    """)
    assert [len(g.hand(s)) for s in ("ana", "bob", "cy")] == [8, 7, 7]
    assert g.discard_pile == [] and g.stock_count == 55 - 22
    assert g.phase == "play" and g.actors == ["ana"]
    moves = g.legal_moves("ana")
    assert "draw" not in moves and "take" not in moves
    assert any(m.startswith("discard") for m in moves)
    refuse(g, "ana", "draw", "wrong_phase")
    refuse(g, "ana", "take", "wrong_phase")
    card = g.hand("ana")[0]
    g.play("ana", f"discard {card}")
    assert g.discard_pile == [card] and len(g.hand("ana")) == 7
    assert g.actors == ["bob"] and g.phase == "draw"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-28 · Penalty-mode game end. Totals A 92, B 60, C 45; C goes out; A holds 12, B holds 30.
# ---------------------------------------------------------------------------------------------
def test_ec28_penalty_game_end():
    g = load("""
        [Variant "basic"]
        [Options "scoring_mode=penalty"]
        [Seats "ana bob cy"]
        [Dealer "bob"]
        [Totals "ana=92 bob=60 cy=45"]
        [Hand "ana" "5H 7D"]
        [Hand "bob" "KH QD JC"]
        [Hand "cy" "7S 8S 9S QC"]
        [Turn "cy"]
        [Phase "play"]
        cy meld 7S 8S 9S
        cy discard QC
    """)
    assert g.hand_points == {"ana": 12, "bob": 30, "cy": 0}
    assert g.totals == {"ana": 104, "bob": 90, "cy": 45}
    assert g.game_over and g.winners == ["cy"]
    assert g.final_scores == {"ana": 104, "bob": 90, "cy": 45}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Timeouts (rules.md §0.4): draw from the stock and discard it; after a take, the highest-valued
# legal discard.
# ---------------------------------------------------------------------------------------------
def test_timeout_draw_phase():
    g = load(EC18 + "ana take\nana discard JH\n")
    hand = g.hand("bob")
    refuse_timeout(g, "ana")
    g.timeout("bob")
    assert g.hand("bob") == hand and g.discard_pile[-1] == "2C"
    assert g.actors == ["ana"] and g.record().splitlines()[-1] == "bob timeout"
    roundtrip(g)


def test_timeout_after_take():
    g = load(EC18 + "ana take\n")
    g.timeout("ana")
    # JH is ana's only ten; 9D was taken and may not go back.
    assert "JH" not in g.hand("ana") and "9D" in g.hand("ana")
    assert g.discard_pile[-1] == "JH" and g.actors == ["bob"]
    roundtrip(g)


def test_timeout_after_stock_draw():
    g = load(EC18 + "ana draw\n")
    g.timeout("ana")
    assert "2C" not in g.hand("ana") and g.discard_pile[-1] == "2C"
    roundtrip(g)


def refuse_timeout(g, seat):
    before = snapshot(g)
    with pytest.raises(IllegalMove) as info:
        g.timeout(seat)
    assert info.value.code == "not_your_turn"
    assert snapshot(g) == before


# ---------------------------------------------------------------------------------------------
# Resigning in a 3-player game: the game goes on without the seat, which finishes last.
# ---------------------------------------------------------------------------------------------
RESIGN3 = """
    [Variant "basic"]
    [Options "game_end=hands:1"]
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Totals "ana=10 bob=99 cy=50"]
    [Hand "ana" "2D 5S 9C 7H"]
    [Hand "bob" "KS KH"]
    [Hand "cy" "8C 8D 8H"]
    [Table "bob: 4H 5H 6H"]
    [Stock "AS QS JD"]
    [Turn "ana"]
"""


def test_resign_out_of_turn_three_players():
    g = load(RESIGN3 + "ana draw\n")
    g.play("bob", "resign")
    assert not g.game_over and g.actors == ["ana"] and g.phase == "play"
    assert g.hand("bob") == []
    assert g.table == [["4H", "5H", "6H"]]  # bob's meld stays
    assert [s.resigned for s in g.public_view().seats] == [False, True, False]
    refuse(g, "bob", "draw", "resigned")
    g.play("ana", "discard AS")
    assert g.actors == ["cy"]  # bob is skipped
    play_all(g, "cy draw\ncy meld 8C 8D 8H\ncy discard QS")
    # cy collects only from ana (2+5+9+7 = 23); bob's set-aside hand is not scored.
    assert g.hand_points == {"ana": 0, "bob": 0, "cy": 23}
    assert g.totals == {"ana": 10, "bob": 99, "cy": 73}
    # The game ends (hands:1): bob has the highest total but finishes last.
    assert g.game_over and g.winners == ["cy"]
    roundtrip(g)


def test_resign_on_own_turn_three_players():
    g = load(RESIGN3 + "ana draw\nana discard AS\n")
    assert g.actors == ["bob"]
    g.play("bob", "resign")
    assert g.actors == ["cy"] and g.phase == "draw"
    assert g.legal_moves("bob") == []
    roundtrip(g)


@pytest.mark.parametrize(("mode", "totals"), [("winner_collects", "ana=80 bob=5"), ("penalty", "ana=5 bob=80")])
def test_resign_two_player_basic(mode, totals):
    # ana leads, but resigns: bob wins at once.
    g = load(EC18.replace('[Turn "ana"]', f'[Turn "ana"]\n[Options "scoring_mode={mode}"]\n[Totals "{totals}"]'))
    g.play("ana", "resign")
    assert g.game_over and g.winners == ["bob"] and g.actors == []
    roundtrip(g)


def test_refused_moves_leave_the_game_unchanged():
    g = load(EC16.format(options=""))
    refuse(g, "bob", "draw", "not_your_turn")
    refuse(g, "ana", "draw", "wrong_phase")
    refuse(g, "ana", "meld 8C 9C TC", "not_in_hand")
    refuse(g, "ana", "meld 5C 6C 9D", "invalid_meld")
    refuse(g, "ana", "layoff KD to 7", "no_such_meld")
    refuse(g, "ana", "knock KD", "unknown_move")
    roundtrip(g)


def test_wrotham_a_joker_held_before_taking_another_may_stay_to_be_discarded():
    # §1.3.4 with identical cards (found by the long property run, wrotham seed 105): ana holds a
    # joker and takes the discarded one; laying one off leaves the joker she held before, which she
    # may discard (the taken one went to the table), even with last_discard_required.
    g = load(
        """[Variant "wrotham"]
[Options "last_discard_required=true"]
[Seats "ana bea"]
[Hand "ana" "JK"]
[Hand "bea" "2C 3D 8S 9H KD QC TS"]
[Discard "JK"]
[Table "ana: 3S 3H 3C"]
[Turn "ana"]
ana take
"""
    )
    assert "layoff JK=3D to 1" in g.legal_moves("ana")
    g.play("ana", "layoff JK=3D to 1")
    assert g.legal_moves("ana") == ["discard JK"]
    g.play("ana", "discard JK")
    assert g.hand_over
    roundtrip(g)


def test_wrotham_a_joker_got_back_by_exchange_may_be_kept_to_discard_after_laying_off_the_taken_one():
    # Same rule (found by the long property run, wrotham seed 106): ana takes the discarded joker,
    # gets a second one back by exchange, lays one off and discards the other.
    g = load(
        """[Variant "wrotham"]
[Options "last_discard_required=true"]
[Seats "ana bea"]
[Hand "ana" "5D"]
[Hand "bea" "2C 3D 8S 9H KD QC TS"]
[Discard "JK"]
[Table "bea: 5S 5H JK=5D | 3S 3H 3C"]
[Turn "ana"]
ana take
ana swap 5D to 1
"""
    )
    assert g.hand("ana") == ["JK", "JK"]
    assert "layoff JK=3D to 2" in g.legal_moves("ana")
    g.play("ana", "layoff JK=3D to 2")
    assert g.legal_moves("ana") == ["discard JK"]
    g.play("ana", "discard JK")
    assert g.hand_over
    roundtrip(g)
