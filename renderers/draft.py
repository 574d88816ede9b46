"""The rearrange builder's picture: a player's private draft of the table, step by step.

What it is: a picture in the table's style, narrower than the table so that it reads on a phone,
top to bottom: a header with the title and the builder's status line (a red, amber or green dot
before it: a meld is invalid, cards are still loose, or the draft is whole); the draft's melds,
each in a tile with the big number the builder's selects use, its owner where the variant has
owners, a red frame and a "× invalid" label when it is not a valid meld, and a gold frame and a
"changed" label when this draft touched it; then the loose cards (taken out of melds, not placed
yet) in a framed area of their own; then the player's remaining hand. Loose and hand cards carry
their code under them, and the picked ones are raised and outlined in green, as in the hand
picture. The height grows with the content; meld cards shrink a step when the table is long.

What it is not: no rules and no state. Whether a meld is valid, what changed, which cards are
picked and the status text are the builder's answers (``DraftView``); this module only draws
them. ``draft_scene`` returns the ``Scene`` (for tests); ``draw_draft`` encodes it onto the shared
palette (the picture is not part of the palette's sample sheet: its colours are the table's and
the hand's, so it maps faithfully).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.words.i18n import translate

from .cards import card_height
from .draw import PROBE, Scene, clean_name
from .encode import Rendered, encode_still
from .theme import CLASSIC, RGB, Palette, deck_for

__all__ = ["WIDTH", "DraftMeld", "DraftView", "draft_scene", "draw_draft"]


@dataclass(frozen=True)
class DraftMeld:
    """One meld of the draft. ``cards`` are RGN codes (wilds annotated when known: ``JK=7C``)."""

    number: int  # 1-based, as the selects name it
    cards: tuple[str, ...]
    valid: bool  # False: drawn marked invalid
    changed: bool  # touched by this draft (new or altered)
    owner: str | None = None  # seat owning it, where the variant has owners


@dataclass(frozen=True)
class DraftView:
    """What the builder's picture shows. ``picked_loose`` and ``picked_hand`` are indices into
    ``loose`` and ``hand``; ``status`` is one translated line."""

    melds: tuple[DraftMeld, ...]
    loose: tuple[str, ...]  # cards taken out of melds, not yet placed
    hand: tuple[str, ...]  # the player's remaining hand
    picked_loose: frozenset[int]
    picked_hand: frozenset[int]
    status: str


WIDTH = 720
MARGIN = 20
GAP = 12
LABEL = 16  # small capitals section labels
INVALID: RGB = CLASSIC.suits[1]  # the hearts' red: strong on felt, and already in the shared palette
PICKED: RGB = Palette.green_ok  # as the hand picture marks the player's selection


# --- header ----------------------------------------------------------------------------------------

TITLE = 26
STATUS = 20
STATUS_LINE = 27


def _wrap(text: str, size: int, max_w: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``max_w`` px: broken between its " · " parts where
    they fit whole, else at spaces (the last line cut with an ellipsis if the text is longer still)."""
    def wide(line: str) -> bool:
        return PROBE.measure(line, size, "semibold") > max_w

    parts = text.split(" · ")
    out: list[str] = []
    for part in parts:
        if out and not wide(out[-1] + " · " + part):
            out[-1] += " · " + part
        else:
            if out:
                out[-1] += " ·"
            out.append(part)
    if len(out) <= lines and not any(wide(line) for line in out):
        return out
    out = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and not wide(line + " " + words[0]):
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = PROBE.fit(out[-1] + " " + " ".join(words), size, "semibold", max_w)
    return out


def _status_colour(view: DraftView) -> RGB:
    if any(not m.valid for m in view.melds):
        return INVALID
    return Palette.gold if view.loose else Palette.green_ok


