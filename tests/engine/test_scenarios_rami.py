"""Acceptance scenarios for Rami: rules.md §3 and the edge cases of §7.3, written as RGN.

Each test lays out a position with RGN tags (notation.md "Positions"), plays moves, and checks
what a player would notice: refused moves (code, unchanged game), every credit and debit in
``game.ledger``, ``hand_points`` / ``totals`` at the end of a round, the table in canonical form,
turn obligations (a retrieved joker, a taken discard) and the timeout rollback with its 300-point
penalty (§3.9). Every scenario ends with a record round trip. Defaults (rules.md §7.3): normal
scoring, opening >= 50, simple discard mode, two decks and four jokers for two players.

Normal placement values (§3.2): 2-9 = 5, T-K = 10, an ace 5 below a 2 and 15 above a K or in a
set, a joker what it stands for. Left in hand: ace 15, joker 20.
"""

from __future__ import annotations

import pytest

from tests.engine.rgn_helpers import deal_counts, ledger_of, load, play_all, refuse, refuse_any, roundtrip

# ---------------------------------------------------------------------------------------------
# EC-29 · The seed's example, part 1: Bob (bea) retrieves Alice's (ana) joker.
#
#   ana opened and melded QS KS JK=AS (credited 10 + 10 + 15 = 35, [Credits]). bea has opened,
#   draws 9C and holds AS 7H 7D 9C. She puts AS in the joker's place and melds 7H 7D JK:
#   +15 (ace above the K) - 15 (joker removed) + 5 + 5 + 5 = +15 (no debit: +30).
#   Then bea discards 9C and goes out; ana's hand 3C 8D TH KC = 5+5+10+10 = 30 goes to bea.
# ---------------------------------------------------------------------------------------------
EC29 = """
    [Variant "rami"]
    {options}
    [Seats "ana bea"]
    [Dealer "ana"]
    [Hand "ana" "3C 8D TH KC"]
    [Hand "bea" "AS 7H 7D"]
    [Table "ana: QS KS JK=AS"]
    [Stock "9C 5S 6S"]
    [Opened "ana bea"]
    [Credits "ana=35"]
    [Turn "bea"]
    bea draw
"""


@pytest.mark.parametrize(
    ("options", "lines"),
    [
        ("", [(-15, "joker_retrieved"), (15, "card_for_joker"), (15, "meld")]),
        ('[Options "joker_retrieval_debit=false"]', [(15, "card_for_joker"), (15, "meld")]),
    ],
)
def test_ec29_bob_retrieves_alices_joker(options, lines):
    g = load(EC29.format(options=options))
    assert g.table == [["QS", "KS", "JK=AS"]]
    assert "swap AS to 1" in g.legal_moves("bea")
    g.play("bea", "swap AS to 1")
    assert g.table == [["QS", "KS", "AS"]]
    assert sorted(g.hand("bea")) == sorted(["7H", "7D", "9C", "JK"])
    # The joker must go into a new meld this turn: the turn cannot end, and it cannot be laid off.
    refuse(g, "bea", "discard 9C", "joker_not_replayed")
    refuse(g, "bea", "discard JK", "joker_not_replayed")
    refuse(g, "bea", "layoff JK=JS to 1", "joker_layoff")
    assert not any(m.startswith("discard") for m in g.legal_moves("bea"))
    g.play("bea", "meld 7H 7D JK")
    assert g.table == [["QS", "KS", "AS"], ["7H", "7D", "JK=7"]]
    assert ledger_of(g, "bea") == lines
    assert sum(p for p, _ in lines) == (15 if not options else 30)
    assert ledger_of(g, "ana") == []  # Alice keeps her 35
    assert "discard 9C" in g.legal_moves("bea")
    g.play("bea", "discard 9C")  # bea's last card: she goes out (opened earlier: no rami)
    assert g.hand_over and g.public_view().result.winner == "bea"
    assert ledger_of(g, "bea")[-1] == (30, "hand_values")
    assert g.hand_points == {"ana": 35, "bea": sum(p for p, _ in lines) + 30}
    assert g.totals == g.hand_points
    roundtrip(g)


@pytest.mark.parametrize(("mode", "penalty"), [("normal", -300), ("elimination", 300)])
def test_ec29_timeout_with_the_joker_in_hand_rolls_back_and_costs_300(mode, penalty):
    g = load(EC29.format(options=f'[Options "scoring_mode={mode}"]'))
    g.play("bea", "swap AS to 1")
    assert g.table == [["QS", "KS", "AS"]]
    events = g.timeout("bea")
    assert [e.kind for e in events][:2] == ["timed_out", "penalty"]
    # Back to the state right after the draw (9C drawn), then the timeout rule: 9C is discarded.
    assert g.table == [["QS", "KS", "JK=AS"]]
    assert sorted(g.hand("bea")) == sorted(["AS", "7H", "7D"])
    assert g.discard_pile[-1] == "9C"
    assert ledger_of(g, "bea") == [(penalty, "penalty")]
    assert ledger_of(g, "ana") == []
    assert g.actors == ["ana"] and g.phase == "draw"
    assert g.record().splitlines()[-1] == "bea timeout"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Timeout after the draw (rules.md §0.4, §3.9): with an obligation open, the turn returns to its
