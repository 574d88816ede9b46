"""The melds band of the table picture: every meld in the order of its number, on index cards.

What it is: ``plan_melds`` lays the table's melds out as tiles in the order of their numbers, left
to right and top to bottom, so the meld ``añadir 7H a 17`` names comes right after 16 (the number
is the notation's, ``Meld.number``). Each tile has a tab in its owner's colour (the seat panel's
avatar colour) with its number over the owner's initial, and then its cards as index
cards (``cards.index_sprite``: the rank over the suit, as large as the card allows), so they stay
readable when Discord shows the picture 400 px wide on a phone. The largest card size whose table
fits the height it is given is used; a crowded table (8 seats, 30 melds) wraps into more rows at
the smallest size instead of shrinking further: its ranks stay ``MIN_RANK_AT_400`` px tall at 400
px wide. Cards shown face up (a gin knocker's deadwood) follow the melds, labelled as the hand of
their owner. ``draw_melds`` draws a plan; for a hint's picture it frames in ``hint.HINT`` the melds
that change and underlines the cards that come from the hand.

What it is not: no rules (the numbers, owners and cards are the view's), no header, seats or
piles (``table.py``), and no encoding.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.engine.views import PublicView
from bot.words.i18n import translate

from .cards import index_height, index_rank_height
from .draw import Scene
from .hint import HINT
from .theme import SEAT_COLOURS, Palette
from .words import display_name

__all__ = ["INDEX_WIDTHS", "MIN_RANK_AT_400", "MeldPlan", "Placed", "Tile", "draw_melds", "plan_melds",
           "seat_colour", "tiles_of"]

INDEX_WIDTHS = (58, 53, 48)  # index card widths, largest first: the first whose table fits is used
MIN_RANK_AT_400 = round(index_rank_height(INDEX_WIDTHS[-1]) * 400 / 960)
"""How tall the smallest index card's rank is when Discord shows the 960-px table 400 px wide."""
GAP = 8  # between tiles in a row
ROW_GAP = 8
PAD = 5  # inside a tile
CARD_GAP = 3


def seat_colour(view: PublicView, seat: str | None) -> tuple[int, int, int]:
    names = [s.name for s in view.seats]
    return SEAT_COLOURS[names.index(seat) % len(SEAT_COLOURS)] if seat in names else Palette.ink_soft


@dataclass(frozen=True, slots=True)
class Tile:
    """A meld (``number`` set) or cards shown face up (``number`` None), with its owner."""

    number: int | None
    owner: str | None
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile at (x, y): x in the picture, y from the top of the band."""

    tile: Tile
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True, slots=True)
class MeldPlan:
    card_w: int
    placed: tuple[Placed, ...]
    height: int  # from the first row's top to the last row's bottom; 0 with no tiles


def tiles_of(view: PublicView) -> list[Tile]:
    """The melds by number, then each seat's cards shown face up."""
    seats = {s.name for s in view.seats}
    tiles = [Tile(m.number, m.owner if m.owner in seats else None, tuple(m.cards))
             for m in sorted(view.table, key=lambda m: m.number)]
    tiles += [Tile(None, seat, tuple(cards)) for seat, cards in view.revealed if cards]
    return tiles


def _number_size(cw: int) -> int:
    return min(40, round(index_height(cw) * 0.40))


TAB_LABEL = 14  # "MANO" on the tab of cards shown face up


def _tab_width(scene: Scene, tile: Tile, cw: int, locale: str) -> int:
    """The tab's width: the meld's number (or the "hand" label of cards shown face up) over the
    owner's initial, on the owner's colour."""
    if tile.number is None:
        return max(36, scene.measure(translate("table.hand_shown", locale).upper(), TAB_LABEL, "bold") + 10)
    return max(36, scene.measure(str(tile.number), _number_size(cw), "heavy") + 10)


def _tile_width(scene: Scene, tile: Tile, cw: int, locale: str) -> int:
    n = max(1, len(tile.cards))
    return PAD + _tab_width(scene, tile, cw, locale) + 6 + n * cw + (n - 1) * CARD_GAP + PAD


