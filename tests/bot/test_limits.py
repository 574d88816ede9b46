"""Limits (issue 15, hole 8): how many games a member and a server hold at once, games with no
timer that nobody plays, the per-game lock table, and legal moves worked out off the event loop.

What a user would notice if these failed: one member (or a script) opening or joining lobbies
without end, a server flooded with games, a game with no timer left open for ever in a channel,
a bot whose memory grows with every game ever played, autocomplete that stalls everyone's clicks.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import robot
from bot.config import Config, ConfigError, load_config
from bot.engine.rami import Rami
from bot.service import ChangeKind, GameService, GameStatus, Refusal
from bot.store import repo
from bot.words.i18n import translate
from cogs.announcer import Announcer
from cogs.guard import Guard
from cogs.rummy import RummyCog
from tests.bot.helpers import GUILD, T0, play_one, started
from tests.cogs.doubles import SERVER_MEMBER

DAY = 86400.0


def _svc(env, **limits) -> GameService:
    return GameService(env.db, clock=env.clock, **limits)


async def _open(svc: GameService, host: int, channel: int, guild: int = GUILD):
    return (await svc.games.open_lobby(guild_id=guild, channel_id=channel, host_id=host, host_name=f"u{host}",
                                       variant="gin")).game


# ------------------------------------------------------------------------------------------ caps
async def test_a_member_sits_in_at_most_member_games_at_once(env):
    svc = _svc(env, member_games=2)
    a = await _open(svc, 10, 201)
    await svc.games.join(a.id, 99, "m")
    b = await _open(svc, 11, 202, guild=GUILD + 1)  # the cap counts every server
    await svc.games.join(b.id, 99, "m")
    c = await _open(svc, 12, 203)
    before = await env.db.fetchone("SELECT COUNT(*) AS n FROM seats")
    with pytest.raises(Refusal) as refused:
        await svc.games.join(c.id, 99, "m")  # a third seat: refused, naming the cap, nothing written
    assert refused.value.code == "member_games" and refused.value.params == {"max": 2}
    assert (await env.db.fetchone("SELECT COUNT(*) AS n FROM seats"))["n"] == before["n"]
    # Opening a lobby counts the host's seat too, before anything is written.
    with pytest.raises(Refusal, match="member_games"):
        await svc.games.check_lobby(guild_id=GUILD, channel_id=204, host_id=99, variant="gin")
    with pytest.raises(Refusal, match="member_games"):
        await svc.games.open_lobby(guild_id=GUILD, channel_id=204, host_id=99, host_name="m", variant="gin")
    assert await svc.reading.in_channel(204) is None
    # A game played (the seat still counts) and then over frees the seat.
    await svc.games.start(a.id, 10, seed="1")
    with pytest.raises(Refusal, match="member_games"):
        await svc.games.join(c.id, 99, "m")
    await svc.games.cancel(a.id, 10)
    await svc.games.join(c.id, 99, "m")
    # The message names the cap, in both languages.
    for loc in ("es", "en"):
        assert "2" in translate("refusal.member_games", loc, max=2)


async def test_a_server_runs_at_most_server_games_at_once(env):
    svc = _svc(env, server_games=2)
    first = await _open(svc, 10, 201)
    await _open(svc, 11, 202)
    with pytest.raises(Refusal) as refused:
        await svc.games.check_lobby(guild_id=GUILD, channel_id=203, host_id=12, variant="gin")
    assert refused.value.code == "server_games" and refused.value.params == {"max": 2}
    with pytest.raises(Refusal, match="server_games"):
        await _open(svc, 12, 203)
    assert await svc.reading.in_channel(203) is None
    await _open(svc, 12, 301, guild=GUILD + 1)  # another server has its own count
    await svc.games.cancel(first.id, 10)
    await _open(svc, 12, 203)


async def test_a_rematch_counts_against_the_caps(env):
    svc = _svc(env, member_games=1)
    row = await started(svc, "gin", 2)
    done = await svc.games.cancel(row.id, 1)
    assert done.game.status == GameStatus.CANCELLED
    await _open(svc, 2, 201)  # player 2 is now in another lobby: at their cap
    change = await svc.games.rematch(row.id, 1, "user1")
    assert [s.user_id for s in change.game.seats] == [1]  # player 2 was not seated beyond their cap
    await svc.games.cancel(change.game.id, 1)
    await svc.games.join((await svc.reading.in_channel(201)).id, 1, "user1")  # now the presser is at the cap
    with pytest.raises(Refusal, match="member_games"):
        await svc.games.rematch(row.id, 1, "user1")
    assert (await svc.reading.in_channel(100)) is None


async def test_caps_hold_when_many_ask_at_once(env):
    # Two services on one database, as two shard processes: the count and the write are one step.
    one, two = _svc(env, server_games=3), _svc(env, server_games=3)
    results = await asyncio.gather(
        *[(one if i % 2 else two).games.open_lobby(guild_id=GUILD, channel_id=400 + i, host_id=500 + i, host_name="h",
                                              variant="gin") for i in range(8)],
        return_exceptions=True,
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(opened) == 3 and len(refused) == 5, results
    assert await repo.server_games(env.db, GUILD) == 3


def test_the_caps_are_settings_with_defaults():
    s = load_config({"DISCORD_TOKEN": "t"}, None)
    assert (s.member_games, s.server_games, s.idle_days) == (3, 25, 7.0)
    s = load_config({"DISCORD_TOKEN": "t", "RUMMY_MEMBER_GAMES": "5", "RUMMY_SERVER_GAMES": "100",
                       "RUMMY_IDLE_DAYS": "2.5"}, None)
    assert (s.member_games, s.server_games, s.idle_days) == (5, 100, 2.5)
    for name in ("RUMMY_MEMBER_GAMES", "RUMMY_SERVER_GAMES", "RUMMY_IDLE_DAYS"):
        with pytest.raises(ConfigError, match=name):
            load_config({"DISCORD_TOKEN": "t", name: "0"}, None)


# ------------------------------------------------------------------------------------------ idle games
class Channel:
    """Where the announcer posts: records what is sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str = "", **_: Any) -> SimpleNamespace:
        self.sent.append(content)
        return SimpleNamespace(id=1000 + len(self.sent))

    def get_partial_message(self, _: int) -> Any:
        async def nothing(**__: Any) -> None:
            return None
        return SimpleNamespace(delete=nothing, edit=nothing)