# state right after its draw and the timeout rule discards. It never draws a second card, also
# in a position that starts after the draw ([Phase "play"]) or after a take (EC-45 below).
# ---------------------------------------------------------------------------------------------
def test_timeout_in_a_play_position_rolls_back_without_drawing_again():
    g = load("""
        [Variant "rami"]
        [Seats "ana bea"]
        [Dealer "ana"]
        [Hand "ana" "3C 8D TH KC"]
        [Hand "bea" "AS 7H 7D 9C"]
        [Table "ana: QS KS JK=AS"]
        [Stock "5S 6S 7S"]
        [Opened "ana bea"]
        [Turn "bea"]
        [Phase "play"]
        bea swap AS to 1
    """)
    events = g.timeout("bea")
    assert [e.kind for e in events][:2] == ["timed_out", "penalty"]
    assert g.table == [["QS", "KS", "JK=AS"]]
    assert g.stock_count == 3 and "5S" not in g.hand("bea")  # no second card
    # The position's hand is the state after the draw; nothing was drawn this turn, so the
    # highest-valued legal card goes: AS (15 in hand, §3.2).
    assert g.discard_pile[-1] == "AS" and sorted(g.hand("bea")) == sorted(["7H", "7D", "9C"])
    assert ledger_of(g, "bea") == [(-300, "penalty")]
    assert g.actors == ["ana"] and g.phase == "draw"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-31 · A joker cannot extend a meld: 5H 6H 7H + JK (as 8H) refused; a real 8H is +5.
# ---------------------------------------------------------------------------------------------
EC31 = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "JK 8H KD 4C 9S"]
    [Hand "bea" "2C 3D 4S KC"]
    [Table "bea: 5H 6H 7H | bea: 7S 7H 7D"]
    [Opened "ana bea"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec31_joker_cannot_extend_a_meld():
    g = load(EC31)
    refuse(g, "ana", "layoff JK=8H to 1", "joker_layoff")
    refuse(g, "ana", "layoff JK=4H to 1", "joker_layoff")
    refuse(g, "ana", "layoff JK to 2", "joker_layoff")  # the set's only reading: JK=7C
    refuse(g, "ana", "layoff JK=7C to 2", "joker_layoff")
    assert not any(m.startswith("layoff JK") for m in g.legal_moves("ana"))
    assert "layoff 8H to 1" in g.legal_moves("ana")
    g.play("ana", "layoff 8H to 1")
    assert g.table == [["5H", "6H", "7H", "8H"], ["7S", "7H", "7D"]]
    assert ledger_of(g, "ana") == [(5, "layoff")]
    refuse(g, "ana", "layoff JK=9H to 1", "joker_layoff")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-32 · One joker per combination.
# ---------------------------------------------------------------------------------------------
def test_ec32_one_joker_per_combination():
    g = load("""
        [Variant "rami"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "9C TC JK JK JK 7H 7D 3S 8S"]
        [Hand "bea" "2C 3D 4S KC"]
        [Opened "ana bea"]
        [Turn "ana"]
        [Phase "play"]
    """)
    refuse(g, "ana", "meld 9C JK JK", "invalid_meld")
    refuse(g, "ana", "meld 9C TC JK JK", "invalid_meld")
    # QS KS JK-style ambiguity (§3.3): a joker at the end of 9C TC must say where it sits.
    err = refuse(g, "ana", "meld 9C TC JK", "ambiguous_wild")
    assert sorted(err.params["readings"]) == sorted(["JK=8C 9C TC", "9C TC JK=JC"])
    g.play("ana", "meld 9C TC JK=JC")
    g.play("ana", "meld 7H 7D JK")
    assert g.table == [["9C", "TC", "JK=JC"], ["7H", "7D", "JK=7"]]
    assert ledger_of(g, "ana") == [(5 + 10 + 10, "meld"), (5 + 5 + 5, "meld")]
    # A second joker in 7H 7D JK=7 is refused, whatever it would stand for.
    for move in ("layoff JK to 2", "layoff JK=7S to 2", "layoff JK=7C to 2"):
        refuse_any(g, "ana", move, ("joker_layoff", "invalid_layoff"))
    assert g.table[1] == ["7H", "7D", "JK=7"]
    assert not any(m.startswith("layoff JK") for m in g.legal_moves("ana"))
    refuse(g, "ana", "meld 3S JK JK", "invalid_meld")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-33 · Opening minimum (normal values), first_meld_min = 50, ana not opened.
# ---------------------------------------------------------------------------------------------
EC33 = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "2C 3D 4S KC"]
    [Table "bea: 4C 5C 6C"]
    [Opened "bea"]
    [Turn "ana"]
    [Phase "play"]
