"""The end-of-deal image, drawn from a finished deal's ``PublicView`` (its ``result``).

What it is: the headline (gin, knock, undercut, out, blocked, void…) and one row per seat with
the melds that seat finished with, its deadwood (where the engine split the hands into melds and
deadwood: gin, a blocked deal) or else the cards left in its hand, with the count that scored, the
cards it laid off (gin), the points this deal gave it and its total, the cards on index cards
side by side (the rank over the suit, readable when Discord shows the picture 400 px wide); the
winner's row is framed in gold, and the game's winners are named when the game is over. Given the deal's ledger lines
(``ledger``, the engine's ``game.ledger``), each row itemises its points under its cards (gin's
bonus, the opponent's deadwood…), and at the game's end the bonuses the final score adds after
the last deal (gin: game, line and shutout bonuses) and, given ``final_scores``, that final score.

What it is not: no scoring. Every number is the engine's (``DealResult``/``SeatResult``, the
seats' totals, the ledger lines and the final scores); this module only lays them out and says
the ledger lines in words (``bot.words.refusals.ledger_text``). No encoding: ``draw_result``
returns the ``Scene`` and ``stills.render_result`` turns it into bytes (the shared palette is
sampled from this picture).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.views import Number, PublicView, SeatResult
from bot.words.i18n import translate
from bot.words.refusals import ledger_text

from .cards import index_height, paint_shape
from .draw import PROBE, Scene
from .table import seat_colour
from .theme import RGB, Palette, deck_for
from .words import display_name, outcome_text, points_text, variant_name

__all__ = ["GAME_END_LINES", "LedgerLine", "draw_result"]

LedgerLine = tuple[str, Number, str, Mapping[str, Any]]
"""One ``game.ledger`` line: (seat, points, code, params)."""

GAME_END_LINES = frozenset({"game_bonus", "line_bonus", "shutout_bonus"})
"""The ledger codes a game's end adds after its last deal (gin, rules.md §2.7): in the final
score, never in the totals or the deal's points, so they are drawn apart from the deal's lines."""

WIDTH = 960
MARGIN = 22
LEFT_W = 200  # name, total, winner badge
RIGHT_W = 118  # this deal's points
CARD_W = 40  # index cards (the rank over the suit): ranks about 12 px tall at 400 px wide
CARD_GAP = 3
GROUP_GAP = 14
ROW_PAD = 12


@dataclass(frozen=True, slots=True)
class _Group:
    kind: str  # meld | deadwood | hand | laid_off
    cards: tuple[str, ...]
    label: str


def _seat_groups(view: PublicView, res: SeatResult, arranged: bool, locale: str) -> list[_Group]:
    """``arranged``: the engine split the hands into melds and deadwood (gin, a blocked deal), so
    what is left is deadwood; otherwise it is the cards left in hand (rummy's unmelded run pays
    too, and a void gin deal scores nothing: its hands are shown with no count)."""
    melds = [tuple(m) for m in res.melds]
    if not melds:
        # Rummy variants keep a seat's melds on the table; show the ones it owns.
        melds = [tuple(m.cards) for m in view.table if m.owner == res.name]
    groups = [_Group("meld", m, "") for m in melds]
    if res.laid_off:
        groups.append(_Group("laid_off", tuple(res.laid_off), translate("result.laid_off", locale)))
    count = points_text(res.count, locale)
    if arranged:
        kind, cards, label = "deadwood", tuple(res.deadwood), translate("result.deadwood", locale, count=count)
    else:
        cards = tuple(res.hand)
        counted = bool(res.count) or not cards
        kind = "hand" if counted else "kept"
        label = translate("result.hand_left", locale, count=count) if counted else translate("result.in_hand", locale)
    if cards or res.count or not groups:  # a seat that went out has nothing left to show
        groups.append(_Group(kind, cards, label))
    return groups


@dataclass(frozen=True, slots=True)
class _Ledger:
    """A seat's itemised points: the deal's lines, the game end's lines, the final score."""

    deal: list[tuple[Number, str]] = field(default_factory=list)
    end: list[tuple[Number, str]] = field(default_factory=list)
    final: Number | None = None

    def rows(self) -> int:
        return len(self.deal) + (len(self.end) + 1 if self.end else 0) + (self.final is not None)


