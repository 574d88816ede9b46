"""A tournament's pictures: its standings after a round, and a knockout's bracket.

What it is: ``draw_event_standings`` (a header with the event's name and the round, the column
labels, one row per player: the rank in a disc, gold, silver and bronze for the first three, the
name, the points, the wins–games record and the tiebreaks named in the footer, each in its own
column; a dropped player's row is faded) and ``draw_bracket`` (one column per round, each match a
panel with its two names, the winner's in gold, a bye marked as such, lines joining each match to
the next round's). Both are 960 pixels wide like the season standings, so they read at phone
width; ``render_*`` encode them.
What it is not: it reads plain ``EventStandingsInfo``/``BracketInfo`` (names and numbers already
worked out: no database, no Discord, no pairing); the bot builds them from the service's
``Standings`` and tables (``cogs.tournament_news``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.i18n import translate

from .draw import Scene, clean_name
from .encode import Rendered, encode_still
from .standings import HEADER_H, MARGIN, ROW_H, WIDTH, ranked_row
from .theme import CLASSIC, Palette

__all__ = ["BracketInfo", "EventStandingsInfo", "draw_bracket", "draw_event_standings", "render_bracket",
           "render_event_standings"]

ROWS = 16
MATCH_H = 62
MATCH_GAP = 14


@dataclass(frozen=True, slots=True)
class EventStandingsInfo:
    """``rows``: (rank, name, points text, record text, tiebreak texts, dropped), best first;
    ``tiebreaks``: the tiebreaks' names, in order (already in the reader's words)."""

    name: str
    round: int
    final: bool
    tiebreaks: tuple[str, ...]
    rows: tuple[tuple[int, str, str, str, tuple[str, ...], bool], ...]


@dataclass(frozen=True, slots=True)
class BracketInfo:
    """``rounds``: each round's matches, top to bottom, as (name, name or None for a bye, the
    winner's index 0 or 1, or None while it is played)."""

    name: str
    rounds: tuple[tuple[tuple[str, str | None, int | None], ...], ...]


