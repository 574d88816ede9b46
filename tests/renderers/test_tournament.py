"""The tournament pictures: the standings with their tiebreak columns, and a knockout's bracket.

What a player would notice if these failed: a number under the wrong label, a long name running
into the points, a dropped player not faded, a row missing or the picture not growing with the
field, a bracket whose later rounds are not centred between the matches that feed them, a bye
not said, a winner not in gold, anything drawn off the picture.
"""

from __future__ import annotations

from bisect import bisect
from itertools import combinations, pairwise

import pytest

from renderers.draw import Scene, TextBox
from renderers.standings import ROW_H, WIDTH
from renderers.theme import Palette
from renderers.tournament import (
    ROWS,
    BracketInfo,
    EventStandingsInfo,
    draw_bracket,
    draw_event_standings,
    render_bracket,
    render_event_standings,
)
from tests.renderers.helpers import close, inside, overlaps

LONG = "Begoña with a name long enough to run over every column of the row"
FIELD = ((1, "Ana", "6", "3–0", ("7.5", "30"), False),
         (2, LONG, "4", "2–1", ("6.5", "20"), False),
         (3, "Cris", "1", "0–3", ("2.5", "11"), True))


def standings(rows: int, breaks: tuple[str, ...] = ("Buchholz", "Sonneborn-Berger")) -> EventStandingsInfo:
    return EventStandingsInfo("Swiss", 2, False, breaks, tuple(
        (i + 1, f"Player {i + 1}", str(rows - i), f"{i}–2", tuple("1" for _ in breaks), i == rows - 1)
        for i in range(rows)))


def text(scene: Scene, value: str, *, below: int = 0) -> TextBox:
    """The first text ``value`` drawn at or below ``below``."""
    return next(t for t in scene.texts if t.text == value and t.box[1] >= below)