"""
HAND33 = "TS JS QS 4D 5D 6D 7C JH QH KH AH 2C 3C 4C"


def test_ec33a_45_is_not_enough():
    g = load(EC33.format(hand=HAND33))
    err = refuse(g, "ana", "meld TS JS QS | 4D 5D 6D", "opening_too_low")  # 30 + 15 = 45
    assert err.params["value"] == 45 and err.params["minimum"] == 50
    refuse(g, "ana", "meld TS JS QS", "opening_too_low")
    assert "ana" not in g.opened and ledger_of(g, "ana") == []
    roundtrip(g)


def test_ec33b_ace_above_the_king_makes_60():
    g = load(EC33.format(hand=HAND33))
    g.play("ana", "meld JH QH KH AH | 2C 3C 4C")  # 10+10+10+15 = 45, + 15 = 60
    assert g.table == [["4C", "5C", "6C"], ["JH", "QH", "KH", "AH"], ["2C", "3C", "4C"]]
    assert ledger_of(g, "ana") == [(45, "meld"), (15, "meld")]
    assert "ana" in g.opened
    # Once open, the same turn may lay off (§3.5): 7C on 4C 5C 6C, +5.
    g.play("ana", "layoff 7C to 1")
    assert ledger_of(g, "ana")[-1] == (5, "layoff")
    roundtrip(g)


def test_ec33c_exactly_fifty_with_a_joker():
    g = load(EC33.format(hand="KS KH JK 5D 6D 7D 8D 9S 3H 9H"))
    g.play("ana", "meld KS KH JK | 5D 6D 7D 8D")  # 30 + 20 = 50
    assert g.table[1:] == [["KS", "KH", "JK=K"], ["5D", "6D", "7D", "8D"]]
    assert ledger_of(g, "ana") == [(30, "meld"), (20, "meld")]
    assert "ana" in g.opened
    roundtrip(g)


def test_ec33d_layoffs_do_not_count_and_are_not_allowed_before_opening():
    g = load(EC33.format(hand=HAND33))
    assert not any(m.startswith(("layoff", "swap")) for m in g.legal_moves("ana"))
    refuse(g, "ana", "layoff 7C to 1", "not_opened")
    err = refuse(g, "ana", "meld TS JS QS | 4D 5D 6D", "opening_too_low")
    assert err.params["value"] == 45  # the 7C could not have helped
    assert g.table == [["4C", "5C", "6C"]]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-34 · Opening minimum (traditional values): JH QH KH AH = 41, 2C 3C 4C = 9, total 50.
# ---------------------------------------------------------------------------------------------
def test_ec34_traditional_values():
    g = load(
        EC33.format(hand="JH QH KH AH 2C 3C 4C AH 2H 3H 9D").replace(
            '[Turn "ana"]', '[Turn "ana"]\n[Options "scoring_mode=traditional"]'
        )
    )
    assert refuse(g, "ana", "meld AH 2H 3H", "opening_too_low").params["value"] == 1 + 2 + 3
    assert refuse(g, "ana", "meld JH QH KH | 2C 3C 4C", "opening_too_low").params["value"] == 30 + 9
    g.play("ana", "meld JH QH KH AH | 2C 3C 4C")
    assert ledger_of(g, "ana") == [(41, "meld"), (9, "meld")]
    g.play("ana", "meld AH 2H 3H")  # open now: any meld may follow
    assert ledger_of(g, "ana")[-1] == (6, "meld")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-35 · Restrictions before opening: no taking the discard, no layoff, no joker retrieval.
# ---------------------------------------------------------------------------------------------
EC35 = """
    [Variant "rami"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "9C 4H 7S 8S KD QC 3D"]
    [Hand "bea" "2C 3S 4S KC"]
    [Table "bea: 5H 6H 7H | bea: 9S 9H 9D JK=9C"]
    [Discard "8H"]
    [Opened "bea"]
    [Turn "ana"]
"""


def test_ec35_restrictions_before_opening():
    g = load(EC35.format(options=""))
    assert g.legal_moves("ana") == ["draw"]  # 8H would fit 5H 6H 7H, but ana has not opened
    refuse(g, "ana", "take", "not_opened")
    g.play("ana", "draw")
    refuse(g, "ana", "layoff 4H to 1", "not_opened")
    refuse(g, "ana", "swap 9C to 2", "not_opened")
    assert not any(m.startswith(("layoff", "swap", "table")) for m in g.legal_moves("ana"))
    roundtrip(g)


def test_retrieval_before_opening_never_strands_the_player():
    """retrieval_requires_opened=false (§3.6): a player who has not opened may retrieve, but the
    joker must still go into a new meld this turn, and a new meld before opening must reach 50.
    ana's 7S 8S JK would be 20: the retrieval must be refused (every move is judged on its own,
    §0.4), not leave her with a turn she can neither end nor complete."""
    g = load(EC35.format(options='[Options "retrieval_requires_opened=false"]') + "ana draw\n")
    if "swap 9C to 2" in g.legal_moves("ana"):
        g.play("ana", "swap 9C to 2")
        assert g.legal_moves("ana"), "ana retrieved a joker she can never replay: no legal move is left"
    else:
        refuse(g, "ana", "swap 9C to 2", "joker_cannot_be_replayed")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-36 · Ace values: AS 2S 3S = 15, QS KS AS = 35, AS AH AD = 45, KS AS 2S refused.
# Left in hand at the end: ace 15, joker 20.
# ---------------------------------------------------------------------------------------------
EC36 = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 2S 3S QS KS AS AH AD AC 9C"]
    [Hand "bea" "AD JK"]
    [Opened "ana bea"]
    [Turn "ana"]
    [Phase "play"]
"""


