"""The rearrange builder's picture: numbered melds, invalid ones marked in red, changed ones in
gold, loose cards and the hand apart, picked cards raised and outlined, and room for a big table."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations, pairwise

import pytest
from PIL import Image

from renderers.draft import INVALID, PICKED, WIDTH, DraftMeld, DraftView, draft_scene, draw_draft
from renderers.draft_samples import built_draft, draft_steps
from renderers.theme import Palette

from .helpers import close, inside, overlaps


def _colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {c for _, c in image.crop(box).getcolors(1 << 20) or []}


def _decoded(view: DraftView, locale: str = "es") -> Image.Image:
    return Image.open(io.BytesIO(draw_draft(view, locale=locale).data)).convert("RGB")


def test_the_same_view_gives_the_same_bytes():
    view = draft_steps()[1]
    first = draw_draft(view)
    assert first.format == "png" and first.filename == "draft.png"
    assert draw_draft(view).data == first.data
    assert draw_draft(replace(view, picked_hand=frozenset())).data != first.data


def test_the_picture_grows_taller_with_melds_and_keeps_its_width():
    base = draft_steps()[0]
    more = replace(base, melds=base.melds + tuple(
        DraftMeld(7 + i, ("4S", "5S", "6S", "7S"), True, True, "bea") for i in range(6)))
    small, big = draw_draft(base), draw_draft(more)
    assert small.width == big.width == WIDTH
    assert big.height > small.height


def test_every_meld_shows_its_number_in_its_tile_and_its_cards_in_order():
    view = draft_steps()[1]
    scene = draft_scene(view)
    tiles = {r.key: r.box for r in scene.found("meld")}
    assert sorted(tiles, key=int) == [str(m.number) for m in view.melds]
    for meld in view.melds:
        number = next(t for t in scene.texts if t.text == str(meld.number) and inside(t.box, tiles[str(meld.number)]))
        assert number.box[3] - number.box[1] >= 20  # big enough to read on a phone
        cards = [r for r in scene.found("card") if inside(r.box, tiles[str(meld.number)])]
        assert [r.key for r in sorted(cards, key=lambda r: r.box[0])] == list(meld.cards)
    for a, b in combinations(tiles.values(), 2):
        assert not overlaps(a, b)


@pytest.mark.parametrize(("locale", "word"), [("es", "× no válida"), ("en", "× invalid")])
def test_an_invalid_meld_is_framed_in_red_and_labelled(locale, word):
    view = draft_steps(locale)[1]
    scene = draft_scene(view, locale=locale)
    [bad] = scene.found("invalid")
    assert bad.key == "8"
    assert any(t.text == word and inside(t.box, bad.box) for t in scene.texts)
    image = _decoded(view, locale)
    x0, y0, _, y1 = bad.box
    edge = _colours(image, (x0, (y0 + y1) // 2, x0 + 3, (y0 + y1) // 2 + 1))  # the frame's left side
    assert any(close(c, INVALID, 12) for c in edge)
    for good in scene.found("meld"):
        if good.key != "8":
            gx0, gy0, _, gy1 = good.box
            assert not any(close(c, INVALID, 16) for c in _colours(image, (gx0, (gy0 + gy1) // 2, gx0 + 3,
                                                                             (gy0 + gy1) // 2 + 1)))
    assert not draft_scene(draft_steps(locale)[2], locale=locale).found("invalid")


def test_changed_melds_are_the_ones_marked_changed():
    view = draft_steps("en")[1]
    scene = draft_scene(view, locale="en")
    assert {r.key for r in scene.found("changed")} == {str(m.number) for m in view.melds if m.changed}
    for region in scene.found("changed"):
        assert any(t.text == "changed" and inside(t.box, region.box) for t in scene.texts)
    image = _decoded(view, "en")
    x0, y0, _, y1 = next(r.box for r in scene.found("changed") if r.key == "7")
    assert any(close(c, Palette.gold, 12) for c in _colours(image, (x0, (y0 + y1) // 2, x0 + 3, (y0 + y1) // 2 + 1)))


def test_loose_cards_and_the_hand_are_in_their_own_labelled_areas():
    view = draft_steps()[1]
    scene = draft_scene(view)
    areas = {r.key: r.box for r in scene.found("area")}
    assert [r.key for r in scene.found("loose")] == list(view.loose)
    assert [r.key for r in scene.found("hand")] == list(view.hand)
    assert all(inside(r.box, areas["loose"]) for r in scene.found("loose"))
    assert all(inside(r.box, areas["hand"]) for r in scene.found("hand"))
    assert not overlaps(areas["loose"], areas["hand"])
    assert all(not overlaps(m.box, areas["loose"]) for m in scene.found("meld"))
    words = {t.text for t in scene.texts}
    assert {"PENDIENTES · 1", "TU MANO · 8 CARTAS", *view.loose, *view.hand} <= words
    done = draft_scene(draft_steps()[2])
    assert not done.found("loose") and "ninguna" in {t.text for t in done.texts}


def test_picked_cards_are_raised_and_outlined():
    view = draft_steps()[1]
    scene = draft_scene(view)
    hand = scene.found("hand")
    picked, other = hand[0], hand[3]  # 6S is picked, 2C (away from its outline) is not
    assert {r.key for r in scene.found("picked")} == {"loose:0", "hand:0"}
    assert picked.box[1] < other.box[1]  # raised
    image = _decoded(view)
    ring = (picked.box[0] - 4, picked.box[1] + 30, picked.box[0] - 1, picked.box[1] + 31)
    assert any(close(c, PICKED, 12) for c in _colours(image, ring))
    plain = (other.box[0] - 4, other.box[1] + 30, other.box[0] - 1, other.box[1] + 31)
    assert not any(close(c, PICKED, 16) for c in _colours(image, plain))
    code = next(t for t in scene.texts if t.text == "6S").box  # the code under it is green too
    assert any(close(c, PICKED, 12) for c in _colours(image, code))
    assert not any(close(c, PICKED, 16) for c in _colours(_decoded(replace(view, picked_hand=frozenset())), code))


def test_a_forty_card_draft_fits_with_nothing_clipped():
    view = built_draft()
    total = sum(len(m.cards) for m in view.melds) + len(view.loose) + len(view.hand)
    assert total >= 40
    scene = draft_scene(view)
    assert scene.width == WIDTH and scene.height < 1600
    frame = (0, 0, scene.width, scene.height)
    assert len(scene.found("card")) + len(scene.found("loose")) + len(scene.found("hand")) == total
    for region in scene.regions:
        assert inside(region.box, frame), region
    for text in scene.texts:
        assert inside(text.box, frame), text
    codes = sorted((t for t in scene.texts if t.text in set(view.hand)), key=lambda t: t.box[0])
    for a, b in pairwise(codes):
        assert not overlaps(a.box, b.box)  # every hand card's code can be read


def test_empty_draft_and_empty_hand_still_draw():
    view = DraftView((), (), (), frozenset(), frozenset(), "")
    words = {t.text for t in draft_scene(view, locale="en").texts}
    assert {"No melds on the table yet", "No cards left"} <= words
