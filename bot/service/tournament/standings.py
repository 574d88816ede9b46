"""A tournament's standings, with the tiebreaks named, worked out from the tables played.

What it is: ``standings(fmt, entrants, outcomes, seed)`` orders the players and says which
tiebreaks decided it, in order:

- Swiss: points, then **Buchholz** (the sum of the opponents' points), **Sonneborn-Berger** (the
  sum, over the games, of each opponent's points times what the player scored against them), and
  **game points** (the rummy scores of the games, where the variant gives them);
- league: points, then **head-to-head** (points in the games between the players still level) and
  **game points**;
- knockout: the round reached (the winner first), then points and game points.

A bye counts 1 point and no opponent (nothing towards Buchholz or Sonneborn-Berger); a voided
table counts nothing. The event's rating, then its seed's draw, orders what the tiebreaks leave
level, so the same tables and seed always give the same standings.
What it is not: no pairing (``pairing``), no I/O, no words (the names are catalog keys' tails).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .model import Entrant, Format, Outcome, draw_key, pairwise, table_points

__all__ = ["TIEBREAKS", "Standing", "Standings", "standings"]

TIEBREAKS: dict[Format, tuple[str, ...]] = {
    Format.SWISS: ("buchholz", "sonneborn_berger", "game_points"),
    Format.LEAGUE: ("head_to_head", "game_points"),
    Format.KNOCKOUT: ("round_reached", "game_points"),
}


@dataclass(frozen=True, slots=True)
class Standing:
    """One line: ``rank`` (1 the best; players level on everything share nothing: the draw splits
    them), ``points``, games ``played`` and ``wins``, ``tiebreaks`` in the order of the standings'
    names, and whether the player was ``dropped``."""

    rank: int
    player: int
    points: Fraction
    played: int
    wins: int
    tiebreaks: tuple[Fraction, ...]
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    """``tiebreaks``: the names of the tiebreaks, in the order they were applied; ``rows`` best first."""

    format: Format
    tiebreaks: tuple[str, ...]
    rows: tuple[Standing, ...]

    def row_of(self, player: int) -> Standing | None:
        return next((r for r in self.rows if r.player == player), None)

    def order(self) -> list[int]:
        return [r.player for r in self.rows]


def _counted(outcomes: Iterable[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if not o.void]


def points_of(outcomes: Iterable[Outcome]) -> dict[int, Fraction]:
    total: dict[int, Fraction] = defaultdict(Fraction)
    for o in _counted(outcomes):
        for p, pts in table_points(o).items():
            total[p] += pts
    return total


def buchholz(player: int, outcomes: Sequence[Outcome], points: dict[int, Fraction]) -> Fraction:
    """The sum of the points of everyone ``player`` sat with (a bye adds nothing)."""
    return sum((points.get(q, Fraction(0)) for o in _counted(outcomes) if player in o.players and not o.bye
                for q in o.players if q != player), Fraction(0))


def sonneborn_berger(player: int, outcomes: Sequence[Outcome], points: dict[int, Fraction]) -> Fraction:
    """The sum, over ``player``'s games and opponents, of the opponent's points times what
    ``player`` scored against them (1, ½ or 0), so beating strong players counts most."""
    return sum((pairwise(o, player, q) * points.get(q, Fraction(0)) for o in _counted(outcomes)
                if player in o.players and not o.bye for q in o.players if q != player), Fraction(0))


def game_points(player: int, outcomes: Sequence[Outcome]) -> Fraction:
    return sum((Fraction(o.game_points[o.players.index(player)]) for o in _counted(outcomes)
                if player in o.players and o.game_points), Fraction(0))


def head_to_head(player: int, level: set[int], outcomes: Sequence[Outcome]) -> Fraction:
    """Points ``player`` scored in games against the others of ``level`` (those level on points)."""
    return sum((pairwise(o, player, q) for o in _counted(outcomes) if player in o.players
                for q in o.players if q != player and q in level), Fraction(0))


def round_reached(player: int, outcomes: Sequence[Outcome]) -> Fraction:
    """Knockout: the last round ``player`` took part in, plus one if they won it (a bye is a win)."""
    best = Fraction(0)
    for o in _counted(outcomes):
        if player in o.players:
            won = o.bye or o.place_of(player) == min(o.places or (1,))
            best = max(best, Fraction(o.round + (1 if won else 0)))
    return best


def standings(fmt: Format, entrants: Sequence[Entrant], outcomes: Sequence[Outcome], seed: str) -> Standings:
    """Everyone in ``entrants`` ranked by points and the format's tiebreaks (``TIEBREAKS``)."""
    points = points_of(outcomes)
    names = TIEBREAKS[fmt]
    by_points: dict[Fraction, set[int]] = defaultdict(set)
    for e in entrants:
        by_points[points.get(e.id, Fraction(0))].add(e.id)

    def breaks(e: Entrant) -> tuple[Fraction, ...]:
        values: list[Fraction] = []
        for name in names:
            if name == "buchholz":
                values.append(buchholz(e.id, outcomes, points))
            elif name == "sonneborn_berger":
                values.append(sonneborn_berger(e.id, outcomes, points))
            elif name == "game_points":
                values.append(game_points(e.id, outcomes))
            elif name == "head_to_head":
                values.append(head_to_head(e.id, by_points[points.get(e.id, Fraction(0))], outcomes))
            elif name == "round_reached":
                values.append(round_reached(e.id, outcomes))
        return tuple(values)

    computed = {e.id: breaks(e) for e in entrants}

    def key(e: Entrant) -> tuple[object, ...]:
        pts = points.get(e.id, Fraction(0))
        tb = tuple(-v for v in computed[e.id])
        if fmt == Format.KNOCKOUT:  # the round reached comes before points
            return (tb[0], -pts, *tb[1:], -e.rating, draw_key(seed, e.id))
        return (-pts, *tb, -e.rating, draw_key(seed, e.id))

    rows = []
    for rank, e in enumerate(sorted(entrants, key=key), start=1):
        mine = [o for o in _counted(outcomes) if e.id in o.players]
        wins = sum(1 for o in mine if o.bye or (o.place_of(e.id) == 1 and list(o.places).count(1) == 1))
        rows.append(Standing(rank, e.id, points.get(e.id, Fraction(0)), sum(1 for o in mine if not o.bye), wins,
                             computed[e.id], e.dropped))
    return Standings(fmt, names, tuple(rows))