def _announcer(svc: GameService) -> tuple[Announcer, Channel]:
    channel = Channel()
    client: Any = SimpleNamespace(get_partial_messageable=lambda _: channel, user=SimpleNamespace(id=1))
    return Announcer(client, svc), channel


async def test_a_game_with_no_timer_is_warned_once_then_ends_unscored(env):
    svc = _svc(env, idle_days=7)
    row = await started(svc, "gin", 2, timer=0)
    timed = await started(svc, "basic", 2, channel=101)  # a turn timer: its own clock, never idle
    assert row.turn_deadline is None
    ann, channel = _announcer(svc)
    env.clock.advance(6 * DAY - 5)
    assert row.id not in await svc.clock.due()
    assert await svc.clock.next_deadline() <= T0 + 6 * DAY
    env.clock.advance(5)
    assert row.id in await svc.clock.due()
    changes = await svc.clock.tick(row.id)
    assert [c.kind for c in changes] == [ChangeKind.IDLE_WARNING]
    await ann.announce(changes[0])
    ends = int(T0 + 7 * DAY)
    assert channel.sent == [translate("game.idle_warning", "es", days="7", when=f"<t:{ends}:R>")]
    # Once: neither due again nor warned again before it ends.
    assert row.id not in await svc.clock.due()
    assert await svc.clock.tick(row.id) == []
    env.clock.advance(DAY - 1)
    assert row.id not in await svc.clock.due()
    assert (await svc.core.get(row.id)).status == GameStatus.PLAYING
    env.clock.advance(1)
    assert row.id in await svc.clock.due()
    changes = await svc.clock.tick(row.id)
    assert [c.kind for c in changes] == [ChangeKind.IDLE]
    done = await svc.core.get(row.id)
    assert done.status == GameStatus.ABANDONED and done.end_reason == "idle"
    assert (done.turn_deadline, done.window_deadline, done.next_deal_at) == (None, None, None)
    assert await svc.reading.results(row.id) == []  # unscored
    assert row.id not in await svc.clock.due() and await svc.reading.in_channel(100) is None
    # Owed until posted (a crash here and the next start posts it), then said once.
    assert [c.kind for c in await svc.endings.owed_announcements()] == [ChangeKind.IDLE]
    await ann.announce(changes[0])
    assert channel.sent[-1] == translate("game.idle_ended", "es", days="7")
    assert await svc.endings.owed_announcements() == []
    assert (await svc.core.get(timed.id)).status == GameStatus.PLAYING  # a timed game is never idle


