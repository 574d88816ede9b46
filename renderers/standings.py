"""The standings image: a server's season table, as shared in the channel or sent to one reader.

What it is: a fixed-width picture in the table's style: a header with the season and how many
games it counts (and "final standings" once the season is over, the variant when narrowed), the
column labels, then one row per player: the rank in a disc (gold, silver and bronze for the first
three), the name, and the points, wins and games. At most ``ROWS`` rows; the reader's own row, if
further down, is added after a gap.

What it is not: it reads a plain ``StandingsInfo`` (no database, no Discord); the bot builds one
from ``bot.service.seasons.Standing`` rows. ``draw_standings`` returns the ``Scene`` (for tests);
``render_standings`` encodes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.i18n import translate

from .draw import Scene, clean_name
from .encode import Rendered, encode_still
from .theme import CLASSIC, RGB, Palette
from .words import variant_name

__all__ = ["ROWS", "StandingsInfo", "draw_standings", "render_standings"]

WIDTH = 960
MARGIN = 22
HEADER_H = 66
ROW_H = 50
ROWS = 10
MEDALS: dict[int, RGB] = {1: Palette.gold, 2: (206, 214, 222), 3: (214, 146, 86)}
COLUMNS = (("points", 600), ("wins", 730), ("games", 860))  # label key, right edge x


@dataclass(frozen=True, slots=True)
class StandingsInfo:
    """``rows``: (rank, name, points, wins, games), best first; ``reader`` the index in ``rows``
    of the reader's own row (shown even below the first ``ROWS``), or None."""

    season: int
    games: int
    rows: tuple[tuple[int, str, int, int, int], ...]
    variant: str | None = None
    closed: bool = False
    reader: int | None = None
    adjusted: tuple[int, ...] = ()  # per row: points a manager added (taken, below 0), marked by the points
    amended: bool = False  # a closed season's standings amended since it closed (a game voided or restored)


def _shown(info: StandingsInfo) -> list[int | None]:
    """Indices of the rows drawn; None stands for the gap before the reader's own row."""
    shown: list[int | None] = list(range(min(ROWS, len(info.rows))))
    if info.reader is not None and info.reader >= ROWS:
        shown += [None, info.reader]
    return shown


def _header(scene: Scene, info: StandingsInfo, locale: str) -> None:
    scene.draw.rectangle((0, 0, WIDTH, HEADER_H), fill=Palette.band)
    scene.draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=Palette.gold)
    title = translate("standimg.title", locale, number=info.season)
    end = scene.text(MARGIN, 14, title, 30, Palette.ink, "heavy", max_width=WIDTH // 2)[2]
    key = "standimg.final" if info.closed else "standimg.subtitle"
    sub = translate(key, locale, games=info.games)
    if info.amended:
        sub += " · " + translate("standimg.amended", locale)
    if info.variant:
        sub += " · " + variant_name(info.variant, locale)
    scene.text(end + 14, 22, sub, 22, Palette.ink_soft, "semibold", max_width=WIDTH - end - 14 - MARGIN)


def ranked_row(scene: Scene, y: int, rank: int, raw: str, mine: bool, locale: str, width: int,
               name_right: int) -> None:
    """A ranked list's row as the standings and the ladder draw it: the panel (gold-edged for the
    reader's own row), the rank's disc (medal colours for the first three) and the name, which
    stops ``name_right`` short of the first number column."""
    name = clean_name(raw, translate("lobbyimg.player", locale, n=rank))
    box = (MARGIN, y, width - MARGIN, y + ROW_H - 6)
    if mine:
        scene.rrect(box, 12, Palette.panel_acting, outline=Palette.gold, width=2)
    else:
        scene.rrect(box, 12, Palette.panel)
    scene.mark("row", raw, box)
    disc = ROW_H - 16
    cx, cy = MARGIN + 14, y + (ROW_H - 6 - disc) / 2
    scene.ellipse((cx, cy, cx + disc, cy + disc), MEDALS.get(rank, Palette.felt_line))
    ink = Palette.chip_ink if rank in MEDALS else Palette.ink
    scene.text(cx + disc / 2, cy + (disc - round(18 * 1.21)) / 2, str(rank), 18, ink, "heavy", align="centre")
    scene.text(cx + disc + 16, y + 10, name, 21, Palette.ink, "bold", max_width=name_right - cx - disc)


def _row(scene: Scene, y: int, row: tuple[int, str, int, int, int], mine: bool, locale: str,
         adjusted: int = 0) -> None:
    rank, raw, points, wins, games = row
    ranked_row(scene, y, rank, raw, mine, locale, WIDTH, COLUMNS[0][1] - 110)
    for (_key, right), value in zip(COLUMNS, (points, wins, games), strict=True):
        colour = Palette.gold if _key == "points" else Palette.ink_soft
        text = str(value)
        scene.text(right - scene.measure(text, 22, "heavy"), y + 9, text, 22, colour, "heavy")
        if _key == "points" and adjusted:  # a manager's adjustment, marked beside the points it is in
            mark = translate("standimg.adjusted", locale, points=f"{adjusted:+d}")
            left = right - scene.measure(text, 22, "heavy") - 10 - scene.measure(mark, 15, "bold")
            scene.text(left, y + 14, mark, 15, Palette.ink_soft, "bold")


def draw_standings(info: StandingsInfo, *, locale: str = "es") -> Scene:
    shown = _shown(info)
    body = len(shown) * ROW_H if info.rows else 60
    height = HEADER_H + 16 + 28 + body + 14
    scene = Scene.new(WIDTH, height, CLASSIC)
    _header(scene, info, locale)
    y = HEADER_H + 16
    scene.text(MARGIN + 14, y, translate("standimg.col.player", locale).upper(), 15, Palette.ink_faint, "bold")
    for key, right in COLUMNS:
        label = translate(f"standimg.col.{key}", locale).upper()
        scene.text(right - scene.measure(label, 15, "bold"), y, label, 15, Palette.ink_faint, "bold")
    y += 28
    if not info.rows:
        key = "standimg.empty_final" if info.closed else "standimg.empty"
        scene.text(WIDTH / 2, y + 14, translate(key, locale), 22, Palette.ink_soft, "semibold", align="centre")
        return scene
    for index in shown:
        if index is None:
            scene.text(WIDTH / 2, y + 8, "···", 24, Palette.ink_faint, "heavy", align="centre")
        else:
            adjusted = info.adjusted[index] if index < len(info.adjusted) else 0
            _row(scene, y, info.rows[index], index == info.reader, locale, adjusted)
        y += ROW_H
    return scene


def render_standings(info: StandingsInfo, *, locale: str = "es") -> Rendered:
    """The standings as an encoded image (``standings.png``)."""
    return encode_still(draw_standings(info, locale=locale).image, "standings")
