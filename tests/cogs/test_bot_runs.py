"""Computer players moving one after another: the table and the clock (issue 11).

What a user would notice if these failed: with computer players that move without a pause, the
public table flickers through every one of their moves (an edit each, rate-limited by Discord)
instead of showing the position once they are done; with the default pause, the moves can no
longer be followed one by one; a run that stalls leaves the table out of date; the call for the
turn of a person is deleted twice; after a person's move the computer player waits for the
clock's next poll (up to a second) instead of its own pause.
"""

from __future__ import annotations

import asyncio
import copy
import math
import random
import time
from types import SimpleNamespace
from typing import Any

import pytest

import cogs.announcer as announcer_module
from bot.client import RummyBot
from bot.engine import Game, new_game
from bot.service import Change, ChangeKind
from bot.store.rows import GameRow, GameStatus, SeatRow
from cogs.announcer import Announcer
from tests.cogs.test_game_end import Channel

PEOPLE = {"p1": 100}  # p2 and p3 are computer players
GAP = 0.06  # seconds between two changes: more than the (shortened) coalescing window


def row_for(game: Game, version: int, bot_delay: float, turn_message_id: int | None = None) -> GameRow:
    seats = tuple(SeatRow(i, PEOPLE.get(s, -i), s, s.upper()) for i, s in enumerate(("p1", "p2", "p3")))
    bot_to_move = not game.hand_over and game.current_seat != "p1"
    return GameRow(id=7, guild_id=1, channel_id=55, host_id=100, variant="basic", options="", timer_minutes=0.0,
                   locale="en", status=GameStatus.PLAYING, version=version, record=game.record(), created_at=0.0,
                   updated_at=0.0, lobby_expires_at=None,
                   turn_deadline=time.time() + bot_delay if bot_to_move else None, turn_reminded=False,
                   window_deadline=None, next_deal_at=None, table_message_id=1, table_posted_at=time.time(),
                   turn_message_id=turn_message_id, lobby_message_id=None, finished_at=None, seats=seats)


def announcer() -> tuple[Announcer, Channel, list[float]]:
    channel = Channel()
    client: Any = SimpleNamespace(get_partial_messageable=lambda _: channel, user=SimpleNamespace(id=1))

    async def set_messages(_: int, **__: Any) -> None:
        return None

    async def delivered(*_: Any) -> bool:
        return False

    service: Any = SimpleNamespace(games=SimpleNamespace(set_messages=set_messages),
                                   core=SimpleNamespace(deal_pause=30.0), endings=SimpleNamespace(delivered=delivered))
    ann = Announcer(client, service)
    edits: list[float] = []

    async def post_table(game_id: int, **_: Any) -> None:  # the edit itself (it reads the row it shows)
        edits.append(time.monotonic())

    ann.post_table = post_table  # type: ignore[method-assign]
    return ann, channel, edits


async def play_round(ann: Announcer, bot_delay: float) -> tuple[int, float]:
    """p1 moves until the computer players' turns, which follow one another (``GAP`` apart) until
    p1 is to move again; every change is announced as the service commits it. Returns the number
    of computer players' moves and when the last change was announced."""
    game = new_game("basic", ["p1", "p2", "p3"], seed="bot-runs")
    version, bots = 1, 0
    while game.current_seat == "p1":
        game.play("p1", game.legal_moves("p1")[0])
        version += 1
        await ann.announce(Change(ChangeKind.MOVE, row_for(game, version, bot_delay), game, turn_changed=True))
    while game.current_seat != "p1" and not game.hand_over:
        await asyncio.sleep(GAP)
        seat = game.current_seat or ""
        before = seat
        game.play(seat, game.legal_moves(seat)[0])
        version, bots = version + 1, bots + 1
        await ann.announce(Change(ChangeKind.BOT, row_for(game, version, bot_delay), game, seat=seat,
                                  turn_changed=game.current_seat != before))
    return bots, time.monotonic()


@pytest.fixture(autouse=True)
def short_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer_module, "COALESCE", 0.02)
    monkeypatch.setattr(announcer_module, "BOT_RUN_MAX", 30.0)


async def settle(ann: Announcer) -> None:
    assert await ann.drain(10) == 0