async def test_a_move_starts_the_idle_time_again(env):
    svc = _svc(env, idle_days=2)  # a warning half the idle time before, when that is under a day
    row = await started(svc, "gin", 2, timer=0)
    env.clock.advance(DAY)
    assert [c.kind for c in await svc.clock.tick(row.id)] == [ChangeKind.IDLE_WARNING]
    env.clock.advance(DAY / 2)
    await play_one(svc, await svc.core.get(row.id), random.Random(1))
    env.clock.advance(DAY / 2)  # two days since the start, but one since the move
    assert row.id not in await svc.clock.due()
    assert await svc.clock.tick(row.id) == []
    env.clock.advance(DAY / 2)  # a day and a half since the move: warned again
    assert [c.kind for c in await svc.clock.tick(row.id)] == [ChangeKind.IDLE_WARNING]
    assert (await svc.core.get(row.id)).status == GameStatus.PLAYING


# ------------------------------------------------------------------------------------------ the lock table
async def test_the_lock_table_does_not_grow_with_the_games_played(env):
    svc = env.svc
    for i in range(60):
        row = await started(svc, "gin", 2, channel=1000 + i)
        await play_one(svc, row, random.Random(i))
        with pytest.raises(Refusal):
            await svc.games.join(row.id, 9, "late")  # a refusal inside the lock lets it go too
        await svc.games.cancel(row.id, 1)
        await svc.clock.tick(row.id)
    assert len(svc.core._locks) == 0
    # While a game's lock is held or awaited, everyone gets the same lock, and it stays.
    open_ = await _open(svc, 50, 2000)
    lock = svc.core.lock(open_.id)
    async with lock:
        waiter = asyncio.create_task(svc.games.join(open_.id, 51, "e"))
        await asyncio.sleep(0.05)
        assert svc.core.lock(open_.id) is lock and not waiter.done()
    assert len((await waiter).game.seats) == 2
    del lock, waiter
    assert len(svc.core._locks) == 0


# ------------------------------------------------------------------------------------------ off the event loop
def _autocomplete_cog(svc: GameService) -> RummyCog:
    settings = Config(token="t")
    return RummyCog(SimpleNamespace(service=svc, settings=settings, guard=Guard(settings.flood), **SERVER_MEMBER))


def _typing(user_id: int, channel_id: int = 100) -> Any:
    return SimpleNamespace(channel_id=channel_id, guild_id=GUILD, user=SimpleNamespace(id=user_id),
                           locale=discord.Locale("es-ES"), client=SimpleNamespace(**SERVER_MEMBER))


def _watch_threads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the rami engine's replays (``play``) and move listings, by thread: the event loop's or a worker."""
    seen: Counter[str] = Counter()
    for name in ("play", "legal_moves"):
        real = getattr(Rami, name)

        def watched(self, *args, _real=real, _name=name, **kwargs):
            where = "loop" if threading.current_thread() is threading.main_thread() else "worker"
            seen[f"{_name}@{where}"] += 1
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(Rami, name, watched)
    return seen


async def test_autocomplete_replays_and_lists_moves_in_a_worker_once_per_version(env, monkeypatch):
    svc = env.svc
    row = await started(svc, "rami", 2, "table_manipulation=true")
    for _ in range(6):  # a few moves, so that a replay has something to replay
        row = (await play_one(svc, row, random.Random(row.version))).game
    svc.core.cache.clear()  # as after a restart, or for a game another process moved: a cache miss
    seen = _watch_threads(monkeypatch)
    cog = _autocomplete_cog(svc)
    first = None
    for typed in ("", "d", "di", "dis", "desc"):  # keystrokes: one listing at this version, the rest cached
        for seat in row.seats:
            got = await cog.play_autocomplete(_typing(seat.user_id), typed)
            if got and first is None:
                first = got
    assert first, "the player to move got no suggestions"
    assert seen["play@loop"] == 0 and seen["legal_moves@loop"] == 0, seen
    assert seen["play@worker"] > 0  # the replay ran, in a worker
    assert seen["legal_moves@worker"] <= len(row.seats), seen  # once per seat and version, not per keystroke
    # Later hand messages and keystrokes at this version use the warmed engine: no replay at all.
    replays = seen["play@worker"]
    await cog.play_autocomplete(_typing(row.seats[0].user_id), "x")
    assert seen["play@worker"] == replays


async def test_a_computer_player_chooses_its_move_in_a_worker(env, monkeypatch):
    svc = GameService(env.db, clock=env.clock, bot_delay=1)
    row = (await svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=1, host_name="a", variant="gin")).game
    await svc.games.add_bot(row.id, 1)
    row = (await svc.games.start(row.id, 1, seed="3")).game
    threads: list[bool] = []
    real = robot.choose

    def choose(game, seat, *args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(game, seat, *args, **kwargs)

    monkeypatch.setattr(robot, "choose", choose)
    for _ in range(40):
        env.clock.advance(60 * 5 + 1)
        if row.id in await svc.clock.due():
            await svc.clock.tick(row.id)
        if threads:
            break
    assert threads and not any(threads), threads