def _header(scene: Scene | None, view: DraftView, locale: str) -> int:
    """Draw (or only measure, with ``scene`` None) the header band; returns its height."""
    lines = _wrap(view.status, STATUS, WIDTH - 2 * MARGIN - 24, 2)
    height = 16 + 34 + 8 + max(1, len(lines)) * STATUS_LINE + 14
    if scene is None:
        return height
    scene.draw.rectangle((0, 0, WIDTH, height), fill=Palette.band)
    scene.draw.rectangle((0, height - 3, WIDTH, height), fill=Palette.gold)
    scene.text(MARGIN, 16, translate("draftimg.title", locale), TITLE, Palette.ink, "heavy",
               max_width=WIDTH - 2 * MARGIN)
    y = 16 + 34 + 8
    dot = 14
    scene.ellipse((MARGIN, y + 6, MARGIN + dot, y + 6 + dot), _status_colour(view))
    scene.mark("status", "", (MARGIN, y, WIDTH - MARGIN, y + len(lines) * STATUS_LINE))
    for i, line in enumerate(lines):
        scene.text(MARGIN + 24, y + i * STATUS_LINE, line, STATUS, Palette.ink, "semibold")
    return height


# --- melds -----------------------------------------------------------------------------------------

MELD_WIDTHS = (64, 56, 50)  # the first whose picture fits MAX_HEIGHT is used
MAX_HEIGHT = 1500
STEP = 0.37  # visible share of a card under the next one in a meld
PAD = 8
BADGE = 46
NUMBER = 30
OWNER = 17
HEAD = 28  # the owner and state labels' line above the cards
TAG = 16  # their text size
TAG_H = 25


def _tags(meld: DraftMeld, locale: str) -> list[tuple[str, RGB, RGB]]:
    out: list[tuple[str, RGB, RGB]] = []
    if not meld.valid:
        out.append(("× " + translate("draftimg.invalid", locale), INVALID, Palette.ink))
    if meld.changed:
        out.append((translate("draftimg.changed", locale), Palette.gold, Palette.chip_ink))
    return out


def _owner(meld: DraftMeld) -> str:
    return clean_name(meld.owner, meld.owner) if meld.owner else ""


def _tile_width(meld: DraftMeld, cw: int, locale: str) -> int:
    n = max(1, len(meld.cards))
    cards_w = cw + round(cw * STEP) * (n - 1)
    tags = sum(PROBE.pill_width(t, TAG, height=TAG_H) + 6 for t, _, _ in _tags(meld, locale))
    owner = PROBE.measure(_owner(meld), OWNER, "semibold")
    head_w = tags + (min(owner, 140) + 10 if owner else 0)
    return PAD + BADGE + 10 + max(cards_w, head_w) + PAD


def _tile_height(cw: int) -> int:
    return PAD + HEAD + card_height(cw) + PAD


def _meld_rows(view: DraftView, cw: int, locale: str) -> list[list[tuple[DraftMeld, int]]]:
    """The tiles in number order, flowed into rows no wider than the picture (a tile wider than
    that gets a row of its own and its cards overlap more)."""
    inner = WIDTH - 2 * MARGIN
    rows: list[list[tuple[DraftMeld, int]]] = []
    used = 0
    for meld in sorted(view.melds, key=lambda m: m.number):
        w = min(_tile_width(meld, cw, locale), inner)
        if rows and rows[-1] and used + GAP + w <= inner:
            rows[-1].append((meld, w))
            used += GAP + w
        else:
            rows.append([(meld, w)])
            used = w
    return rows


def _melds_height(rows: Sequence[Sequence[object]], cw: int) -> int:
    if not rows:
        return 38 + 30 + 16
    return 38 + len(rows) * (_tile_height(cw) + GAP) - GAP + 18


