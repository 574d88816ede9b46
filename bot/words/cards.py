"""Cards in words, and labels fitted to Discord.

What it is: how a card code is shown to people (``K♠``, ``10♥``, ``🃏`` for a joker, ``🃏=8♥`` /
``2♣=7`` for a wild card and what it stands for) with ``card_text``, ``cards_text`` and
``melds_text``; the suit, rank and joker constants behind them; and the fitting of a label to
Discord (``LABEL_LIMIT``, counted in UTF-16 units by ``utf16_len``; ``fit`` cuts at a word with
``…``; ``fold`` is the case- and accent-insensitive form used to match what people type).

What it is not: no rules (nothing here knows whether a card may be played), no catalog sentences
(refusals and ledger lines are ``bot.words.refusals``; move labels and typed moves are
``bot.words.moves``), no Discord, no database: plain strings in, plain strings out.

>>> cards_text("5C 6C 7C | JK=8H")
'5♣ 6♣ 7♣ · 🃏=8♥'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = [
    "JOKER",
    "LABEL_LIMIT",
    "RANKS",
    "SUITS",
    "SUIT_LETTERS",
    "card_text",
    "cards_text",
    "fit",
    "fold",
    "melds_text",
    "utf16_len",
]

LABEL_LIMIT = 100
"""Discord's limit for an autocomplete choice's name (counted here in UTF-16 units, the stricter count)."""

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_LETTERS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
RANKS = "A23456789TJQK"
JOKER = "🃏"
_ELLIPSIS = "…"

# ----------------------------------------------------------------------------- cards


def _rank(text: str) -> str | None:
    t = "T" if text == "10" else text
    return t if len(t) == 1 and t in RANKS else None


def _one_card(code: str) -> str | None:
    """``KS`` -> ``K♠``, ``TH``/``10H`` -> ``10♥``, ``JK`` -> ``🃏``; None when it is no card."""
    if code == "JK":
        return JOKER
    rank = _rank(code[:-1]) if len(code) >= 2 else None
    if rank is None or code[-1] not in SUITS:
        return None
    return ("10" if rank == "T" else rank) + SUITS[code[-1]]


def card_text(code: str) -> str:
    """A card code as people read it: ``K♠``, ``10♥``, ``🃏``, ``🃏=8♥``, ``2♣=7``; other text unchanged.

    >>> card_text("TH"), card_text("jk=8h"), card_text("2C=7"), card_text("foo")
    ('10♥', '🃏=8♥', '2♣=7', 'foo')
    """
    own, eq, stands = code.strip().upper().partition("=")
    shown = _one_card(own)
    if shown is None:
        return code
    if not eq:
        return shown
    rank = _rank(stands)
    if rank is not None:
        return f"{shown}={'10' if rank == 'T' else rank}"
    target = _one_card(stands)
    return f"{shown}={target}" if target is not None and target != JOKER else code


def cards_text(text: str | Iterable[str]) -> str:
    """Space-separated card codes (or a list of them) shown with suit symbols; ``|`` becomes ``·``."""
    words = text.split() if isinstance(text, str) else [str(w) for w in text]
    return " ".join("·" if w == "|" else card_text(w) for w in words)


def melds_text(text: str) -> str:
    """``5C 6C 7C | 9D 9S 9H`` -> ``5♣ 6♣ 7♣ · 9♦ 9♠ 9♥``."""
    return " · ".join(cards_text(group) for group in text.split("|") if group.strip())


# ------------------------------------------------------------------- labels fitted to Discord, matching


def fold(text: str) -> str:
    """Case- and accent-insensitive form for matching (``Añadir`` -> ``anadir``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int = LABEL_LIMIT) -> str:
    """``text`` cut at a word boundary with ``…`` so that it is at most ``limit`` long."""
    text = " ".join(text.split())
    if utf16_len(text) <= limit:
        return text
    cut = text
    while cut and utf16_len(cut) + 1 > limit:
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ·:,;") + _ELLIPSIS
