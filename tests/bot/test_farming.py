"""Standings that cannot be farmed (issue 15, hole 3), at the service: on SQLite and PostgreSQL.

What a user would notice if these failed: a rematch that seats someone who already left and
lets the presser start and win against an absentee; a win over an opponent who never played
(resigned or timed out before moving) climbing the standings; a host who sees they are losing and
cancels the game so it never counts.
"""

from __future__ import annotations

import random

import pytest

from bot.service import Refusal
from bot.store import repo
from tests.bot.helpers import GUILD, choose, started, uid

MANAGER = 99


async def moved_by_both(env, variant: str = "gin", players: int = 2, *, timer: float = 5):
    """A started game in which every seat has made a move of its own (through the service)."""
    row = await started(env.svc, variant, players, timer=timer)
    rng = random.Random(3)
    moved: set[str] = set()
    while len(moved) < players:
        game = env.svc.core.engine(row)
        assert not game.hand_over, "the deal ended before everybody moved"
        seat = game.actors[0]
        change = await env.svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng, avoid=("knock",)),
                                           version=row.version)
        moved.add(seat)
        row = change.game
    return row


async def rated_flags(env, game_id: int) -> set[int]:
    return {r[0] for r in await env.db.fetchall("SELECT rated FROM results WHERE game_id = ?", (game_id,))}


# ------------------------------------------------------------------------------------------- rematch
async def test_a_rematch_invites_the_other_players_and_seats_only_who_accepts(env):
    row = await started(env.svc, "gin", 2)
    await env.svc.games.cancel(row.id, 1)  # over (a cancelled game may be rematched too)
    change = await env.svc.games.rematch(row.id, 2, "user2")
    lobby = change.game
    assert change.kind == "lobby" and lobby.host_id == 2 and lobby.rematch_of == row.id
    # Only the presser sits; the other is invited, and Start counts only seats.
    assert [s.user_id for s in lobby.seats] == [2]
    assert [(s.user_id, s.name) for s in lobby.invited] == [(1, "user1")]
    with pytest.raises(Refusal, match="player_count"):
        await env.svc.games.start(lobby.id, 2)
    # Pressing Rematch on the old game again is accepting: a seat in the lobby already open.
    change = await env.svc.games.rematch(row.id, 1, "user1")
    assert change.kind == "join" and change.game.id == lobby.id
    assert [s.user_id for s in change.game.seats] == [2, 1] and change.game.invited == ()
    assert (await env.svc.games.start(lobby.id, 2)).game.status == "playing"


async def test_leaving_a_rematch_lobby_declines_the_invitation(env):
    row = await started(env.svc, "basic", 3)
    await env.svc.games.cancel(row.id, 1)
    lobby = (await env.svc.games.rematch(row.id, 1, "user1")).game
    assert [s.user_id for s in lobby.invited] == [2, 3]
    await env.svc.games.join(lobby.id, 3, "user3")
    await env.svc.games.leave(lobby.id, 3)
    after = await env.svc.core.get(lobby.id)
    assert after is not None and [s.user_id for s in after.seats] == [1] and [s.user_id for s in after.invited] == [2]


# --------------------------------------------------------------------------- results by an absentee
async def test_a_resignation_before_ever_moving_is_not_rated(env):
    row = await started(env.svc, "gin", 2)
    game = env.svc.core.engine(row)
    first = uid(row, game.actors[0])
    if first == 2:  # user 2 moves, then user 1 resigns without having moved
        move = choose(game, game.actors[0], random.Random(1), avoid=("knock",))
        row = (await env.svc.acting.play(row.id, 2, move)).game
    change = await env.svc.games.resign(row.id, 1)
    assert change.game_over and change.game.status == "finished"
    assert await rated_flags(env, row.id) == {0}
    # Kept for the history, counted nowhere.
    _, table, games = await env.svc.history.scores(GUILD)
    assert table == [] and games == 0
    assert (await env.svc.records.stats(GUILD, 2)).games == 0
    [listed] = await env.svc.records.finished_games(GUILD)
    assert listed.game_id == row.id and not listed.rated and not listed.with_bots
    with pytest.raises(Refusal, match="unrated_absent"):  # nothing to void
        await env.svc.records.void_result(GUILD, row.id, MANAGER)


async def test_three_timeouts_of_someone_who_never_moved_are_not_rated(env):
    row = await started(env.svc, "gin", 2, timer=1)
    rng = random.Random(4)
    while row.status == "playing":
        game = env.svc.core.engine(row)
        seat = game.actors[0]
        if uid(row, seat) == 2:  # user 2 is away: the clock plays their turns
            env.clock.advance(61)
            [change] = await env.svc.clock.tick(row.id)
        else:
            change = await env.svc.acting.play(row.id, 1, choose(game, seat, rng, avoid=("knock",)),
                                               version=row.version)
        row = change.game
    assert row.status == "finished" and (await env.svc.reading.results(row.id))[0].user_id == 1
    assert await rated_flags(env, row.id) == {0}
    assert (await env.svc.history.scores(GUILD))[2] == 0


async def test_a_resignation_after_playing_is_rated(env):
    row = await moved_by_both(env)
    await env.svc.games.resign(row.id, 2)
    assert await rated_flags(env, row.id) == {1}
    _, table, games = await env.svc.history.scores(GUILD)
    assert games == 1 and table[0].user_id == 1
    [listed] = await env.svc.records.finished_games(GUILD)
    assert listed.rated


# ------------------------------------------------------------------------------------ host's cancel
async def test_the_hosts_cancel_once_both_have_moved_is_their_resignation(env):
    row = await moved_by_both(env)
    change = await env.svc.games.cancel(row.id, 1)
    assert change.kind == "resign" and change.game.status == "finished" and change.game_over
    results = {r.user_id: r.place for r in await env.svc.reading.results(row.id)}
    assert results == {2: 1, 1: 2}
    assert await rated_flags(env, row.id) == {1}
    assert [a.action for a in await env.svc.records.audit(GUILD)] == []  # a resignation, not a manager's power


async def test_the_hosts_cancel_before_both_moved_stays_unscored(env):
    row = await started(env.svc, "gin", 2)
    game = env.svc.core.engine(row)
    seat = game.actors[0]
    move = choose(game, seat, random.Random(2), avoid=("knock",))
    row = (await env.svc.acting.play(row.id, uid(row, seat), move)).game
    change = await env.svc.games.cancel(row.id, 1)
    assert change.kind == "cancel" and change.game.status == "cancelled"
    assert await env.svc.reading.results(row.id) == []


async def test_only_a_manager_cancels_a_game_under_way_and_it_is_audited(env):
    row = await moved_by_both(env, "basic", 3)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.cancel(row.id, 2)
    change = await env.svc.games.cancel(row.id, 1, is_admin=True)  # a host who manages the server: audited
    assert change.kind == "cancel" and change.game.status == "cancelled"
    assert [(a.user_id, a.action, a.game_id) for a in await env.svc.records.audit(GUILD)] == [(1, "cancel", row.id)]
    assert await env.svc.reading.results(row.id) == []


async def test_a_host_who_already_resigned_cannot_cancel_the_others_game(env):
    row = await moved_by_both(env, "basic", 3)
    await env.svc.games.resign(row.id, 1)
    before = await repo.action_count(env.db, row.id)
    with pytest.raises(Refusal, match="cancel_under_way"):
        await env.svc.games.cancel(row.id, 1)
    assert (await env.svc.core.get(row.id)).status == "playing"
    assert await repo.action_count(env.db, row.id) == before