def _draw_tile(scene: Scene, meld: DraftMeld, x: int, y: int, w: int, cw: int, locale: str) -> None:
    h = _tile_height(cw)
    box = (x, y, x + w, y + h)
    fill = Palette.panel_acting if meld.changed else Palette.panel
    if not meld.valid:
        scene.rrect(box, 12, fill, outline=INVALID, width=4)
        scene.mark("invalid", str(meld.number), box)
    elif meld.changed:
        scene.rrect(box, 12, fill, outline=Palette.gold, width=3)
    else:
        scene.rrect(box, 12, fill, outline=Palette.felt_line, width=1)
    if meld.changed:
        scene.mark("changed", str(meld.number), box)
    scene.mark("meld", str(meld.number), box)
    # The number, big, as the selects say it.
    bx, by = x + PAD, y + PAD
    label = str(meld.number)
    scene.rrect((bx, by, bx + BADGE, by + BADGE), 10, INVALID if not meld.valid else Palette.chip)
    size = NUMBER if len(label) < 3 else 22
    scene.text(bx + BADGE / 2, by + (BADGE - round(size * 1.21)) / 2, label, size,
               Palette.ink if not meld.valid else Palette.chip_ink, "heavy", align="centre")
    # The head line: owner on the left, the state labels on the right.
    cx = bx + BADGE + 10
    right = x + w - PAD
    for text, tag_fill, ink in reversed(_tags(meld, locale)):
        pw = scene.pill_width(text, TAG, height=TAG_H)
        scene.pill(right - pw, by, text, TAG, tag_fill, ink, height=TAG_H)
        right -= pw + 6
    owner = _owner(meld)
    if owner and right - cx > 24:
        scene.text(cx, by + 1, owner, OWNER, Palette.ink_soft, "semibold", max_width=right - cx - 4)
    # The cards, overlapping; squeezed when the tile is narrower than their natural width.
    n = len(meld.cards)
    avail = x + w - PAD - cx
    step = min(round(cw * STEP), (avail - cw) // (n - 1)) if n > 1 else 0
    for i, code in enumerate(meld.cards):
        scene.card(code, cx + i * step, by + HEAD, cw, full=i == n - 1)


def _draw_melds(scene: Scene, view: DraftView, rows: Sequence[Sequence[tuple[DraftMeld, int]]], y: int, cw: int,
                locale: str) -> None:
    title = translate("draftimg.melds", locale).upper()
    end = scene.text(MARGIN, y + 14, title, LABEL, Palette.ink_soft, "bold")[2]
    if view.melds:
        scene.text(end + 8, y + 14, f"· {len(view.melds)}", LABEL, Palette.ink_soft, "bold")
    if not rows:
        scene.text(MARGIN, y + 40, translate("table.no_melds", locale), 18, Palette.ink_soft, "semibold")
        return
    ty = y + 38
    for row in rows:
        tx = MARGIN
        for meld, w in row:
            _draw_tile(scene, meld, tx, ty, w, cw, locale)
            tx += w + GAP
        ty += _tile_height(cw) + GAP


# --- loose cards and hand --------------------------------------------------------------------------

CARD_W = 76
CODE = 19  # the code under each card
LIFT = 16  # how far a picked card is raised
AREA_HEAD = 40
_INNER = WIDTH - 2 * MARGIN - 2 * 14  # the cards' width inside an area


@dataclass(frozen=True, slots=True)
class _Strip:
    step: int
    rows: list[list[int]]  # card indices per row


def _strip(n: int) -> _Strip:
    """Cards side by side with a small gap, or overlapping (never so much that their codes touch)
    and wrapped into rows that share the cards evenly."""
    loose_step = CARD_W + 8
    if n * loose_step - 8 <= _INNER:
        return _Strip(loose_step, [list(range(n))])
    step = 50
    per_row = max(1, (_INNER - CARD_W) // step + 1)
    n_rows = -(-n // per_row)
    per_row = -(-n // n_rows)
    step = min(loose_step, (_INNER - CARD_W) // max(1, per_row - 1))
    return _Strip(step, [list(range(i, min(n, i + per_row))) for i in range(0, n, per_row)])


def _row_height() -> int:
    return LIFT + card_height(CARD_W) + 8 + round(CODE * 1.21) + 8


def _area_height(n: int) -> int:
    if not n:
        return AREA_HEAD + 4
    return AREA_HEAD + len(_strip(n).rows) * _row_height() + 6


def _draw_area(scene: Scene, kind: str, cards: Sequence[str], picked: frozenset[int], y: int, label: str,
               note: str, framed: bool) -> None:
    """An area of cards (``kind`` is ``loose`` or ``hand``): a panel with its label and a note
    after it, the cards with their codes under them, the picked ones raised and outlined."""
    h = _area_height(len(cards))
    box = (MARGIN, y, WIDTH - MARGIN, y + h)
    if framed:
        scene.rrect(box, 14, Palette.felt_dark, outline=Palette.gold, width=3)
    else:
        scene.rrect(box, 14, Palette.felt_dark)
    scene.mark("area", kind, box)
    colour = Palette.gold if framed else Palette.ink_soft
    end = scene.text(MARGIN + 14, y + 12, label, LABEL, colour, "bold", max_width=WIDTH - 2 * MARGIN - 28)[2]
    if note and WIDTH - MARGIN - 14 - end > 60:
        scene.text(end + 10, y + 11, ("— " if framed else "") + note, LABEL + 1,
                   Palette.ink if framed else Palette.ink_faint, "semibold", max_width=WIDTH - MARGIN - 14 - end - 10)
    if not cards:
        return
    plan = _strip(len(cards))
    ch = card_height(CARD_W)
    ry = y + AREA_HEAD
    for row in plan.rows:
        x = MARGIN + 14
        for j, i in enumerate(row):
            code = cards[i]
            last = j == len(row) - 1
            up = i in picked
            cy = ry + (0 if up else LIFT)
            if up:
                scene.rrect((x - 5, cy - 5, x + CARD_W + 5, cy + ch + 5), 13, PICKED)
                scene.mark("picked", f"{kind}:{i}", (x, cy, x + CARD_W, cy + ch))
            box = scene.card(code, x, cy, CARD_W, record=False, full=last or plan.step > CARD_W)
            scene.mark(kind, code, box)
            strip = CARD_W if last else min(plan.step, CARD_W)
            scene.text(x + strip / 2, ry + LIFT + ch + 8, code, CODE, PICKED if up else Palette.ink, "bold",
                       align="centre")
            x += plan.step
        ry += _row_height()


# --- the whole picture -----------------------------------------------------------------------------


def _plan(view: DraftView, locale: str) -> tuple[int, int, list[list[tuple[DraftMeld, int]]]]:
    """(meld card width, melds band height, tile rows): the largest cards whose picture fits
    ``MAX_HEIGHT``, else the smallest."""
    fixed = _header(None, view, locale) + _area_height(len(view.loose)) + _area_height(len(view.hand)) + 3 * GAP
    best: tuple[int, int, list[list[tuple[DraftMeld, int]]]] | None = None
    for cw in MELD_WIDTHS:
        rows = _meld_rows(view, cw, locale)
        best = (cw, _melds_height(rows, cw), rows)
        if fixed + best[1] <= MAX_HEIGHT:
            break
    assert best is not None
    return best


def draft_scene(view: DraftView, *, locale: str = "es", four_colour: bool = False) -> Scene:
    """Draw the draft; the ``Scene`` records every meld (``meld``, ``invalid``, ``changed`` by
    number), loose and hand card (``loose``/``hand`` by code, ``picked`` as ``kind:index``) and
    area."""
    header_h = _header(None, view, locale)
    cw, melds_h, rows = _plan(view, locale)
    loose_h, hand_h = _area_height(len(view.loose)), _area_height(len(view.hand))
    total = header_h + melds_h + loose_h + GAP + hand_h + 2 * GAP
    scene = Scene.new(WIDTH, total, deck_for(four_colour))
    _header(scene, view, locale)
    y = header_h
    _draw_melds(scene, view, rows, y, cw, locale)
    y += melds_h
    n = len(view.loose)
    loose_label = f"{translate('draftimg.loose', locale)} · {n}" if n else translate("draftimg.loose", locale)
    note = translate("draftimg.loose_hint" if n else "draftimg.none", locale)
    _draw_area(scene, "loose", view.loose, view.picked_loose, y, loose_label.upper(), note, framed=bool(n))
    y += loose_h + GAP
    hand_label = f"{translate('hand.title', locale)} · {translate('hand.count', locale, count=len(view.hand))}"
    _draw_area(scene, "hand", view.hand, view.picked_hand, y, hand_label.upper(),
               "" if view.hand else translate("hand.empty", locale), framed=False)
    return scene


def draw_draft(view: DraftView, *, locale: str = "es", four_colour: bool = False) -> Rendered:
    """The draft as an encoded image (a palette PNG, see ``encode.py``)."""
    return encode_still(draft_scene(view, locale=locale, four_colour=four_colour).image, "draft")