def _flow(scene: Scene, tiles: Sequence[Tile], cw: int, x0: int, inner: int, locale: str) -> tuple[list[Placed], int]:
    th = 2 * PAD + index_height(cw)
    placed: list[Placed] = []
    x = y = 0
    for tile in tiles:
        w = min(_tile_width(scene, tile, cw, locale), inner)
        if x and x + w > inner:
            x, y = 0, y + th + ROW_GAP
        placed.append(Placed(tile, x0 + x, y, w, th))
        x += w + GAP
    return placed, y + th


def plan_melds(scene: Scene, view: PublicView, locale: str, x0: int, inner: int, room: int) -> MeldPlan:
    """Lay the tiles out in rows ``inner`` px wide from ``x0``, with the largest card whose band
    is at most ``room`` tall (else the smallest: the band grows instead)."""
    tiles = tiles_of(view)
    if not tiles:
        return MeldPlan(INDEX_WIDTHS[0], (), 0)
    for cw in INDEX_WIDTHS:
        placed, height = _flow(scene, tiles, cw, x0, inner, locale)
        if height <= room:
            break
    return MeldPlan(cw, tuple(placed), height)


def draw_melds(scene: Scene, view: PublicView, plan: MeldPlan, y0: int, locale: str,
               names: Mapping[str, str] | None, *, changed: Collection[int] = (), fresh: Sequence[str] = ()) -> None:
    """Draw ``plan`` with its band's top at ``y0``; ``changed``: meld numbers framed as a hint's
    changes; ``fresh``: cards underlined as come from the hand (one copy each time it is listed)."""
    cw = plan.card_w
    ch = index_height(cw)
    to_mark = Counter(fresh)
    for p in plan.placed:
        tile, y = p.tile, y0 + p.y
        box = (p.x, y, p.x + p.w, y + p.h)
        if tile.number is not None and tile.number in changed:
            scene.rrect((p.x - 5, y - 5, p.x + p.w + 5, y + p.h + 5), 15, HINT)
            scene.mark("changed", str(tile.number), box)
        colour = seat_colour(view, tile.owner) if tile.owner else Palette.chip
        scene.rrect(box, 10, Palette.panel)
        bx, by = p.x + PAD, y + PAD
        bw = _tab_width(scene, tile, cw, locale)
        scene.rrect((bx, by, bx + bw, by + ch), 8, colour)
        initial = display_name(tile.owner, names)[:1].upper() if tile.owner else ""
        if tile.number is not None:
            size = _number_size(cw)
            scene.text(bx + bw / 2, by + 4, str(tile.number), size, Palette.chip_ink, "heavy", align="centre")
            scene.mark("meld", str(tile.number), box)
            if initial:
                scene.text(bx + bw / 2, by + ch - 28, initial, 20, Palette.chip_ink, "bold", align="centre")
        else:
            scene.text(bx + bw / 2, by + 6, initial, 30, Palette.chip_ink, "heavy", align="centre")
            scene.text(bx + bw / 2, by + ch - 24, translate("table.hand_shown", locale).upper(), TAB_LABEL,
                       Palette.chip_ink, "bold", align="centre")
            scene.mark("shown", tile.owner or "", box)
        if tile.owner:
            scene.mark("owner", tile.owner, (bx, by, bx + bw, by + ch))
        cx = bx + bw + 6
        n = len(tile.cards)
        avail = p.x + p.w - PAD - cx
        step = min(cw + CARD_GAP, (avail - cw) // (n - 1)) if n > 1 else 0
        for i, code in enumerate(tile.cards):
            x = cx + i * step
            scene.index_card(code, x, by, cw)
            if to_mark[code] > 0:
                to_mark[code] -= 1
                scene.rrect((x + 3, by + ch + 1, x + cw - 3, by + ch + PAD - 1), 2, HINT)
                scene.mark("fresh", code, (x, by, x + cw, by + ch))