MAX_LINES = 6  # a seat's deal lines drawn one by one; the rest as one line with their sum


def _ledger(seat: str, ledger: Sequence[LedgerLine], final: Mapping[str, Number] | None, game_over: bool,
            locale: str, names: Mapping[str, str] | None) -> _Ledger:
    out = _Ledger(final=final.get(seat) if final and game_over and seat in final else None)
    for entry in ledger:
        if entry[0] != seat:
            continue
        line = (entry[1], ledger_text(entry, locale, names))
        (out.end if entry[2] in GAME_END_LINES else out.deal).append(line)
    if not out.end:  # the final score only where the game's end added to the total
        out = _Ledger(out.deal, out.end, None)
    if len(out.deal) > MAX_LINES:
        rest = out.deal[MAX_LINES - 1:]
        total = sum(p for p, _ in rest)
        out.deal[MAX_LINES - 1:] = [(total, translate("ledger.deal.more", locale, count=len(rest)))]
    return out


def _group_width(scene: Scene, g: _Group) -> int:
    cards_w = CARD_W + (CARD_W + CARD_GAP) * (len(g.cards) - 1) if g.cards else 0
    label_w = scene.measure(g.label.upper(), 16) + 4 if g.label else 0
    return max(cards_w + (16 if g.kind != "meld" else 0), label_w)


def _flow(scene: Scene, groups: Sequence[_Group], width: int) -> list[list[tuple[_Group, int]]]:
    rows: list[list[tuple[_Group, int]]] = [[]]
    used = 0
    for g in groups:
        w = min(_group_width(scene, g), width)
        if rows[-1] and used + GROUP_GAP + w > width:
            rows.append([])
            used = 0
        used += (GROUP_GAP if rows[-1] else 0) + w
        rows[-1].append((g, w))
    return rows


GROUP_H = 30 + index_height(CARD_W)  # label line + cards (a group's frame reaches 6 px below)


LINE_H = 34  # one itemised ledger line
LEDGER_PAD = 10


def _cards_height(rows: Sequence[Sequence[tuple[_Group, int]]]) -> int:
    return max(118, 2 * ROW_PAD + len(rows) * GROUP_H + (len(rows) - 1) * 8)


def _row_height(rows: Sequence[Sequence[tuple[_Group, int]]], ledger: _Ledger) -> int:
    lines = ledger.rows()
    return _cards_height(rows) + (lines * LINE_H + 2 * LEDGER_PAD + ROW_PAD if lines else 0)


