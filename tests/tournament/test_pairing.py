"""Pairing held to worked examples: Swiss (odd fields, no rematches while avoidable, a bye at most
once each, tables of four grouped by score), knockout seeding with byes, league schedules."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.service.tournament import (
    Entrant,
    Format,
    Outcome,
    Table,
    bracket_seeds,
    knockout_round,
    league_round,
    league_schedule,
    pair_round,
    rounds_for,
    swiss_round,
    table_sizes,
)

SEED = "event-seed"


def field(n: int) -> list[Entrant]:
    """Players 1..n, rated so that player 1 is the strongest."""
    return [Entrant(i, rating=2000 - 10 * i) for i in range(1, n + 1)]


def beat(round_no: int, winner: int, loser: int, table: int = 0) -> Outcome:
    return Outcome(round_no, (winner, loser), (1, 2), table=table)


def played(tables: list[Table], winner_of=min) -> list[Outcome]:
    """The tables' outcomes: the lower id wins (a bye is a bye); a table of more seats is placed by id."""
    out = []
    for t in tables:
        if t.bye:
            out.append(Outcome(t.round, t.players, table=t.number))
        else:
            order = sorted(t.players, key=lambda p: p if winner_of is min else -p)
            out.append(Outcome(t.round, t.players, tuple(order.index(p) + 1 for p in t.players), table=t.number))
    return out


def pairs(tables: list[Table]) -> set[frozenset[int]]:
    return {frozenset(t.players) for t in tables}


def test_swiss_first_round_pairs_top_half_against_bottom_half():
    tables = swiss_round(1, field(8), [], SEED)
    assert pairs(tables) == {frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]}
    assert [t.number for t in tables] == [1, 2, 3, 4]


def test_swiss_second_round_pairs_within_score_groups():
    r1 = [beat(1, 1, 3), beat(1, 2, 4)]
    assert pairs(swiss_round(2, field(4), r1, SEED)) == {frozenset((1, 2)), frozenset((3, 4))}


def test_swiss_avoids_a_rematch_by_floating():
    # Round 1: 1 beat 2, 3 beat 4. Round 2: 1 beat 3, 4 beat 2. Now 1 (2 pts), 3 and 4 (1), 2 (0):
    # 1 has met 2 and 3, so 1 meets 4 and 3 meets 2: nobody plays anyone twice.
    history = [beat(1, 1, 2), beat(1, 3, 4), beat(2, 1, 3), beat(2, 4, 2)]
    assert pairs(swiss_round(3, field(4), history, SEED)) == {frozenset((1, 4)), frozenset((2, 3))}


def test_swiss_rematch_only_when_unavoidable():
    assert pairs(swiss_round(2, field(2), [beat(1, 1, 2)], SEED)) == {frozenset((1, 2))}


def test_swiss_odd_field_gives_the_lowest_a_bye_once_each():
    entrants = field(5)
    history: list[Outcome] = []
    byes = []
    for r in range(1, 6):
        tables = swiss_round(r, entrants, history, SEED)
        bye = [t.players[0] for t in tables if t.bye]
        assert len(bye) == 1 and sorted(p for t in tables for p in t.players) == [1, 2, 3, 4, 5]
        byes.append(bye[0])
        history += played(tables)
    assert sorted(byes) == [1, 2, 3, 4, 5]  # five rounds, five different byes
    assert byes[0] == 5  # round 1: the lowest-rated


def test_swiss_round_one_bye_is_the_lowest_and_scores_a_point():
    tables = swiss_round(1, field(7), [], SEED)
    assert tables[-1] == Table(1, 4, (7,))
    assert pairs(tables[:-1]) == {frozenset(p) for p in [(1, 4), (2, 5), (3, 6)]}


@pytest.mark.parametrize("n", range(3, 13))
def test_swiss_no_rematch_and_bye_once_over_three_rounds(n: int):
    entrants = field(n)
    history: list[Outcome] = []
    for r in range(1, 4):
        tables = swiss_round(r, entrants, history, SEED)
        met = Counter(frozenset(o.players) for o in history if not o.bye)
        assert all(met[frozenset(t.players)] == 0 for t in tables if not t.bye), (n, r, tables)
        assert sum(t.bye for t in tables) == n % 2
        history += played(tables, winner_of=max if r % 2 else min)
    byes = [o.players[0] for o in history if o.bye]
    assert len(byes) == len(set(byes))


