"""The table image, drawn from a ``PublicView``: what everybody in the channel sees.

What it is: a fixed-width picture in bands, top to bottom: the header (variant, deal number, key
options), one panel per seat (name, cards in hand, score, dealer, who is to act, opened or laid
down, contract), the piles (stock count, the discard pile's top, and the whole pile on index
cards where a rule shows it, who is to act and the last move, or, given the record lines since, every move since
the acting seat's last turn, one row per turn), then the melds in the order of their numbers,
each with the number that ``layoff 7H to 3`` uses, on index cards that read at phone width
(``melds.py``). The picture grows taller when a crowded table needs more rows, so nothing is ever
clipped. A hint's picture (``hint``) has a banner on top and frames what the move changes.

What it is not: it never sees a hand (a ``PublicView`` holds none), knows no rules and does no I/O.
``draw_table`` returns the ``Scene`` (for tests and the replay); ``stills.render_table`` encodes it
(the shared palette is sampled from this picture, so this module sits below the encoder).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine.views import PublicView, SeatInfo
from bot.words.i18n import has_key, translate

from .cards import card_height, index_height
from .draw import PROBE, Scene
from .hint import HintMark, banner_height, draw_banner, table_changes
from .melds import MeldPlan, draw_melds, plan_melds, seat_colour
from .theme import RGB, Palette, deck_for
from .words import Part, display_name, move_parts, option_chips, outcome_text, points_text, turn_rows, variant_name

__all__ = ["WIDTH", "draw_table", "seat_colour", "table_height"]

WIDTH = 960
MARGIN = 22
GAP = 12
MELDS_TOP = 36  # the melds' label line
MAX_HEIGHT = 1200  # a taller table is drawn with smaller index cards, if a smaller size fits
PILE_INDEX_W = 40  # the open discard pile's index cards (ranks about 12 px tall at 400 px wide)
PILE_GAP = 3


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
RECENT_SIZE = 20  # the latest moves: one row per turn, wrapped
RECENT_LINE = 28
RECENT_ROW_GAP = 6
RECENT_ROWS = 8  # at most this many turns; earlier ones are counted
RIGHT_X = MARGIN + 6 + PILE_W + 80 + PILE_W + 56  # who is to act and the moves, right of the piles


@dataclass(frozen=True, slots=True)
class _Recent:
    rows: list[tuple[str | None, list[list[Part]]]]  # per turn: seat, wrapped lines
    earlier: int  # turns left out at the top


@dataclass(frozen=True, slots=True)
class _PileLayout:
    height: int
    pile_w: int  # card width of the visible discard pile, when a rule shows it
    pile_rows: list[list[str]]
    recent: _Recent | None
    top_h: int  # the stock, the discard and the words right of them


def _recent(lines: Sequence[str], locale: str, names: Mapping[str, str] | None) -> _Recent | None:
    if not lines:
        return None
    turns = turn_rows(lines, names, locale)
    earlier = max(0, len(turns) - RECENT_ROWS)
    rows = []
    width = WIDTH - MARGIN - RIGHT_X
    for seat, parts in turns[earlier:]:
        lead = PROBE.measure(display_name(seat, names) + "  ", RECENT_SIZE, "bold") if seat else 0
        rows.append((seat, _wrap(parts, width, lead)))
    return _Recent(rows, earlier)


def _wrap(parts: Sequence[Part], width: int, lead: int) -> list[list[Part]]:
    """``parts`` in lines ``width`` wide (the first ``lead`` px shorter: the seat's name), broken
    between words and card chips; a chip is never split from the words glued to it by no space."""
    pieces: list[Part] = []
    for part in parts:
        if isinstance(part, tuple):
            pieces.append(part)
        else:
            words = part.split(" ")
            pieces += [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words) if w or i < len(words) - 1]
    lines: list[list[Part]] = [[]]
    used = lead
    for piece in pieces:
        w = PROBE.rich_width([piece], RECENT_SIZE)
        if lines[-1] and used + w > width and (isinstance(piece, tuple) or piece.strip()):
            lines.append([])
            used = 0
            if isinstance(piece, str):
                piece = piece.lstrip()
                w = PROBE.rich_width([piece], RECENT_SIZE)
        lines[-1].append(piece)
        used += w
    return lines


def _recent_height(recent: _Recent) -> int:
    lines = sum(len(lines) for _, lines in recent.rows) + (1 if recent.earlier else 0)
    return lines * RECENT_LINE + (len(recent.rows) - 1) * RECENT_ROW_GAP


def _pile_layout(view: PublicView, recent: Sequence[str] = (), locale: str = "es",
                 names: Mapping[str, str] | None = None) -> _PileLayout:
    top_h = 12 + card_height(PILE_W) + 10 + 26 + 10
    plan = _recent(recent, locale, names)
    if plan is not None:
        top_h = max(top_h, 12 + 104 + _recent_height(plan) + 14)
    rows: list[list[str]] = []
    pile_w = PILE_INDEX_W
    if view.discard_visible:
        per_row = max(1, (WIDTH - 2 * MARGIN + PILE_GAP) // (pile_w + PILE_GAP))
        cards = list(view.discard_visible)
        rows = [cards[i:i + per_row] for i in range(0, len(cards), per_row)]
    pile_h = (30 + len(rows) * (index_height(pile_w) + 10) + 6) if rows else 0
    return _PileLayout(top_h + pile_h, pile_w, rows, plan, top_h)


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
           names: Mapping[str, str] | None, caption: Sequence[Part] | None) -> None:
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
    # To the right: who is to act (big), then the last move or the latest moves.
    rx = RIGHT_X
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
    my = top + 78
    if caption is None and plan.recent is not None:
        scene.text(rx, my, translate("table.recent", locale).upper(), LABEL, Palette.ink_faint, "bold")
        _draw_recent(scene, view, plan.recent, rx, my + 26, locale, names)
    else:
        parts = caption if caption is not None else (
            move_parts(view.last_move, names, locale) if view.last_move else [translate("table.first_move", locale)]
        )
        scene.text(rx, my, translate("table.last_move", locale).upper(), LABEL, Palette.ink_faint, "bold")
        _rich_fit(scene, rx, my + 26, parts, max_w, Palette.ink)
    # The whole discard pile, where a rule shows it: index cards side by side, wrapping.
    if plan.pile_rows:
        py = y0 + plan.top_h + 2
        scene.text(MARGIN, py, translate("table.discard_pile", locale).upper(), LABEL, Palette.ink_faint, "bold")
        py += 30
        pw, ph = plan.pile_w, index_height(plan.pile_w)
        for row in plan.pile_rows:
            for i, code in enumerate(row):
                scene.index_card(code, MARGIN + i * (pw + PILE_GAP), py, pw)
            py += ph + 10


def _draw_recent(scene: Scene, view: PublicView, recent: _Recent, x0: int, y: int, locale: str,
                 names: Mapping[str, str] | None) -> None:
    """One row per turn, oldest first: the seat's name in its colour, then its moves."""
    if recent.earlier:
        scene.text(x0, y, translate("table.recent_more", locale, count=recent.earlier), RECENT_SIZE - 2,
                   Palette.ink_faint, "semibold")
        y += RECENT_LINE
    for seat, lines in recent.rows:
        x = x0
        if seat is not None:
            name = display_name(seat, names)
            x = scene.text(x0, y, name, RECENT_SIZE, seat_colour(view, seat), "bold")[2]
            x = x0 + scene.measure(name + "  ", RECENT_SIZE, "bold")
        top = y
        for line in lines:
            scene.rich(x, y, line, RECENT_SIZE, Palette.ink)
            x = x0
            y += RECENT_LINE
        scene.mark("turn", seat or "", (x0, top, WIDTH - MARGIN, y))
        y += RECENT_ROW_GAP


def _rich_fit(scene: Scene, x: int, y: int, parts: Sequence[Part], max_w: int,
              colour: tuple[int, int, int]) -> None:
    """Draw a move line at the largest size (22 down to 14 px) that fits ``max_w``."""
    for size in (22, 20, 18, 16, 14):
        if scene.rich_width(parts, size) <= max_w:
            scene.rich(x, y, parts, size, colour)
            return
    # Still too long (a many-card meld): keep the words and as many chips as fit, then an ellipsis.
    size = 14
    kept: list[Part] = []
    for part in parts:
        if scene.rich_width([*kept, part, "…"], size) > max_w:
            break
        kept.append(part)
    scene.rich(x, y, [*kept, "…"], size, colour)


# --- the whole table -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    banner_h: int
    header_h: int
    seats_h: int
    piles: _PileLayout
    melds: MeldPlan
    melds_h: int


def _plan(view: PublicView, locale: str, names: Mapping[str, str] | None, recent: Sequence[str],
          hint: HintMark | None) -> _Plan:
    banner_h = banner_height(hint)
    header_h = _header(None, view, locale, 0)
    seats_h = _seats_height(view, locale)
    piles = _pile_layout(view, recent, locale, names)
    room = MAX_HEIGHT - banner_h - header_h - seats_h - piles.height - MELDS_TOP - 12
    melds = plan_melds(PROBE, view, locale, MARGIN, WIDTH - 2 * MARGIN, room)
    melds_h = MELDS_TOP + melds.height + 12 if melds.placed else 70
    return _Plan(banner_h, header_h, seats_h, piles, melds, melds_h)


def table_height(view: PublicView, locale: str = "es", caption: bool = False,
                 names: Mapping[str, str] | None = None, recent: Sequence[str] = ()) -> int:
    """The height ``draw_table`` will use for ``view`` (the replay sizes its frames with it)."""
    plan = _plan(view, locale, names, recent, None)
    return plan.header_h + plan.seats_h + plan.piles.height + plan.melds_h + (52 if caption else 0)


def draw_table(view: PublicView, *, locale: str = "es", four_colour: bool = False,
               names: Mapping[str, str] | None = None, caption: Sequence[Part] | None = None,
               footer: str | None = None, height: int | None = None, recent: Sequence[str] = (),
               hint: HintMark | None = None) -> Scene:
    """Draw the table. ``names`` maps seats to display names; ``caption`` replaces the last-move
    line and ``footer`` adds a bottom bar (the replay uses both); ``height`` pads the picture to a
    fixed height (never shorter than needed). ``recent``: the record lines (``"<seat> <move>"``,
    oldest first) played since the acting seat's last turn, shown one row per turn in place of the
    last move (empty: the last move only). ``hint``: the picture is a hint's, the table after the
    suggested move: a banner says so and names the move, and given ``hint.table_before`` the melds
    that change are framed and the cards that come from the hand underlined."""
    plan = _plan(view, locale, names, recent, hint)
    footer_h = 52 if footer is not None else 0
    total = plan.banner_h + plan.header_h + plan.seats_h + plan.piles.height + plan.melds_h + footer_h
    scene = Scene.new(WIDTH, max(total, height or 0), deck_for(four_colour))
    changed: frozenset[int] = frozenset()
    fresh: list[str] = []
    if hint is not None:
        if hint.table_before is not None:
            changed, fresh = table_changes(hint.table_before, view.table)
        draw_banner(scene, hint, what=translate("hintimg.table", locale), locale=locale, added=fresh)
    y = plan.banner_h
    _header(scene, view, locale, y)
    y += plan.header_h
    _seats(scene, view, y, locale, names)
    y += plan.seats_h
    scene.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=Palette.felt_line, width=1)
    _piles(scene, view, y, plan.piles, locale, names, caption)
    y += plan.piles.height
    scene.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=Palette.felt_line, width=1)
    title = translate("table.melds", locale)
    count = f"· {len(view.table)}" if view.table else ""
    end = scene.text(MARGIN, y + 12, title.upper(), 15, Palette.ink_faint, "bold")[2]
    if count:
        scene.text(end + 8, y + 12, count, 15, Palette.ink_faint, "bold")
    if plan.melds.placed:
        draw_melds(scene, view, plan.melds, y + MELDS_TOP, locale, names, changed=changed, fresh=fresh)
    else:
        scene.text(MARGIN, y + MELDS_TOP, translate("table.no_melds", locale), 18, Palette.ink_soft, "semibold")
    if footer is not None:
        fy = scene.height - footer_h
        scene.draw.rectangle((0, fy, WIDTH, scene.height), fill=Palette.band)
        scene.draw.rectangle((0, fy, WIDTH, fy + 3), fill=Palette.gold)
        scene.text(MARGIN, fy + 15, footer, 19, Palette.ink, "bold", max_width=WIDTH - 2 * MARGIN)
    return scene