def inked(scene: Scene, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> bool:
    """Whether some pixel in ``box`` is drawn in ``colour`` (the inside of a glyph, not its edge)."""
    crop = scene.image.crop(box).convert("RGB")
    return any(close(pixel, colour, 12) for _count, pixel in crop.getcolors(crop.width * crop.height) or ())


def everything_inside(scene: Scene) -> bool:
    whole = (0, 0, scene.width, scene.height)
    return all(inside(t.box, whole) for t in scene.texts) and all(inside(r.box, whole) for r in scene.regions)


def test_each_value_stands_under_its_label_and_no_two_texts_of_a_row_touch():
    scene = draw_event_standings(EventStandingsInfo("Swiss", 2, False, ("Buchholz", "Median"), FIELD), locale="en")
    rows = scene.found("row")
    assert [r.key for r in rows] == ["Ana", LONG, "Cris"]
    assert all(a.box[3] <= b.box[1] for a, b in pairwise(rows))  # best first, top to bottom
    labels = [text(scene, label) for label in ("PTS", "W–P", "BUCHHOLZ", "MEDIAN")]
    assert all(a.box[2] < b.box[0] for a, b in pairwise(labels))  # the columns in order, apart
    for (_rank, _name, points, record, breaks, _dropped), row in zip(FIELD, rows, strict=True):
        values = [text(scene, v, below=row.box[1]) for v in (points, record, *breaks)]
        for value, label in zip(values, labels, strict=True):
            assert abs(value.box[2] - label.box[2]) <= 3  # right-aligned under its own label
            assert label.box[3] < value.box[1] and inside(value.box, row.box)
        drawn = [t for t in scene.texts if inside(t.box, row.box)]
        assert not any(overlaps(a.box, b.box) for a, b in combinations(drawn, 2))
    cut = next(t for t in scene.texts if t.text.startswith("Begoña"))
    assert cut.text.endswith("…") and cut.box[2] < labels[0].box[0]  # the long name stops short of the points
    assert everything_inside(scene)


def test_the_picture_grows_by_a_row_per_player_up_to_its_limit_and_names_the_tiebreaks_below():
    heights = [draw_event_standings(standings(n)).height for n in (1, 2, 5, ROWS, ROWS + 4)]
    assert [b - a for a, b in pairwise(heights)] == [ROW_H, 3 * ROW_H, (ROWS - 5) * ROW_H, 0]
    scene = draw_event_standings(standings(ROWS + 4), locale="en")
    assert len(scene.found("row")) == ROWS and scene.width == WIDTH  # phone width, like the season's
    footer = text(scene, "Ties broken by: Buchholz, Sonneborn-Berger.")
    assert footer.box[1] >= scene.found("row")[-1].box[3] and everything_inside(scene)
    rendered = render_event_standings(standings(8), locale="en")
    assert rendered.name.startswith("tournament") and (rendered.width, rendered.height) == (
        WIDTH, draw_event_standings(standings(8)).height)


def test_the_leaders_points_are_gold_and_a_dropped_players_row_is_faded():
    scene = draw_event_standings(EventStandingsInfo("Swiss", 2, False, ("Buchholz", "Median"), FIELD), locale="en")
    ana, cris = scene.found("row")[0], scene.found("row")[2]
    assert inked(scene, text(scene, "6", below=ana.box[1]).box, Palette.gold)
    assert not inked(scene, text(scene, "1", below=cris.box[1]).box, Palette.gold)
    assert inked(scene, text(scene, "0–3", below=cris.box[1]).box, Palette.ink_faint)
    assert not inked(scene, text(scene, "0–3", below=cris.box[1]).box, Palette.ink_soft)


def test_standings_without_tiebreaks_or_players_show_only_points_and_record():
    scene = draw_event_standings(EventStandingsInfo("Empty", 0, False, (), ()), locale="en")
    shown = {t.text for t in scene.texts}
    assert {"PTS", "W–P"} <= shown and not any(t.startswith("Ties broken") for t in shown)
    assert scene.found("row") == [] and everything_inside(scene)
    assert scene.height == draw_event_standings(standings(1, ())).height  # room for one row, not less


SWISS_BREAKS = ("Buchholz", "Sonneborn-Berger", "puntos de partida")


@pytest.mark.parametrize("breaks", [SWISS_BREAKS, (*SWISS_BREAKS, "Buchholz mediano", "progresivo", "victorias")])
def test_the_column_labels_are_whole_inside_the_picture_and_apart(breaks):
    """The bot's own tiebreak names (the Swiss's) fit whole, wrapped in two lines where needed;
    however many there are, no label runs off the picture or into another column's."""
    scene = draw_event_standings(standings(8, breaks))
    first_row = scene.found("row")[0].box
    labels = [t for t in scene.texts if t.box[3] <= first_row[1] and t.box[1] > 66]  # between header and rows
    assert everything_inside(scene)
    assert not any(overlaps(a.box, b.box) for a, b in combinations(labels, 2))
    for value in (t for t in scene.texts if inside(t.box, first_row) and t.text == "1"):
        over = [t for t in labels if t.box[0] <= value.box[2] <= t.box[2] + 3]
        assert over, value  # every value stands under a label
    if breaks == SWISS_BREAKS:
        words = " ".join(t.text for t in sorted(labels, key=lambda t: (t.box[0] // 40, t.box[1])))
        for name in ("BUCHHOLZ", "SONNEBORN-", "BERGER", "PUNTOS DE", "PARTIDA"):
            assert name in words
        assert not any(t.text.endswith("…") for t in labels)


CUP = BracketInfo("Cup", ((("Ana", None, 0), ("Bea", "Cris", 1), ("Dolo", None, 0), ("Íñigo", "Majo", 0)),
                          (("Ana", "Cris", None), ("Dolo", "Íñigo", None)),
                          (("Ana", "Dolo", None),)))


def bracket_columns(scene: Scene, titles: list[TextBox]) -> list[list[TextBox]]:
    """The names under each round's title, top to bottom: a column ends halfway to the next title."""
    bounds = [(a.box[2] + b.box[0]) / 2 for a, b in pairwise(titles)]
    columns: list[list[TextBox]] = [[] for _ in titles]
    for t in sorted(scene.texts, key=lambda t: t.box[1]):
        if t.box[1] > titles[0].box[3]:
            columns[bisect(bounds, t.box[0])].append(t)
    return columns


def test_the_bracket_has_a_column_per_round_and_each_match_is_centred_on_its_feeders():
    scene = draw_bracket(CUP, locale="en")
    titles = [text(scene, t) for t in ("ROUND 1", "ROUND 2", "FINAL")]
    assert all(a.box[2] < b.box[0] for a, b in pairwise(titles))  # left to right, apart
    columns = bracket_columns(scene, titles)
    assert [t.text for t in columns[0]] == ["Ana", "bye", "Bea", "Cris", "Dolo", "bye", "Íñigo", "Majo"]
    assert [t.text for t in columns[1]] == ["Ana", "Cris", "Dolo", "Íñigo"]
    assert [t.text for t in columns[2]] == ["Ana", "Dolo"]

    def centres(column: list[TextBox]) -> list[float]:
        return [(a.box[1] + b.box[3]) / 2 for a, b in zip(column[::2], column[1::2], strict=True)]

    for feeders, fed in pairwise([centres(c) for c in columns]):
        for m, centre in enumerate(fed):
            assert abs(centre - (feeders[2 * m] + feeders[2 * m + 1]) / 2) <= 4
    assert everything_inside(scene) and not any(overlaps(a.box, b.box) for a, b in combinations(scene.texts, 2))
    assert render_bracket(CUP, locale="es").name.startswith("bracket")


def test_the_bracket_marks_winners_in_gold_and_grows_with_the_first_round():
    scene = draw_bracket(CUP, locale="en")
    first, second, final = bracket_columns(scene, [text(scene, t) for t in ("ROUND 1", "ROUND 2", "FINAL")])
    by_name = {t.text: t for t in first}
    assert inked(scene, by_name["Cris"].box, Palette.gold) and not inked(scene, by_name["Bea"].box, Palette.gold)
    assert inked(scene, by_name["Íñigo"].box, Palette.gold) and not inked(scene, by_name["Majo"].box, Palette.gold)
    assert not any(inked(scene, t.box, Palette.gold) for t in second + final)  # not played yet: no winner
    two = BracketInfo("Cup", ((("Ana", "Bea", None), ("Cris", "Dolo", None)), (("?", "?", None),)))
    eight = BracketInfo("Cup", (tuple((f"P{2 * i}", f"P{2 * i + 1}", None) for i in range(8)),))
    assert draw_bracket(two).height < scene.height < draw_bracket(eight).height
    long = draw_bracket(BracketInfo("Cup", (((LONG, "Bea", 0),), ((LONG, None, 0),))), locale="en")
    names = [t for t in long.texts if t.text.startswith("Begoña")]
    assert len(names) == 2 and names[0].box[2] < names[1].box[0]  # cut inside its own column
    assert everything_inside(draw_bracket(BracketInfo("Nothing yet", ())))
