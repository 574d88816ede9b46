"""The table image, drawn from a ``PublicView``: what everybody in the channel sees.

What it is: a fixed-width picture in bands, top to bottom: the header (variant, deal number, key
options), one panel per seat (name, cards in hand, score, dealer, who is to act, opened or laid
down, contract), the piles (stock count, the discard pile's top or the whole pile where a rule
shows it, the last move), then the melds grouped by owner, each with the number that
``layoff 7H to 3`` uses. Cards shrink a step at a time when the table is crowded and the picture
grows taller when even that is not enough, so nothing is ever clipped.

What it is not: it never sees a hand (a ``PublicView`` holds none), knows no rules and does no I/O.
``draw_table`` returns the ``Scene`` (for tests and the replay); ``stills.render_table`` encodes it
(the shared palette is sampled from this picture, so this module sits below the encoder).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine.views import Meld, PublicView, SeatInfo
from bot.words.i18n import has_key, translate

from .cards import card_height
from .draw import PROBE, Scene
from .theme import RGB, SEAT_COLOURS, Palette, deck_for
from .words import display_name, move_parts, option_chips, outcome_text, points_text, variant_name

__all__ = ["WIDTH", "draw_table", "seat_colour"]

WIDTH = 960
MARGIN = 22
GAP = 12
MELD_WIDTHS = (70, 62, 54, 48)  # meld card widths, largest first: the first that fits is used
MELDS_TOP = 36  # the melds' label line
MAX_HEIGHT = 1200  # a taller table is drawn with smaller cards, if a smaller size fits
STEP = 0.37  # visible share of a card under the next one in a meld


def seat_colour(view: PublicView, seat: str | None) -> tuple[int, int, int]:
    names = [s.name for s in view.seats]
    return SEAT_COLOURS[names.index(seat) % len(SEAT_COLOURS)] if seat in names else Palette.ink_soft


# --- header ----------------------------------------------------------------------------------------


def _header(scene: Scene | None, view: PublicView, locale: str, y0: int) -> int:
    """Draw (or only measure, with ``scene`` None) the header band; returns its height."""
    title = variant_name(view.variant, locale)
    deal = translate("table.deal", locale, n=view.deal_number)
    chips = option_chips(view.variant, view.options, locale)
    probe = scene or PROBE
    title_w = probe.measure(title, 30, "heavy")
    deal_w = probe.measure(deal, 22, "semibold")
    chip_ws = [probe.pill_width(c, 17, height=32) for c in chips]
    left_end = MARGIN + title_w + 14 + deal_w + 24
    inline = sum(chip_ws) + GAP * max(0, len(chips) - 1) <= WIDTH - MARGIN - left_end
    rows: list[list[int]] = []
    if not inline:
        row: list[int] = []
        used = 0
        for i, w in enumerate(chip_ws):
            if row and used + GAP + w > WIDTH - 2 * MARGIN:
                rows.append(row)
                row, used = [], 0
            used += (GAP if row else 0) + w
            row.append(i)
        if row:
            rows.append(row)
    height = 66 + len(rows) * 40
    if scene is None:
        return height
    scene.draw.rectangle((0, y0, WIDTH, y0 + height), fill=Palette.band)
    scene.draw.rectangle((0, y0 + height - 3, WIDTH, y0 + height), fill=Palette.gold)
    scene.text(MARGIN, y0 + 14, title, 30, Palette.ink, "heavy")
    scene.text(MARGIN + title_w + 14, y0 + 22, deal, 22, Palette.ink_soft, "semibold")
    if inline:
        x = WIDTH - MARGIN - sum(chip_ws) - GAP * max(0, len(chips) - 1)
        for chip, w in zip(chips, chip_ws, strict=True):
            scene.pill(x, y0 + 17, chip, 17, Palette.chip, Palette.chip_ink, height=32)
            x += w + GAP
    else:
        for r, row in enumerate(rows):
            x = MARGIN
            for i in row:
                scene.pill(x, y0 + 62 + r * 40, chips[i], 17, Palette.chip, Palette.chip_ink, height=32)
                x += chip_ws[i] + GAP
    return height


# --- seats -----------------------------------------------------------------------------------------

PANEL_TOP = 96  # avatar, name and the cards/score line; badge rows come under it
PILL_ROW = 34


def _seat_columns(n: int) -> int:
    return n if n <= 4 else math.ceil(n / 2)


def _panel_width(n: int) -> float:
    cols = _seat_columns(n)
    return (WIDTH - 2 * MARGIN - (cols - 1) * GAP) / cols


def _pills(seat: SeatInfo, view: PublicView, locale: str) -> list[tuple[str, RGB, RGB, str | None]]:
    """The badges under a seat: whose turn first, then dealer, opened/laid down, contract, resigned."""
    out: list[tuple[str, RGB, RGB, str | None]] = []
    if seat.is_acting:
        out.append((translate("seat.acting", locale), Palette.gold, Palette.chip_ink, "play"))
    if seat.is_dealer:
        out.append((translate("seat.dealer", locale), Palette.chip, Palette.chip_ink, None))
    if seat.opened:
        out.append((translate(f"seat.opened.{view.variant}", locale), Palette.green_ok, Palette.chip_ink, None))
    if seat.contract is not None:
        out.append((translate("seat.contract", locale, n=seat.contract), (206, 172, 255), Palette.chip_ink, None))
    if seat.resigned:
        out.append((translate("seat.resigned", locale), Palette.red_bad, Palette.chip_ink, None))
    return out


PILL_SIZE = 17
PILL_H = 28


def _pill_rows(probe: Scene, pills: Sequence[tuple[str, RGB, RGB, str | None]], width: float) -> list[list[int]]:
    rows: list[list[int]] = []
    row: list[int] = []
    used = 0
    limit = width - 24
    for i, (text, _, _, icon) in enumerate(pills):
        w = probe.pill_width(text, PILL_SIZE, height=PILL_H, icon=icon)
        if row and used + 6 + w > limit:
            rows.append(row)
            row, used = [], 0
        used += (6 if row else 0) + w
        row.append(i)
    if row:
        rows.append(row)
    return rows


def _panel_height(view: PublicView, locale: str) -> int:
    probe = PROBE
    width = _panel_width(len(view.seats))
    rows = max((len(_pill_rows(probe, _pills(s, view, locale), width)) for s in view.seats), default=0)
    return PANEL_TOP + rows * PILL_ROW + (8 if rows else 0)


def _seats_height(view: PublicView, locale: str) -> int:
    rows = math.ceil(len(view.seats) / _seat_columns(len(view.seats)))
    return 16 + rows * _panel_height(view, locale) + (rows - 1) * (GAP + 4) + 16


def _seat_panel(scene: Scene, view: PublicView, seat: SeatInfo, box: tuple[int, int, int, int], locale: str,
                names: Mapping[str, str] | None) -> None:
    x0, y0, x1, y1 = box
    if seat.is_acting:
        # Highlight: a soft gold halo, a gold frame and a lighter panel.
        scene.rrect((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=20, fill=(112, 128, 58))
        scene.rrect((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=17, fill=Palette.gold)
        scene.rrect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=13, fill=Palette.panel_acting)
        scene.mark("acting", seat.name, (x0 - 6, y0 - 6, x1 + 6, y1 + 6))
    else:
        fill = Palette.panel_resigned if seat.resigned else Palette.panel
        scene.rrect(box, radius=14, fill=fill, outline=Palette.felt_line, width=1)
    scene.mark("seat", seat.name, box)
    colour = seat_colour(view, seat.name)
    name = display_name(seat.name, names)
    # Avatar disc with the initial, and the name.
    ax, ay, ad = x0 + 12, y0 + 11, 38
    scene.ellipse((ax, ay, ax + ad, ay + ad), colour)
    scene.text(ax + ad / 2, ay + 7, name[:1].upper(), 21, Palette.chip_ink, "heavy", align="centre")
    tx = ax + ad + 10
    scene.text(tx, y0 + 13, name, 25, Palette.ink, "bold", max_width=x1 - tx - 10)
    # Cards in hand (a little fan of backs), their number, and the score.
    fan_x, fan_y = x0 + 14, y0 + 58
    shown = min(seat.card_count, 4)
    for i in range(shown):
        scene.back(fan_x + i * 6, fan_y + 1, 17)
    count_x = fan_x + (max(shown, 1) - 1) * 6 + 17 + 8
    end = scene.text(count_x, fan_y, str(seat.card_count), 22, Palette.ink, "bold")[2]
    pts = translate("seat.points", locale, points=points_text(seat.total, locale))
    scene.text(end + 16, fan_y, pts, 22, Palette.ink_soft, "semibold", max_width=x1 - end - 26)
    pills = _pills(seat, view, locale)
    for r, row in enumerate(_pill_rows(scene, pills, x1 - x0)):
        bx, by = x0 + 12, y0 + PANEL_TOP + r * PILL_ROW
        for i in row:
            text, fill, ink, icon = pills[i]
            bx = scene.pill(bx, by, text, PILL_SIZE, fill, ink, height=PILL_H, icon=icon)[2] + 6


def _seats(scene: Scene, view: PublicView, y0: int, locale: str, names: Mapping[str, str] | None) -> None:
    n = len(view.seats)
    cols = _seat_columns(n)
    width = _panel_width(n)
    panel_h = _panel_height(view, locale)
    for i, seat in enumerate(view.seats):
        r, c = divmod(i, cols)
        x = MARGIN + c * (width + GAP)
        y = y0 + 16 + r * (panel_h + GAP + 4)
        _seat_panel(scene, view, seat, (round(x), y, round(x + width), y + panel_h), locale, names)


# --- piles -----------------------------------------------------------------------------------------

PILE_W = 80
LABEL = 16  # small capitals labels ("ÚLTIMA JUGADA")


@dataclass(frozen=True, slots=True)
class _PileLayout:
    height: int
    pile_w: int  # card width of the visible discard pile, when a rule shows it
    pile_rows: list[list[str]]


def _pile_layout(view: PublicView) -> _PileLayout:
    top_h = 12 + card_height(PILE_W) + 10 + 26 + 10
    rows: list[list[str]] = []
    pile_w = 54
    if view.discard_visible:
        step = round(pile_w * STEP)
        per_row = max(1, (WIDTH - 2 * MARGIN - pile_w) // step + 1)
        cards = list(view.discard_visible)
        rows = [cards[i:i + per_row] for i in range(0, len(cards), per_row)]
    pile_h = (30 + len(rows) * (card_height(pile_w) + 10) + 6) if rows else 0
    return _PileLayout(top_h + pile_h, pile_w, rows)


def _acting_line(view: PublicView, locale: str, names: Mapping[str, str] | None) -> tuple[str, list[tuple[str, RGB]]]:
    """The label and the coloured words of the big status line: who is to act, or how it ended."""
    if view.hand_over:
        label = translate("table.game_over" if view.game_over else "table.over", locale)
        if view.result is not None:
            text = outcome_text(view.result.outcome, view.result.winner, names, locale)
            return label, [(text, seat_colour(view, view.result.winner))]
        return label, []
    words: list[tuple[str, RGB]] = []
    for i, seat in enumerate(view.actors):
        if i:
            words.append((", ", Palette.ink))
        words.append((display_name(seat, names), seat_colour(view, seat)))
    phase = f"phase.{view.phase}"
    if has_key(phase):
        words.append(("  ·  " + translate(phase, locale), Palette.ink_soft))
    return translate("table.turn", locale), words


def _piles(scene: Scene, view: PublicView, y0: int, plan: _PileLayout, locale: str,
           names: Mapping[str, str] | None, caption: Sequence[str | tuple[str]] | None) -> None:
    ch = card_height(PILE_W)
    top = y0 + 12
    # The stock: a small stack of backs with its count under it.
    sx = MARGIN + 6
    depth = min(4, 1 + view.stock_count // 10) if view.stock_count else 0
    for i in range(depth):
        scene.back(sx + (depth - 1 - i) * 3, top + (depth - 1 - i) * 3 - 6, PILE_W)
    if not depth:
        scene.rrect((sx, top, sx + PILE_W, top + ch), 8, Palette.felt, outline=Palette.felt_line, width=2)
    scene.mark("stock", str(view.stock_count), (sx, top, sx + PILE_W, top + ch))
    label_y = top + ch + 10
    scene.text(sx + PILE_W / 2, label_y, translate("table.stock", locale, count=view.stock_count), 19,
               Palette.ink, "bold", align="centre")
    # The discard pile's top card.
    dx = sx + PILE_W + 80
    if view.discard_top:
        scene.card(view.discard_top, dx, top, PILE_W)
        scene.mark("discard", view.discard_top, (dx, top, dx + PILE_W, top + ch))
    else:
        scene.rrect((dx, top, dx + PILE_W, top + ch), 8, Palette.felt, outline=Palette.felt_line, width=2)
    scene.text(dx + PILE_W / 2, label_y, translate("table.discard", locale, count=view.discard_count), 19,
               Palette.ink, "bold", align="centre")
    # To the right: who is to act (big), then the last move.
    rx = dx + PILE_W + 56
    max_w = WIDTH - MARGIN - rx
    label, words = _acting_line(view, locale, names)
    scene.text(rx, top + 2, label.upper(), LABEL, Palette.ink_faint, "bold")
    x = rx
    for size in (30, 26, 22, 19):
        if sum(scene.measure(w, size, "heavy") for w, _ in words) <= max_w:
            break
    for word, colour in words:
        avail = WIDTH - MARGIN - x
        if avail < 20:
            break
        x = scene.text(x, top + 26, word, size, colour, "heavy", max_width=avail)[2] + (1 if word.strip() else 0)
        x = max(x, x)
    parts = caption if caption is not None else (
        move_parts(view.last_move, names, locale) if view.last_move else [translate("table.first_move", locale)]
    )
    my = top + 78
    scene.text(rx, my, translate("table.last_move", locale).upper(), LABEL, Palette.ink_faint, "bold")
    _rich_fit(scene, rx, my + 26, parts, max_w, Palette.ink)
    # The whole discard pile, where a rule shows it: one row of overlapping cards, wrapping.
    if plan.pile_rows:
        py = label_y + 38
        scene.text(MARGIN, py, translate("table.discard_pile", locale).upper(), LABEL, Palette.ink_faint, "bold")
        py += 30
        pw, ph = plan.pile_w, card_height(plan.pile_w)
        step = round(pw * STEP)
        for row in plan.pile_rows:
            for i, code in enumerate(row):
                scene.card(code, MARGIN + i * step, py, pw, full=i == len(row) - 1)
            py += ph + 10


def _rich_fit(scene: Scene, x: int, y: int, parts: Sequence[str | tuple[str]], max_w: int,
              colour: tuple[int, int, int]) -> None:
    """Draw a move line at the largest size (20 down to 13 px) that fits ``max_w``."""
    for size in (22, 20, 18, 16, 14):
        if scene.rich_width(parts, size) <= max_w:
            scene.rich(x, y, parts, size, colour)
            return
    # Still too long (a many-card meld): keep the words and as many chips as fit, then an ellipsis.
    size = 14
    kept: list[str | tuple[str]] = []
    for part in parts:
        if scene.rich_width([*kept, part, "…"], size) > max_w:
            break
        kept.append(part)
    scene.rich(x, y, [*kept, "…"], size, colour)


# --- melds -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tile:
    label: str  # the meld number, or the "hand" label for cards shown face up
    cards: tuple[str, ...]
    numbered: bool


@dataclass(frozen=True, slots=True)
class _Group:
    owner: str | None
    tiles: tuple[_Tile, ...]


@dataclass(frozen=True, slots=True)
class _Placed:
    kind: str  # "group" | "tile"
    x: int
    y: int
    w: int
    h: int
    group: _Group
    tile: _Tile | None = None


def _groups(view: PublicView, locale: str) -> list[_Group]:
    """Melds by owner in seat order (ownerless ones last), with cards shown face up after them."""
    by_owner: dict[str | None, list[_Tile]] = {}
    order = [s.name for s in view.seats]
    for meld in view.table:
        by_owner.setdefault(meld.owner if meld.owner in order else None, []).append(_meld_tile(meld))
    for seat, cards in view.revealed:
        if cards:
            by_owner.setdefault(seat, []).append(_Tile(translate("table.hand_shown", locale), tuple(cards), False))
    keys = [s for s in order if s in by_owner] + ([None] if None in by_owner else [])
    return [_Group(k, tuple(by_owner[k])) for k in keys]


def _meld_tile(meld: Meld) -> _Tile:
    return _Tile(str(meld.number), tuple(meld.cards), True)


BADGE = 34
TILE_PAD = 6
GROUP_HEAD = 28


def _tile_size(scene: Scene, tile: _Tile, cw: int) -> tuple[int, int]:
    step = round(cw * STEP)
    cards_w = cw + step * (len(tile.cards) - 1) if tile.cards else cw
    badge_w = BADGE if tile.numbered else scene.pill_width(tile.label, 13, height=24)
    return TILE_PAD + badge_w + 8 + cards_w + TILE_PAD, TILE_PAD + card_height(cw) + TILE_PAD


def _tile_rows(scene: Scene, tiles: Sequence[_Tile], cw: int, max_w: int) -> list[list[tuple[_Tile, int, int]]]:
    """Split tiles into rows no wider than ``max_w`` (a tile wider than that gets its own row and
    its cards overlap more; see ``_fit_step``)."""
    rows: list[list[tuple[_Tile, int, int]]] = []
    row: list[tuple[_Tile, int, int]] = []
    used = 0
    for tile in tiles:
        w, h = _tile_size(scene, tile, cw)
        w = min(w, max_w)
        if row and used + GAP + w > max_w:
            rows.append(row)
            row, used = [], 0
        used += (GAP if row else 0) + w
        row.append((tile, w, h))
    if row:
        rows.append(row)
    return rows


def _block(scene: Scene, group: _Group, cw: int, max_w: int, locale: str,
           names: Mapping[str, str] | None) -> tuple[list[list[tuple[_Tile, int, int]]], int, int]:
    """A group's block at most ``max_w`` wide: (tile rows, width, height)."""
    rows = _tile_rows(scene, group.tiles, cw, max_w - 16)
    bw = max(sum(w for _, w, _ in r) + GAP * (len(r) - 1) for r in rows) + 16
    head_w = scene.measure(_owner_label(group, locale, names), 19) + 45
    bw = min(max_w, max(bw, head_w))
    bh = GROUP_HEAD + sum(max(h for _, _, h in r) for r in rows) + GAP * (len(rows) - 1) + 10
    return rows, bw, bh