def _header(scene: Scene, title: str, sub: str) -> None:
    scene.draw.rectangle((0, 0, scene.width, HEADER_H), fill=Palette.band)
    scene.draw.rectangle((0, HEADER_H - 3, scene.width, HEADER_H), fill=Palette.gold)
    end = scene.text(MARGIN, 14, title, 28, Palette.ink, "heavy", max_width=scene.width * 2 // 3)[2]
    scene.text(end + 14, 22, sub, 20, Palette.ink_soft, "semibold", max_width=scene.width - end - 14 - MARGIN)


def _columns(count: int) -> list[int]:
    """Right edges: points, record, then one per tiebreak, packed from the right."""
    edges = [WIDTH - MARGIN - 16 - 110 * i for i in range(count + 2)]
    return list(reversed(edges))


def draw_event_standings(info: EventStandingsInfo, *, locale: str = "es") -> Scene:
    rows = info.rows[:ROWS]
    footer = 34
    height = HEADER_H + 16 + 28 + max(1, len(rows)) * ROW_H + footer + 10
    scene = Scene.new(WIDTH, height, CLASSIC)
    title = info.name
    sub = translate("tournament.picture.final" if info.final else "tournament.picture.title", locale,
                    name="", round=info.round).strip(" ·")
    _header(scene, title, sub)
    y = HEADER_H + 16
    labels = [translate("tournament.picture.points", locale), translate("tournament.picture.record", locale),
              *info.tiebreaks]
    edges = _columns(len(info.tiebreaks))
    scene.text(MARGIN + 14, y, translate("tournament.picture.player", locale).upper(), 15, Palette.ink_faint, "bold")
    for label, right in zip(labels, edges, strict=True):
        short = scene.fit(label.upper(), 13, "bold", 100)
        scene.text(right - scene.measure(short, 13, "bold"), y + 2, short, 13, Palette.ink_faint, "bold")
    y += 28
    name_right = edges[0] - 80
    for rank, raw, points, record, breaks, dropped in rows:
        ranked_row(scene, y, rank, raw, False, locale, WIDTH, name_right)
        values = [points, record, *breaks]
        for i, (value, right) in enumerate(zip(values, edges, strict=True)):
            colour = Palette.ink_faint if dropped else Palette.gold if i == 0 else Palette.ink_soft
            size = 22 if i == 0 else 19
            scene.text(right - scene.measure(value, size, "heavy"), y + 10 + (22 - size) // 2, value, size, colour,
                       "heavy")
        y += ROW_H
    if info.tiebreaks:
        text = translate("tournament.tiebreaks", locale, names=", ".join(info.tiebreaks))
        scene.text(MARGIN, y + 8, text, 16, Palette.ink_soft, "semibold", max_width=WIDTH - 2 * MARGIN)
    return scene


def render_event_standings(info: EventStandingsInfo, *, locale: str = "es") -> Rendered:
    return encode_still(draw_event_standings(info, locale=locale).image, "tournament")


def _round_title(index: int, total: int, locale: str) -> str:
    if index == total - 1 and total > 1:
        return translate("tournament.bracket.final", locale)
    return translate("tournament.bracket.round", locale, round=index + 1)


def draw_bracket(info: BracketInfo, *, locale: str = "es") -> Scene:
    """The bracket: round 1's matches down the left, each later round's centred between the two
    matches that feed it, so the lines read as a tree."""
    rounds = info.rounds or ((),)
    first = max(1, len(rounds[0]))
    columns = len(rounds)
    col_w = (WIDTH - 2 * MARGIN) // columns
    box_w = min(col_w - 28, 300)
    top = HEADER_H + 50
    height = top + first * (MATCH_H + MATCH_GAP) + 20
    scene = Scene.new(WIDTH, height, CLASSIC)
    _header(scene, info.name, "")
    centres: list[list[float]] = []
    for c, matches in enumerate(rounds):
        x = MARGIN + c * col_w
        scene.text(x + box_w / 2, HEADER_H + 14, _round_title(c, columns, locale).upper(), 15, Palette.ink_faint,
                   "bold", align="centre")
        mids: list[float] = []
        for m, (a, b, winner) in enumerate(matches):
            if c == 0 or len(centres[c - 1]) < 2 * m + 2:
                mid = top + m * (MATCH_H + MATCH_GAP) * (2 ** c) + (MATCH_H + MATCH_GAP) * (2 ** c - 1) / 2 \
                    + MATCH_H / 2
            else:
                mid = (centres[c - 1][2 * m] + centres[c - 1][2 * m + 1]) / 2
            mids.append(mid)
            y0 = mid - MATCH_H / 2
            scene.rrect((x, y0, x + box_w, y0 + MATCH_H), 10, Palette.panel)
            for i, raw in enumerate((a, b)):
                yy = y0 + 6 + i * (MATCH_H / 2 - 2)
                if raw is None:
                    scene.text(x + 12, yy, translate("tournament.bracket.bye", locale), 17, Palette.ink_faint,
                               "semibold")
                    continue
                won = winner == i
                colour = Palette.gold if won else Palette.ink if winner is None else Palette.ink_soft
                scene.text(x + 12, yy, clean_name(raw, "?"), 18, colour, "heavy" if won else "bold",
                           max_width=box_w - 24)
            scene.draw.line((x + 8, y0 + MATCH_H / 2, x + box_w - 8, y0 + MATCH_H / 2), fill=Palette.felt_line,
                            width=1)
            if c > 0 and len(centres[c - 1]) >= 2 * m + 2:
                px = x - (col_w - box_w)
                for feed in (centres[c - 1][2 * m], centres[c - 1][2 * m + 1]):
                    scene.draw.line((px, feed, px + (col_w - box_w) / 2, feed), fill=Palette.felt_line, width=3)
                    scene.draw.line((px + (col_w - box_w) / 2, feed, px + (col_w - box_w) / 2, mid),
                                    fill=Palette.felt_line, width=3)
                scene.draw.line((px + (col_w - box_w) / 2, mid, x, mid), fill=Palette.felt_line, width=3)
        centres.append(mids)
    return scene


def render_bracket(info: BracketInfo, *, locale: str = "es") -> Rendered:
    return encode_still(draw_bracket(info, locale=locale).image, "bracket")
