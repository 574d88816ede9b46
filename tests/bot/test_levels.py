"""Computer players' levels and hints through the service (issue 11), on both backends.

What a user would notice if these failed: a bot seated at another strength than the host picked,
a bot's name that hides its level, a rematch that swaps a strong bot for a normal one, a bot that
freezes everybody's clicks while it thinks or plays over a move someone made meanwhile, a hint
in a rated game, a hint that changes the game or is not one of the asker's legal moves.
"""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from bot import robot
from bot.engine import load_game
from bot.service import BOT_DELAY, Refusal
from bot.service.hints import check_hint, hint, hints_apply
from bot.service.ratings_update import replay
from bot.store import repo
from tests.bot.helpers import GUILD, choose, lobby, started, uid


async def test_the_host_seats_each_level_and_its_name_says_it(env):
    row = await lobby(env.svc, "basic", 1)
    await env.svc.games.add_bot(row.id, 1, level="strong")
    await env.svc.games.add_bot(row.id, 1, level="easy")
    change = await env.svc.games.add_bot(row.id, 1)  # the default is normal
    assert [(s.name, s.robot_level) for s in change.game.seats[1:]] == [
        ("🤖 Bot 1 (fuerte)", "strong"), ("🤖 Bot 2 (fácil)", "easy"), ("🤖 Bot 3 (normal)", "normal")]
    assert change.game.seats[0].robot_level is None  # a person has no level
    with pytest.raises(Refusal, match="bad_level"):
        await env.svc.games.add_bot(row.id, 1, level="godlike")
    english = (await env.svc.games.open_lobby(guild_id=GUILD, channel_id=200, host_id=9, host_name="nine",
                                              variant="gin", locale="en")).game
    change = await env.svc.games.add_bot(english.id, 9, level="strong")
    assert change.game.seats[1].name == "🤖 Bot 1 (strong)"


async def test_a_rematch_seats_its_bots_again_at_their_levels(env):
    row = await lobby(env.svc, "basic", 1, "game_end=hands:1")
    await env.svc.games.add_bot(row.id, 1, level="strong")
    await env.svc.games.add_bot(row.id, 1, level="easy")
    row = (await env.svc.games.start(row.id, 1, seed="r")).game
    await env.svc.games.cancel(row.id, 1)  # a game with bots is never under way (unrated): the host ends it
    rematch = (await env.svc.games.rematch(row.id, 1, "user1")).game
    assert [(s.name, s.robot_level) for s in rematch.seats if s.is_bot] == [
        ("🤖 Bot 1 (fuerte)", "strong"), ("🤖 Bot 2 (fácil)", "easy")]


async def test_only_the_host_turns_hints_off_and_on_in_the_lobby(env):
    row = await lobby(env.svc, "gin", 2)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.set_hints(row.id, 2, off=True)
    change = await env.svc.games.set_hints(row.id, 1, off=True)
    assert change.game.hints_off and change.game.version == row.version + 1
    change = await env.svc.games.set_hints(row.id, 1, off=False)
    assert not change.game.hints_off
    kinds = [r["move"] for r in await env.db.fetchall(
        "SELECT move FROM actions WHERE game_id = ? AND kind = 'hints' ORDER BY id", (row.id,))]
    assert kinds == ["off", "on"]
    await env.svc.games.start(row.id, 1, seed="h")
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.set_hints(row.id, 1, off=True)


async def test_the_clock_moves_each_bot_at_its_own_level_in_a_worker_thread(env, monkeypatch):
    row = await lobby(env.svc, "basic", 1, "game_end=hands:1 hand_turn_limit=20")
    await env.svc.games.add_bot(row.id, 1, level="strong")
    await env.svc.games.add_bot(row.id, 1, level="easy")
    row = (await env.svc.games.start(row.id, 1, seed="lv")).game
    calls: list[tuple[str, str, bool]] = []
    real = robot.choose

    def spy(game, seat, *, level="normal"):
        calls.append((seat, level, threading.current_thread() is threading.main_thread()))
        return real(game, seat, level=level)

    monkeypatch.setattr(robot, "choose", spy)
    rng = random.Random(1)
    game = env.svc.core.engine(row)
    for _ in range(60):
        if row.status != "playing" or game.hand_over:
            break
        seat = game.actors[0]
        if row.by_seat(seat).is_bot:
            env.clock.advance(BOT_DELAY)
            [change] = await env.svc.clock.tick(row.id)
        else:
            change = await env.svc.acting.play(row.id, 1, choose(game, seat, rng), version=row.version)
        row, game = change.game, change.engine
    assert {(seat, level) for seat, level, _ in calls} == {("p2", "strong"), ("p3", "easy")}
    assert not any(on_loop for _, _, on_loop in calls)  # never on the event loop's thread