def _meld_plan(scene: Scene, groups: Sequence[_Group], cw: int, locale: str,
               names: Mapping[str, str] | None) -> tuple[list[_Placed], int]:
    """Pack the groups, in seat order, as blocks (name, then its tiles in rows) on a skyline: each
    block goes where its bottom edge ends highest, re-flowing its tiles into the width left at
    that spot (ties: higher, then further left). Returns placements (relative to the band) and
    the band height."""
    inner = WIDTH - 2 * MARGIN
    sky = [0] * inner  # lowest free y at each x
    placed: list[_Placed] = []
    for group in groups:
        widest = max(_tile_size(scene, t, cw)[0] for t in group.tiles) + 16
        starts = sorted({0} | {x for x in range(1, inner) if sky[x] != sky[x - 1]})
        best: tuple[int, int, int, list[list[tuple[_Tile, int, int]]], int, int] | None = None
        for x in starts:
            left = inner - x
            if left < min(widest, inner // 3):
                continue
            rows, bw, bh = _block(scene, group, cw, left, locale, names)
            y = max(sky[x:x + bw])
            key = (y + bh, y, x, rows, bw, bh)
            if best is None or key[:3] < best[:3]:
                best = key
        assert best is not None
        _, y, x, rows, bw, bh = best
        placed.append(_Placed("group", MARGIN + x, y, bw, bh, group))
        ty = y + GROUP_HEAD
        for r in rows:
            tx = x + 8
            for tile, w, h in r:
                placed.append(_Placed("tile", MARGIN + tx, ty, w, h, group, tile))
                tx += w + GAP
            ty += max(h for _, _, h in r) + GAP
        for i in range(x, min(inner, x + bw + GAP)):
            sky[i] = y + bh + GAP
    return placed, (max(sky) - GAP if groups else 0)


def _owner_label(group: _Group, locale: str, names: Mapping[str, str] | None = None) -> str:
    return display_name(group.owner, names) if group.owner else translate("table.nobody", locale)


def _draw_melds(scene: Scene, view: PublicView, placed: Sequence[_Placed], y0: int, cw: int, locale: str,
                names: Mapping[str, str] | None) -> None:
    for p in placed:
        y = y0 + p.y
        if p.kind == "group":
            colour = seat_colour(view, p.group.owner)
            scene.rrect((p.x, y, p.x + p.w, y + p.h), radius=14, fill=Palette.felt_dark)
            scene.ellipse((p.x + 12, y + 10, p.x + 25, y + 23), colour)
            scene.text(p.x + 33, y + 5, _owner_label(p.group, locale, names), 19, colour, "bold",
                       max_width=p.w - 45)
            continue
        tile = p.tile
        assert tile is not None
        scene.rrect((p.x, y, p.x + p.w, y + p.h), radius=10, fill=Palette.panel)
        bx, by = p.x + TILE_PAD, y + TILE_PAD
        if tile.numbered:
            scene.rrect((bx, by, bx + BADGE, by + BADGE), radius=9, fill=Palette.chip)
            scene.text(bx + BADGE / 2, by + 6, tile.label, 19 if len(tile.label) < 3 else 15, Palette.chip_ink,
                       "heavy", align="centre")
            badge_w = BADGE
            scene.mark("meld", tile.label, (p.x, y, p.x + p.w, y + p.h))
        else:
            badge_w = scene.pill(bx, by + 4, tile.label, 13, Palette.ink_faint, Palette.chip_ink, height=24)[2] - bx
            scene.mark("shown", p.group.owner or "", (p.x, y, p.x + p.w, y + p.h))
        cx = bx + badge_w + 8
        avail = p.x + p.w - TILE_PAD - cx
        n = len(tile.cards)
        step = min(round(cw * STEP), (avail - cw) // (n - 1)) if n > 1 else 0
        for i, code in enumerate(tile.cards):
            scene.card(code, cx + i * step, y + TILE_PAD, cw, full=i == n - 1)


def _melds_height(scene: Scene, view: PublicView, locale: str,
                  names: Mapping[str, str] | None = None) -> tuple[int, int, list[_Placed]]:
    """Choose the meld card size: the largest whose table fits ``MAX_HEIGHT``, else the smallest.
    Returns (card width, band height, placements)."""
    groups = _groups(view, locale)
    if not groups:
        return MELD_WIDTHS[0], 70, []
    fixed = _header(None, view, locale, 0) + _seats_height(view, locale) + _pile_layout(view).height + MELDS_TOP + 12
    best: tuple[int, int, list[_Placed]] | None = None
    for cw in MELD_WIDTHS:
        placed, h = _meld_plan(scene, groups, cw, locale, names)
        best = (cw, h + MELDS_TOP + 12, placed)
        if fixed + h <= MAX_HEIGHT:
            break
    assert best is not None
    return best


# --- the whole table -------------------------------------------------------------------------------


def table_height(view: PublicView, locale: str = "es", caption: bool = False,
                 names: Mapping[str, str] | None = None) -> int:
    """The height ``draw_table`` will use for ``view`` (the replay sizes its frames with it)."""
    probe = PROBE
    return (_header(None, view, locale, 0) + _seats_height(view, locale) + _pile_layout(view).height
            + _melds_height(probe, view, locale, names)[1] + (52 if caption else 0))


def draw_table(view: PublicView, *, locale: str = "es", four_colour: bool = False,
               names: Mapping[str, str] | None = None, caption: Sequence[str | tuple[str]] | None = None,
               footer: str | None = None, height: int | None = None) -> Scene:
    """Draw the table. ``names`` maps seats to display names; ``caption`` replaces the last-move
    line and ``footer`` adds a bottom bar (the replay uses both); ``height`` pads the picture to a
    fixed height (never shorter than needed)."""
    probe = PROBE
    header_h = _header(None, view, locale, 0)
    seats_h = _seats_height(view, locale)
    piles = _pile_layout(view)
    cw, melds_h, placed = _melds_height(probe, view, locale, names)
    footer_h = 52 if footer is not None else 0
    total = header_h + seats_h + piles.height + melds_h + footer_h
    scene = Scene.new(WIDTH, max(total, height or 0), deck_for(four_colour))
    y = 0
    _header(scene, view, locale, y)
    y += header_h
    _seats(scene, view, y, locale, names)
    y += seats_h
    scene.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=Palette.felt_line, width=1)
    _piles(scene, view, y, piles, locale, names, caption)
    y += piles.height
    scene.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=Palette.felt_line, width=1)
    title = translate("table.melds", locale)
    count = f"· {len(view.table)}" if view.table else ""
    end = scene.text(MARGIN, y + 12, title.upper(), 15, Palette.ink_faint, "bold")[2]
    if count:
        scene.text(end + 8, y + 12, count, 15, Palette.ink_faint, "bold")
    if placed:
        _draw_melds(scene, view, placed, y + MELDS_TOP, cw, locale, names)
    else:
        scene.text(MARGIN, y + MELDS_TOP, translate("table.no_melds", locale), 18, Palette.ink_soft, "semibold")
    if footer is not None:
        fy = scene.height - footer_h
        scene.draw.rectangle((0, fy, WIDTH, scene.height), fill=Palette.band)
        scene.draw.rectangle((0, fy, WIDTH, fy + 3), fill=Palette.gold)
        scene.text(MARGIN, fy + 15, footer, 19, Palette.ink, "bold", max_width=WIDTH - 2 * MARGIN)
    return scene
