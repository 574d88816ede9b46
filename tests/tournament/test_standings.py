"""Standings and tiebreaks, held to examples worked by hand."""

from __future__ import annotations

from fractions import Fraction as F

from bot.service.tournament import Entrant, Format, Outcome, standings, table_points

SEED = "s"
A, B, C, D = 1, 2, 3, 4
PLAYERS = [Entrant(p) for p in (A, B, C, D)]


def test_table_points_two_and_four_seats():
    assert table_points(Outcome(1, (A, B), (1, 2))) == {A: 1, B: 0}
    assert table_points(Outcome(1, (A, B), (1, 1))) == {A: F(1, 2), B: F(1, 2)}
    assert table_points(Outcome(1, (A, B, C, D), (1, 2, 3, 4))) == {A: 1, B: F(2, 3), C: F(1, 3), D: 0}
    assert table_points(Outcome(1, (A,))) == {A: 1}
    assert table_points(Outcome(1, (A, B), (1, 2), void=True)) == {A: 0, B: 0}


def test_swiss_buchholz_and_sonneborn_berger_by_hand():
    # R1: A beat B, C drew D. R2: A beat C, B beat D.
    # Points: A 2, B 1, C ½, D ½.
    # Buchholz: A = B + C = 1½; B = A + D = 2½; C = D + A = 2½; D = C + B = 1½.
    # Sonneborn-Berger: A = 1·1 + 1·½ = 1½; B = 0·2 + 1·½ = ½; C = ½·½ + 0·2 = ¼; D = ½·½ + 0·1 = ¼.
    outcomes = [Outcome(1, (A, B), (1, 2), (25, 0)), Outcome(1, (C, D), (1, 1), (10, 10)),
                Outcome(2, (A, C), (1, 2), (30, 0)), Outcome(2, (B, D), (1, 2), (18, 0))]
    table = standings(Format.SWISS, PLAYERS, outcomes, SEED)
    assert table.tiebreaks == ("buchholz", "sonneborn_berger", "game_points")
    assert table.order() == [A, B, C, D]  # C before D: Buchholz 2½ against 1½
    got = {r.player: (r.points, *r.tiebreaks) for r in table.rows}
    assert got == {A: (2, F(3, 2), F(3, 2), 55), B: (1, F(5, 2), F(1, 2), 18),
                   C: (F(1, 2), F(5, 2), F(1, 4), 10), D: (F(1, 2), F(3, 2), F(1, 4), 10)}
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]
    assert table.row_of(A).wins == 2 and table.row_of(C).wins == 0 and table.row_of(C).played == 2


def test_swiss_buchholz_splits_players_level_on_points():
    # R1 A beat B, C beat D; R2 D beat A, C beat B: C 2, A 1, D 1, B 0.
    # A: Buchholz B + D = 1, SB = 1·0 + 0·1 = 0; D: Buchholz C + A = 3, SB = 0 + 1·1 = 1.
    outcomes = [Outcome(1, (A, B), (1, 2)), Outcome(1, (C, D), (1, 2)),
                Outcome(2, (D, A), (1, 2)), Outcome(2, (C, B), (1, 2))]
    table = standings(Format.SWISS, PLAYERS, outcomes, SEED)
    assert table.order() == [C, D, A, B]
    assert table.row_of(D).tiebreaks[:2] == (3, 1) and table.row_of(A).tiebreaks[:2] == (1, 0)


def test_bye_counts_a_point_and_no_opponent():
    outcomes = [Outcome(1, (A, B), (1, 2)), Outcome(1, (C,))]
    table = standings(Format.SWISS, [Entrant(A), Entrant(B), Entrant(C)], outcomes, SEED)
    assert table.row_of(C).points == 1 and table.row_of(C).tiebreaks[:2] == (0, 0)
    assert table.row_of(C).played == 0 and table.row_of(C).wins == 1
    # A (beat B, who has 0) and C are level on points and every tiebreak: the seed's draw orders
    # them, the same way every time for the same seed.
    assert table.order() == [A, C, B]
    assert standings(Format.SWISS, [Entrant(A), Entrant(B), Entrant(C)], outcomes, SEED).order() == table.order()


def test_league_head_to_head_before_game_points():
    # A beat B, A beat C, D beat A, B beat C, B beat D, C beat D: A 2, B 2, C 1, D 1.
    # A beat B (head-to-head 1 to 0) though B has more game points; C beat D the same way.
    outcomes = [Outcome(1, (A, B), (1, 2), (5, 0)), Outcome(1, (C, D), (1, 2), (5, 0)),
                Outcome(2, (A, C), (1, 2), (5, 0)), Outcome(2, (B, D), (1, 2), (90, 0)),
                Outcome(3, (D, A), (1, 2), (99, 0)), Outcome(3, (B, C), (1, 2), (90, 0))]
    table = standings(Format.LEAGUE, PLAYERS, outcomes, SEED)
    assert table.tiebreaks == ("head_to_head", "game_points")
    assert table.order() == [A, B, C, D]
    assert {r.player: r.tiebreaks for r in table.rows} == {A: (1, 10), B: (0, 180), C: (1, 5), D: (0, 99)}


def test_league_game_points_when_head_to_head_is_level():
    outcomes = [Outcome(1, (A, B), (1, 1), (10, 40))]
    assert standings(Format.LEAGUE, [Entrant(A), Entrant(B)], outcomes, SEED).order() == [B, A]


def test_knockout_round_reached_first():
    entrants = [Entrant(p, 2000 - p) for p in (A, B, C, D)]
    outcomes = [Outcome(1, (A, D), (1, 2), table=1), Outcome(1, (B, C), (2, 1), table=2),
                Outcome(2, (A, C), (2, 1), table=1)]
    table = standings(Format.KNOCKOUT, entrants, outcomes, SEED)
    assert table.order() == [C, A, B, D]  # champion, finalist, then the first-round losers by points/seed
    assert table.row_of(C).tiebreaks[0] == 3 and table.row_of(A).tiebreaks[0] == 2


def test_void_counts_nothing():
    outcomes = [Outcome(1, (A, B), (1, 2), void=True)]
    table = standings(Format.SWISS, [Entrant(A), Entrant(B)], outcomes, SEED)
    assert all(r.points == 0 and r.played == 0 for r in table.rows)
