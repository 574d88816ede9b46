"""The end-of-deal image: every hand's melds and deadwood, the points, the totals, the winner."""

from __future__ import annotations

from itertools import combinations

import pytest

from renderers import draw_result, render_result
from renderers.samples import NAMES, built_result, built_view, played_game, played_view

from .helpers import inside, overlaps


def test_gin_shows_each_hand_its_deadwood_the_points_and_the_winner():
    view = next(v for v in (played_view("gin", 2, seed=s) for s in range(42, 90)) if v.result and v.result.winner)
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
    for seed in range(1, 80):
        view = played_view("gin", 2, seed=seed)
        if view.result and any(s.laid_off for s in view.result.seats):
            break
    else:
        pytest.skip("no seeded gin deal with layoffs")
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
