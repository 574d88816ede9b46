"""The tournament pictures: the standings with their tiebreak columns, and a knockout's bracket."""

from __future__ import annotations

from renderers.tournament import (
    BracketInfo,
    EventStandingsInfo,
    draw_bracket,
    draw_event_standings,
    render_bracket,
    render_event_standings,
)


def standings(rows: int, breaks: tuple[str, ...] = ("Buchholz", "Sonneborn-Berger")) -> EventStandingsInfo:
    return EventStandingsInfo("Swiss", 2, False, breaks, tuple(
        (i + 1, f"Player {i + 1}", str(rows - i), f"{i}–2", tuple("1" for _ in breaks), i == rows - 1)
        for i in range(rows)))


def test_standings_picture_is_phone_wide_and_grows_with_its_rows():
    small, big = draw_event_standings(standings(4)), draw_event_standings(standings(12))
    assert small.width == big.width == 960
    assert big.height > small.height
    rendered = render_event_standings(standings(8), locale="en")
    assert rendered.name.startswith("tournament") and rendered.width == 960


def test_standings_picture_without_tiebreaks_or_players():
    scene = draw_event_standings(EventStandingsInfo("Empty", 0, False, (), ()))
    assert scene.width == 960


def test_bracket_has_a_column_per_round_and_draws_byes():
    info = BracketInfo("Cup", ((("A", None, 0), ("B", "C", 1), ("D", None, 0), ("E", "F", 0)),
                               (("A", "C", None), ("D", "E", None))))
    scene = draw_bracket(info)
    assert scene.width == 960 and scene.height > 300
    assert render_bracket(info, locale="es").name.startswith("bracket")
    assert draw_bracket(BracketInfo("Nothing yet", ())).width == 960