def test_swiss_pairing_is_deterministic_and_seed_breaks_ties():
    flat = [Entrant(i) for i in range(1, 9)]  # nobody rated: the seed's draw orders them
    assert swiss_round(1, flat, [], "a") == swiss_round(1, flat, [], "a")
    assert len({frozenset(pairs(swiss_round(1, flat, [], s))) for s in "abcdef"}) > 1


def test_swiss_dropped_players_are_not_paired():
    entrants = [*field(3), Entrant(4, 1950, dropped=True)]
    tables = swiss_round(2, entrants, [beat(1, 1, 3), beat(1, 2, 4)], SEED)
    assert 4 not in {p for t in tables for p in t.players}
    assert sum(t.bye for t in tables) == 1


def test_table_sizes_are_as_even_as_possible():
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(7, 2) == [2, 2, 2, 1]


def test_swiss_tables_of_four_grouped_by_score_and_mixed_anew():
    entrants = field(8)
    r1 = swiss_round(1, entrants, [], SEED, table_size=4)
    assert [set(t.players) for t in r1] == [{1, 2, 3, 4}, {5, 6, 7, 8}]
    # Round 1 placed by id: 1 and 5 won their tables (1 point), 4 and 8 last (0).
    history = played(r1)
    r2 = swiss_round(2, entrants, history, SEED, table_size=4)
    # Standings 1, 5 (1 point), 2, 6 (⅔), 3, 7 (⅓), 4, 8 (0). Two tables of four after two tables
    # of four: someone meets again whatever we do, so the tables simply keep the score order.
    assert [set(t.players) for t in r2] == [{1, 5, 2, 6}, {3, 7, 4, 8}]
    assert {p for t in r2 for p in t.players} == set(range(1, 9))


def test_knockout_seeding_six_players_top_two_get_byes():
    assert bracket_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    r1 = knockout_round(1, field(6), [], SEED)
    assert [set(t.players) for t in r1] == [{1}, {4, 5}, {2}, {3, 6}]
    assert [t.bye for t in r1] == [True, False, True, False]
    history = [Outcome(1, (1,), table=1), beat(1, 5, 4, table=2), Outcome(1, (2,), table=3), beat(1, 3, 6, table=4)]
    r2 = knockout_round(2, field(6), history, SEED)
    assert [set(t.players) for t in r2] == [{1, 5}, {2, 3}]
    history += [beat(2, 5, 1, table=1), beat(2, 2, 3, table=2)]
    assert [set(t.players) for t in knockout_round(3, field(6), history, SEED)] == [{5, 2}]
    history += [beat(3, 2, 5, table=1)]
    assert knockout_round(4, field(6), history, SEED) == []
    assert rounds_for(Format.KNOCKOUT, 6) == 3


def test_knockout_seeds_by_rating_not_by_id():
    entrants = [Entrant(10, 1500), Entrant(20, 1900), Entrant(30, 1700), Entrant(40, 1600)]
    r1 = knockout_round(1, entrants, [], SEED)
    assert [set(t.players) for t in r1] == [{20, 10}, {30, 40}]  # 1 v 4, 2 v 3 (bracket 1,4,2,3)


def test_knockout_draw_goes_to_the_higher_seed():
    history = [Outcome(1, (2, 1), (1, 1), table=1), beat(1, 3, 4, table=2)]
    assert [set(t.players) for t in knockout_round(2, field(4), history, SEED)] == [{1, 3}]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_league_everyone_meets_everyone_once(n: int):
    schedule = league_schedule(list(range(1, n + 1)))
    assert len(schedule) == rounds_for(Format.LEAGUE, n)
    met = Counter(frozenset(t) for rnd in schedule for t in rnd if len(t) == 2)
    assert set(met) == {frozenset(c) for c in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    for rnd in schedule:
        seated = [p for t in rnd for p in t]
        assert sorted(seated) == list(range(1, n + 1))  # each once per round (a bye when odd)
    byes = [t[0] for rnd in schedule for t in rnd if len(t) == 1]
    assert sorted(byes) == (list(range(1, n + 1)) if n % 2 else [])


def test_league_four_players_by_the_circle_method():
    assert league_schedule([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]]
    assert [t.players for t in league_round(2, field(4), SEED)] == [(3, 1), (4, 2)]


def test_pair_round_dispatches_by_format():
    assert pair_round(Format.LEAGUE, 1, field(4), [], SEED) == league_round(1, field(4), SEED)
    assert pair_round(Format.SWISS, 1, field(4), [], SEED) == swiss_round(1, field(4), [], SEED)
    assert pair_round(Format.KNOCKOUT, 1, field(4), [], SEED) == knockout_round(1, field(4), [], SEED)
