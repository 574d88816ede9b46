"""The rearrange builder's draft (``bot.service.builder``, issue 13): pure operations, checks, the move it
plays, and its JSON; each move a draft builds is judged by the engine itself."""

from __future__ import annotations

import pytest

from bot.engine import load_game
from bot.service.builder import AMBIGUOUS, INVALID, VALID, BuilderError, Draft, check_meld, status_of

RAMI = """[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "p1 p2"]
[Hand "p1" "6H 7H 8H 6D QS JK"]
[Hand "p2" "KD QD 9C 8H 3D"]
[Table "p1: 3C 4C 5C 6C 7C 8C 9C | p2: QH QD QC"]
[Opened "p1 p2"]
[Turn "p1"]
[Phase "play"]
"""

TRADICIONAL = """[Variant "tradicional"]
[Seats "p1 p2"]
[Hand "p1" "6H 6D 2C 9D"]
[Hand "p2" "KD QD 9S 8H 3D"]
[Table "3C 4C 5C 6C 7C 8C 9C"]
[Discard "4D"]
[Turn "p1"]
[Phase "play"]
"""


def start(record: str = RAMI):
    game = load_game(record)
    draft = Draft.start(game.table, game.hand("p1"), [m.owner for m in game.melds])
    return game, draft


def plays(game, move: str) -> None:
    game.play("p1", move)  # the engine accepts it (raises IllegalMove otherwise)


def test_a_fresh_draft_changes_nothing_and_cannot_be_played() -> None:
    game, d = start()
    assert not d.changed_anything() and d.changed() == [False, False]
    assert [c.state for c in d.checks(game.meld_rules)] == [VALID, VALID]
    with pytest.raises(BuilderError) as err:
        d.move(game.meld_rules)
    assert err.value.code == "builder_nothing_changed"


def test_split_a_run_move_a_card_and_add_hand_cards_is_one_legal_table_move() -> None:
    game, d = start()
    # Take 6C out of the long run: it splits into 3-5C and 7-9C (both still valid).
    run = d.melds[0]
    d.take_out([(1, run.index("6C"))])
    assert d.loose == ["6C"] and d.picked_loose == {0}
    assert [c.state for c in d.checks(game.meld_rules)] == [INVALID, VALID]  # 3C 4C 5C 7C 8C 9C
    # 6C with 6H 6D from the hand: a new set.
    d.pick([0], [d.rest.index("6H"), d.rest.index("6D")])
    d.new_meld()
    assert d.loose == [] and sorted(d.melds[-1]) == ["6C", "6D", "6H"]
    # Split what is left of the run: take 7C 8C 9C out and make them a meld of their own.
    run = d.melds[0]
    d.take_out([(1, run.index("7C")), (1, run.index("8C")), (1, run.index("9C"))])
    d.new_meld()
    # QS from the hand to the queens.
    d.pick([], [d.rest.index("QS")])
    d.add_to(2)
    checks = d.checks(game.meld_rules)
    assert all(c.state == VALID for c in checks), (d.melds, checks)
    assert d.changed() == [True, True, True, True]
    assert d.placed() == 3
    move = str(d.move(game.meld_rules))
    assert move.startswith("table ")
    plays(game, move)
    assert sorted(game.hand("p1")) == ["7H", "8H", "JK"]


def test_a_hand_card_taken_back_out_returns_to_the_hand_not_to_loose() -> None:
    _, d = start()
    d.pick([], [d.rest.index("QS")])
    d.add_to(2)
    d.take_apart([2])
    assert sorted(d.loose) == ["QC", "QD", "QH"] and "QS" in d.rest and d.placed() == 0
    assert d.picked_loose == {0, 1, 2}
    d.new_meld()  # the queens again, as a new meld
    assert not d.loose


def test_undo_and_start_over() -> None:
    _, d = start()
    d.take_apart([1])
    assert len(d.melds) == 1 and len(d.loose) == 7
    d.undo_last()
    assert d.melds == d.table and not d.loose
    with pytest.raises(BuilderError):
        d.undo_last()
    d.take_apart([1, 2])
    d.start_over()
    assert d.melds == d.table and d.rest == d.hand and not d.loose
    d.undo_last()  # start over itself can be undone
    assert not d.melds and len(d.loose) == 10


def test_a_hand_joker_in_a_new_meld_is_asked_about_and_played_as_a_meld_move() -> None:
    game, d = start()
    d.pick([], [d.rest.index(c) for c in ("7H", "8H", "JK")])
    d.new_meld()
    checks = d.checks(game.meld_rules)
    assert checks[-1].state == AMBIGUOUS and len(checks[-1].readings) == 2
    with pytest.raises(BuilderError) as err:
        d.move(game.meld_rules)
    assert err.value.code == "builder_joker_open" and err.value.params == {"number": 3}
    readings = checks[-1].readings
    choice = next(i for i, r in enumerate(readings) if "JK=9H" in r)
    d.settle_joker(3, choice, game.meld_rules)
    assert "JK=9H" in d.melds[-1] and d.checks(game.meld_rules)[-1].state == VALID
    move = str(d.move(game.meld_rules))
    # Rami: a hand joker goes down only in a new meld (§3.3): the draft plays a meld move.
    assert move.split()[0] == "meld" and "JK=9H" in move
    plays(game, move)


