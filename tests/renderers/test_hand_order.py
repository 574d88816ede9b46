"""The hand's display order is the engine's answer (``bot.engine.group_hand``), and the hand
picture and its old import path use that one answer."""

from __future__ import annotations

from dataclasses import replace

import pytest

import renderers.hand
from bot.engine import SORTS, VARIANTS, HandGroup, group_hand, new_game
from bot.engine.cards import parse_card


def test_the_hand_picture_reads_the_engine_s_order():
    assert renderers.hand.group_hand is group_hand
    assert renderers.hand.HandGroup is HandGroup
    assert renderers.hand.SORTS == SORTS == ("suit", "rank", "melds")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_two_is_grouped_unless_the_variant_s_meld_rules_make_it_wild(variant):
    game = new_game(variant, ["ana", "bea"], seed=1)
    hand = ("2S", "3S", "4S", "9H", "9D", "9C", "KD")
    view = replace(game.view("ana"), hand=hand, drawn=None, took=None)
    groups, dead = group_hand(view, "melds")
    if game.meld_rules.is_wild(parse_card("2S")):
        assert [g.kind for g in groups] == [""] and dead is None
    else:
        assert [g.kind for g in groups] == ["run", "set", "deadwood"] and dead == 10
        assert groups[0].cards == ("2S", "3S", "4S")


def test_every_sort_keeps_every_card():
    game = new_game("rami", ["ana", "bea", "cris"], seed=3)
    view = game.view("ana")
    for sort in SORTS:
        groups, _ = group_hand(view, sort)
        assert sorted(c for g in groups for c in g.cards) == sorted(view.hand)
