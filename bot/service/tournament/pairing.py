"""Who plays whom: the pairing of a Swiss, knockout or league round, from the tables already played.

What it is: pure functions, deterministic from the entrants, the outcomes so far and the event's
seed (the same inputs always give the same tables):

- ``swiss_round``: players in standings order (points, then the Swiss tiebreaks, then rating and
  the seed's draw). With an odd field at tables of two, the lowest-ranked player who has had no
  bye sits out with a bye (a bye at most once each while anyone is left without one; among those,
  the lowest whose absence lets the rest pair without a rematch). The others are paired within
  their score group, top half against bottom half (the Dutch system), a player floating down to
  the next group when their own has nobody new for them; a rematch only when no pairing of the
  round avoids one. Tables of more than two: the field split into as few tables as the size
  allows, as even as can be, filled in standings order (grouped by score), each seat going to the
  best-placed player who has met nobody at the table yet, when there is one.
- ``knockout_round``: the bracket seeded by rating (seed 1 against the last, seed 1 and 2 only in
  the final); when the field is not a power of two, the top seeds get the byes of round 1; each
  later round pairs the winners of neighbouring tables. A drawn table goes to the higher seed.
- ``league_round``: everyone against everyone by the circle method (one player fixed, the others
  turning); with an odd field each player has one round off (a bye).

What it is not: no standings arithmetic beyond asking ``standings``, no I/O, no clock. Dropped
players: a Swiss pairs them no more; a knockout or league keeps their place in the bracket or the
schedule and the service scores their table as a forfeit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from .model import Entrant, Format, Outcome, Table, draw_key
from .standings import points_of, standings

__all__ = [
    "bracket_seeds",
    "knockout_round",
    "knockout_winner",
    "league_round",
    "league_schedule",
    "pair_round",
    "rounds_for",
    "seed_order",
    "swiss_round",
    "table_sizes",
]

SEARCH_BUDGET = 20_000  # backtracking steps before the Swiss pairing settles for a rematch


class _OutOfBudget(Exception):
    pass


def _met(outcomes: Sequence[Outcome]) -> dict[int, set[int]]:
    """Who has sat with whom (voided tables too: what was played is not paired again)."""
    met: dict[int, set[int]] = defaultdict(set)
    for o in outcomes:
        for p in o.players:
            met[p].update(q for q in o.players if q != p)
    return met


def _seated(players: Sequence[int], seed: str, round_no: int) -> tuple[int, ...]:
    """A table's seat order, drawn by the seed for the round (who deals and leads is not the ranking's)."""
    return tuple(sorted(players, key=lambda p: draw_key(f"{seed}:{round_no}", p)))


def table_sizes(n: int, size: int) -> list[int]:
    """``n`` players at tables of at most ``size``: as few tables as possible, as even as can be
    (10 at fours: 4, 3, 3). Tables of two with an odd field: the odd one out is the bye (a 1)."""
    if n <= 0:
        return []
    if size <= 2:
        return [2] * (n // 2) + ([1] if n % 2 else [])
    tables = -(-n // size)
    sizes = [n // tables + (1 if i < n % tables else 0) for i in range(tables)]
    return sizes if min(sizes) >= 2 or len(sizes) == 1 else table_sizes(n, 2)


# ---------------------------------------------------------------- Swiss
def _candidates(p: int, rest: list[int], points: dict[int, object]) -> list[int]:
    """``p``'s opponents in order of preference: within the score group, the top half's player
    meets the bottom half's (Dutch), then the players of the lower groups in standings order."""
    group = [p] + [q for q in rest if points.get(q) == points.get(p)]
    half = len(group) // 2
    preferred = group[max(half, 1):] + list(reversed(group[1:half]))
    return preferred + [q for q in rest if q not in preferred]


def _pair(players: list[int], met: dict[int, set[int]], points: dict[int, object],
          steps: list[int]) -> list[tuple[int, int]] | None:
    """Pairs with no rematch, top of the standings first; None when there is no such pairing."""
    if not players:
        return []
    steps[0] += 1
    if steps[0] > SEARCH_BUDGET:
        raise _OutOfBudget
    p, rest = players[0], players[1:]
    for q in _candidates(p, rest, points):
        if q in met[p]:
            continue
        sub = _pair([x for x in rest if x != q], met, points, steps)
        if sub is not None:
            return [(p, q), *sub]
    return None


def _pair_greedy(players: list[int], met: dict[int, set[int]], points: dict[int, object]) -> list[tuple[int, int]]:
    """When no pairing avoids every rematch: each top player takes their first new opponent, else the first."""
    pairs: list[tuple[int, int]] = []
    left = list(players)
    while len(left) >= 2:
        p, rest = left[0], left[1:]
        options = _candidates(p, rest, points)
        q = next((x for x in options if x not in met[p]), options[0])
        pairs.append((p, q))
        left = [x for x in rest if x != q]
    return pairs


def _try_pair(players: list[int], met: dict[int, set[int]], points: dict[int, object]) -> list[tuple[int, int]] | None:
    try:
        return _pair(players, met, points, [0])
    except _OutOfBudget:
        return None