@pytest.mark.parametrize(
    ("meld", "table", "value"),
    [
        ("AS 2S 3S", ["AS", "2S", "3S"], 5 + 5 + 5),
        ("QS KS AS", ["QS", "KS", "AS"], 10 + 10 + 15),
        ("AH AD AS", ["AS", "AH", "AD"], 15 + 15 + 15),
    ],
)
def test_ec36_ace_placement_values(meld, table, value):
    g = load(EC36)
    g.play("ana", f"meld {meld}")
    assert g.table == [table]
    assert ledger_of(g, "ana") == [(value, "meld")]
    roundtrip(g)


def test_ec36_no_wrap_and_hand_values():
    g = load(EC36)
    refuse(g, "ana", "meld KS AS 2S", "invalid_meld")
    play_all(g, "ana meld AS 2S 3S\nana meld QS KS AS\nana meld AH AD AC\nana discard 9C")
    assert g.hand_over and g.public_view().result.winner == "ana"
    assert deal_counts(g)["bea"] == 15 + 20  # AD 15, JK 20
    # opened earlier (no rami); bea placed nothing: +100
    assert ledger_of(g, "ana") == [
        (15, "meld"),
        (35, "meld"),
        (45, "meld"),
        (35, "hand_values"),
        (100, "nobody_else_placed"),
    ]
    assert g.hand_points == {"ana": 15 + 35 + 45 + 35 + 100, "bea": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-39 · Manipulation: 4D taken off 4D 5D 6D 7D into 4H 4D 4C: +5+5+5 - 5 = +10.
# EC-40 · Manipulation: the second 8S splits 6S..TS into 6S 7S 8S + 8S 9S TS: +5.
# ---------------------------------------------------------------------------------------------
MANIP = """
    [Variant "rami"]
    [Options "table_manipulation={on}"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "2C 3D 4S KC"]
    [Table "bea: {table}"]
    [Opened "ana bea"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_ec39_end_card_into_a_new_group():
    g = load(MANIP.format(on="true", hand="4H 4C KD QH", table="4D 5D 6D 7D"))
    move = "table 5D 6D 7D | 4H 4D 4C"
    assert move in g.legal_moves("ana")
    g.play("ana", "table 5D 6D 7D | 4H 4C 4D")
    assert g.table == [["5D", "6D", "7D"], ["4H", "4D", "4C"]]
    assert ledger_of(g, "ana") == [(5 + 5 + 5 - 5, "table_move")]
    assert g.record().splitlines()[-1] == f"ana {move}"
    g.play("ana", "discard KD")
    roundtrip(g)


def test_ec40_split_a_run_with_a_duplicate():
    g = load(MANIP.format(on="true", hand="8S KD QH", table="6S 7S 8S 9S TS"))
    assert "table 6S 7S 8S | 8S 9S TS" in g.legal_moves("ana")
    g.play("ana", "table 6S 7S 8S | 8S 9S TS")
    assert g.table == [["6S", "7S", "8S"], ["8S", "9S", "TS"]]
    assert ledger_of(g, "ana") == [(5, "table_move")]
    roundtrip(g)


def test_manipulation_is_off_by_default():
    g = load(MANIP.format(on="false", hand="4H 4C KD QH", table="4D 5D 6D 7D"))
    refuse(g, "ana", "table 5D 6D 7D | 4H 4D 4C", "unknown_move")
    assert not any(m.startswith("table") for m in g.legal_moves("ana"))
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-42 · Manipulation that would leave the table invalid. Every move is judged on its own
# (rules.md §0.4, notation.md): taking 7D off 5D 6D 7D is refused by the table move itself.
# A timeout with an obligation open restores the table and the hand and costs 300.
# ---------------------------------------------------------------------------------------------
def test_ec42_invalid_table_is_refused():
    g = load(MANIP.format(on="true", hand="8S KC QH 4D", table="5D 6D 7D"))
    refuse(g, "ana", "table 5D 6D", "invalid_table_meld")  # 7D into the hand, 5D 6D left
    refuse(g, "ana", "table 4D 5D 6D", "table_card_missing")  # valid melds, 7D still in hand
    assert g.table == [["5D", "6D", "7D"]] and "7D" not in g.hand("ana")
    # Nothing is open, so a timeout is an ordinary one: the highest-valued card goes, no penalty.
    g.timeout("ana")
    assert g.discard_pile[-1] in ("KC", "QH") and ledger_of(g, "ana") == []
    assert g.table == [["5D", "6D", "7D"]] and g.actors == ["bea"]
    roundtrip(g)


def test_ec42_timeout_restores_table_and_hand():
    g = load("""
        [Variant "rami"]
        [Options "table_manipulation=true"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "9C 4H 4C 7S 8S KD QC"]
        [Hand "bea" "2C 3D 4S KC"]
        [Table "bea: 9S 9H 9D JK=9C | bea: 4D 5D 6D 7D"]
        [Stock "5C 6C 7C"]
        [Opened "ana bea"]
        [Turn "ana"]
        ana draw
        ana swap 9C to 1
        ana table 9S 9H 9D 9C | 5D 6D 7D | 4H 4D 4C
    """)
    assert g.table == [["9S", "9H", "9D", "9C"], ["5D", "6D", "7D"], ["4H", "4D", "4C"]]
    assert ledger_of(g, "ana") == [(-5, "joker_retrieved"), (5, "card_for_joker"), (10, "table_move")]
    refuse(g, "ana", "discard KD", "joker_not_replayed")
    g.timeout("ana")
    assert g.table == [["9S", "9H", "9D", "JK=9C"], ["4D", "5D", "6D", "7D"]]
    assert sorted(g.hand("ana")) == sorted(["9C", "4H", "4C", "7S", "8S", "KD", "QC"])  # 5C drawn and discarded
    assert g.discard_pile[-1] == "5C"
    assert ledger_of(g, "ana") == [(-300, "penalty")]
    assert g.actors == ["bea"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-43 · Identities (identities=true, 4 decks).
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "meld", "value"),
    [
        ("normal", "7H 7H 7H", 3 * 15),
        ("traditional", "7H 7H 7H", 3 * 17),
        ("normal", "KS KS KS", 3 * 20),
        ("traditional", "KS KS KS", 3 * 20),
        ("normal", "AS AS AS", 3 * 25),
        ("traditional", "AS AS AS", 3 * 21),
    ],
)
def test_ec43_identities(mode, meld, value):
    g = load(f"""
        [Variant "rami"]
        [Options "identities=true scoring_mode={mode}"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "{meld} 7D 9C"]
        [Hand "bea" "2C 3D 4S KC"]
        [Opened "ana bea"]
        [Turn "ana"]
        [Phase "play"]
    """)
    g.play("ana", f"meld {meld}")
    assert g.table == [meld.split()]
    assert ledger_of(g, "ana") == [(value, "meld")]
    roundtrip(g)


def test_ec43_duplicate_suit_is_neither_identity_nor_group():
    g = load("""
        [Variant "rami"]
        [Options "identities=true"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "7H 7H 7D 9C"]
        [Hand "bea" "2C 3D 4S KC"]
        [Opened "ana bea"]
        [Turn "ana"]
        [Phase "play"]
    """)
    refuse(g, "ana", "meld 7H 7H 7D", "invalid_meld")
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# EC-45 · Simple discard mode: the top discard only if it is played this turn.
# ---------------------------------------------------------------------------------------------
EC45 = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "2S 5C 9D JH 9H"]
    [Hand "bea" "2C 3D 4S KC"]
    [Table "bea: 5H 6H 7H"]
    [Stock "5D 6D 7C"]
    [Discard "4S {top}"]
    [Opened "ana bea"]
    [Turn "ana"]
"""


def test_ec45_unplayable_discard_cannot_be_taken():
    g = load(EC45.format(top="QC"))
    assert g.legal_moves("ana") == ["draw"]
    refuse(g, "ana", "take", "cannot_play_taken")
    g.play("ana", "draw")
    assert "5D" in g.hand("ana") and g.discard_pile[-1] == "QC"
    roundtrip(g)


def test_taken_discard_must_be_played_before_the_turn_ends():
    g = load(EC45.format(top="8H"))
    assert "take" in g.legal_moves("ana")
    g.play("ana", "take")
    refuse(g, "ana", "discard 2S", "taken_card_not_played")
    refuse(g, "ana", "discard 8H", "taken_card_not_played")
    assert g.legal_moves("ana") == ["layoff 8H to 1"]
    g.play("ana", "layoff 8H to 1")
    assert ledger_of(g, "ana") == [(5, "layoff")]
    g.play("ana", "discard 2S")
    assert g.table == [["5H", "6H", "7H", "8H"]] and g.actors == ["bea"]
    roundtrip(g)


def test_timeout_with_a_taken_discard_unplayed_costs_300():
    g = load(EC45.format(top="8H") + "ana take\n")
    g.timeout("ana")
    assert ledger_of(g, "ana") == [(-300, "penalty")]
    assert g.table == [["5H", "6H", "7H"]]
    assert len(g.hand("ana")) == 5  # the turn's draw and discard leave five cards
    assert g.actors == ["bea"] and g.record().splitlines()[-1] == "ana timeout"
    roundtrip(g)


def test_timeout_after_a_take_returns_to_the_take_not_before_it():
    g = load(EC45.format(top="8H") + "ana take\n")
    g.timeout("ana")
    assert g.stock_count == 3 and "5D" not in g.hand("ana")  # the take was the turn's draw
    assert "8H" in g.hand("ana") and g.discard_pile[-1] == "JH"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# End of round (§3.8): the winner collects the others' hands (bea: 2C 3D 4S KD = 25) plus
# +100 if nobody else placed a card, rami 200, own-only rami 300, both 400.
# ---------------------------------------------------------------------------------------------
END = """
    [Variant "rami"]
    {options}
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "{hand}"]
    [Hand "bea" "2C 3D 4S KD"]
    {table}
    {opened}
    {credits}
    [Turn "ana"]
    [Phase "play"]
"""
OPEN = "JH QH KH AH 2C 3C 4C"  # 45 + 15 = 60
MELD_OPEN = "ana meld JH QH KH AH | 2C 3C 4C"


def end_game(hand, moves, table="", opened="", credits="", options=""):
    g = load(
        END.format(
            hand=hand,
            table=f'[Table "{table}"]' if table else "",
            opened=f'[Opened "{opened}"]' if opened else "",
            credits=f'[Credits "{credits}"]' if credits else "",
            options=f'[Options "{options}"]' if options else "",
        )
    )
    play_all(g, moves)
    assert g.hand_over and g.public_view().result.winner == "ana"
    return g


BONUS_CASES = {
    # opened earlier, nobody else placed: +100 (60 already credited, + 5 for 8H)
    "plus100": dict(
        hand="8H 9H",
        moves="ana layoff 8H to 1\nana discard 9H",
        table="ana: 5H 6H 7H",
        opened="ana",
        credits="ana=60",
        bonus=[(100, "nobody_else_placed")],
        placed=60 + 5,
    ),
    # rami with a layoff on bea's meld (not own-only): 200
    "rami200": dict(
        hand=OPEN + " 8H 9S",
        moves=f"{MELD_OPEN}\nana layoff 8H to 1\nana discard 9S",
        table="bea: 5H 6H 7H",
        opened="bea",
        bonus=[(200, "rami_bonus")],
        placed=60 + 5,
    ),
    # own-only rami while bea had placed: 300
    "rami300": dict(
        hand=OPEN + " 9S",
        moves=f"{MELD_OPEN}\nana discard 9S",
        table="bea: 5H 6H 7H",
        opened="bea",
        bonus=[(300, "rami_bonus")],
        placed=60,
    ),
    # own-only rami without a final discard, bea had placed: 300
    "rami300_no_discard": dict(
        hand=OPEN,
        moves=MELD_OPEN,
        table="bea: 5H 6H 7H",
        opened="bea",
        bonus=[(300, "rami_bonus")],
        placed=60,
    ),
    # rami on an empty table, nobody else placed: 300 + 100 = 400
    "rami400": dict(
        hand=OPEN + " 9S",
        moves=f"{MELD_OPEN}\nana discard 9S",
        bonus=[(300, "rami_bonus"), (100, "nobody_else_placed")],
        placed=60,
    ),
}


@pytest.mark.parametrize("case", list(BONUS_CASES))
def test_end_of_round_bonuses(case):
    c = dict(BONUS_CASES[case])
    bonus, placed = c.pop("bonus"), c.pop("placed")
    g = end_game(**c)
    lines = ledger_of(g, "ana")
    assert (25, "hand_values") in lines
    assert [line for line in lines if line[1] in ("rami_bonus", "nobody_else_placed")] == bonus
    assert g.hand_points == {"ana": placed + 25 + sum(p for p, _ in bonus), "bea": 0}
    assert g.totals == g.hand_points
    assert g.public_view().result.going_rummy is (case.startswith("rami"))
    roundtrip(g)


def test_rami_with_final_discard_not_allowed_by_option():
    c = dict(BONUS_CASES["rami300"])
    c.pop("bonus"), c.pop("placed")
    g = end_game(**c, options="rami_allows_final_discard=false")
    assert not any(code == "rami_bonus" for _, code in ledger_of(g, "ana"))
    assert g.hand_points == {"ana": 60 + 25, "bea": 0}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Elimination mode (§3.8): placed cards score nothing, the winner 0, each other player their
# hand (25) times 1, 2 (rami), 3 (own-only rami), 4 (own-only rami, nobody else placed).
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("case", "multiplier"),
    [("plus100", 1), ("rami200", 2), ("rami300", 3), ("rami300_no_discard", 3), ("rami400", 4)],
)
def test_elimination_multipliers(case, multiplier):
    c = dict(BONUS_CASES[case])
    c.pop("bonus"), c.pop("placed"), c.pop("credits", None)
    g = end_game(**c, options="scoring_mode=elimination")
    assert ledger_of(g, "ana") == []  # placements score nothing
    assert ledger_of(g, "bea") == [(25 * multiplier, "hand_left")]
    assert g.hand_points == {"ana": 0, "bea": 25 * multiplier}
    roundtrip(g)


