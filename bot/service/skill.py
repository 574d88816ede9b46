"""Skill ratings: what one rated game does to its players' ratings, and the number people read.

What it is: the openskill library's Plackett–Luce model (openskill.me; the maths is the
library's, none is written here) behind two pure functions: ``rate`` (the players' ratings after
one game, from their places: 2–8 players, equal places are ties) and ``shown`` (the number shown).
A rating is a mean skill ``mu`` and its uncertainty ``sigma``; everybody starts at the model's
defaults (mu 25, sigma 25/3).

The number shown is the conservative estimate openskill calls the ordinal, ``mu − 3·sigma`` (the
skill the player is very likely above), on a 1000-based scale: ``1000 + 40·ordinal``, with ``±
40·sigma`` behind it. A newcomer reads 1000 ± 333; the ± shrinks as they play, and a player who
wins as often as they lose rises slowly above 1000 as the model grows surer of them.

A ``Rating`` is the stored row (``bot.store.rows.RatingRow``: mu, sigma, games) with the number
shown worked out here; the store keeps and returns bare ``RatingRow`` rows (``Rating.of`` reads one).

What it is not: no storage (``bot.store.ratings``) and no decision about which games are rated
(the same ``RATED`` rule as the standings, ``bot.store.repo``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store.rows import RatingRow

__all__ = ["BASE", "MIN_GAMES", "OVERALL", "SCALE", "Rating", "rate", "shown"]

BASE = 1000  # the shown rating of an ordinal of 0 (every newcomer)
SCALE = 40  # shown points per unit of openskill's scale
MIN_GAMES = 3  # rated games a player needs to appear on a ladder
OVERALL = "*"  # the ``variant`` of the rating over every variant together

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating(RatingRow):
    """One player's rating: openskill's ``mu`` and ``sigma``, and the rated games behind it (a
    stored ``RatingRow``), with the number people read."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0

    @classmethod
    def of(cls, row: RatingRow) -> Rating:
        """The rating of a row the store returned."""
        return row if isinstance(row, Rating) else cls(row.mu, row.sigma, row.games)

    @property
    def value(self) -> int:
        """The number shown: the conservative ordinal on the 1000-based scale."""
        return shown(self.mu, self.sigma)[0]

    @property
    def spread(self) -> int:
        """The ± shown behind it."""
        return shown(self.mu, self.sigma)[1]


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """(rating, ±) as people read them: ``1000 + 40·(mu − 3·sigma)`` and ``40·sigma``, rounded."""
    ordinal = _MODEL.rating(mu=mu, sigma=sigma).ordinal()
    return round(BASE + SCALE * ordinal), round(SCALE * sigma)


def rate(before: Mapping[int, RatingRow], places: Mapping[int, int]) -> dict[int, Rating]:
    """Every player's rating after one game: ``places`` maps each user id to their place (1 is
    first; equal places are a tie), ``before`` holds the ratings they had (missing: a newcomer).
    Players are given to the model in user-id order, so the same game always rates the same."""
    users = sorted(places)
    teams = [[_MODEL.rating(mu=before.get(u, Rating()).mu, sigma=before.get(u, Rating()).sigma)] for u in users]
    after = _MODEL.rate(teams, ranks=[float(places[u]) for u in users])
    return {
        u: Rating(team[0].mu, team[0].sigma, before.get(u, Rating()).games + 1)
        for u, team in zip(users, after, strict=True)
    }
