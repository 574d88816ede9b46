"""A tournament's pictures: its standings after a round, and a knockout's bracket.

What it is: ``draw_event_standings`` (a header with the event's name and the round, the column
labels, wrapped in two lines where a long tiebreak's name would crowd the names, one row per
player: the rank in a disc, gold, silver and bronze for the first three, the name, the points,
the wins–games record and the tiebreaks named in the footer, each in its own column sized to its
label and values; a dropped player's row is faded) and ``draw_bracket`` (one column per round, each match a
panel with its two names, the winner's in gold, a bye marked as such, lines joining each match to
the next round's). Both are 960 pixels wide like the season standings, so they read at phone
width; ``render_*`` encode them.
What it is not: it reads plain ``EventStandingsInfo``/``BracketInfo`` (names and numbers already
worked out: no database, no Discord, no pairing); the bot builds them from the service's
``Standings`` and tables (``cogs.tournament_news``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, pairwise

from bot.words.i18n import translate

from .draw import PROBE, Scene, clean_name
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


LABEL_SIZE = 16  # the column labels: small capitals, readable at phone width
LABEL_LINE = 20
COLUMN_GAP = 28
NAME_MIN = 230  # the narrowest the names may get before the labels wrap


def _label_lines(scene: Scene, label: str, lines: int) -> list[str]:
    """``label`` in at most ``lines`` lines as narrow as they can be, broken at spaces and after
    hyphens (``SONNEBORN-`` / ``BERGER``)."""
    words = [w for w in label.replace("-", "- ").split(" ") if w]
    best, best_w = [label], scene.measure(label, LABEL_SIZE, "bold")
    for n in range(2, min(lines, len(words)) + 1):
        for cuts in combinations(range(1, len(words)), n - 1):
            bounds = (0, *cuts, len(words))
            parts = ["".join(w if w.endswith("-") else w + " " for w in words[i:j]).strip()
                     for i, j in pairwise(bounds)]
            width = max(scene.measure(p, LABEL_SIZE, "bold") for p in parts)
            if width < best_w:
                best, best_w = parts, width
    return best


def _columns(scene: Scene, labels: list[str], values: list[list[tuple[str, int]]]) -> tuple[list[int], list[list[str]]]:
    """Right edges (points, record, then one per tiebreak, packed from the right) and each label's
    lines: on one line where they all fit beside names ``NAME_MIN`` wide, else wrapped in two
    lines, then (many tiebreaks) beside narrower names in up to three; a label is cut with an
    ellipsis only if even that does not fit."""
    value_w = [max((scene.measure(v, size, "heavy") for v, size in col), default=0) for col in values]
    for lines, name_min in ((1, NAME_MIN), (2, NAME_MIN), (2, NAME_MIN * 2 // 3), (3, NAME_MIN // 2)):
        room = WIDTH - MARGIN - 16 - (MARGIN + 86 + name_min)
        wrapped = [_label_lines(scene, label, lines) for label in labels]
        widths = [max(vw, *(scene.measure(line, LABEL_SIZE, "bold") for line in ls))
                  for vw, ls in zip(value_w, wrapped, strict=True)]
        if sum(widths) + COLUMN_GAP * len(widths) <= room:
            break
    else:
        # Cut the widest labels to the same width, leaving the narrow ones whole.
        cap = max(widths)
        while cap > 20 and sum(min(w, cap) for w in widths) + COLUMN_GAP * len(widths) > room:
            cap -= 4
        wrapped = [[scene.fit(line, LABEL_SIZE, "bold", cap) for line in ls] for ls in wrapped]
        widths = [min(w, cap) for w in widths]
    edges: list[int] = []
    right = WIDTH - MARGIN - 16
    for w in reversed(widths):
        edges.append(right)
        right -= w + COLUMN_GAP
    return list(reversed(edges)), wrapped


def _label_rows(info: EventStandingsInfo, locale: str) -> tuple[list[int], list[list[str]]]:
    labels = [translate("tournament.picture.points", locale).upper(),
              translate("tournament.picture.record", locale).upper(), *(t.upper() for t in info.tiebreaks)]
    columns: list[list[tuple[str, int]]] = [[] for _ in labels]
    for _rank, _name, points, record, breaks, _dropped in info.rows[:ROWS]:
        for i, value in enumerate((points, record, *breaks)):
            columns[i].append((value, 22 if i == 0 else 19))
    return _columns(PROBE, labels, columns)


def draw_event_standings(info: EventStandingsInfo, *, locale: str = "es") -> Scene:
    rows = info.rows[:ROWS]
    footer = 34
    edges, labels = _label_rows(info, locale)
    head_h = max(len(ls) for ls in labels) * LABEL_LINE + 8
    height = HEADER_H + 16 + head_h + max(1, len(rows)) * ROW_H + footer + 10
    scene = Scene.new(WIDTH, height, CLASSIC)
    title = info.name
    sub = translate("tournament.picture.final" if info.final else "tournament.picture.title", locale,
                    name="", round=info.round).strip(" ·")
    _header(scene, title, sub)
    y = HEADER_H + 16
    bottom = y + head_h - 8  # the labels sit on the rows: a wrapped one grows upwards
    scene.text(MARGIN + 14, bottom - LABEL_LINE, translate("tournament.picture.player", locale).upper(), LABEL_SIZE,
               Palette.ink_faint, "bold")
    for lines, right in zip(labels, edges, strict=True):
        for i, line in enumerate(lines):
            ly = bottom - (len(lines) - i) * LABEL_LINE
            scene.text(right - scene.measure(line, LABEL_SIZE, "bold"), ly, line, LABEL_SIZE, Palette.ink_faint,
                       "bold")
    y += head_h
    name_right = edges[0] - 50
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
        scene.text(MARGIN, y + 8, text, 18, Palette.ink_soft, "semibold", max_width=WIDTH - 2 * MARGIN)
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
