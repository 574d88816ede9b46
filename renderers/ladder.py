"""The skill-rating pictures (issue 12): a server's ladder, and one player's rating chart.

What it is: the ladder in the standings' style (a header with the variant, or "all variants", and
the minimum of games to appear; one row per ranked player: the rank in a disc, gold, silver and
bronze for the first three, the name, the rating with its ± and the rated games; at most
``ROWS`` rows, the reader's own row added after a gap when further down), and a small chart of a
player's shown rating after each of their rated games, from the 1000 everybody starts at, with
their rating, ± and rank in its header.

What it is not: it reads plain ``LadderInfo``/``ChartInfo`` (no database, no Discord, no
openskill: the numbers come already on the shown scale, ``bot.service.skill.shown``).
``draw_ladder``/``draw_chart`` return the ``Scene`` (for tests); ``render_*`` encode it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.i18n import translate

from .draw import Scene, clean_name
from .encode import Rendered, encode_still
from .standings import ranked_row
from .theme import CLASSIC, Palette
from .words import variant_name

__all__ = ["ChartInfo", "LadderInfo", "draw_chart", "draw_ladder", "render_chart", "render_ladder"]

WIDTH = 760  # narrower than the standings (fewer columns): it stays legible on a phone
MARGIN = 22
HEADER_H = 66
ROW_H = 50
ROWS = 10
COLUMNS = (("rating", 480), ("spread", 600), ("games", 718))  # label key, right edge x


@dataclass(frozen=True, slots=True)
class LadderInfo:
    """``rows``: (rank, name, rating, ±, games), best first; ``reader``: the index in ``rows`` of
    the reader's own row, or None; ``variant`` None for the ladder over every variant."""

    rows: tuple[tuple[int, str, int, int, int], ...]
    min_games: int
    variant: str | None = None
    reader: int | None = None


@dataclass(frozen=True, slots=True)
class ChartInfo:
    """``values``: the shown rating after each rated game, oldest first (the chart starts from
    ``start``, everybody's first rating); ``spread`` the ± of the last; ``rank`` on the ladder of
    ``ranked`` players, or None while the player has fewer than the minimum of games."""

    name: str
    values: tuple[int, ...]
    spread: int
    rank: int | None
    ranked: int
    start: int = 1000


