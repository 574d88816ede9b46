"""The table image: stable bytes, bounded sizes, the acting seat highlighted, nothing clipped."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import combinations, pairwise

import pytest
from PIL import Image

from renderers import HintMark, draw_table, render_table
from renderers.hint import BANNER_H, HINT
from renderers.melds import MIN_RANK_AT_400, seat_colour
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


def reading_order(boxes: list[tuple[int, int, int, int]]) -> list[int]:
    """Indices of ``boxes`` as a reader takes them: rows top to bottom (a box starting below the
    previous row's middle starts a new row), each row left to right."""
    rows: list[list[int]] = []
    for i in sorted(range(len(boxes)), key=lambda i: (boxes[i][1], boxes[i][0])):
        if rows and boxes[i][1] < (boxes[rows[-1][0]][1] + boxes[rows[-1][0]][3]) / 2:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: boxes[i][0])]


@pytest.mark.parametrize(("variant", "seats", "melds", "seed"), [
    ("rami", 8, 30, 4), ("wrotham", 3, 8, 5), ("basic", 4, 12, 7), ("tradicional", 3, 9, 2),
])
def test_meld_numbers_read_in_order_each_in_its_owner_s_colour(variant, seats, melds, seed):
    """"añadir 7H a 17": 17 comes right after 16, reading left to right and top to bottom, and the
    number is the notation's. Each tab has its owner's colour and initial; jokers show what they
    stand for (``JK=8H`` is drawn as such)."""
    view = built_view(variant, seats, melds, seed=seed)
    scene = draw_table(view, names=NAMES)
    found = scene.found("meld")
    ordered = [int(found[i].key) for i in reading_order([m.box for m in found])]
    assert ordered == sorted(m.number for m in view.table) == list(range(1, melds + 1))
    drawn = [r.key for r in scene.found("card")]
    boxes = {int(r.key): r.box for r in found}
    for meld in view.table:
        assert all(code in drawn for code in meld.cards)
        cards = [r for r in scene.found("card") if inside(r.box, boxes[meld.number])]
        assert [r.key for r in cards] == list(meld.cards)  # the meld's cards, in its order, inside its tile
        if meld.owner is None:
            continue
        (tab,) = [r.box for r in scene.found("owner") if r.key == meld.owner and inside(r.box, boxes[meld.number])]
        assert close(scene.image.getpixel((tab[0] + 3, (tab[1] + tab[3]) // 2)), seat_colour(view, meld.owner), 6)
        initial = NAMES[meld.owner][:1].upper()
        assert any(t.text == initial and inside(t.box, tab) for t in scene.texts), meld.number
    assert bool(scene.found("owner")) == (variant != "tradicional")  # tradicional's melds belong to nobody


def rank_ink_height(scene, box: tuple[int, int, int, int]) -> int:
    """The height of the first run of inked rows from the top of a card: its rank."""
    image = scene.image
    x0, y0, x1, y1 = box
    inks = [(28, 31, 38), (206, 38, 48)]
    run = 0
    started = False
    for y in range(y0 + 3, y1):
        inked = any(any(close(image.getpixel((x, y)), ink, 40) for ink in inks) for x in range(x0 + 4, x1 - 8))
        if inked:
            run += 1
            started = True
        elif started:
            break
    return run


def test_a_crowded_table_s_cards_read_at_phone_width():
    """Discord shows a picture about 400 px wide on a phone: on the crowded 8-seat table (30
    melds) every meld card's rank is at least 14 px tall there, where the old layout's were 5."""
    view = built_view("rami", 8, 30, seed=4, acting=5)
    scene = draw_table(view, names=NAMES)
    scale = 400 / scene.width
    melds = [r.box for r in scene.found("meld")]
    cards = [r for r in scene.found("card") if any(inside(r.box, m) for m in melds)]
    assert len(cards) == sum(len(m.cards) for m in view.table)
    naturals = [c for c in cards if "=" not in c.key and c.key != "JK"]
    heights = [rank_ink_height(scene, c.box) * scale for c in naturals]
    assert min(heights) >= 14, min(heights)
    assert min((c.box[3] - c.box[1]) * scale for c in cards) >= 32  # the card itself, shadow aside
    assert MIN_RANK_AT_400 >= 14
    numbers = [t for t in scene.texts if any(t.text == r.key and inside(t.box, r.box) for r in scene.found("meld"))]
    assert min((t.box[3] - t.box[1]) * scale for t in numbers) >= 9  # the meld's number too


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


def test_every_move_since_the_acting_seat_s_last_turn_is_shown_a_row_per_turn():
    view = built_view("basic", 4, 3, seed=1, acting=0)
    recent = ["bea draw", "bea meld 7H 8H 9H | 3S 3D 3C", "bea discard 2C", "cris take", "cris layoff 4H to 2",
              "cris discard KD", "dolo draw", "dolo discard 9S", "ana draw"]
    bare = draw_table(view, names=NAMES, locale="en")
    scene = draw_table(view, names=NAMES, locale="en", recent=recent)
    texts = [t.text for t in scene.texts]
    assert "LAST MOVE" in {t.text for t in bare.texts} and "LAST MOVE" not in texts
    assert "LATEST MOVES" in texts
    turns = scene.found("turn")
    assert [t.key for t in turns] == ["bea", "cris", "dolo", "ana"]  # one row per turn, oldest first
    assert all(a.box[3] <= b.box[1] for a, b in pairwise(turns))
    chips = [r.key for r in scene.found("chip")]
    assert chips == ["7H", "8H", "9H", "3S", "3D", "3C", "2C", "4H", "KD", "9S"]  # every card, in order
    for turn in turns:  # each row starts with the seat's name in its colour
        name = min((t for t in scene.texts if inside(t.box, turn.box)), key=lambda t: t.box[0])
        assert name.text == NAMES[turn.key]
        assert any(close(p, seat_colour(view, turn.key), 4) for _, p in scene.image.crop(name.box).getcolors(4096))
    frame = (0, 0, scene.width, scene.height)
    assert all(inside(t.box, frame) for t in scene.texts)
    for a, b in combinations(scene.texts, 2):
        assert not overlaps(a.box, b.box), (a, b)
    assert scene.height > bare.height  # the piles band grows to hold them; the melds follow below
    assert draw_table(view, names=NAMES, recent=()).image.tobytes() == draw_table(view, names=NAMES).image.tobytes()


def test_many_turns_keep_the_latest_and_count_the_earlier_ones():
    view = built_view("rami", 8, 2, seed=1, acting=0)
    recent = [f"{seat} draw" for seat in ("bea", "cris", "dolo", "inigo", "majo", "alvaro", "zoe")] * 2
    scene = draw_table(view, names=NAMES, locale="en", recent=recent)
    assert len(scene.found("turn")) == 8
    assert "and 6 earlier moves" in {t.text for t in scene.texts}


def test_a_hint_s_table_is_marked_and_frames_what_changes():
    before = built_view("rami", 3, 4, seed=6)
    table = list(before.table)
    table[1] = replace(table[1], cards=(*table[1].cards, "KS"))  # the hint adds KS to meld 2
    after = replace(before, table=tuple(table))
    mark = HintMark("ana layoff KS to 2", table_before=before.table)
    plain = draw_table(after, names=NAMES)
    scene = draw_table(after, names=NAMES, hint=mark)
    assert not plain.found("hint") and [r.key for r in scene.found("hint")] == [mark.move]
    banner = scene.found("hint")[0].box
    colours = scene.image.crop(banner).getcolors(1 << 16) or []
    assert sum(n for n, p in colours if close(p, HINT, 8)) > 2000  # the violet label and rule
    assert "PISTA" in {t.text for t in scene.texts}
    assert [r.key for r in scene.found("changed")] == ["2"]
    assert [r.key for r in scene.found("fresh")] == ["KS"]
    meld = next(r.box for r in scene.found("meld") if r.key == "2")
    assert close(scene.image.getpixel((meld[0] - 3, (meld[1] + meld[3]) // 2)), HINT, 8)  # framed in violet
    other = next(r.box for r in scene.found("meld") if r.key == "1")
    assert not close(scene.image.getpixel((other[0] - 3, (other[1] + other[3]) // 2)), HINT, 40)
    assert scene.height == plain.height + BANNER_H
    assert any(c.key == "KS" and inside(c.box, banner) for c in scene.found("chip"))  # "Añadir K♠ a la combinación 2"


def test_an_open_discard_pile_reads_at_phone_width_card_by_card():
    view = built_view("tradicional", 3, 4, seed=3, visible_pile=30)
    scene = draw_table(view, names=NAMES)
    label = next(t for t in scene.texts if t.text == "PILA DE DESCARTES, DE ABAJO ARRIBA")
    first_meld = min(r.box[1] for r in scene.found("meld"))
    pile = [r for r in scene.found("card") if label.box[3] < r.box[1] < first_meld]
    assert [r.key for r in pile] == list(view.discard_visible)  # bottom to top, every card
    faces = [(r.box[0], r.box[1], r.box[0] + 40, r.box[1] + 60) for r in pile]  # the cards, shadows aside
    assert not any(overlaps(a, b) for a, b in combinations(faces, 2))  # side by side: no card hides another's rank
    naturals = [r for r in pile if r.key != "JK" and "=" not in r.key]
    assert min(rank_ink_height(scene, r.box) for r in naturals) * 400 / scene.width >= 12
