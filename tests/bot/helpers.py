"""Helpers for the service tests: a hand-moved clock, lobbies and games set up through the
service, random legal play to the end, and the checks every finished game must pass.

What it is: plain functions and a ``Clock`` the test modules import (the ``env`` fixture that
uses them lives in ``conftest.py``). What it is not: no tests of its own.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine import load_game
from bot.service import DEAL_PAUSE, GameService
from bot.store import Database, GameRow, repo
from bot.store.rows import ResultRow

T0 = 1_800_000_000.0
GUILD = 7


class Clock:
    """The service's clock, moved by hand."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


# ------------------------------------------------------------------------------------------ helpers
async def lobby(
    svc: GameService, variant: str, players: int, options: str = "", *, channel: int = 100, timer: float = 5
) -> GameRow:
    change = await svc.games.open_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host_id=1,
        host_name="user1",
        variant=variant,
        options=options,
        timer_minutes=timer,
    )
    for u in range(2, players + 1):
        await svc.games.join(change.game.id, u, f"user{u}")
    row = await svc.core.get(change.game.id)
    assert row is not None
    return row


async def started(
    svc: GameService,
    variant: str,
    players: int,
    options: str = "",
    *,
    channel: int = 100,
    timer: float = 5,
    seed: str = "7",
) -> GameRow:
    row = await lobby(svc, variant, players, options, channel=channel, timer=timer)
    return (await svc.games.start(row.id, 1, seed=seed)).game


def uid(row: GameRow, seat: str) -> int:
    s = row.by_seat(seat)
    assert s is not None
    return s.user_id


async def snapshot(db: Database, game_id: int) -> dict[str, Any]:
    """Everything stored about one game (the row, seats, action log, results)."""
    game = await db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
    assert game is not None
    return {
        "game": dict(game),
        "seats": [
            tuple(r) for r in await db.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY position", (game_id,))
        ],
        "actions": [
            tuple(r) for r in await db.fetchall("SELECT * FROM actions WHERE game_id = ? ORDER BY id", (game_id,))
        ],
        "results": [tuple(r) for r in await db.fetchall("SELECT * FROM results WHERE game_id = ?", (game_id,))],
    }


def choose(game, seat: str, rng: random.Random, *, avoid: tuple[str, ...] = ()) -> str:
    """A legal move: knock (gin) whenever possible, else half the time the engine's most useful
    move (its list comes best first) and half the time any; short deals, still varied."""
    moves = game.legal_moves(seat)
    assert moves, (seat, game.phase)
    knocks = [m for m in moves if m.startswith("knock")]
    if knocks:
        return knocks[0]
    kept = [m for m in moves if m.split()[0] not in avoid] or moves
    return kept[0] if rng.random() < 0.5 else rng.choice(kept)


async def play_one(svc: GameService, row: GameRow, rng: random.Random, **kw: Any):
    """One random legal move by one of the actors (through the service)."""
    game = svc.core.engine(row)
    seat = rng.choice(game.actors)
    return await svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng), version=row.version, **kw)


async def play_to_the_end(
    svc: GameService, row: GameRow, rng: random.Random, *, clock: Clock | None = None, limit: int = 3000
) -> tuple[GameRow, int, int]:
    """Random legal moves until the game is over; the next deal comes from ``next_deal`` (or, with
    ``clock``, from ``tick`` after the pause). Returns (final row, moves, deals)."""
    game = svc.core.engine(row)
    moves, deals, iid = 0, 1, row.id * 1_000_000
    while row.status == "playing":
        assert moves < limit, "the game did not end"
        if game.hand_over:
            if clock is None:
                change = await svc.acting.next_deal(row.id, row.seats[0].user_id, version=row.version)
            else:
                clock.advance(DEAL_PAUSE)
                [change] = await svc.clock.tick(row.id)
                assert change.kind == "deal"
            deals += 1
        else:
            seat = rng.choice(game.actors)
            iid += 1
            change = await svc.acting.play(
                row.id, uid(row, seat), choose(game, seat, rng), interaction_id=iid, version=row.version
            )
            moves += 1
        assert change.game.version == row.version + 1
        row, game = change.game, change.engine
        assert game is not None
    return row, moves, deals


async def check_results(db: Database, row: GameRow) -> list[ResultRow]:
    """The finished game's results: one row per seat, places from the engine, scores as final."""
    assert row.status == "finished" and row.finished_at is not None
    assert row.turn_deadline is None and row.window_deadline is None and row.next_deal_at is None
    game = load_game(row.record or "")
    assert game.game_over
    results = await repo.results_of(db, row.id)
    assert len(results) == len(row.seats)
    by_user = {r["user_id"]: r for r in results}
    scores = game.final_scores or game.totals
    for s in row.seats:
        r = by_user[s.user_id]
        assert r["score"] == str(scores[s.seat])
        assert (r["place"] == 1) == (s.seat in game.winners)
        assert r["guild_id"] == GUILD and r["variant"] == row.variant and r["finished_at"] == row.finished_at
    # After the winners: the others by the variant's ordering, then resigned seats, last to resign first.
    expected = [s for s in game.placing() if s not in game.winners]
    expected += [s for s in reversed(game.resigned) if s not in expected and s not in game.winners]
    others = sorted((r for r in results if r["place"] != 1), key=lambda r: r["place"])
    assert [row.seat_of(r["user_id"]).seat for r in others] == expected
    assert [r["place"] for r in others] == list(range(len(game.winners) + 1, len(row.seats) + 1))
    return results
