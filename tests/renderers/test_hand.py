"""The hand image: the seat's own cards only, each with its code, sorted three ways."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from bot.engine import load_game
from renderers import HintMark, draw_hand, render_hand
from renderers.hand import group_hand
from renderers.hint import BANNER_H, HINT

from .helpers import basic_game, close, gin_hand_game, inside


@pytest.mark.parametrize("sort", ["suit", "rank", "melds"])
def test_a_hand_image_holds_that_seat_s_cards_and_no_one_else_s(sort):
    game = basic_game()
    hands = {seat: Counter(game.hand(seat)) for seat in game.seats}
    for seat in game.seats:
        scene = draw_hand(game.view(seat), sort=sort)
        drawn = Counter(r.key for r in scene.found("card"))
        assert drawn == hands[seat]
        others = set().union(*(set(h) for s, h in hands.items() if s != seat))
        assert not others & set(drawn)


def test_every_card_has_its_code_printed_under_it():
    scene = draw_hand(gin_hand_game().view("ana"))
    codes = [t for t in scene.texts if t.text in set(gin_hand_game().hand("ana"))]
    cards = scene.found("card")
    assert len(codes) == len(cards) == 11
    for card in cards:
        label = next(t for t in codes if t.text == card.key)
        assert label.box[1] >= card.box[3]  # under the card
        assert card.box[0] <= (label.box[0] + label.box[2]) / 2 <= card.box[2]  # within its width
    for a, b in zip(sorted(codes, key=lambda t: t.box[0]), sorted(codes, key=lambda t: t.box[0])[1:], strict=False):
        assert a.box[2] <= b.box[0]  # codes never run into each other


def test_the_card_just_drawn_is_marked():
    view = replace(gin_hand_game().view("ana"), drawn="7D")
    scene = draw_hand(view, locale="en")
    assert [r.key for r in scene.found("drawn")] == ["7D"]
    assert "New" in {t.text for t in scene.texts}
    took = load_game('[Variant "basic"]\n[Seats "ana bea cris dolo"]\n[Hand "ana" "AS 2S 3S 7H 7D 7C KC 9D"]\n'
                     '[Turn "ana"]\n[Phase "play"]\n[Took "7C"]\n').view("ana")
    assert [r.key for r in draw_hand(took).found("took")] == ["7C"]


def test_sorts():
    view = gin_hand_game().view("ana")
    [by_suit], _ = group_hand(view, "suit")
    assert [c[1] for c in by_suit.cards] == sorted((c[1] for c in by_suit.cards), key="SHCD".index)
    [by_rank], _ = group_hand(view, "rank")
    assert [c[0] for c in by_rank.cards] == sorted((c[0] for c in by_rank.cards), key="A23456789TJQK".index)
    groups, dead = group_hand(view, "melds")
    assert [(g.kind, g.cards) for g in groups] == [
        ("run", ("3H", "4H", "5H", "6H")),
        ("set", ("9S", "9C", "9D")),
        ("deadwood", ("QS", "2C", "7D", "KD")),
    ]
    assert dead == 29
    texts = {t.text for t in draw_hand(view, sort="melds", locale="en").texts}
    assert {"RUN", "SET", "DEADWOOD", "Deadwood: 29"} <= texts


def test_an_ace_high_run_reads_queen_king_ace():
    game = load_game('[Variant "basic"]\n[Options "ace_mode=high_low"]\n[Seats "ana bea"]\n'
                     '[Hand "ana" "QS KS AS 4D 5C 6H 8H 9C TD JC 2S"]\n[Turn "ana"]\n[Phase "play"]\n')
    groups, _ = group_hand(game.view("ana"), "melds")
    assert groups[0].cards == ("QS", "KS", "AS")


def test_wild_cards_fall_back_to_suit_order():
    game = load_game('[Variant "wrotham"]\n[Seats "ana bea cris"]\n[Hand "ana" "JK 5H 6H 8H KS KD JK 2C"]\n'
                     '[Turn "ana"]\n[Phase "play"]\n')
    groups, dead = group_hand(game.view("ana"), "melds")
    assert len(groups) == 1 and groups[0].kind == "" and dead is None
    assert groups[0].cards[-2:] == ("JK", "JK")
    scene = draw_hand(game.view("ana"), sort="melds")
    assert "8 cartas · por palo" in {t.text for t in scene.texts}


@pytest.mark.parametrize("count", [1, 7, 11, 15, 21])
def test_hands_of_any_size_fit_without_clipping(count):
    codes = [r + s for s in "SHDC" for r in "A23456789TJQK"][:count]
    view = replace(gin_hand_game().view("ana"), hand=tuple(codes), drawn=None)
    scene = draw_hand(view)
    frame = (0, 0, scene.width, scene.height)
    assert len(scene.found("card")) == count
    assert all(inside(t.box, frame) for t in scene.texts)
    assert all(inside(c.box, frame) for c in scene.found("card"))
    assert scene.width <= 960


def test_the_same_hand_gives_the_same_bytes():
    view = gin_hand_game().view("ana")
    assert render_hand(view, sort="melds").data == render_hand(view, sort="melds").data


@pytest.mark.parametrize("sort", ["suit", "rank", "melds"])
def test_picked_cards_are_raised_and_outlined_in_the_order_the_codes_follow(sort):
    game = gin_hand_game()
    view = game.view("ana")
    groups, _ = group_hand(view, sort)
    order = [c for g in groups for c in g.cards]  # the order of the codes and the select menu
    chosen = frozenset({0, 3, len(order) - 1})
    scene = draw_hand(view, sort=sort, selected=chosen)
    picked = scene.found("picked")
    assert sorted(r.key for r in picked) == sorted(order[i] for i in chosen)
    plain = draw_hand(view, sort=sort)
    lifted = {r.key: r.box[1] for r in picked}
    for card in plain.found("card"):
        if card.key in lifted and card.key != view.drawn:
            assert lifted[card.key] < card.box[1]  # raised above where it sits unpicked
    assert render_hand(view, sort=sort, selected=chosen).data != render_hand(view, sort=sort).data


def test_a_hint_s_hand_is_marked_as_a_hint_and_says_what_the_move_changes():
    now = gin_hand_game().view("ana")  # 11 cards: 3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D
    after = replace(now, hand=tuple(c for c in now.hand if c != "KD"))
    plain = draw_hand(after, sort="melds", locale="en")
    scene = draw_hand(after, sort="melds", locale="en", hint=HintMark("ana discard KD", hand_before=now.hand))
    assert not plain.found("hint") and len(scene.found("hint")) == 1
    banner = scene.found("hint")[0].box
    colours = scene.image.crop(banner).getcolors(1 << 16) or []
    assert sum(n for n, p in colours if close(p, HINT, 8)) > 2000  # a violet band: never mistaken for the real hand
    texts = [t.text for t in scene.texts]
    assert "HINT" in texts and "Your hand after the move" in texts and "Discard " in texts
    assert [r.key for r in scene.found("chip") if inside(r.box, banner)] == ["KD"]  # said once, not twice
    # What the discard does to the deadwood, in the hint's colour, where the real hand says it plainly.
    assert "Deadwood: 29 to 19" in texts and "Deadwood: 19" in {t.text for t in plain.texts}
    assert sorted(r.key for r in scene.found("card")) == sorted(after.hand)
    assert scene.height == plain.height + BANNER_H
    assert all(inside(t.box, (0, 0, scene.width, scene.height)) for t in scene.texts)


def test_a_hint_that_takes_the_discard_frames_the_card_it_brings_in():
    now = replace(gin_hand_game().view("ana"), hand=("3H", "4H", "5H", "6H", "9S", "9D", "KD", "QS", "2C", "7D"))
    after = replace(now, hand=(*now.hand, "9C"), took="9C")
    scene = draw_hand(after, sort="melds", locale="en", hint=HintMark("ana take", hand_before=now.hand))
    assert [r.key for r in scene.found("coming")] == ["9C"]
    banner = scene.found("hint")[0].box
    texts = [t.text for t in scene.texts]
    assert "Take the discard" in texts and any("Comes into your hand:" in t for t in texts)
    assert [r.key for r in scene.found("chip") if inside(r.box, banner)] == ["9C"]