async def test_a_bots_move_worked_out_while_the_game_moved_on_is_dropped(env, monkeypatch):
    row = await lobby(env.svc, "gin", 1)
    await env.svc.games.add_bot(row.id, 1, level="strong")
    row = (await env.svc.games.start(row.id, 1, seed="race")).game
    game = env.svc.core.engine(row)
    while row.by_seat(game.actors[0]).user_id == 1:  # Ana plays until it is the bot's turn
        move = choose(game, game.actors[0], random.Random(0))
        change = await env.svc.acting.play(row.id, 1, move, version=row.version)
        row, game = change.game, change.engine
    thinking, go_on = threading.Event(), threading.Event()
    real = robot.choose

    def slow(game, seat, *, level="normal"):
        thinking.set()
        go_on.wait(30)
        return real(game, seat, level=level)

    monkeypatch.setattr(robot, "choose", slow)
    env.clock.advance(BOT_DELAY)
    tick = asyncio.create_task(env.svc.clock.tick(row.id))
    while not thinking.is_set():
        await asyncio.sleep(0.01)
    # While the bot thinks the game's lock is free: Ana's resignation goes in at once.
    resigned = await asyncio.wait_for(env.svc.games.resign(row.id, 1), 10)
    go_on.set()
    assert await tick == []  # worked out from an older version: not played
    kinds = [r["kind"] for r in await env.db.fetchall("SELECT kind FROM actions WHERE game_id = ? ORDER BY id",
                                                     (row.id,))]
    assert kinds[-1] == "resign" and (await env.svc.core.get(row.id)).version == resigned.game.version


async def test_a_game_against_a_strong_bot_replays_the_same_from_its_seed(env):
    records = []
    for channel in (300, 301):
        row = await lobby(env.svc, "gin", 1, "target=1", channel=channel)
        await env.svc.games.add_bot(row.id, 1, level="strong")
        row = (await env.svc.games.start(row.id, 1, seed="same")).game
        rng = random.Random(5)
        game = env.svc.core.engine(row)
        for _ in range(300):
            if row.status != "playing":
                break
            if game.hand_over:
                change = await env.svc.acting.next_deal(row.id, 1)
            elif row.by_seat(game.actors[0]).is_bot:
                env.clock.advance(BOT_DELAY)
                [change] = await env.svc.clock.tick(row.id)
            else:
                change = await env.svc.acting.play(row.id, 1, choose(game, game.actors[0], rng), version=row.version)
            row, game = change.game, change.engine
        assert row.status == "finished"
        records.append([line for line in row.record.splitlines() if not line.startswith("[")])
    assert records[0] == records[1]


async def test_hints_only_in_unrated_games_on_your_turn_and_they_change_nothing(env):
    rated = await started(env.svc, "gin", 2, seed="rated")
    assert not hints_apply(rated)
    with pytest.raises(Refusal, match="hints_rated"):
        check_hint(rated, 1)
    row = await lobby(env.svc, "gin", 1, channel=101)
    await env.svc.games.add_bot(row.id, 1, level="easy")
    row = (await env.svc.games.start(row.id, 1, seed="hint")).game
    with pytest.raises(Refusal, match="not_seated"):
        check_hint(row, 99)
    seat = check_hint(row, 1).seat
    game = load_game(row.record)
    if seat not in game.actors:  # the bot begins: its move first
        env.clock.advance(BOT_DELAY)
        row = (await env.svc.clock.tick(row.id))[0].game
        game = load_game(row.record)
    for _ in range(6):  # a few turns of Ana's, each following the hint
        if seat not in game.actors or game.hand_over:
            break
        before = row.record
        found = hint(game, seat)
        assert found.move in game.legal_moves(seat) and game.record() == before  # asking changes nothing
        es, en = found.text("es"), found.text("en")
        assert es.startswith("💡 El bot fuerte jugaría") and en.startswith("💡 The strong bot would play")
        if found.move.startswith("discard"):
            assert "puntos sueltos pasan de" in es and "deadwood goes from" in en
        row = (await env.svc.acting.play(row.id, uid(row, seat), found.move, version=row.version)).game
        game = load_game(row.record)
        bot_seat = next(s.seat for s in row.seats if s.is_bot)
        if bot_seat in game.actors and not game.hand_over:
            with pytest.raises(Refusal, match="hint_not_your_turn"):
                hint(game, seat)
            env.clock.advance(BOT_DELAY)
            row = (await env.svc.clock.tick(row.id))[0].game
            game = load_game(row.record)
    lobby_off = await lobby(env.svc, "gin", 1, channel=102)
    await env.svc.games.add_bot(lobby_off.id, 1)
    await env.svc.games.set_hints(lobby_off.id, 1, off=True)
    off = (await env.svc.games.start(lobby_off.id, 1, seed="off")).game
    with pytest.raises(Refusal, match="hints_off"):
        check_hint(off, 1)
    assert await repo.results_of(env.db, off.id) == []