@pytest.mark.parametrize(("before", "out"), [(175, False), (176, True)])
def test_elimination_threshold_exactly_equal_stays(before, out):
    g = end_game(
        "8H 9H",
        "ana layoff 8H to 1\nana discard 9H",
        table="ana: 5H 6H 7H",
        opened="ana",
        options="scoring_mode=elimination",
    )
    # replay with totals: 175 + 25 = 200 (not above 200), 176 + 25 = 201 (eliminated)
    text = g.record().replace('[Turn "ana"]', f'[Turn "ana"]\n[Totals "ana=0 bea={before}"]')
    g = load(text)
    assert g.totals == {"ana": 0, "bea": before + 25}
    assert g.game_over is out
    if out:
        assert g.winners == ["ana"] and g.final_scores == {"ana": 0, "bea": 201}
    else:
        assert g.winners == [] and g.next_deal()
    roundtrip(g)


def test_elimination_three_players_the_game_goes_on_without_the_eliminated():
    g = load("""
        [Variant "rami"]
        [Options "scoring_mode=elimination"]
        [Seats "ana bea cy"]
        [Dealer "cy"]
        [Totals "ana=20 bea=150 cy=190"]
        [Hand "ana" "8H 9H"]
        [Hand "bea" "2C 3D"]
        [Hand "cy" "KD 5C"]
        [Table "ana: 5H 6H 7H"]
        [Opened "ana"]
        [Turn "ana"]
        [Phase "play"]
        ana layoff 8H to 1
        ana discard 9H
    """)
    assert g.hand_points == {"ana": 0, "bea": 5 + 5, "cy": 10 + 5}
    assert g.totals == {"ana": 20, "bea": 160, "cy": 205}  # cy is above 200: out
    assert not g.game_over
    roundtrip(g)
    g.next_deal()
    assert [len(g.hand(s)) for s in ("ana", "bea", "cy")] == [14, 14, 0]
    assert g.legal_moves("cy") == [] and "cy" not in g.actors
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Discard modes (§3.7): none (no pile, `done`), one_way (never taken), multiple (take a card
# and all above it; the deepest must be played).
# ---------------------------------------------------------------------------------------------
MODES = """
    [Variant "rami"]
    [Options "discard_mode={mode}"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "9H 9S 5C 7D JH QH KH 4H"]
    [Hand "bea" "2C 3D 4S KD"]
    [Table "bea: 5H 6H 7H"]
    [Discard "{discard}"]
    [Opened "ana bea"]
    [Turn "ana"]
"""


def test_discard_mode_none_ends_the_turn_with_done():
    g = load(MODES.format(mode="none", discard="8H"))
    assert g.legal_moves("ana") == ["draw"]
    refuse(g, "ana", "take", "no_taking")
    g.play("ana", "draw")  # the draw stays compulsory; canonical stock: AS on top
    assert "AS" in g.hand("ana")
    moves = g.legal_moves("ana")
    assert moves[-1] == "done" and not any(m.startswith("discard") for m in moves)
    refuse(g, "ana", "discard 5C", "unknown_move")
    g.play("ana", "done")
    assert len(g.hand("ana")) == 9 and g.discard_pile == ["8H"] and g.actors == ["bea"]
    roundtrip(g)


def test_discard_mode_none_obligation_blocks_done():
    g = load("""
        [Variant "rami"]
        [Options "discard_mode=none"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "9C 7S 8S KD"]
        [Hand "bea" "2C 3D 4S KC"]
        [Table "bea: 9S 9H 9D JK=9C"]
        [Opened "ana bea"]
        [Turn "ana"]
        [Phase "play"]
        ana swap 9C to 1
    """)
    refuse(g, "ana", "done", "joker_not_replayed")
    g.play("ana", "meld JK=6S 7S 8S")
    g.play("ana", "done")
    roundtrip(g)


def test_discard_mode_one_way():
    g = load(MODES.format(mode="one_way", discard="8H"))
    assert g.legal_moves("ana") == ["draw"]
    refuse(g, "ana", "take", "no_taking")
    g.play("ana", "draw")
    refuse(g, "ana", "done", "unknown_move")
    g.play("ana", "discard 5C")
    assert g.discard_pile[-1] == "5C" and g.actors == ["bea"]
    roundtrip(g)


def test_discard_mode_multiple_takes_the_card_and_all_above():
    g = load(MODES.format(mode="multiple", discard="3C 9D 4S KC"))
    moves = g.legal_moves("ana")
    assert "take 9D" in moves and "take 4S" not in moves and "take" not in moves
    refuse(g, "ana", "take 4S", "cannot_play_taken")  # 4S could not be played
    refuse(g, "ana", "take", "cannot_play_taken")  # neither could KC
    g.play("ana", "take 9D")
    assert g.discard_pile == ["3C"]
    assert sorted(g.hand("ana")) == sorted(["9H", "9S", "5C", "7D", "JH", "QH", "KH", "4H", "9D", "4S", "KC"])
    refuse(g, "ana", "discard KC", "taken_card_not_played")  # the deepest card, 9D, is still in hand
    g.play("ana", "meld 9H 9S 9D")
    g.play("ana", "discard KC")  # the cards above it need not be played
    assert g.discard_pile == ["3C", "KC"]
    assert g.record().splitlines()[-3:] == ["ana take 9D", "ana meld 9S 9H 9D", "ana discard KC"]
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Stock exhausted (§3.7): the discard pile is shuffled into a new stock; with both empty, the
# round ends blocked: no winner, no end-of-round credit, no bonus.
# ---------------------------------------------------------------------------------------------
def test_stock_exhausted_reshuffles_the_discard_pile():
    g = load("""
        [Variant "rami"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "9H 9S 5C 7D JH QH KH 4H"]
        [Hand "bea" "2C 3D 4S KD"]
        [Table "bea: 5H 6H 7H"]
        [Stock ""]
        [Discard "3C 9D 4S KC"]
        [Opened "bea"]
        [Turn "ana"]
    """)
    pile = g.discard_pile
    assert g.stock_count == 0 and pile[:3] == ["3C", "9D", "4S"] and pile[-1] == "KC"
    events = g.play("ana", "draw")
    assert "stock_renewed" in [e.kind for e in events]
    assert g.discard_pile == [] and g.stock_count == len(pile) - 1
    assert len(g.hand("ana")) == 9 and not g.hand_over
    roundtrip(g)


def test_stock_and_discard_empty_round_is_blocked():
    runs = " | ".join(" ".join(f"{r}{s}" for r in "23456789TJQK") for s in "SHDC" for _ in range(2))
    g = load(f"""
        [Variant "rami"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "AS AH AD AC JK JK"]
        [Hand "bea" "AS AH AD AC JK JK"]
        [Table "{runs}"]
        [Stock ""]
        [Discard ""]
        [Opened "ana bea"]
        [Credits "ana=40 bea=25"]
        [Turn "ana"]
    """)
    assert g.legal_moves("ana") == ["draw"]
    g.play("ana", "draw")
    assert g.hand_over and g.public_view().result.outcome == "blocked"
    assert g.public_view().result.winner is None
    assert g.ledger == []  # no end-of-round credit, no bonus
    assert g.hand_points == {"ana": 40, "bea": 25} and g.totals == {"ana": 40, "bea": 25}
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# A taken joker and a retrieved one (long property run, rami seed 504): both are the same card,
# and each must leave the hand this turn in a new meld of its own (one joker a meld, no joker
# layoff, §3.3, §3.6, §3.7). ana takes the discarded JK, then could retrieve bea's JK=9D with 9D:
# with 5D 6D AC 2D she has one meld for one joker, so the retrieval is refused (it used to be
# accepted, leaving her a turn she could neither finish nor end); with 2C 2H she has two.
# ---------------------------------------------------------------------------------------------
TWO_JOKERS = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "5D 6D 9D {rest}"]
    [Hand "bea" "3C 8C KH"]
    [Table "bea: 8D JK=9D TD"]
    [Discard "4S JK"]
    [Stock "9C 5S 6S"]
    [Opened "ana bea"]
    [Turn "ana"]
    ana take
"""


def test_a_taken_joker_and_a_retrieved_one_need_a_new_meld_each():
    g = load(TWO_JOKERS.format(rest="AC 2D"))
    assert "swap 9D to 1" not in g.legal_moves("ana")
    refuse(g, "ana", "swap 9D to 1", "joker_cannot_be_replayed")
    play_all(g, "ana meld 5D 6D JK=7D\nana discard AC")
    roundtrip(g)

    g = load(TWO_JOKERS.format(rest="2C 2H"))
    assert "swap 9D to 1" in g.legal_moves("ana")
    g.play("ana", "swap 9D to 1")
    assert g.obligations("ana") == ["joker", "taken"]
    play_all(g, "ana meld 5D 6D JK=7D")
    assert g.obligations("ana") == ["taken"]  # one joker is still in hand: the other meld settles it
    assert g.legal_moves("ana") and not any(m.startswith("discard") for m in g.legal_moves("ana"))
    play_all(g, "ana meld 2C 2H JK=2")
    assert g.obligations("ana") == [] and g.hand("ana") == []
    roundtrip(g)
