"""A seat's hand in display order: sorted by suit or rank, or grouped into its best melds.

What it is: the engine's answer to "this hand grouped and sorted for display", read from a
``SeatView`` alone (pure, standard library only). ``group_hand(view, sort)`` gives the groups a
hand picture draws left to right and the deadwood of the meld grouping; the hand picture
(``renderers/hand.py``) and the bot's card select (``cogs/ui.py``) both follow this order, so a
card's position means the same in both. ``SORTS`` names the three orders.

What it is not: no pixels and no Discord. It decides nothing about legality: the meld grouping is
an aid to the eye, made with the exact single-deck search (``search.py``, rules.md §0.4 "Meld
search"), and a hand the search cannot read (a joker, a wild two, two copies of a card) is shown
by suit instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import CODES, JOKER, parse_card, rank, suit
from .search import HIGH_VALUES, LOW_VALUES, best_melds, cards_of, mask_of
from .views import SeatView

__all__ = ["SORTS", "HandGroup", "group_hand", "rank_key", "suit_key"]

SORTS: tuple[str, ...] = ("suit", "rank", "melds")
"""The hand orders a player can pick: by suit, by rank, or grouped into melds."""

_SUIT_ORDER = (0, 1, 3, 2)  # S H C D: colours alternate in the classic deck
_WILD_TWOS = frozenset({"dummy"})  # rules.md §5.2, §6: twos are wild in dummy only (jokers: any variant)


@dataclass(frozen=True, slots=True)
class HandGroup:
    """Cards shown together: ``kind`` is ``run``, ``set``, ``deadwood`` or ``""`` (no grouping)."""

    kind: str
    cards: tuple[str, ...]


def suit_key(code: str) -> tuple[int, int]:
    """Sort key for a card code by suit (S H C D), then rank A..K; jokers last."""
    card = parse_card(code)
    if card == JOKER:
        return (9, 99)
    return (_SUIT_ORDER.index(suit(card)), rank(card))


def rank_key(code: str) -> tuple[int, int]:
    """Sort key for a card code by rank A..K, then suit (S H C D); jokers last."""
    card = parse_card(code)
    if card == JOKER:
        return (99, 9)
    return (rank(card), _SUIT_ORDER.index(suit(card)))


def _search_ace_mode(options: Mapping[str, str]) -> str:
    """The ace mode the display grouping searches with, from the written options: the
    ``ace_mode`` option where the variant has one (rules.md §1.7), tradicional's options 3 and 4
    (§4.6), else ace low. Rami and dummy hands are grouped ace low too, as they always were,
    although their melds also take an ace high (§3.3, §5.4)."""
    if options.get("opt4_continuous") == "true":
        return "round_the_corner"
    if options.get("opt3_ace_high_low") == "true":
        return "high_low"
    return options.get("ace_mode", "low")


def _searchable(hand: list[str], variant: str) -> bool:
    """Whether the single-deck, wild-free meld search can read ``hand`` (rules.md §0.4)."""
    if "JK" in hand or len(set(hand)) != len(hand):
        return False
    return not (variant in _WILD_TWOS and any(code[0] == "2" for code in hand))


def group_hand(view: SeatView, sort: str = "suit") -> tuple[list[HandGroup], int | None]:
    """The hand in display order, and its deadwood value when grouped into melds.

    ``rank`` and ``suit`` give one group of kind ``""`` (any other ``sort`` reads as ``suit``).
    ``melds`` uses the exact meld search for natural single-deck hands: runs (a run through the
    king and the ace starts after its gap: Q K A, K A 2) and sets in the search's order, then the
    deadwood. A hand with a joker, a wild two (dummy) or duplicate cards is shown by suit instead
    (one group of kind ``""``, deadwood None)."""
    hand = list(view.hand)
    if sort == "rank":
        return [HandGroup("", tuple(sorted(hand, key=rank_key)))], None
    public = view.public
    if sort != "melds" or not hand or not _searchable(hand, public.variant):
        return [HandGroup("", tuple(sorted(hand, key=suit_key)))], None
    mode = _search_ace_mode(dict(public.options))
    values = LOW_VALUES if mode == "low" else HIGH_VALUES
    ints = [parse_card(c) for c in hand]
    dead, melds = best_melds(mask_of(ints), mode, values)
    groups: list[HandGroup] = []
    used = 0
    for meld in melds:
        cards = cards_of(meld)
        used |= meld
        suits = {suit(c) for c in cards}
        if len(suits) == 1:
            ranks = sorted(rank(c) for c in cards)
            gaps = [i for i in range(len(ranks)) if (ranks[(i + 1) % len(ranks)] - ranks[i]) % 13 != 1]
            start = (gaps[0] + 1) % len(ranks) if gaps else 0
            ordered = ranks[start:] + ranks[:start]
            only = next(iter(suits))
            groups.append(HandGroup("run", tuple(CODES[only * 13 + r] for r in ordered)))
        else:
            groups.append(HandGroup("set", tuple(sorted((CODES[c] for c in cards), key=suit_key))))
    rest = [CODES[c] for c in ints if not used >> c & 1]
    if rest:
        groups.append(HandGroup("deadwood", tuple(sorted(rest, key=suit_key))))
    return groups, dead
