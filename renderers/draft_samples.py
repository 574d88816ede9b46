"""Sample drafts of the rearrange builder, for the gallery, the tests and the benchmark.

What it is: deterministic ``DraftView`` objects: three steps of a rami rearrangement and a large
draft built from a ``samples.built_view`` table. It sits above ``draft.py`` (which encodes onto the
palette that ``samples.py`` feeds), so it is a module of its own. What it is not: not used by the
bot, and no rules: which meld is valid or changed is written here, not worked out.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .draft import DraftMeld, DraftView
from .samples import RANKS, SUITS, built_view

__all__ = ["built_draft", "draft_steps"]

_DRAFT_STATUS = {
    "es": ("La mesa tal como está · elige una combinación para cambiarla",
           "1 combinación no válida · 1 carta suelta · 2 de tus cartas colocadas",
           "Todo válido · 3 de tus cartas colocadas · lista para jugar"),
    "en": ("The table as it is · pick a meld to change it",
           "1 meld invalid · 1 loose card · 2 of your cards placed",
           "All valid · 3 of your cards placed · ready to play"),
}


def draft_steps(locale: str = "es") -> tuple[DraftView, DraftView, DraftView]:
    """Three steps of a rami rearrangement (jokers, owners): the table as it is; the run of clubs
    split, its 6C loose and picked, a pair of sixes from the hand not a meld yet, the 6S picked
    in the hand; the four sixes made and every meld valid, ready to play."""
    table = [
        DraftMeld(1, ("3C", "4C", "5C", "6C", "7C", "8C", "9C"), True, False, "ana"),
        DraftMeld(2, ("QH", "QD", "QC"), True, False, "bea"),
        DraftMeld(3, ("7S", "8S", "9S"), True, False, "cris"),
        DraftMeld(4, ("AD", "2D", "3D"), True, False, "bea"),
        DraftMeld(5, ("JK=5H", "6H", "7H", "8H"), True, False, "cris"),
        DraftMeld(6, ("TS", "TH", "TD", "TC"), True, False, "ana"),
    ]
    hand = ("6S", "6H", "6D", "KS", "5S", "2C", "9D", "JH", "QS", "4H")
    first = DraftView(tuple(table), (), hand, frozenset(), frozenset(), _DRAFT_STATUS[locale][0])
    split = [replace(table[0], cards=("3C", "4C", "5C"), changed=True), *table[1:],
             DraftMeld(7, ("7C", "8C", "9C"), True, True, "ana"), DraftMeld(8, ("6H", "6D"), False, True, "ana")]
    rest = tuple(c for c in hand if c not in ("6H", "6D"))
    second = DraftView(tuple(split), ("6C",), rest, frozenset({0}), frozenset({0}), _DRAFT_STATUS[locale][1])
    done = [*split[:-1], DraftMeld(8, ("6S", "6H", "6D", "6C"), True, True, "ana")]
    third = DraftView(tuple(done), (), rest[1:], frozenset(), frozenset(), _DRAFT_STATUS[locale][2])
    return first, second, third


def built_draft(melds: int = 9, loose: int = 5, hand: int = 10, *, seed: int = 6, invalid: int = 2,
                status: str = "2 combinaciones no válidas · 3 de tus cartas colocadas · apertura 27/30") -> DraftView:
    """A large draft built from a rami table: ``melds`` melds (the first ``invalid`` of them
    broken, a few changed), ``loose`` cards out of melds (two picked) and a ``hand`` (two picked)."""
    view = built_view("rami", 4, melds, seed=seed)
    rng = random.Random(seed)
    out = []
    for m in view.table:
        broken = m.number <= invalid
        cards = m.cards[:2] if broken else m.cards
        out.append(DraftMeld(m.number, cards, not broken, broken or rng.random() < 0.25, m.owner))
    deck = [r + s for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    return DraftView(tuple(out), tuple(deck[:loose]), tuple(deck[loose:loose + hand]), frozenset({0, loose - 1}),
                     frozenset({1, 2}), status)
