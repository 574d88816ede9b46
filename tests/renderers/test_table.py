"""The table image: stable bytes, bounded sizes, the acting seat highlighted, nothing clipped."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image

from renderers import draw_table, render_table
from renderers.samples import NAMES, built_view
from renderers.table import WIDTH
from renderers.theme import Palette
from scripts.played import played_view

from .helpers import basic_game, close, inside, overlaps


def test_the_same_view_gives_the_same_bytes():
    view = basic_game().public_view()
    first = render_table(view, names=NAMES)
    assert render_table(view, names=NAMES).data == first.data
    assert first.format == "png" and first.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert render_table(view, names=NAMES, locale="en").data != first.data


@pytest.mark.parametrize(("variant", "seats", "melds"), [
    ("gin", 2, 0), ("basic", 4, 12), ("dummy", 4, 9), ("rami", 8, 0), ("rami", 8, 30),
])
def test_sizes_stay_within_bounds(variant, seats, melds):
    image = render_table(built_view(variant, seats, melds, seed=seats + melds), names=NAMES)
    assert image.width == WIDTH
    assert 400 <= image.height <= 1800
    assert len(image.data) < 300 * 1024
    assert Image.open(__import__("io").BytesIO(image.data)).size == (image.width, image.height)


def test_four_seats_twelve_melds_fit_the_budget():
    image = render_table(built_view("basic", 4, 12, seed=7, acting=2), names=NAMES)
    assert len(image.data) < 300 * 1024
    assert image.height <= 1100


@pytest.mark.parametrize("acting", [0, 3, 6])
def test_the_acting_seat_and_only_it_is_highlighted(acting):
    view = built_view("rami", 8, 5, seed=2, acting=acting)
    scene = draw_table(view, names=NAMES)
    seats = {r.key: r.box for r in scene.found("seat")}
    highlighted = [r.key for r in scene.found("acting")]
    assert highlighted == [view.seats[acting].name]
    for name, (x0, y0, _x1, y1) in seats.items():
        frame = scene.image.getpixel((x0 - 2, (y0 + y1) // 2))  # just outside the panel's edge
        assert close(frame, Palette.gold) == (name == view.seats[acting].name), name
    # The acting seat is also named in the turn line, in words.
    assert any(t.text == NAMES[view.seats[acting].name] for t in scene.texts if t.box[1] > max(
        b[3] for b in seats.values()))


def test_a_window_highlights_every_seat_that_may_act():
    view = built_view("basic", 4, 3, seed=1, acting=0)
    seats = tuple(replace(s, is_acting=s.name in ("ana", "cris")) for s in view.seats)
    view = replace(view, phase="window", seats=seats, actors=("ana", "cris"))
    assert {r.key for r in draw_table(view).found("acting")} == {"ana", "cris"}


def test_nothing_is_clipped_or_overlapping_on_the_crowded_table():
    view = built_view("rami", 8, 30, seed=4, acting=5)
    scene = draw_table(view, names=NAMES)
    frame = (0, 0, scene.width, scene.height)
    for text in scene.texts:
        assert inside(text.box, frame), text
    for a, b in combinations(scene.texts, 2):
        assert not overlaps(a.box, b.box), (a, b)
    melds = scene.found("meld")
    assert sorted(int(m.key) for m in melds) == list(range(1, 31))
    for a, b in combinations(melds, 2):
        assert not overlaps(a.box, b.box), (a, b)
    for meld in melds:
        assert inside(meld.box, frame)
        # Its number is written inside it, so "layoff 7H to 12" can be read off the picture.
        assert any(t.text == meld.key and inside(t.box, meld.box) for t in scene.texts), meld.key
    for card in scene.found("card"):
        assert inside(card.box, frame), card


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7, 8])
def test_every_seat_is_shown_with_its_name_and_count(seats):
    view = built_view("rami", seats, 4, seed=seats)
    scene = draw_table(view, names=NAMES)
    texts = {t.text for t in scene.texts}
    assert {r.key for r in scene.found("seat")} == {s.name for s in view.seats}
    for seat in view.seats:
        assert NAMES[seat.name] in texts
        assert str(seat.card_count) in texts
    for a, b in combinations(scene.found("seat"), 2):
        assert not overlaps(a.box, b.box)


def test_melds_are_grouped_by_owner_with_jokers_showing_what_they_stand_for():
    view = built_view("wrotham", 3, 8, seed=5)
    scene = draw_table(view)
    drawn = [r.key for r in scene.found("card")]
    for meld in view.table:
        for code in meld.cards:
            assert code in drawn  # "JK=8H" is drawn as such, not as a bare joker
    # Each owner's melds sit inside one block headed by the owner's name.
    by_owner: dict[str | None, list[int]] = {}
    for meld in view.table:
        by_owner.setdefault(meld.owner, []).append(meld.number)
    boxes = {int(r.key): r.box for r in scene.found("meld")}
    for owner, numbers in by_owner.items():
        head = next(t for t in scene.texts if t.text == owner)
        assert all(boxes[n][1] > head.box[1] for n in numbers)


def test_the_discard_pile_stock_and_deal_are_shown():
    view = built_view("tradicional", 3, 4, seed=3, visible_pile=12)
    scene = draw_table(view, locale="en")
    texts = {t.text for t in scene.texts}
    assert f"Stock: {view.stock_count}" in texts
    assert f"Discards: {view.discard_count}" in texts
    assert f"Deal {view.deal_number}" in texts
    assert [r.key for r in scene.found("discard")] == [view.discard_top]
    drawn = [r.key for r in scene.found("card")]
    assert drawn.count(view.discard_visible[0]) >= 1 and len(drawn) >= len(view.discard_visible) + 1


def test_an_empty_table_says_so_and_the_last_move_is_in_words():
    view = played_view("basic", 2, seed=3, moves=1)
    es = {t.text for t in draw_table(view).texts}
    en = {t.text for t in draw_table(view, locale="en").texts}
    assert "Todavía no hay combinaciones en la mesa" in es
    assert "No melds on the table yet" in en
    assert "ana roba del mazo" in es and "ana draws from the stock" in en


def test_display_names_are_reduced_to_what_the_font_draws():
    view = built_view("basic", 2, 0, seed=1)
    texts = {t.text for t in draw_table(view, names={"ana": "Ana 🃏", "bea": "🎲"}).texts}
    assert "Ana" in texts and "bea" in texts


def test_dummy_contracts_and_laid_down_seats_are_shown():
    view = built_view("dummy", 4, 6, seed=2)
    texts = {t.text for t in draw_table(view, locale="en").texts}
    for seat in view.seats:
        assert f"Contract {seat.contract}" in texts
    assert ("Laid down" in texts) == any(s.opened for s in view.seats)


def test_a_finished_deal_names_the_outcome():
    view = next(v for v in (played_view("gin", 2, seed=s) for s in range(42, 90)) if v.result and v.result.winner)
    assert view.hand_over and view.result is not None
    texts = {t.text for t in draw_table(view, names=NAMES, locale="en").texts}
    assert "DEAL OVER" in texts
    assert any(NAMES[view.result.winner] in t for t in texts)


def test_renders_in_worker_threads_match_renders_in_one():
    # The bot renders through asyncio.to_thread: several pictures at once must not disturb each other.
    views = [built_view(v, n, m, seed=i) for i, (v, n, m) in enumerate(
        [("rami", 8, 20), ("basic", 4, 6), ("dummy", 3, 9), ("wrotham", 5, 4)] * 2)]
    alone = [render_table(v, names=NAMES).data for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda v: render_table(v, names=NAMES).data, views))
    assert together == alone