async def test_a_run_of_computer_players_moves_is_one_table_edit_at_its_end() -> None:
    ann, channel, edits = announcer()
    bots, last = await play_round(ann, bot_delay=0.0)
    await asyncio.sleep(0.3)  # the run is over (p1 is to move): the edit comes by itself
    await settle(ann)
    assert bots >= 4, bots  # a run: several moves, each later than the coalescing window
    assert len(edits) == 1 and edits[0] >= last, (len(edits), bots)
    # The call for p1's turn is posted all the same (the turn messages are not held).
    assert any("<@100>" in m["content"] for m in channel.sent)


async def test_with_the_default_pause_every_computer_players_move_is_shown() -> None:
    ann, _, edits = announcer()
    bots, _ = await play_round(ann, bot_delay=2.0)
    await asyncio.sleep(0.3)
    await settle(ann)
    assert len(edits) >= bots, (len(edits), bots)  # one edit at least per move (p1's too)


async def test_a_run_that_goes_on_still_shows_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer_module, "BOT_RUN_MAX", 0.1)
    ann, _, edits = announcer()
    game = new_game("basic", ["p1", "p2", "p3"], seed="bot-runs")
    while game.current_seat == "p1":
        game.play("p1", game.legal_moves("p1")[0])
    await ann.announce(Change(ChangeKind.MOVE, row_for(game, 3, 0.0), game, turn_changed=True))
    # ... and the computer player never moves (a stall): the table is edited after BOT_RUN_MAX.
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not edits and loop.time() < end:
        await asyncio.sleep(0.02)
    assert len(edits) == 1


async def test_the_call_for_a_turn_is_deleted_once_when_two_changes_end_it_together() -> None:
    ann, channel, _ = announcer()
    deleted: list[int] = []

    def message(message_id: int) -> Any:
        async def delete() -> None:
            await asyncio.sleep(0.01)
            deleted.append(message_id)
        return SimpleNamespace(delete=delete)

    channel.get_partial_message = message  # type: ignore[method-assign]
    game = new_game("basic", ["p1", "p2", "p3"], seed="bot-runs")
    row = row_for(game, 2, 0.0, turn_message_id=555)
    # A person's move and the computer player's right after it, announced at the same moment,
    # each from the row it committed (both still name the last call, 555).
    await asyncio.gather(ann._delete_turn_message(row), ann._delete_turn_message(row))
    assert deleted == [555]


def clock() -> Any:
    return SimpleNamespace(_alarm=asyncio.Event(), _soonest=math.inf)


async def test_the_clock_wakes_for_a_deadline_a_change_writes_while_it_sleeps() -> None:
    bot = clock()
    dozing = asyncio.create_task(RummyBot._doze(bot, 30.0))
    await asyncio.sleep(0.05)
    assert not dozing.done()
    # A person's move hands the turn to a computer player, due in 0.1 s.
    RummyBot._deadline_written(bot, time.time() + 0.1)
    await asyncio.wait_for(dozing, 10)  # long before the 30 s poll


async def test_a_deadline_written_during_the_clocks_pass_and_already_due_is_served_at_once() -> None:
    bot = clock()
    RummyBot._deadline_written(bot, time.time())  # a computer player's move with no pause after it
    await asyncio.wait_for(RummyBot._doze(bot, 30.0), 10)


@pytest.mark.parametrize(("variant", "options"), [
    ("gin", ""), ("basic", ""), ("wrotham", ""), ("rami", "table_manipulation=true"),
    ("tradicional", "opt2_rummy_call=true"), ("dummy", "cut_ins=true")])
def test_a_bot_chooses_the_same_from_the_clocks_copy_as_from_the_record(variant: str, options: str) -> None:
    """The clock hands the worker a copy of its game instead of the record to replay: every level
    must choose exactly what it would from the replayed record, and the loop's game is untouched."""
    from bot.engine import load_game
    from bot.service.clock import _choose

    game = new_game(variant, ["p1", "p2", "p3"] if variant != "gin" else ["p1", "p2"], seed=f"copy-{variant}",
                    options=options)
    rng = random.Random(variant)
    for _ in range(50):
        if game.hand_over:
            if game.game_over:
                break
            game.next_deal()
            continue
        seat, record = game.actors[0], game.record()
        for level in ("easy", "normal", "strong"):
            assert _choose(record, seat, level, copy.deepcopy(game)) == _choose(record, seat, level)
        assert game.record() == record
        game.play(seat, rng.choice(game.legal_moves(seat)) if rng.random() < 0.3 else _choose(record, seat, "normal"))
    assert load_game(game.record()).record() == game.record()