def swiss_round(round_no: int, entrants: Sequence[Entrant], outcomes: Sequence[Outcome], seed: str,
                table_size: int = 2) -> list[Table]:
    """The tables of Swiss round ``round_no`` (see the module's docstring for the rules)."""
    active = {e.id for e in entrants if not e.dropped}
    order = [p for p in standings(Format.SWISS, entrants, outcomes, seed).order() if p in active]
    met = _met(outcomes)
    points: dict[int, object] = dict(points_of(outcomes))
    for p in order:
        points.setdefault(p, 0)
    if table_size > 2:
        return _swiss_tables(round_no, order, met, seed, table_size)
    tables: list[Table] = []
    bye: int | None = None
    if len(order) % 2:
        had = {o.players[0] for o in outcomes if o.bye}
        candidates = [p for p in reversed(order) if p not in had] or list(reversed(order))
        bye = candidates[0]
        for c in candidates:  # the lowest without a bye whose absence lets the rest pair anew
            if _try_pair([p for p in order if p != c], met, points) is not None:
                bye = c
                break
    players = [p for p in order if p != bye]
    pairs = _try_pair(players, met, points) or _pair_greedy(players, met, points)
    for number, (a, b) in enumerate(pairs, start=1):
        tables.append(Table(round_no, number, _seated((a, b), seed, round_no)))
    if bye is not None:
        tables.append(Table(round_no, len(tables) + 1, (bye,)))
    return tables


def _swiss_tables(round_no: int, order: list[int], met: dict[int, set[int]], seed: str, size: int) -> list[Table]:
    tables: list[Table] = []
    left = list(order)
    for number, seats in enumerate(table_sizes(len(order), size), start=1):
        table = [left.pop(0)]
        while len(table) < seats:
            fresh = next((q for q in left if not met[q] & set(table)), left[0])
            table.append(fresh)
            left.remove(fresh)
        tables.append(Table(round_no, number, tuple(table) if seats == 1 else _seated(table, seed, round_no)))
    return tables


# ---------------------------------------------------------------- knockout
def seed_order(entrants: Sequence[Entrant], seed: str) -> list[int]:
    """Seeds 1, 2, …: by rating, the seed's draw between equal ratings."""
    return [e.id for e in sorted(entrants, key=lambda e: (-e.rating, draw_key(seed, e.id)))]


def bracket_seeds(size: int) -> list[int]:
    """The seed numbers down a bracket of ``size`` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8,
    so neighbouring slots meet, seed 1 meets the last, and 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for x in order for s in (x, total - x)]
    return order


def _bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def knockout_winner(outcome: Outcome, seeds: Sequence[int]) -> int:
    """Who goes through: the bye's player, the table's winner, or (a draw) the higher seed."""
    if outcome.bye:
        return outcome.players[0]
    best = min(outcome.places) if outcome.places else 1
    level = [p for p in outcome.players if outcome.place_of(p) == best]
    return min(level, key=seeds.index)


def knockout_round(round_no: int, entrants: Sequence[Entrant], outcomes: Sequence[Outcome], seed: str) -> list[Table]:
    """Round 1 from the seeded bracket (byes to the top seeds); a later round pairs the winners of
    the previous round's neighbouring tables, in table order. Empty once there is a champion."""
    seeds = seed_order(entrants, seed)
    if round_no == 1:
        size = _bracket_size(len(seeds))
        slots = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_seeds(size)]
        tables = []
        for number, i in enumerate(range(0, size, 2), start=1):
            players = tuple(p for p in slots[i:i + 2] if p is not None)
            tables.append(Table(1, number, players if len(players) == 1 else _seated(players, seed, 1)))
        return tables
    previous = sorted((o for o in outcomes if o.round == round_no - 1 and not o.void), key=lambda o: o.table)
    winners = [knockout_winner(o, seeds) for o in previous]
    if len(winners) < 2:
        return []
    return [Table(round_no, number, _seated(tuple(winners[i:i + 2]), seed, round_no))
            for number, i in enumerate(range(0, len(winners), 2), start=1)]


# ---------------------------------------------------------------- league
def league_schedule(players: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Every round of a round robin by the circle method: the first player stays, the others turn
    one place each round; an odd field adds a gap, and whoever meets it has the round off."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[tuple[int, ...]]] = []
    for r in range(n - 1):
        tables: list[tuple[int, ...]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if r % 2 and i == 0:  # the fixed player alternates first seat
                a, b = b, a
            pair = tuple(p for p in (a, b) if p is not None)
            tables.append(pair)
        rounds.append(sorted(tables, key=len, reverse=True))  # the round off listed last
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def league_round(round_no: int, entrants: Sequence[Entrant], seed: str) -> list[Table]:
    """Round ``round_no`` of the league's schedule (players placed by seed order)."""
    schedule = league_schedule(seed_order(entrants, seed))
    if not 1 <= round_no <= len(schedule):
        return []
    return [Table(round_no, number, players) for number, players in enumerate(schedule[round_no - 1], start=1)]


# ---------------------------------------------------------------- all formats
def rounds_for(fmt: Format, players: int, swiss_rounds: int = 0) -> int:
    """How many rounds the event has: as set for a Swiss, the bracket's depth, the schedule's length."""
    if fmt == Format.SWISS:
        return swiss_rounds
    if fmt == Format.KNOCKOUT:
        return max(0, _bracket_size(players).bit_length() - 1)
    return players - 1 if players % 2 == 0 else players


def pair_round(fmt: Format, round_no: int, entrants: Sequence[Entrant], outcomes: Sequence[Outcome], seed: str,
               table_size: int = 2) -> list[Table]:
    """The tables of round ``round_no`` in any format."""
    if fmt == Format.SWISS:
        return swiss_round(round_no, entrants, outcomes, seed, table_size)
    if fmt == Format.KNOCKOUT:
        return knockout_round(round_no, entrants, outcomes, seed)
    return league_round(round_no, entrants, seed)
