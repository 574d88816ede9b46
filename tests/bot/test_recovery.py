"""Restart recovery (``GameService.clock.resume``) and the message ids the Discord layer may store.

What a user would notice if these failed: coming back to a game after the bot was down and
being timed out at once for a turn they never had (or reminded for it), a computer player that
waits a whole human timer after a restart, a table from before the restart whose turn buttons
still play, or the Discord layer rewriting a game's state behind the service's back.
"""

from __future__ import annotations

import pytest

from bot.service import BOT_DELAY, REMIND_AT, ChangeKind, GameService
from tests.bot.helpers import lobby, started


async def test_a_turn_whose_deadline_passed_while_the_bot_was_down_is_a_whole_turn(env):
    row = await started(env.svc, "basic", 2, timer=1, seed="down")
    seat = env.svc.core.engine(row).current_seat
    assert row.turn_deadline is not None
    # The bot goes down mid-turn and comes back an hour after that turn's deadline: a new process.
    env.clock.t = row.turn_deadline + 3600
    fresh = GameService(env.db, clock=env.clock)
    assert await fresh.reading.running_games() == [row.id]
    assert await fresh.clock.due() == [row.id]  # before recovery the clock would time the player out

    change = await fresh.clock.resume(row.id)
    assert change is not None and change.kind == ChangeKind.RESUME and change.kind == "resume"
    assert change.game.version == row.version + 1  # the tables posted before the restart are out of date
    assert change.game.turn_deadline == env.clock() + 60 and not change.game.turn_reminded
    assert change.game == await fresh.core.get(row.id)
    assert change.engine is not None and change.engine.current_seat == seat
    log = await env.db.fetchall("SELECT kind, move, user_id FROM actions WHERE game_id = ? ORDER BY id DESC LIMIT 1",
                                (row.id,))
    assert tuple(log[0]) == ("resume", None, None)

    # The clock right after: nothing to do, the player is not timed out.
    assert await fresh.clock.due() == []
    assert await fresh.clock.tick(row.id) == []
    # A whole turn from the restart: the reminder at 80 % of the timer, the timeout at 100 %.
    env.clock.advance(60 * REMIND_AT - 0.5)
    assert await fresh.clock.tick(row.id) == []
    env.clock.advance(0.5)
    [remind] = await fresh.clock.tick(row.id)
    assert remind.kind == "remind" and remind.seat == seat
    env.clock.advance(60 * (1 - REMIND_AT) - 0.5)
    assert await fresh.clock.tick(row.id) == []
    env.clock.advance(0.5)
    [timeout] = await fresh.clock.tick(row.id)
    assert timeout.kind == "timeout" and timeout.seat == seat
    assert timeout.game.by_seat(seat).timeouts == 1  # one timeout, not two


async def test_a_computer_player_carries_on_after_its_short_pause(env):
    row = await lobby(env.svc, "gin", 1)
    await env.svc.games.add_bot(row.id, 1)
    row = (await env.svc.games.start(row.id, 1, seed="r")).game
    game = env.svc.core.engine(row)
    while not row.by_seat(game.actors[0]).is_bot:
        change = await env.svc.acting.play(row.id, 1, game.legal_moves(game.actors[0])[-1], version=row.version)
        row, game = change.game, change.engine
    env.clock.advance(3600)
    fresh = GameService(env.db, clock=env.clock)
    change = await fresh.clock.resume(row.id)
    assert change is not None and change.game.turn_deadline == env.clock() + BOT_DELAY and change.game.turn_reminded
    assert await fresh.clock.tick(row.id) == []
    env.clock.advance(BOT_DELAY)
    [moved] = await fresh.clock.tick(row.id)
    assert moved.kind == "bot"


async def test_only_games_being_played_are_resumed(env):
    over = await started(env.svc, "gin", 2, channel=101)
    await env.svc.games.cancel(over.id, 1)
    waiting = await lobby(env.svc, "gin", 2)
    assert await env.svc.reading.running_games() == []
    for game_id in (waiting.id, over.id, 999):
        assert await env.svc.clock.resume(game_id) is None
    assert (await env.svc.core.get(waiting.id)).version == waiting.version


async def test_no_timer_no_deadline_after_a_restart(env):
    row = await started(env.svc, "gin", 2, timer=0)
    assert row.turn_deadline is None
    change = await env.svc.clock.resume(row.id)
    assert change is not None and change.game.turn_deadline is None and change.game.version == row.version + 1


async def test_the_discord_layer_may_only_store_message_ids(env):
    row = await started(env.svc, "gin", 2)
    await env.svc.games.set_messages(row.id, table_message_id=11, table_posted_at=env.clock(), turn_message_id=12,
                                     lobby_message_id=None)
    stored = await env.svc.core.get(row.id)
    assert (stored.table_message_id, stored.turn_message_id, stored.version) == (11, 12, row.version)
    for wrong in ({"status": "finished"}, {"record": ""}, {"version": 1}, {"table_message_id": 1, "seed": "x"}):
        with pytest.raises(TypeError):
            await env.svc.games.set_messages(row.id, **wrong)
    assert await env.svc.core.get(row.id) == stored