def test_refusals_change_nothing() -> None:
    game, d = start()
    before = d.to_json()
    for op in (lambda: d.new_meld(), lambda: d.add_to(1), lambda: d.take_apart([]), lambda: d.take_apart([9]),
               lambda: d.take_out([(1, 40)]), lambda: d.pick([0], []), lambda: d.add_to(0),
               lambda: d.settle_joker(1, 0, game.meld_rules)):
        with pytest.raises(BuilderError):
            op()
        assert d.to_json() == before


def test_json_round_trip_keeps_everything() -> None:
    _, d = start()
    d.take_out([(1, 0)])
    d.pick([0], [1])
    d.pages["pick"] = 1
    again = Draft.from_json(d.to_json())
    assert again == d
    with pytest.raises(ValueError):
        Draft.from_json('{"v": 99}')


def test_owners_follow_unchanged_melds_only() -> None:
    _, d = start()
    assert d.owners_now() == ["p1", "p2"]
    d.pick([], [d.rest.index("QS")])
    d.add_to(2)
    assert d.owners_now() == ["p1", None]


def test_status_numbers() -> None:
    game, d = start()
    d.take_out([(1, 3)])  # 6C out: the run is broken
    d.pick([], [0])
    s = status_of(d, game.meld_rules)
    assert (s.invalid, s.open_jokers, s.placed, s.loose, s.opening) == (1, 0, 0, 1, None)
    d.pick([], [d.rest.index(c) for c in ("7H", "8H", "JK")])
    d.new_meld()
    s = status_of(d, game.meld_rules, lambda dr: game.opening_points(dr.changed_melds()), 30)
    assert s.placed == 3 and s.open_jokers == 1 and s.opening is not None and s.opening[1] == 30


def test_tradicional_split_and_extend_is_played_by_the_engine() -> None:
    game, d = start(TRADICIONAL)
    run = d.melds[0]
    d.take_out([(1, run.index("6C"))])
    d.pick([0], [d.rest.index("6H"), d.rest.index("6D")])
    d.new_meld()
    d.take_out([(1, d.melds[0].index(c)) for c in ("7C", "8C", "9C")])
    d.new_meld()
    assert [c.state for c in d.checks(game.meld_rules)] == [VALID, VALID, VALID]
    plays(game, d.move(game.meld_rules))
    assert len(game.table) == 3


def test_check_meld_reads_like_the_engine() -> None:
    rules = load_game(RAMI).meld_rules
    assert check_meld(["5H", "6H", "7H"], rules).state == VALID
    assert check_meld(["5H", "6H"], rules).state == INVALID
    assert check_meld(["5H", "XX", "7H"], rules).state == INVALID
    assert check_meld(["JK", "6H", "7H"], rules).state == AMBIGUOUS


def test_a_suggestion_fills_the_draft() -> None:
    _, d = start()
    d.fill([["3C", "4C", "5C", "6C", "7C", "8C", "9C"], ["QH", "QD", "QC", "QS"][:3], ["6H", "7H", "8H"]])
    assert d.placed() == 3 and "6H" not in d.rest
    with pytest.raises(BuilderError):
        d.fill([["AS", "2S", "3S"]])


def test_the_builder_selects_page_through_more_than_25_cards() -> None:
    """cogs.builder's choices: past 25, a page of 23 with "more"/"back"; picks on other pages stay;
    a value the page did not offer is refused and changes nothing."""
    from cogs.builder import BACK, NEXT, _paged, apply_select, choices

    game = load_game(RAMI)
    hand = [f"{r}{s}" for s in "SHDC" for r in "23456789"][:30]
    d = Draft.start(game.table, hand)
    shown = _paged("pick", choices("pick", d, game, "es"), d, "es")
    assert len(shown) == 24 and shown[-1][0] == NEXT
    apply_select("pick", ["h0", "h5"], d, game, "es")
    assert d.picked_hand == {0, 5}
    apply_select("pick", ["h5", NEXT], d, game, "es")  # h0 let go on the way to the next page
    assert d.pages["pick"] == 1 and d.picked_hand == {5}
    apply_select("pick", [BACK], d, game, "es")
    apply_select("pick", ["h0", "h5", NEXT], d, game, "es")
    assert d.pages["pick"] == 1
    shown = _paged("pick", choices("pick", d, game, "es"), d, "es")
    assert [v for v, _ in shown] == [f"h{i}" for i in range(23, 30)] + [BACK]
    apply_select("pick", ["h29"], d, game, "es")
    assert d.picked_hand == {0, 5, 29}
    before = d.to_json()
    with pytest.raises(BuilderError):
        apply_select("pick", ["h1"], d, game, "es")  # on page 1, h1 is not offered
    with pytest.raises(BuilderError):
        apply_select("put", ["to9"], d, game, "es")
    assert d.to_json() == before
    apply_select("put", ["new"], d, game, "es")
    assert d.melds[-1] == ["2S", "7S", "7C"] and not d.picked_hand