def _header(scene: Scene, width: int, title: str, sub: str) -> None:
    """The band: the title, then ``sub``; the title gives way so that ``sub`` (the chart's rating
    and rank) is read whole."""
    scene.draw.rectangle((0, 0, width, HEADER_H), fill=Palette.band)
    scene.draw.rectangle((0, HEADER_H - 3, width, HEADER_H), fill=Palette.gold)
    room = max(width // 4, width - 2 * MARGIN - 14 - scene.measure(sub, 22, "semibold"))
    end = scene.text(MARGIN, 14, title, 30, Palette.ink, "heavy", max_width=room)[2]
    scene.text(end + 14, 22, sub, 22, Palette.ink_soft, "semibold", max_width=width - end - 14 - MARGIN)


def _row(scene: Scene, y: int, row: tuple[int, str, int, int, int], mine: bool, locale: str) -> None:
    rank, raw, rating, spread, games = row
    ranked_row(scene, y, rank, raw, mine, locale, WIDTH, COLUMNS[0][1] - 90)
    for (key, right), text in zip(COLUMNS, (str(rating), f"± {spread}", str(games)), strict=True):
        colour = Palette.gold if key == "rating" else Palette.ink_soft
        scene.text(right - scene.measure(text, 22, "heavy"), y + 9, text, 22, colour, "heavy")


def draw_ladder(info: LadderInfo, *, locale: str = "es") -> Scene:
    shown: list[int | None] = list(range(min(ROWS, len(info.rows))))
    if info.reader is not None and info.reader >= ROWS:
        shown += [None, info.reader]
    body = len(shown) * ROW_H if info.rows else 60
    scene = Scene.new(WIDTH, HEADER_H + 16 + 28 + body + 14, CLASSIC)
    which = variant_name(info.variant, locale) if info.variant else translate("ladderimg.all", locale)
    sub = f"{which} · " + translate("ladderimg.min", locale, games=info.min_games)
    _header(scene, WIDTH, translate("ladderimg.title", locale), sub)
    y = HEADER_H + 16
    scene.text(MARGIN + 14, y, translate("ladderimg.col.player", locale).upper(), 15, Palette.ink_faint, "bold")
    for key, right in COLUMNS:
        label = translate(f"ladderimg.col.{key}", locale).upper()
        scene.text(right - scene.measure(label, 15, "bold"), y, label, 15, Palette.ink_faint, "bold")
    y += 28
    if not info.rows:
        text = translate("ladderimg.empty", locale, games=info.min_games)
        scene.text(WIDTH / 2, y + 14, text, 22, Palette.ink_soft, "semibold", align="centre", max_width=WIDTH - 40)
        return scene
    for index in shown:
        if index is None:
            scene.text(WIDTH / 2, y + 8, "···", 24, Palette.ink_faint, "heavy", align="centre")
        else:
            _row(scene, y, info.rows[index], index == info.reader, locale)
        y += ROW_H
    return scene


CHART_W, CHART_H = 640, 320
PLOT = (70, HEADER_H + 24, CHART_W - 28, CHART_H - 46)  # the plot's box: left, top, right, bottom


def _scale(values: list[int]) -> tuple[int, int]:
    """The y axis: from below the lowest to above the highest rating, on round hundreds (at least
    200 apart, so a few games' steps do not look like cliffs)."""
    low, high = min(values) // 100 * 100, -(-max(values) // 100) * 100
    while high - low < 200:
        low, high = low - 50, high + 50
    return low, high


def draw_chart(info: ChartInfo, *, locale: str = "es") -> Scene:
    scene = Scene.new(CHART_W, CHART_H, CLASSIC)
    name = clean_name(info.name, translate("lobbyimg.player", locale, n=1))
    if info.values:
        sub = translate("ladderimg.now", locale, rating=info.values[-1], spread=info.spread)
        if info.rank is not None:
            sub += " · " + translate("ladderimg.rank", locale, rank=info.rank, of=info.ranked)
    else:
        sub = translate("ladderimg.unrated", locale)
    _header(scene, CHART_W, name, sub)
    left, top, right, bottom = PLOT
    values = [info.start, *info.values]
    low, high = _scale(values)

    def at(i: int, v: int) -> tuple[float, float]:
        x = left + (right - left) * (i / max(1, len(values) - 1))
        return x, bottom - (bottom - top) * (v - low) / (high - low)

    step = 100 if high - low <= 600 else 200
    for v in range(low, high + 1, step):
        y = at(0, v)[1]
        colour = Palette.ink_faint if v == info.start else Palette.felt_line
        scene.draw.line((left, y, right, y), fill=colour, width=2 if v == info.start else 1)
        label = str(v)
        scene.text(left - 10 - scene.measure(label, 17, "semibold"), y - 11, label, 17, Palette.ink_soft, "semibold")
    games = translate("ladderimg.games_axis", locale, games=len(info.values))
    scene.text((left + right) / 2, bottom + 12, games, 18, Palette.ink_soft, "semibold", align="centre")
    if not info.values:
        return scene
    points = [at(i, v) for i, v in enumerate(values)]
    scene.draw.line(points, fill=Palette.gold, width=4, joint="curve")
    dot = 5 if len(points) <= 40 else 3
    for i, (x, y) in enumerate(points):
        colour = Palette.ink if i == len(points) - 1 else Palette.gold
        scene.ellipse((x - dot, y - dot, x + dot, y + dot), colour)
    return scene


def render_ladder(info: LadderInfo, *, locale: str = "es") -> Rendered:
    """The ladder as an encoded image (``ladder.png``)."""
    return encode_still(draw_ladder(info, locale=locale).image, "ladder")


def render_chart(info: ChartInfo, *, locale: str = "es") -> Rendered:
    """A player's rating chart as an encoded image (``rating.png``)."""
    return encode_still(draw_chart(info, locale=locale).image, "rating")