def draw_result(view: PublicView, *, locale: str = "es", four_colour: bool = False,
                names: Mapping[str, str] | None = None, ledger: Sequence[LedgerLine] = (),
                final_scores: Mapping[str, Number] | None = None) -> Scene:
    """Draw the end of the deal ``view`` shows (``view.result`` must be set). ``ledger``: the
    engine's ledger lines of this deal (``game.ledger``: the engine starts it afresh each deal,
    and at the game's end it also holds the bonuses the end adds), itemised under each seat's
    cards; ``final_scores`` (``game.final_scores``): the final score, shown under those bonuses.
    Without them the rows show the cards, the deal's points and the totals only."""
    result = view.result
    if result is None:
        raise ValueError("the deal is not over: the view has no result")
    probe = PROBE
    mid_w = WIDTH - 2 * MARGIN - LEFT_W - RIGHT_W - 2 * 12
    arranged = any(s.melds for s in result.seats)
    plans = [(res, _flow(probe, _seat_groups(view, res, arranged, locale), mid_w),
              _ledger(res.name, ledger, final_scores, view.game_over, locale, names)) for res in result.seats]
    header_h, banner_h = 64, 84 + (44 if view.game_over and view.winners else 0)
    rows_h = sum(_row_height(rows, lines) for _, rows, lines in plans) + GROUP_GAP * (len(plans) - 1)
    scene = Scene.new(WIDTH, header_h + banner_h + rows_h + 24, deck_for(four_colour))
    # Header.
    scene.draw.rectangle((0, 0, WIDTH, header_h), fill=Palette.band)
    scene.draw.rectangle((0, header_h - 3, WIDTH, header_h), fill=Palette.gold)
    end = scene.text(MARGIN, 14, translate("result.title", locale, n=view.deal_number), 30, Palette.ink, "heavy")[2]
    scene.text(end + 14, 22, variant_name(view.variant, locale), 22, Palette.ink_soft, "semibold",
               max_width=WIDTH - MARGIN - end - 14)
    # Headline.
    y = header_h + 16
    headline = outcome_text(result.outcome, result.winner, names, locale)
    colour = Palette.gold if result.winner else Palette.ink
    x = MARGIN
    if result.winner:
        paint_shape(scene.draw, "crown", (x, y + 4, 38), Palette.gold)
        x += 50
    end = scene.text(x, y, headline, 34, colour, "heavy", max_width=WIDTH - MARGIN - x - 150)[2]
    if result.going_rummy:
        scene.pill(end + 16, y + 6, translate("result.going_rummy", locale), 18, Palette.red_bad, Palette.ink,
                   height=32)
    if view.game_over and view.winners:
        who = ", ".join(display_name(w, names) for w in view.winners)
        scene.text(MARGIN, y + 52, translate("result.game_over", locale, names=who), 22, Palette.ink, "bold",
                   max_width=WIDTH - 2 * MARGIN)
    y = header_h + banner_h
    totals = {s.name: s.total for s in view.seats}
    for res, rows, lines in plans:
        h = _row_height(rows, lines)
        box = (MARGIN, y, WIDTH - MARGIN, y + h)
        _seat_row(scene, view, res, rows, box, res.name == result.winner, totals.get(res.name, 0), locale, names)
        if lines.rows():
            _draw_ledger(scene, res.name, lines, (MARGIN + LEFT_W + 12, y + _cards_height(rows), WIDTH - MARGIN - 12,
                                        y + h - ROW_PAD), locale)
        y += h + GROUP_GAP
    return scene


def _draw_ledger(scene: Scene, seat: str, lines: _Ledger, box: tuple[int, int, int, int], locale: str) -> None:
    """The seat's points line by line: the deal's, then (at the game's end) the bonuses its end
    adds and the final score."""
    x0, y0, x1, _ = box
    scene.rrect(box, 10, Palette.felt_dark)
    scene.mark("ledger", seat, box)
    px = x0 + 84  # the points, right-aligned on this edge; the reason after them
    tx = px + 14
    y = y0 + LEDGER_PAD
    for points, text in lines.deal:
        _ledger_line(scene, px, tx, x1, y, points, text, locale)
        y += LINE_H
    if lines.end:
        scene.text(x0 + 12, y + 9, translate("result.game_end", locale).upper(), 16, Palette.ink_faint, "bold",
                   max_width=x1 - x0 - 24)
        y += LINE_H
        for points, text in lines.end:
            _ledger_line(scene, px, tx, x1, y, points, text, locale)
            y += LINE_H
    if lines.final is not None:
        scene.text(px, y + 2, points_text(lines.final, locale), 24, Palette.gold, "heavy", align="right")
        scene.text(tx, y + 3, translate("result.final", locale), 22, Palette.gold, "bold", max_width=x1 - tx - 12)


