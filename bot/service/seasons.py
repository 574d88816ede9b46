"""Season standings: who is ahead in a server's season, worked out from its result rows.

What it is: pure arithmetic over (game, user, place, name) rows. A player earns one point for
every opponent they finished ahead of in a game (two winners of one game beat the same players
and not each other), so a four-player win is worth three and a two-player win one; ties in points
go to more wins, then to fewer games. Every variant counts alike, whatever its own scoring. Also
when an automatic season ends (``next_rollover``).
Rows are anything read by field name, ``row["place"]``: the store's typed rows
(``bot.store.rows.StandingRow``, ``RecordRow``, ``AdjustmentRow``) or plain dicts; the lines it
works out are ``bot.store.rows.Standing`` (named here too), the shape a closed season's standings
are stored in.
What it is not: no I/O: no SQL (``bot.store.repo.season_results``), and no reading or storing of a
season's standings (``bot.service.records.live_standings`` and ``freeze_season``); no Discord, no
text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.store.rows import Standing

__all__ = ["SCHEDULES", "Fields", "PlayerStats", "Standing", "games_in", "next_rollover", "player_stats", "standings"]

SCHEDULES = ("week", "month")  # how often a scheduled season rolls over


class Fields(Protocol):
    """A row read by field name (a ``bot.store.rows`` row or a dict)."""

    def __getitem__(self, name: str, /) -> Any: ...


def standings(rows: Iterable[Fields], adjustments: Iterable[Fields] = ()) -> list[Standing]:
    """Rows need ``game_id``, ``user_id``, ``place`` and ``name``, oldest game first.
    ``adjustments`` (``user_id``, ``name``, ``points``): a manager's corrections, added to the
    player's points (a player with no game of the season but an adjustment is listed too)."""
    by_game: dict[int, list[Fields]] = defaultdict(list)
    for r in rows:
        by_game[r["game_id"]].append(r)
    points: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    games: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for seats in by_game.values():
        for r in seats:
            uid = r["user_id"]
            points[uid] += sum(1 for o in seats if o["place"] > r["place"])
            wins[uid] += r["place"] == 1
            games[uid] += 1
            names[uid] = r["name"]
    adjusted: dict[int, int] = defaultdict(int)
    for a in adjustments:
        uid = a["user_id"]
        adjusted[uid] += a["points"]
        points[uid] += a["points"]
        games[uid] += 0  # listed, with no game
        names.setdefault(uid, a["name"])
    order = sorted(games, key=lambda u: (-points[u], -wins[u], games[u], names[u].casefold(), u))
    out: list[Standing] = []
    for i, uid in enumerate(order):
        key = (points[uid], wins[uid], games[uid])
        prev = out[-1] if out else None
        rank = prev.rank if prev and (prev.points, prev.wins, prev.games) == key else i + 1
        out.append(Standing(rank, uid, names[uid], points[uid], wins[uid], games[uid], adjusted.get(uid, 0)))
    return out


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    points: int  # opponents finished ahead of, all seasons
    best_streak: int  # wins in a row
    streak: int  # current run of wins
    by_variant: dict[str, tuple[int, int]]  # variant -> (games, wins)


def player_stats(rows: Iterable[Fields]) -> PlayerStats:
    """Rows of one player's results, oldest first, with ``place``, ``beaten`` (opponents finished
    ahead of, as in the standings) and ``variant``."""
    games = wins = points = best = run = 0
    by_variant: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        games += 1
        won = r["place"] == 1
        wins += won
        points += r["beaten"]
        run = run + 1 if won else 0
        best = max(best, run)
        by_variant[r["variant"]][0] += 1
        by_variant[r["variant"]][1] += won
    return PlayerStats(games, wins, points, best, run, {v: (g, w) for v, (g, w) in by_variant.items()})


def games_in(rows: Iterable[Fields]) -> int:
    return len({r["game_id"] for r in rows})


def next_rollover(every: str, now: float) -> float:
    """The first scheduled season boundary strictly after ``now``: the next Monday 00:00 UTC
    (``week``) or the next 1st of a month 00:00 UTC (``month``). UTC so that every member of a
    server, wherever they are, shares one boundary; Discord shows it in each reader's own time."""
    moment = datetime.fromtimestamp(now, UTC)
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if every == "week":
        return (midnight + timedelta(days=7 - midnight.weekday())).timestamp()
    if every == "month":
        year, month = (moment.year + 1, 1) if moment.month == 12 else (moment.year, moment.month + 1)
        return datetime(year, month, 1, tzinfo=UTC).timestamp()
    raise ValueError(f"unknown schedule {every!r}")
