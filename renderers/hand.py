"""The hand image, drawn from a ``SeatView``: one player's cards, sent to that player alone.

What it is: the seat's cards in a row (two rows when there are many), in the order the engine
gives for display (``bot.engine.group_hand``: by suit, by rank, or grouped into the best melds
the hand holds), each with its code printed under it so the player can type it (``discard TH``).
The card just drawn (or taken from the pile) is lifted and labelled. A hint's picture (``hint``)
has a banner on top naming the suggested move and the cards it takes out of the hand or brings in.

What it is not: no rules. Which cards make a meld, what is wild and how aces run are the
engine's answer; this module only lays the groups out. It reads only ``view.hand``,
``view.drawn``, ``view.took`` and the variant's name from ``view.public``; it never draws another
seat's cards, the table or the pile. ``SORTS``, ``HandGroup`` and ``group_hand`` are re-exported
from the engine for older imports. No encoding either: ``draw_hand`` returns the ``Scene``, and
``stills.render_hand`` turns it into bytes (the shared palette is sampled from this picture, so
this module sits below ``palette.py`` and ``encode.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine import SORTS, HandGroup, group_hand
from bot.engine.views import SeatView
from bot.words.i18n import translate

from .cards import card_height
from .draw import Scene
from .hint import HINT, HintMark, banner_height, draw_banner, hand_changes
from .theme import Palette, deck_for
from .words import points_text, variant_name

__all__ = ["SORTS", "HandGroup", "draw_hand", "group_hand"]

MARGIN = 22
MAX_WIDTH = 960
MIN_WIDTH = 640


@dataclass(frozen=True, slots=True)
class _Layout:
    width: int
    card_w: int
    step: int
    gap: int
    rows: list[list[tuple[int, str, bool]]]  # per row: (group index, code, last of its group in the row)


def _layout(groups: Sequence[HandGroup], grouped: bool) -> _Layout:
    n = sum(len(g.cards) for g in groups)
    gap = 30 if grouped else 0
    avail = MAX_WIDTH - 2 * MARGIN
    items = [(gi, code) for gi, g in enumerate(groups) for code in g.cards]
    n_groups = sum(1 for g in groups if g.cards)
    for cw in (112, 100, 88):
        step_max = cw + 10
        fixed = n_groups * cw + (n_groups - 1) * gap
        spans = n - n_groups
        natural = fixed + spans * step_max
        if natural <= avail:
            step = step_max
        elif spans and (avail - fixed) / spans >= max(50, cw * 0.44):
            step = int((avail - fixed) / spans)
        else:
            continue
        width = max(MIN_WIDTH, min(MAX_WIDTH, fixed + spans * step + 2 * MARGIN))
        return _Layout(width, cw, step, gap, [_mark_last(items)])
    # Too many cards for one row: wrap, keeping groups together where they fit.
    cw, step = 88, 54
    rows: list[list[tuple[int, str]]] = [[]]
    x = 0
    prev = None
    for gi, code in items:
        new_group = prev is not None and gi != prev
        need = (gap if new_group else 0) + (step if rows[-1] and not new_group else 0)
        if rows[-1] and x + need + cw > avail:
            rows.append([])
            x = 0
        elif rows[-1]:
            x += need if new_group else step
        rows[-1].append((gi, code))
        prev = gi
    if not grouped:  # one run of cards: share it evenly between the rows
        per_row = -(-len(items) // len(rows))
        rows = [items[i:i + per_row] for i in range(0, len(items), per_row)]
    return _Layout(MAX_WIDTH, cw, step, gap, [_mark_last(r) for r in rows])


def _mark_last(items: Sequence[tuple[int, str]]) -> list[tuple[int, str, bool]]:
    out = []
    for i, (gi, code) in enumerate(items):
        last = i == len(items) - 1 or items[i + 1][0] != gi
        out.append((gi, code, last))
    return out


HEADER_H = 64
LIFT = 20
CODE_H = 40
MARK_H = 34
_TOOK = (110, 210, 255)


def draw_hand(view: SeatView, *, sort: str = "suit", locale: str = "es", four_colour: bool = False,
              selected: frozenset[int] = frozenset(), hint: HintMark | None = None) -> Scene:
    """Draw ``view``'s hand sorted by ``suit``, ``rank`` or grouped into ``melds``. ``selected``:
    positions in the drawn order (``hand_codes``) of the cards the player has picked, raised and
    outlined. ``hint``: the picture is a hint's, the hand after the suggested move: a banner says
    so and names the move, and given ``hint.hand_before`` it lists the cards that leave the hand
    and come into it, the ones that come in framed in the hint's violet."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {SORTS}")
    groups, dead = group_hand(view, sort)
    grouped = any(g.kind for g in groups)
    if sort == "melds" and not grouped:
        sort = "suit"  # wild cards or duplicates: the search does not apply, say what is shown
    plan = _layout(groups, grouped)
    ch = card_height(plan.card_w)
    marked: dict[str, str] = {}
    if view.drawn in view.hand:
        marked[view.drawn] = "drawn"
    if view.took in view.hand:
        marked[view.took] = "took"
    label_h = 30 if grouped else 0
    row_h = label_h + LIFT + ch + CODE_H + (MARK_H if marked else 0)
    top = banner_height(hint)
    height = top + HEADER_H + 14 + max(1, len(plan.rows)) * row_h + 6
    scene = Scene.new(plan.width, height, deck_for(four_colour))
    coming: list[str] = []
    if hint is not None:
        draw_banner(scene, hint, what=translate("hintimg.hand", locale), locale=locale, hand=view.hand)
        coming = hand_changes(hint.hand_before, view.hand)[1] if hint.hand_before else []
    before = None
    if hint is not None and hint.hand_before and dead is not None:  # what the move does to the deadwood
        before = group_hand(replace(view, hand=hint.hand_before, drawn=None, took=None), sort)[1]
    _hand_header(scene, view, sort, dead, locale, top, before)
    if not view.hand:
        scene.text(plan.width / 2, top + HEADER_H + 60, translate("hand.empty", locale), 24, Palette.ink_soft,
                   "semibold", align="centre")
        return scene
    y = top + HEADER_H + 14
    position = -1
    for row in plan.rows:
        x = MARGIN
        prev_group: int | None = None
        for gi, code, last in row:
            position += 1
            picked = position in selected
            if prev_group is not None and gi != prev_group:
                x += plan.gap
            if gi != prev_group and grouped:
                _group_label(scene, groups[gi], x, y, locale)
            mark = marked.pop(code, None)  # one copy only, if the hand holds two
            cy = y + label_h + LIFT - (LIFT if mark or picked else 0)
            strip = plan.card_w if last else plan.step
            if code in coming:  # a hint: the card the move brings into the hand
                coming.remove(code)
                scene.rrect((x - 8, cy - 8, x + plan.card_w + 8, cy + ch + 8), 15, HINT)
                scene.mark("coming", code, (x, cy, x + plan.card_w, cy + ch))
            if mark:
                colour = Palette.gold if mark == "drawn" else _TOOK
                scene.rrect((x - 4, cy - 4, x + plan.card_w + 4, cy + ch + 4), 12, colour)
                scene.mark(mark, code, (x, cy, x + plan.card_w, cy + ch))
            if picked:  # the player's selection wins the outline; a drawn card keeps its label
                scene.rrect((x - 5, cy - 5, x + plan.card_w + 5, cy + ch + 5), 13, Palette.green_ok)
                scene.mark("picked", code, (x, cy, x + plan.card_w, cy + ch))
            scene.card(code, x, cy, plan.card_w, full=last or plan.step > plan.card_w)
            code_y = y + label_h + LIFT + ch + 8
            centre = x + min(strip, plan.card_w) / 2
            ink = Palette.green_ok if picked else Palette.gold if mark == "drawn" else _TOOK if mark else Palette.ink
            scene.text(centre, code_y, code, 22, ink, "bold", align="centre")
            if mark:
                label = translate("hand.drawn" if mark == "drawn" else "hand.took", locale)
                pw = scene.pill_width(label, 15, height=26)
                px = min(max(centre - pw / 2, MARGIN / 2), scene.width - MARGIN / 2 - pw)
                scene.pill(px, code_y + 32, label, 15, Palette.gold if mark == "drawn" else _TOOK, Palette.chip_ink,
                           height=26)
            x += strip
            prev_group = gi
        y += row_h
    return scene