def _ledger_line(scene: Scene, px: int, tx: int, x1: int, y: int, points: Number, text: str, locale: str) -> None:
    scene.text(px, y + 3, points_text(points, locale, signed=True), 22, Palette.ink, "heavy", align="right")
    size = next((n for n in (22, 20, 18) if scene.measure(text, n, "semibold") <= x1 - tx - 12), 18)
    scene.text(tx, y + 3 + (22 - size) // 2, text, size, Palette.ink_soft, "semibold", max_width=x1 - tx - 12)



def _seat_row(scene: Scene, view: PublicView, res: SeatResult, rows: Sequence[Sequence[tuple[_Group, int]]],
              box: tuple[int, int, int, int], winner: bool, total: object, locale: str,
              names: Mapping[str, str] | None) -> None:
    x0, y0, x1, y1 = box
    if winner:
        scene.rrect((x0 - 3, y0 - 3, x1 + 3, y1 + 3), 17, Palette.gold)
        scene.rrect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), 13, Palette.panel_acting)
        scene.mark("winner", res.name, box)
    else:
        scene.rrect(box, 14, Palette.panel, outline=Palette.felt_line, width=1)
    scene.mark("seat", res.name, box)
    colour = seat_colour(view, res.name)
    name = display_name(res.name, names)
    ax, ay = x0 + 14, y0 + 14
    scene.ellipse((ax, ay, ax + 40, ay + 40), colour)
    scene.text(ax + 20, ay + 8, name[:1].upper(), 21, Palette.chip_ink, "heavy", align="centre")
    scene.text(ax + 52, y0 + 12, name, 23, Palette.ink, "bold", max_width=LEFT_W - 60)
    scene.text(ax + 52, y0 + 44, f"{translate('result.total', locale)} {points_text(total, locale)}", 19,
               Palette.ink_soft, "semibold", max_width=LEFT_W - 60)
    if winner:
        scene.pill(ax + 52, y0 + 76, translate("result.winner", locale), 16, Palette.gold, Palette.chip_ink, height=28,
                   icon="crown")
    # This deal's points, right-aligned.
    rx = x1 - 16
    scene.text(rx, y0 + 14, translate("result.points", locale).upper(), 14, Palette.ink_faint, "bold",
               align="right")
    pts = points_text(res.points, locale, signed=True)
    scene.text(rx, y0 + 34, pts, 32, Palette.gold if winner else Palette.ink, "heavy", align="right",
               max_width=RIGHT_W)
    # The cards: melds, laid-off cards, deadwood.
    mx = x0 + LEFT_W + 12
    gy = y0 + ROW_PAD
    for row in rows:
        gx = mx
        for g, w in row:
            _draw_group(scene, g, gx, gy, w, locale)
            gx += w + GROUP_GAP
        gy += GROUP_H + 8


_TINTS: dict[str, RGB] = {"deadwood": (92, 40, 40), "hand": (92, 40, 40), "kept": (40, 62, 84),
                          "laid_off": (28, 92, 58)}
_LABEL_INK: dict[str, RGB] = {"deadwood": (255, 190, 180), "hand": (255, 190, 180), "kept": (190, 214, 240),
                              "laid_off": (170, 240, 190)}


def _draw_group(scene: Scene, g: _Group, x: int, y: int, w: int, locale: str) -> None:
    ch = index_height(CARD_W)
    if g.kind != "meld":
        ink = _LABEL_INK[g.kind]
        scene.text(x + 2, y + 1, g.label.upper(), 16, ink, "bold", max_width=w)
        if g.cards:
            n = len(g.cards)
            cards_w = CARD_W + (min(CARD_W + CARD_GAP, (w - 16 - CARD_W) // (n - 1)) * (n - 1) if n > 1 else 0)
            scene.rrect((x, y + 26, x + cards_w + 16, y + 30 + ch + 6), 10, _TINTS[g.kind])
    cx = x + (8 if g.kind != "meld" else 0)
    cy = y + 30
    n = len(g.cards)
    inner = w - (16 if g.kind != "meld" else 0)
    step = min(CARD_W + CARD_GAP, (inner - CARD_W) // (n - 1)) if n > 1 else 0
    for i, code in enumerate(g.cards):
        scene.index_card(code, cx + i * step, cy, CARD_W)
    if not g.cards and g.kind in ("deadwood", "hand"):
        scene.text(x + 2, cy + 6, translate("result.no_cards", locale), 16, Palette.ink_faint, "semibold")
