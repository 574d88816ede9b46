"""What marks a hint's picture as a hint: the banner over it and what the suggested move changes.

What it is: ``HintMark``, what the bot passes with a hint's picture (the suggested move as a
record line, and the hand or the table as they are before it), and the helpers the hand and the
table pictures draw it with: ``draw_banner`` (a violet band on top: "HINT", what the picture
shows, the move as a move's label with its cards, and for a hand the cards that leave it and
come into it), ``hand_changes`` and ``table_changes`` (which cards and melds differ, compared as codes), and
``HINT``, the colour that frames what changes in the picture below the banner.

What it is not: no rules and no engine: it never works out the move's effect (the bot passes the
picture of the position after it, ``bot.service.hints.hint_picture``); it only compares the cards
and melds it is given. No layout of the hand or the table (``hand.py``, ``table.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.views import Meld
from bot.words.i18n import translate

from .draw import PROBE, Scene
from .theme import RGB, Palette
from .words import Part, label_parts

__all__ = ["BANNER_H", "HINT", "HintMark", "banner_height", "draw_banner", "hand_changes", "table_changes"]

HINT: RGB = (178, 132, 255)
"""The hint's violet: the banner's label and the frame of every meld or card the move changes."""
_BAND: RGB = (46, 28, 84)

BANNER_H = 100
MARGIN = 22


@dataclass(frozen=True, slots=True)
class HintMark:
    """A hint's picture: ``move`` is the suggested move as a record line (``"ana discard KD"``);
    ``hand_before`` the seat's hand now, for a picture of the hand after the move; ``table_before``
    the melds on the table now, for a picture of the table after it. What differs from them is
    marked; with neither, the banner alone says the picture is a hint."""

    move: str
    hand_before: tuple[str, ...] = ()
    table_before: tuple[Meld, ...] | None = None


def hand_changes(before: Sequence[str], after: Sequence[str]) -> tuple[list[str], list[str]]:
    """(cards that leave the hand, cards that come into it), each in the order of its hand."""
    gone = Counter(before) - Counter(after)
    new = Counter(after) - Counter(before)
    return _take(before, gone), _take(after, new)


def table_changes(before: Sequence[Meld], after: Sequence[Meld]) -> tuple[frozenset[int], list[str]]:
    """(numbers of the melds after the move that were not on the table as they are, cards on the
    table after the move that were not on it before: the ones that came from the hand)."""
    old = Counter(tuple(sorted(m.cards)) for m in before)
    changed = set()
    for meld in after:
        key = tuple(sorted(meld.cards))
        if old[key]:
            old[key] -= 1
        else:
            changed.add(meld.number)
    # A card is the same card whatever a wild one stands for: JK=8H before and JK=7 after is no new card.
    fresh = Counter(_own(c) for m in after for c in m.cards) - Counter(_own(c) for m in before for c in m.cards)
    out = []
    for code in (c for m in after for c in m.cards):
        if fresh[_own(code)] > 0:
            fresh[_own(code)] -= 1
            out.append(code)
    return frozenset(changed), out


def _own(code: str) -> str:
    return code.partition("=")[0]


def _take(order: Sequence[str], counts: Counter[str]) -> list[str]:
    left = Counter(counts)
    out = []
    for code in order:
        if left[code] > 0:
            left[code] -= 1
            out.append(code)
    return out


def banner_height(mark: HintMark | None) -> int:
    return BANNER_H if mark is not None else 0


def _changes_parts(mark: HintMark, hand: Sequence[str] | None, named: Sequence[Part], locale: str) -> list[Part]:
    """The cards that leave the hand and come into it, less those the move's label names already
    (a discard's card)."""
    if hand is None or not mark.hand_before:
        return []
    gone, new = hand_changes(mark.hand_before, hand)
    said = Counter(p[0] for p in named if isinstance(p, tuple))
    parts: list[Part] = []
    for key, cards in (("hintimg.leaves", gone), ("hintimg.comes", new)):
        unsaid = []
        for card in cards:
            if said[card]:
                said[card] -= 1
            else:
                unsaid.append(card)
        if unsaid:
            parts += ["   ·   " + translate(key, locale) + " ", *((c,) for c in unsaid)]
    return parts


def draw_banner(scene: Scene, mark: HintMark, *, what: str, locale: str, hand: Sequence[str] | None = None,
                added: Sequence[str] = ()) -> None:
    """The banner across the top of ``scene`` (``BANNER_H`` tall): the "HINT" label, ``what``
    (what the picture shows, in words), the move as the label of a move to make (``Descartar
    K♦``; ``added``: the cards a rearranged table puts down), and for a hand (``hand``: the hand
    after the move) the cards that leave it and come into it."""
    width = scene.width
    scene.draw.rectangle((0, 0, width, BANNER_H), fill=_BAND)
    scene.draw.rectangle((0, BANNER_H - 4, width, BANNER_H), fill=HINT)
    scene.mark("hint", mark.move, (0, 0, width, BANNER_H))
    end = scene.pill(MARGIN, 12, translate("hintimg.label", locale).upper(), 18, HINT, Palette.chip_ink,
                     height=34)[2]
    scene.text(end + 14, 15, what, 23, Palette.ink, "bold", max_width=width - end - 14 - MARGIN)
    label = label_parts(mark.move, locale, added=added)
    parts = [*label, *_changes_parts(mark, hand, label, locale)]
    _fit(scene, MARGIN, 56, parts, width - 2 * MARGIN)


def _fit(scene: Scene, x: int, y: int, parts: Sequence[Part], max_w: int) -> None:
    """The move line at the largest size that fits (22 down to 15 px), else cut with an ellipsis."""
    for size in (22, 20, 18, 16):
        if scene.rich_width(parts, size) <= max_w:
            scene.rich(x, y, parts, size, Palette.ink)
            return
    kept: list[Part] = []
    for part in parts:
        if PROBE.rich_width([*kept, part, "…"], 16) > max_w:
            break
        kept.append(part)
    scene.rich(x, y, [*kept, "…"], 16, Palette.ink)
