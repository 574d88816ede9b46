"""The end-of-deal image: every hand's melds and deadwood, the points, the totals, the winner."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.engine import load_game
from renderers import draw_result, render_result
from renderers.samples import NAMES, built_result, built_view
from scripts.played import played_game, played_view

from .helpers import inside, overlaps

# A gin deal ended by a knock (rules.md §2.4, §2.5): ana knocks with 3D (3) in deadwood; bea lays
# 5S off on ana's spades and keeps 6H AD 2C (9). ana wins 9 - 3 = 6.
GIN_KNOCK = """[Variant "gin"]
[Seats "ana bea"]
[Dealer "bea"]
[Hand "ana" "2S 3S 4S 7H 7D 7C JH QH KH 3D 9C"]
[Hand "bea" "8S 9S TS 4H 4D 4C 5S AD 2C 6H"]
[Turn "ana"]
[Phase "play"]
ana knock 9C : 2S 3S 4S | 7H 7D 7C | JH QH KH
bea layoff 5S to 1
bea done
"""


def test_gin_shows_each_hand_its_deadwood_the_points_and_the_winner():
    view = load_game(GIN_KNOCK).public_view()
    result = view.result
    assert result is not None and result.winner
    scene = draw_result(view, names=NAMES, locale="en")
    texts = {t.text for t in scene.texts}
    assert [r.key for r in scene.found("winner")] == [result.winner]
    drawn = [r.key for r in scene.found("card")]
    for seat in result.seats:
        assert f"+{seat.points}" in texts or (seat.points == 0 and "0" in texts)
        assert f"Deadwood: {seat.count}".upper() in texts
        for meld in seat.melds:
            assert all(c in drawn for c in meld)
        assert all(c in drawn for c in seat.deadwood)
    for seat in view.seats:
        assert f"Total {seat.total}" in texts


def test_a_defender_s_layoffs_are_shown_apart():
    view = load_game(GIN_KNOCK).public_view()
    assert view.result is not None and [s.laid_off for s in view.result.seats] == [(), ("5S",)]
    texts = {t.text for t in draw_result(view, locale="en").texts}
    assert "LAID OFF" in texts


def test_rummy_seats_show_their_table_melds_and_nothing_overflows():
    game = played_game("basic", 4, seed=3, options={"multiple_melds_per_turn": True})
    view = game.public_view()
    scene = draw_result(view, names=NAMES)
    drawn = [r.key for r in scene.found("card")]
    for meld in view.table:
        assert all(c in drawn for c in meld.cards)
    frame = (0, 0, scene.width, scene.height)
    assert all(inside(t.box, frame) for t in scene.texts)
    for a, b in combinations(scene.texts, 2):
        assert not overlaps(a.box, b.box), (a, b)


def test_eight_seats_fit():
    view = built_result(built_view("rami", 8, 14, seed=4), winner=3)
    image = render_result(view, names=NAMES)
    assert image.width == 960 and image.height < 1600 and len(image.data) < 300 * 1024


def test_a_deal_in_progress_has_no_end_screen():
    with pytest.raises(ValueError):
        draw_result(played_view("basic", 2, seed=3, moves=2))


# A gin deal that ends void (rules.md §2.6): ana's discard leaves two cards in the stock.
GIN_VOID = """[Variant "gin"]
[Seats "ana bea"]
[Dealer "bea"]
[Hand "ana" "2S 5S 8S JH 3H 6D 9D QC 4C 7C"]
[Hand "bea" "AS 4S 7S TH KH 2D 5D 8D JC 3C"]
[Stock "KS QS TS"]
[Discard "9H"]
[Turn "ana"]
[Phase "draw"]
ana draw
ana discard QC
"""

# ana goes gin and passes a target of 20 at once: the deal's lines, then the game's end bonuses.
GIN_GAME_OVER = """[Variant "gin"]
[Options "target=20"]
[Seats "ana bea"]
[Dealer "bea"]
[Hand "ana" "2S 3S 4S 7H 7D 7C JH QH KH 5S 9C"]
[Hand "bea" "8S 9S TS 4H 4D 4C 3D AD 2C 6H"]
[Turn "ana"]
[Phase "play"]
ana knock 9C : 2S 3S 4S 5S | 7H 7D 7C | JH QH KH
"""


def test_a_void_gin_deal_shows_the_hands_left_with_no_deadwood_count():
    view = load_game(GIN_VOID).public_view()
    assert view.result is not None and view.result.outcome == "void"
    scene = draw_result(view, names=NAMES, locale="en")
    texts = [t.text for t in scene.texts]
    assert not any(t.startswith("DEADWOOD") for t in texts)  # no "DEADWOOD: 0" over ten cards
    assert texts.count("IN HAND") == 2 and "Void deal" in texts
    drawn = [r.key for r in scene.found("card")]
    for seat in view.result.seats:
        assert len(seat.hand) == 10 and all(c in drawn for c in seat.hand)
    es = [t.text for t in draw_result(view, names=NAMES).texts]
    assert es.count("EN LA MANO") == 2 and not any(t.startswith("SUELTAS") for t in es)


def test_rummy_cards_left_in_hand_are_not_called_deadwood():
    view = built_result(built_view("basic", 3, 4, seed=2), winner=1)
    texts = [t.text for t in draw_result(view, names=NAMES, locale="en").texts]
    assert not any(t.startswith("DEADWOOD") for t in texts)
    left = [s for s in view.result.seats if s.hand]  # type: ignore[union-attr]
    assert all(f"LEFT IN HAND: {s.count}" in texts for s in left) and left


def test_gin_points_are_itemised_and_the_game_end_bonuses_lead_to_the_final_score():
    game = load_game(GIN_GAME_OVER)
    view = game.public_view()
    assert view.game_over and game.final_scores["ana"] != view.seats[0].total  # the bonuses are not in the total
    bare = {t.text for t in draw_result(view, names=NAMES, locale="en").texts}
    assert "Gin bonus" not in bare  # without the ledger, as before: no lines
    scene = draw_result(view, names=NAMES, locale="en", ledger=game.ledger, final_scores=game.final_scores)
    texts = [t.text for t in scene.texts]
    (box,) = [r.box for r in scene.found("ledger") if r.key == "ana"]
    row = next(r.box for r in scene.found("seat") if r.key == "ana")
    assert inside(box, row)
    inked = sorted((t for t in scene.texts if inside(t.box, box)), key=lambda t: (t.box[1], t.box[0]))
    lines = [t.text for t in inked]
    # The deal's lines add up to this deal's points, the game's end adds its bonuses, then the final score.
    assert lines[:4] == ["+20", "Gin bonus", "+12", "Opponent's deadwood: 12"]
    assert "AT THE END OF THE GAME" in lines and "Game bonus" in lines
    assert lines[-2:] == [str(game.final_scores["ana"]), "Final total"]
    assert "+32" in texts and f"Total {view.seats[0].total}" in texts
    assert not any(r.key == "bea" for r in scene.found("ledger"))  # bea scored nothing, no bonus
    frame = (0, 0, scene.width, scene.height)
    assert all(inside(t.box, frame) for t in scene.texts)
    for a, b in combinations(scene.texts, 2):
        assert not overlaps(a.box, b.box), (a, b)


def test_a_deal_s_many_ledger_lines_end_in_one_line_with_their_sum():
    view = load_game(GIN_KNOCK).public_view()
    ledger = [("ana", 1, "knock_difference", {"knocker": 3, "defender": 4})] * 9
    scene = draw_result(view, locale="en", ledger=ledger)
    (box,) = [r.box for r in scene.found("ledger")]
    inked = [t.text for t in sorted((t for t in scene.texts if inside(t.box, box)), key=lambda t: t.box[1])]
    assert inked.count("+1") == 5 and "+4" in inked and "and 4 more" in inked
