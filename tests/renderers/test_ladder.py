"""The skill ladder picture and a player's rating chart (issue 12).

What a player would notice if these failed: a name missing or twice on the ladder, a rating under
the wrong column or without its ±, their own row lost below the top ten, a long name running over
the rating; a chart whose line does not follow their games, or a header without their rating and
rank.
"""

from __future__ import annotations

from itertools import pairwise

from renderers.ladder import (
    PLOT,
    ROWS,
    ChartInfo,
    LadderInfo,
    draw_chart,
    draw_ladder,
    render_chart,
    render_ladder,
)


def ladder(n: int, reader: int | None = None, variant: str | None = None) -> LadderInfo:
    rows = tuple((i + 1, f"Player {i + 1}" + (" with a very long name indeed, longer" if i == 1 else ""),
                  1200 - 10 * i, 90 + i, 3 + i) for i in range(n))
    return LadderInfo(rows, 3, variant, reader)


def test_the_ladder_lists_players_best_first_with_rating_margin_and_games() -> None:
    scene = draw_ladder(ladder(4), locale="en")
    rows = scene.found("row")
    assert [r.key.split(" with")[0] for r in rows] == [f"Player {i}" for i in range(1, 5)]
    assert all(a.box[3] <= b.box[1] for a, b in pairwise(rows))
    texts = {t.text for t in scene.texts}
    assert {"1200", "± 90", "3", "1170", "± 93", "6"} <= texts
    assert "Skill" in texts and "All rummies · at least 3 games" in texts
    name = next(t for t in scene.texts if t.text.startswith("Player 2"))
    rating = next(t for t in scene.texts if t.text == "1190")
    assert name.text.endswith("…") and name.box[2] < rating.box[0]  # cut before the rating column


def test_the_readers_row_follows_the_top_ten_and_a_variant_is_named() -> None:
    scene = draw_ladder(ladder(20, reader=16, variant="rami"), locale="es")
    keys = [r.key for r in scene.found("row")]
    assert len(keys) == ROWS + 1 and keys[-1] == "Player 17"
    assert any(t.text.startswith("Rami · mínimo 3") for t in scene.texts)


def test_an_empty_ladder_says_how_many_games_it_takes() -> None:
    texts = {t.text for t in draw_ladder(LadderInfo((), 3), locale="es").texts}
    assert "Nadie tiene aún 3 partidas puntuables" in texts
    assert render_ladder(ladder(3)).data[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_chart_follows_the_ratings_from_the_start_and_heads_with_rating_and_rank() -> None:
    values = (1040, 1010, 1090, 1150)
    scene = draw_chart(ChartInfo("ana", values, 88, 2, 9), locale="en")
    texts = {t.text for t in scene.texts}
    assert {"ana", "Rating 1150 ± 88 · rank 2 of 9", "rated games: 4"} <= texts
    # The line ends at its highest point, near the top right of the plot.
    image = scene.image.convert("RGB")
    _, top, right, bottom = PLOT
    gold = (255, 200, 61)
    column = [y for y in range(top - 6, bottom + 6) if image.getpixel((right - 12, y)) == gold]
    assert column and min(column) < top + (bottom - top) / 3  # near the top at the right
    unranked = {t.text for t in draw_chart(ChartInfo("bea", (1030,), 300, None, 4), locale="es").texts}
    assert "Nivel 1030 ± 300" in unranked
    assert render_chart(ChartInfo("ana", values, 88, 2, 9)).data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_long_name_gives_way_to_the_rating_in_the_charts_header() -> None:
    scene = draw_chart(ChartInfo("A rather long player name that goes on and on", (900, 880), 61, 12, 40),
                       locale="en")
    texts = [t.text for t in scene.texts]
    assert "Rating 880 ± 61 · rank 12 of 40" in texts
    assert any(t.startswith("A rather") and t.endswith("…") for t in texts)