def test_a_wrotham_hint_in_an_all_seven_deal_says_which_draws_put_the_hand_down() -> None:
    """Issue 23: the hint follows the strong player in Wrotham's deals 4-6 (rules.md §1.9) and
    explains its discard in the player's language: four cards (the jack of spades, three jokers)
    would let ten-queen-king and the fives go down at once."""
    game = load_game("""[Variant "wrotham"]
[Seats "a b"]
[Deal "4"]
[Hand "a" "3S 5S 7S TS QS KS 5H 5D"]
[Discard "AC QD"]
[Turn "a"]
[Phase "play"]
""")
    found = hint(game, "a")
    assert found.move == "discard 7S"
    assert "4 of the cards you could draw next would put all seven down at once" in found.text("en")
    assert "4 de las cartas que puedes robar ahora te dejarían bajar las siete" in found.text("es")


async def test_a_bot_past_its_time_budget_moves_at_the_easy_level(env, monkeypatch):
    row = await lobby(env.svc, "gin", 1)
    await env.svc.games.add_bot(row.id, 1, level="strong")
    row = (await env.svc.games.start(row.id, 1, seed="slow")).game
    game = env.svc.core.engine(row)
    while row.by_seat(game.actors[0]).user_id == 1:
        move = choose(game, game.actors[0], random.Random(0))
        change = await env.svc.acting.play(row.id, 1, move, version=row.version)
        row, game = change.game, change.engine
    real = robot.choose
    levels: list[str] = []

    def slow_strong(game, seat, *, level="normal"):
        levels.append(level)
        if level == "strong":
            threading.Event().wait(1.0)  # far past the budget below
        return real(game, seat, level=level)

    monkeypatch.setattr(robot, "choose", slow_strong)
    env.svc.core.bot_budget = 0.05
    expected = real(load_game(row.record), game.actors[0], level="easy")
    env.clock.advance(BOT_DELAY)
    [change] = await env.svc.clock.tick(row.id)
    assert levels == ["strong", "easy"] and change.kind == "bot"
    assert change.move == expected


async def test_a_practice_game_is_never_rated_and_its_rematch_is_practice_too(env):
    """Two people who both moved and then one resigned: rated, were it not practice. Neither the
    season's standings, nor a player's record, nor the skill ratings (also when replayed) count it;
    its players may ask for hints."""
    row = await lobby(env.svc, "gin", 2)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.set_practice(row.id, 2, on=True)
    await env.svc.games.set_hints(row.id, 1, off=True)
    change = await env.svc.games.set_practice(row.id, 1, on=True)
    assert change.game.practice and not change.game.hints_off  # practice is for hints: on again
    row = (await env.svc.games.start(row.id, 1, seed="pr")).game
    assert row.practice and hints_apply(row) and check_hint(row, 1).seat == "p1"
    moved: set[str] = set()
    rng = random.Random(2)
    while len(moved) < 2:  # both seats move: a game under way, which a resignation would settle, rated
        game = env.svc.core.engine(row)
        seat = game.actors[0]
        row = (await env.svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng, avoid=("knock",)),
                                         version=row.version)).game
        moved.add(seat)
    assert (await env.svc.games.resign(row.id, 2)).game_over
    assert [r.user_id for r in await repo.results_of(env.db, row.id)] == [1, 2]
    _, table, games = await env.svc.history.scores(GUILD)
    assert (table, games) == ([], 0)
    assert (await env.svc.records.stats(GUILD, 1)).games == 0
    assert (await env.svc.ratings.player_rating(GUILD, 1)).rating is None
    assert await env.db.fetchall("SELECT * FROM ratings") == []
    async with env.db.transaction() as tx:
        assert await replay(tx, GUILD) == 0
    [listed] = await env.svc.records.finished_games(GUILD)  # the history lists it, as practice
    assert listed.game_id == row.id and listed.practice and not listed.voided
    with pytest.raises(Refusal, match="not_rated_practice"):  # nothing to void: it never counted
        await env.svc.records.void_result(GUILD, row.id, 1)
    rematch = (await env.svc.games.rematch(row.id, 2, "user2")).game
    assert rematch.practice
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.set_practice(row.id, 1, on=False)
