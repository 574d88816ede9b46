"""The ladder as text (the picture's caption, and the whole answer when the picture fails) and the
rating line of ``/rummy stats`` (issue 12).

What a user would notice if these failed: a text ladder missing players, their own line lost below
the first lines, a rating without its ± or rank, a newcomer told a rank they do not have.
"""

from __future__ import annotations

from bot.service import LadderLine, PlayerRating
from bot.service.skill import MIN_GAMES, Rating
from cogs.ladder import chart_info, ladder_info, ladder_message, rating_line
from cogs.standings import SHOWN


def lines(n: int) -> list[LadderLine]:
    return [LadderLine(i + 1, 100 + i, f"P{i + 1}", Rating(30.0 - i * 0.5, 3.0, 5 + i)) for i in range(n)]


def test_every_ranked_player_with_rating_margin_and_games_and_the_reader_below() -> None:
    text = ladder_message(lines(3), "en", variant="gin")
    first = lines(1)[0].rating
    assert text.splitlines()[0].startswith("**Skill ladder") and "Gin" in text.splitlines()[0]
    assert f"` 1.` P1 — **{first.value}** ± {first.spread} · games: 5" in text
    assert text.index("P1") < text.index("P2") < text.index("P3")
    long = ladder_message(lines(SHOWN + 5), "es", reader=100 + SHOWN + 3)
    assert f"**P{SHOWN + 4}**" in long and "…" in long
    assert ladder_message([], "es").endswith(f"Nadie tiene aún {MIN_GAMES} partidas puntuables aquí.")
    assert ladder_info(lines(3), reader=101).reader == 1


def test_the_rating_line_and_chart_of_stats() -> None:
    rating = Rating(27.0, 6.0, 2)
    history = (Rating(26.0, 7.0, 1), rating)
    unranked = PlayerRating(rating, None, 4, history)
    assert rating_line(unranked, "en") == f"rating: **{rating.value}** ± {rating.spread} · on the ladder after " \
        f"{MIN_GAMES} rated games"
    ranked = PlayerRating(rating, 2, 4, history)
    assert rating_line(ranked, "es") == f"nivel: **{rating.value}** ± {rating.spread} · puesto 2 de 4"
    chart = chart_info("Ana", ranked)
    assert chart is not None and chart.values == (history[0].value, rating.value) and chart.start == 1000
    assert rating_line(PlayerRating(None, None, 0, ()), "es") is None
    assert chart_info("Ana", PlayerRating(None, None, 0, ())) is None
