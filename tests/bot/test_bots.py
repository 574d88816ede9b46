"""Computer players through the service: seated by the host, moved by the clock, never rated.

What a user would notice if these failed: a bot seat that freezes the game, a bot that times out
or gets reminded, a person timed out on a bot's short deadline, a bot hosting a lobby, games
against bots climbing the season standings, a bot game that stops after a restart.
"""

from __future__ import annotations

import random

import pytest

from bot.service import BOT_DELAY, GameService, Refusal
from bot.store import repo
from tests.bot.helpers import GUILD, choose, lobby, uid


async def test_only_the_host_seats_bots_and_they_never_host(env):
    row = await lobby(env.svc, "gin", 1)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.add_bot(row.id, 2)
    with pytest.raises(Refusal, match="no_bot"):
        await env.svc.games.remove_bot(row.id, 1)
    change = await env.svc.games.add_bot(row.id, 1)
    assert [(s.user_id, s.seat, s.is_bot) for s in change.game.seats] == [(1, "p1", False), (-1, "p2", True)]
    with pytest.raises(Refusal, match="lobby_full"):
        await env.svc.games.add_bot(row.id, 1)
    change = await env.svc.games.remove_bot(row.id, 1)
    assert [s.user_id for s in change.game.seats] == [1]
    await env.svc.games.add_bot(row.id, 1)
    change = await env.svc.games.leave(row.id, 1)  # the last person leaves: a lobby of bots is cancelled
    assert change.game.status == "cancelled"


async def test_a_move_that_hands_the_turn_to_a_bot_tells_the_clock_when_the_bot_is_due(env):
    """The client's clock sleeps up to a second between polls; the commit that makes a bot's move
    due tells it when (``on_deadline``), so the bot moves after its own pause, not a poll later."""
    written: list[float] = []
    env.svc.core.on_deadline = written.append
    row = await lobby(env.svc, "basic", 1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="bots")).game
    game, rng = env.svc.core.engine(row), random.Random(5)
    for _ in range(3):  # three times the turn passes from the person to the bot
        while row.by_seat(game.actors[0]).is_bot:
            env.clock.advance(BOT_DELAY)
            [change] = await env.svc.clock.tick(row.id)
            row, game = change.game, change.engine
        while not row.by_seat(game.actors[0]).is_bot:
            written.clear()
            seat = game.actors[0]
            change = await env.svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng), version=row.version)
            row, game = change.game, change.engine
        assert written == [env.clock() + BOT_DELAY]


async def test_a_game_against_bots_is_played_by_the_clock_to_the_end_unrated(env):
    row = await lobby(env.svc, "basic", 1, "game_end=hands:2")
    await env.svc.games.add_bot(row.id, 1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="bots")).game
    rng = random.Random(3)
    game = env.svc.core.engine(row)
    bot_moves = person_moves = 0
    while row.status == "playing":
        assert bot_moves + person_moves < 3000
        if game.hand_over:
            env.clock.advance(env.svc.core.deal_pause)
            [change] = await env.svc.clock.tick(row.id)
        elif row.by_seat(game.actors[0]).is_bot:
            # Nothing before the pause; then one move, by the robot, logged as the bot's.
            assert await env.svc.clock.tick(row.id) == []
            env.clock.advance(BOT_DELAY)
            [change] = await env.svc.clock.tick(row.id)
            assert change.kind == "bot" and change.seat == game.actors[0]
            bot_moves += 1
        else:
            seat = game.actors[0]
            change = await env.svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng), version=row.version)
            person_moves += 1
        row, game = change.game, change.engine
    assert bot_moves > 10 and person_moves > 5
    kinds = {r["kind"] for r in await env.db.fetchall("SELECT kind FROM actions WHERE game_id = ?", (row.id,))}
    assert "timeout" not in kinds and "bot" in kinds
    assert len(await repo.results_of(env.db, row.id)) == 3  # the game's own places are kept
    _, table, games = await env.svc.history.scores(GUILD)
    assert table == [] and games == 0  # but it is not rated


async def test_a_person_is_never_timed_out_on_a_bots_deadline(env):
    row = await lobby(env.svc, "gin", 1, timer=1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="t")).game
    game = env.svc.core.engine(row)
    for _ in range(40):
        if game.hand_over or row.status != "playing":
            break
        seat = game.actors[0]
        if row.by_seat(seat).is_bot:
            env.clock.advance(BOT_DELAY)
            [change] = await env.svc.clock.tick(row.id)
        else:
            # A person's turn: the whole minute from now, whatever the bot's pause was.
            assert row.turn_deadline == pytest.approx(env.clock() + 60, abs=BOT_DELAY + 0.01)
            assert row.turn_deadline >= env.clock() + 60 - 0.01
            change = await env.svc.acting.play(row.id, 1, game.legal_moves(seat)[0], version=row.version)
        row, game = change.game, change.engine


async def test_a_bot_game_carries_on_after_a_restart(env):
    row = await lobby(env.svc, "gin", 1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="r")).game
    game = env.svc.core.engine(row)
    while not row.by_seat(game.actors[0]).is_bot:
        change = await env.svc.acting.play(row.id, 1, game.legal_moves(game.actors[0])[-1], version=row.version)
        row, game = change.game, change.engine
    fresh = GameService(env.db, clock=env.clock)  # a new process: nothing cached
    assert await fresh.clock.due() == []
    env.clock.advance(BOT_DELAY)
    assert await fresh.clock.due() == [row.id]
    [change] = await fresh.clock.tick(row.id)
    assert change.kind == "bot" and change.game.version == row.version + 1


async def test_when_only_bots_are_left_the_game_stops(env):
    row = await lobby(env.svc, "basic", 1)
    await env.svc.games.add_bot(row.id, 1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="left")).game
    change = await env.svc.games.resign(row.id, 1)
    assert change.game.status == "playing"  # two bots could play on, but nobody is watching
    env.clock.advance(BOT_DELAY)
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "cancel" and change.game.status == "cancelled"
    assert await env.svc.clock.due() == []
    assert await repo.results_of(env.db, row.id) == []
