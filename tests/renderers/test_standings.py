"""The standings picture: every player of the season once, best first, with their numbers.

What a player would notice if these failed: a name missing or twice, numbers under the wrong
column, their own row lost below the top ten, a long name running over the points.
"""

from __future__ import annotations

from itertools import pairwise

from renderers.standings import ROWS, StandingsInfo, draw_standings, render_standings


def info(n: int, reader: int | None = None, closed: bool = False) -> StandingsInfo:
    rows = tuple((i + 1, f"Player {i + 1}" + (" with a very long name indeed" if i == 1 else ""), 30 - i, n - i, 40 + i)
                 for i in range(n))
    return StandingsInfo(3, 57, rows, None, closed, reader)


def test_the_first_rows_in_order_each_with_its_numbers() -> None:
    scene = draw_standings(info(5), locale="en")
    rows = scene.found("row")
    assert [r.key for r in rows] == [f"Player {i}" + (" with a very long name indeed" if i == 2 else "")
                                     for i in range(1, 6)]
    assert all(a.box[3] <= b.box[1] for a, b in pairwise(rows))  # top to bottom
    texts = {t.text for t in scene.texts}
    assert {"30", "5", "40", "26", "1", "44"} <= texts and "Season 3" in texts
    name = next(t for t in scene.texts if t.text.startswith("Player 2"))
    points = next(t for t in scene.texts if t.text == "29")
    assert name.box[2] < points.box[0]  # the long name is cut before the points column


def test_the_readers_row_is_shown_after_the_top_ten() -> None:
    scene = draw_standings(info(30, reader=24), locale="es")
    keys = [r.key for r in scene.found("row")]
    assert len(keys) == ROWS + 1 and keys[-1] == "Player 25"
    assert len(draw_standings(info(30), locale="es").found("row")) == ROWS


def test_an_empty_season_says_so_and_final_standings_are_labelled() -> None:
    texts = {t.text for t in draw_standings(StandingsInfo(1, 0, ()), locale="es").texts}
    assert "Aún no ha terminado ninguna partida en esta temporada" in texts
    final = {t.text for t in draw_standings(info(2, closed=True), locale="en").texts}
    assert any(t.startswith("Final standings") for t in final)
    assert render_standings(info(3)).data[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_adjustment_is_marked_beside_its_points_and_an_amended_season_says_so() -> None:
    rows = ((1, "Bea", 4, 1, 1), (2, "Ana", 1, 1, 2), (3, "Carla", -2, 0, 0))
    scene = draw_standings(StandingsInfo(1, 3, rows, None, True, None, (3, 0, -2), True), locale="en")
    texts = [t.text for t in scene.texts]
    assert "adjusted +3" in texts and "adjusted -2" in texts and len([t for t in texts if "adjusted" in t]) == 2
    mark = next(t for t in scene.texts if t.text == "adjusted +3")
    points = next(t for t in scene.texts if t.text == "4")
    assert mark.box[2] < points.box[0]  # left of the points it is part of, on the same row
    assert any(t.endswith("· amended") for t in texts)
    plain = [t.text for t in draw_standings(StandingsInfo(1, 3, rows, None, True), locale="en").texts]
    assert not any("adjusted" in t or "amended" in t for t in plain)
