"""What the operator's metrics say about the service's work (issue 21), on both backends.

What a user (here, the bot's operator) would notice if these failed: a game set aside that the
``rummy_games_quarantined`` gauge and its alert never show, moves that the counters miss, a
conflict between two processes that goes uncounted, a late turn timer with no clock lag.
"""

from __future__ import annotations

import asyncio

from bot.ops import metrics
from bot.service import ChangeKind, GameService, Refusal
from bot.store import health, repo
from tests.bot.helpers import started, uid


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels or None) or 0.0


async def test_game_counts_a_quarantined_game_and_the_database_answers(env):
    await health.ping(env.db)
    damaged = await started(env.svc, "basic", 2, timer=1, seed="a", channel=100)
    await started(env.svc, "gin", 2, timer=1, seed="b", channel=200)
    async with env.db.transaction() as tx:
        await tx.execute("UPDATE games SET record = ? WHERE id = ?", ("garbage", damaged.id))
    fresh = GameService(env.db, clock=env.clock)
    [change] = await fresh.clock.check_records()
    assert change.kind == ChangeKind.QUARANTINE
    counts, quarantined = await health.game_counts(env.db)
    assert sorted(counts) == [("playing", "basic", 1), ("playing", "gin", 1)] and quarantined == 1
    # A cluster process counts only the guilds on its shards (both games are in guild 1, shard 0 of 2).
    assert await health.game_counts(env.db, (2, (1,))) == ([], 0)


async def test_a_timeout_served_late_moves_the_clock_lag_and_the_committed_counter(env):
    game = await started(env.svc, "basic", 2, timer=1, seed="c")
    lag = value("rummy_clock_lag_seconds_count")
    timeouts = value("rummy_moves_committed_total", kind="timeout", variant="basic")
    committed = value("rummy_db_transaction_seconds_count", outcome="committed")
    env.clock.t = game.turn_deadline + 3
    [change] = await env.svc.clock.tick(game.id)
    assert change.kind == ChangeKind.TIMEOUT
    assert value("rummy_clock_lag_seconds_count") == lag + 1
    assert value("rummy_clock_lag_seconds_bucket", le="5.0") - value("rummy_clock_lag_seconds_bucket", le="2.0") >= 1
    assert value("rummy_moves_committed_total", kind="timeout", variant="basic") == timeouts + 1
    assert value("rummy_db_transaction_seconds_count", outcome="committed") > committed


async def test_a_click_delivered_to_two_services_at_once_counts_one_move_and_one_conflict(env, monkeypatch):
    """Two services on one database (two processes of a cluster): the write that lost is counted.
    Both deliveries are held until each has read the game and found the click not yet played, so
    that both go on to write and the database, not the early "already done" check, refuses one."""
    one, two = env.svc, GameService(env.db, clock=env.clock)
    row = await started(one, "basic", 2, seed="twice")
    seat = one.core.engine(row).current_seat
    both_read = asyncio.Barrier(2)
    seen = repo.seen_interaction

    async def seen_then_wait(tx, interaction_id):
        answer = await seen(tx, interaction_id)
        await asyncio.wait_for(both_read.wait(), 10)
        return answer

    monkeypatch.setattr(repo, "seen_interaction", seen_then_wait)
    moves = value("rummy_moves_committed_total", kind="move", variant="basic")
    conflicts = value("rummy_db_conflicts_total", reason="version") + value("rummy_db_conflicts_total",
                                                                            reason="duplicate")
    rolled_back = value("rummy_db_transaction_seconds_count", outcome="rolled_back")
    outcomes = await asyncio.gather(one.acting.play(row.id, uid(row, seat), "draw", interaction_id=42),
                                    two.acting.play(row.id, uid(row, seat), "draw", interaction_id=42),
                                    return_exceptions=True)
    assert sum(isinstance(o, Refusal) for o in outcomes) == 1, outcomes
    assert not any(isinstance(o, Exception) and not isinstance(o, Refusal) for o in outcomes), outcomes
    assert value("rummy_moves_committed_total", kind="move", variant="basic") == moves + 1
    after = value("rummy_db_conflicts_total", reason="version") + value("rummy_db_conflicts_total",
                                                                        reason="duplicate")
    assert after == conflicts + 1
    assert value("rummy_db_transaction_seconds_count", outcome="rolled_back") == rolled_back + 1