def _group_label(scene: Scene, group: HandGroup, x: int, y: int, locale: str) -> None:
    colour = Palette.ink_faint if group.kind == "deadwood" else Palette.ink_soft
    scene.text(x + 2, y + 4, translate(f"hand.group.{group.kind}", locale).upper(), 15, colour, "bold")


def _hand_header(scene: Scene, view: SeatView, sort: str, dead: int | None, locale: str, top: int = 0,
                 before: int | None = None) -> None:
    w = scene.width
    scene.rrect((0, top, w, top + HEADER_H), 0, Palette.band)
    scene.draw.rectangle((0, top + HEADER_H - 3, w, top + HEADER_H), fill=Palette.gold)
    end = scene.text(MARGIN, top + 14, translate("hand.title", locale), 28, Palette.ink, "heavy")[2]
    sub = f"{translate('hand.count', locale, count=len(view.hand))} · {translate(f'hand.sort.{sort}', locale)}"
    scene.text(end + 14, top + 21, sub, 20, Palette.ink_soft, "semibold")
    right = w - MARGIN
    if dead is not None:
        text = translate("hand.deadwood", locale, count=points_text(dead, locale)) if before is None else translate(
            "hintimg.deadwood", locale, before=points_text(before, locale), after=points_text(dead, locale))
        pw = scene.pill_width(text, 17, height=30)
        scene.pill(right - pw, top + 17, text, 17, Palette.chip if before is None else HINT, Palette.chip_ink,
                   height=30)
        right -= pw + 12
    name = variant_name(view.public.variant, locale)
    if scene.measure(name, 17, "semibold") < right - (end + 14 + scene.measure(sub, 20, "semibold")) - 24:
        scene.text(right, top + 23, name, 17, Palette.ink_faint, "semibold", align="right")
