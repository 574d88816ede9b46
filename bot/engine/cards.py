"""Cards, card codes and decks (rules.md §0.1, notation.md "Cards").

A card is a small int: ``suit * 13 + rank`` with suits S H D C = 0..3 and ranks A..K = 0..12;
the joker is 52. Copies from several decks are the same int. This module knows nothing of
melds, turns or scoring.

>>> parse_card("10h"), card_code(parse_card("qs"))
(22, 'QS')
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalMove

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
NATURALS = tuple(range(52))

CODES: tuple[str, ...] = (*tuple(r + s for s in SUITS for r in RANKS), "JK")
_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}
_BY_CODE.update({"10" + s: SUITS.index(s) * 13 + 9 for s in SUITS})
CARD_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}  # canonical codes only


def rank(card: int) -> int:
    """Rank index 0 (ace) .. 12 (king) of a natural card."""
    return card % 13


def suit(card: int) -> int:
    """Suit index 0..3 (S H D C) of a natural card."""
    return card // 13


def make(rank_index: int, suit_index: int) -> int:
    """The card of that rank and suit."""
    return suit_index * 13 + rank_index


def card_code(card: int) -> str:
    """``TH``, ``AS``, ``JK``."""
    return CODES[card]


def parse_card(text: str) -> int:
    """Parse one card code, case-insensitively; ``10H`` is accepted for ``TH``."""
    card = _BY_CODE.get(text.upper())
    if card is None:
        raise IllegalMove("bad_card", f"{text!r} is not a card (write e.g. TH, AS, JK)", {"text": text})
    return card


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse space-separated card codes."""
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def codes(cards: Iterable[int]) -> str:
    """Space-separated codes of cards, in the given order."""
    return " ".join(CODES[c] for c in cards)


def rank_code(rank_index: int) -> str:
    return RANKS[rank_index]


def parse_rank(text: str) -> int | None:
    """Rank index from ``7``, ``T``, ``10``, ``q``; None when it is no rank."""
    t = text.upper()
    if t == "10":
        t = "T"
    return RANKS.index(t) if len(t) == 1 and t in RANKS else None


def make_deck(decks: int = 1, jokers: int = 0) -> list[int]:
    """Canonical order (notation.md "Positions"): deck by deck S H D C, A to K, then the jokers."""
    return [c for _ in range(decks) for c in NATURALS] + [JOKER] * jokers


def display_key(card: int) -> tuple[int, int]:
    """Sort key for showing a hand: by suit (S H D C), then rank; jokers last."""
    return (4, 0) if card == JOKER else (suit(card), rank(card))
