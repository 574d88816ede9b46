"""Games that end with their place, and endings still owed a message (issue 15, holes 2 and 6).

On SQLite and PostgreSQL. What a user would notice if these failed: a game in a deleted channel
played on by the clock to a rated result, another channel's or server's game ended with it, an
abandoned game that takes moves, or the end of a game never posted after a crash (or posted twice).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.service import Change, ChangeKind, GameService, GameStatus, Refusal
from bot.service.endings import FORBIDDEN_STRIKES, Outcome, settled_by
from bot.store import repo
from tests.bot.helpers import GUILD, lobby, started, uid
from tests.e2e.helpers import replay_action_log


async def test_a_channel_gone_ends_its_games_unscored_and_nothing_else(env):
    game = await started(env.svc, "basic", 2, timer=1, channel=100)
    other = await started(env.svc, "basic", 2, timer=1, channel=200)
    env.clock.advance(600)  # both turn timers ran out: the clock would time both players out

    [change] = await env.svc.endings.abandon_channel(100)
    assert change.kind == ChangeKind.ABANDON
    row = change.game
    assert row.status == GameStatus.ABANDONED and row.end_reason == "channel_gone"
    assert row.turn_deadline is None and row.window_deadline is None and row.next_deal_at is None
    assert row.final_announced_at is not None  # nothing is owed to a channel that is gone
    assert await env.svc.reading.results(game.id) == []
    assert await env.svc.clock.due() == [other.id]
    audit = await repo.audit_of(env.db, GUILD)
    assert [(a.user_id, a.action, a.game_id, a.detail) for a in audit] == [(0, "abandon", game.id, "channel_gone")]
    with pytest.raises(Refusal) as refused:
        await env.svc.acting.play(game.id, uid(row, "p1"), "draw", version=row.version)
    assert refused.value.code == "not_playing"
    assert await env.svc.endings.abandon_channel(100) == []  # once
    assert (await env.svc.core.get(other.id)).status == GameStatus.PLAYING


async def test_the_bot_leaving_a_server_ends_its_lobbies_and_games_there_only(env):
    game = await started(env.svc, "basic", 2, channel=100)
    open_lobby = await lobby(env.svc, "gin", 1, channel=200)
    change = await env.svc.games.open_lobby(guild_id=GUILD + 1, channel_id=300, host_id=5, host_name="u5",
                                            variant="basic", options="", timer_minutes=5)
    ended = await env.svc.endings.abandon_guild(GUILD)
    assert sorted(c.game.id for c in ended) == sorted([game.id, open_lobby.id])
    assert {c.game.end_reason for c in ended} == {"guild_gone"}
    assert (await env.svc.core.get(change.game.id)).status == GameStatus.LOBBY
    with pytest.raises(ValueError):
        await env.svc.endings.abandon(change.game.id, "because")


async def test_refusals_that_persist_give_a_channel_up_and_passing_ones_do_not(env):
    """The announcer reports each refused post; the service ends the channel's games once
    ``FORBIDDEN_STRIKES`` refusals in a row have lasted ``forbidden_grace`` seconds."""
    game = await started(env.svc, "basic", 2, channel=100)
    other = await started(env.svc, "basic", 2, channel=200)
    for _ in range(FORBIDDEN_STRIKES):  # a manager's passing edit of the roles
        assert not await env.svc.endings.delivery_failed(100, Outcome.NO_ACCESS)
    env.clock.advance(env.svc.endings.forbidden_grace)
    assert not await env.svc.endings.delivery_failed(100, Outcome.FAILED)  # a passing error says nothing
    assert (await env.svc.core.get(game.id)).status == GameStatus.PLAYING
    assert await env.svc.endings.delivery_failed(100, Outcome.NO_ACCESS)  # refused for good
    row = await env.svc.core.get(game.id)
    assert row.status == GameStatus.ABANDONED and row.end_reason == "forbidden"
    # A post that went through ends a run of refusals: the next one starts counting afresh.
    for _ in range(FORBIDDEN_STRIKES - 1):
        assert not await env.svc.endings.delivery_failed(200, Outcome.NO_ACCESS)
    env.clock.advance(env.svc.endings.forbidden_grace)
    env.svc.endings.channel_reached(200)
    assert not await env.svc.endings.delivery_failed(200, Outcome.NO_ACCESS)
    assert (await env.svc.core.get(other.id)).status == GameStatus.PLAYING
    assert await env.svc.endings.delivery_failed(200, Outcome.GONE)  # a channel gone ends its games at once
    row = await env.svc.core.get(other.id)
    assert row.status == GameStatus.ABANDONED and row.end_reason == "channel_gone"


async def test_a_reported_end_is_marked_said_when_it_went_through_or_its_channel_is_gone(env):
    game = await started(env.svc, "basic", 2, channel=100)
    resigned = await env.svc.games.resign(game.id, uid(game, "p2"))
    for failed in (Outcome.FAILED, Outcome.NO_ACCESS):
        assert not await env.svc.endings.delivered(resigned, failed)
    assert [c.game.id for c in await env.svc.endings.owed_announcements()] == [game.id]
    assert not await env.svc.endings.delivered(resigned, Outcome.OK)
    assert await env.svc.endings.owed_announcements() == []
    ended = await started(env.svc, "basic", 2, channel=200)
    change = await env.svc.games.resign(ended.id, uid(ended, "p2"))
    assert await env.svc.endings.delivered(change, Outcome.GONE)  # nobody is left to tell
    assert await env.svc.endings.owed_announcements() == []
    moved = await started(env.svc, "basic", 2, channel=300)
    assert settled_by(Change(ChangeKind.MOVE, moved), Outcome.OK) is None  # nothing owed by a move


async def test_an_end_not_yet_posted_is_owed_until_marked(env):
    game = await started(env.svc, "basic", 2, channel=100)
    resigned = await env.svc.games.resign(game.id, uid(game, "p2"))
    assert resigned.game_over and resigned.game.status == GameStatus.FINISHED
    cancelled = await lobby(env.svc, "gin", 1, channel=200)
    await env.svc.games.cancel(cancelled.id, 1)
    fresh = GameService(env.db, clock=env.clock)  # after a crash: only the database remains
    owed = await fresh.endings.owed_announcements()
    assert [(c.game.id, c.kind, c.game_over) for c in owed] == [
        (game.id, ChangeKind.END, True), (cancelled.id, ChangeKind.CANCEL, False)]
    await fresh.endings.mark_announced(game.id, "final_announced_at")
    await fresh.endings.mark_announced(cancelled.id, "final_announced_at")
    assert await fresh.endings.owed_announcements() == []
    row = await fresh.core.get(game.id)
    assert row.version == resigned.game.version  # a view: no click goes out of date
    with pytest.raises(TypeError):
        await fresh.endings.mark_announced(game.id, "status")


async def test_a_quarantine_notice_is_owed_once(env):
    game = await started(env.svc, "basic", 2, channel=100)
    async with env.db.transaction() as tx:
        await tx.execute("UPDATE games SET record = 'garbage' WHERE id = ?", (game.id,))
    fresh = GameService(env.db, clock=env.clock)
    [change] = await fresh.clock.check_records()
    assert change.kind == ChangeKind.QUARANTINE
    # The bot died before saying it: the next start says it (and the check does not, again).
    again = GameService(env.db, clock=env.clock)
    assert [(c.game.id, c.kind) for c in await again.endings.owed_announcements()] == [(game.id, ChangeKind.QUARANTINE)]
    assert await again.clock.check_records() == []
    await again.endings.mark_announced(game.id, "quarantine_announced_at")
    assert await again.endings.owed_announcements() == []


async def test_the_action_log_of_a_gin_auto_layoff_replays_to_the_record(env):
    """Reliability R10: one move that the engine writes as several entries (gin's ``auto``: the
    defender's layoffs, then ``done``) is logged so that replaying the log gives the record."""
    svc = GameService(env.db, clock=env.clock, member_games=100, server_games=100)  # many games of two members
    rng = random.Random(5)
    several = 0
    for n in range(60):
        row = await started(svc, "gin", 2, channel=1000 + n, seed=f"auto{n}")
        game = svc.core.engine(row)
        while row.status == GameStatus.PLAYING and not game.hand_over:
            seat = game.actors[0]
            legal = game.legal_moves(seat)
            move = next((m for m in legal if m in ("auto", "knock")), None) or rng.choice(legal)
            logged = len(game.log)
            change = await svc.acting.play(row.id, uid(row, seat), move, version=row.version)
            row, game = change.game, change.engine
            several += move == "auto" and len(game.log) - logged > 1
        if several:
            break
    assert several, "no auto made a layoff: the test saw nothing"
    # The database read once, then replayed by the e2e tests' R10 check (it reads with a query function).
    games = await env.db.fetchall("SELECT id, version, status, record FROM games ORDER BY id")
    tables = {}
    for g in games:
        tables[("actions", g["id"])] = await env.db.fetchall(
            "SELECT version, user_id, kind, move FROM actions WHERE game_id = ? ORDER BY id", (g["id"],))
        tables[("seats", g["id"])] = await env.db.fetchall("SELECT user_id, seat FROM seats WHERE game_id = ?",
                                                            (g["id"],))

    def query(sql: str, params: tuple[int, ...] = ()) -> list[Any]:
        if "FROM games" in sql:
            return list(games)
        return list(tables[("actions" if "FROM actions" in sql else "seats", params[0])])

    replay_action_log(query)
