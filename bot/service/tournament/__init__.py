"""Tournaments (issue 22): Swiss, knockout and league events, from sign-up to the podium.

What it is: the pure part (``model``: the shapes; ``pairing``: who plays whom; ``standings``:
the order and the named tiebreaks), deterministic from the tables played and the event's seed;
and the service's part (``rounds``: the clock's stages and rounds; ``events``: creating, sign-up,
check-in, managers' actions, reading; ``when``: the moments a manager writes), the
``tournaments`` part of ``GameService`` (``Tournaments``, with ``TournamentRounds`` as its
``rounds``).
What it is not: no Discord, no SQL (the store's ``tournaments`` module holds the rows), no pixels.
"""

from __future__ import annotations

from bot.store.tournaments import EntrantRow, EventRow, TableRow

from .events import CHECKIN_LEAD, EventView, NewEvent, Tournaments
from .model import BYE_POINTS, Entrant, Format, Outcome, Table, draw_key, table_points
from .pairing import (
    bracket_seeds,
    knockout_round,
    knockout_winner,
    league_round,
    league_schedule,
    pair_round,
    rounds_for,
    seed_order,
    swiss_round,
    table_sizes,
)
from .rounds import EventChange, EventKind, Stage, TournamentRounds
from .standings import TIEBREAKS, Standing, Standings, standings
from .when import parse_when

__all__ = [
    "BYE_POINTS",
    "CHECKIN_LEAD",
    "TIEBREAKS",
    "Entrant",
    "EntrantRow",
    "EventChange",
    "EventKind",
    "EventRow",
    "EventView",
    "Format",
    "NewEvent",
    "Outcome",
    "Stage",
    "Standing",
    "Standings",
    "Table",
    "TableRow",
    "TournamentRounds",
    "Tournaments",
    "bracket_seeds",
    "draw_key",
    "knockout_round",
    "knockout_winner",
    "league_round",
    "league_schedule",
    "pair_round",
    "parse_when",
    "rounds_for",
    "seed_order",
    "standings",
    "swiss_round",
    "table_points",
    "table_sizes",
]
