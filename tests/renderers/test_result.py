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
