"""``bot.service.GameService``: lobbies, moves and the clock, on a real database file.

What a user would notice if these failed: two lobbies in one channel, a stranger starting or
cancelling someone's game, a lobby for three in a two-player variant, an option silently ignored,
a game that cannot be finished or is scored twice, a refused move that still changed the table, a
double click that plays twice, a player moving out of turn, a game that forgets moves after a
restart or an error at the wrong moment, a turn timer that never fires (or fires early), a claim
window that never closes, a lobby that never expires, a next deal that never comes.

Every test uses a temporary database file and a fake clock (``GameService(db, clock=...)``).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine import PLAYERS, VARIANTS, IllegalMove, load_game
from bot.service import DEAL_PAUSE, LOBBY_TTL, REMIND_AT, GameService, Refusal, Stale
from bot.store import Database, GameRow, repo
from tests.bot.helpers import (
    GUILD,
    T0,
    Clock,
    check_results,
    choose,
    lobby,
    play_one,
    play_to_the_end,
    snapshot,
    started,
    uid,
)


# ------------------------------------------------------------------------------------------ lobbies
async def test_open_lobby_seats_the_host(env):
    row = await lobby(env.svc, "basic", 1, "game_end=hands:3")
    assert row.status == "lobby" and row.version == 1 and row.host_id == 1
    assert [(s.user_id, s.seat, s.name) for s in row.seats] == [(1, "p1", "user1")]
    assert row.options == "game_end=hands:3"
    assert row.lobby_expires_at == T0 + LOBBY_TTL
    assert (await env.svc.reading.in_channel(100)).id == row.id


async def test_one_lobby_or_game_per_channel(env):
    row = await lobby(env.svc, "gin", 2)
    with pytest.raises(Refusal) as refused:
        await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=5, host_name="e", variant="basic")
    assert refused.value.code == "channel_busy"
    await env.svc.games.start(row.id, 1, seed="1")
    with pytest.raises(Refusal, match="channel_busy"):
        await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=5, host_name="e", variant="basic")
    other = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=101, host_id=5, host_name="e", variant="basic")
    assert other.game.channel_id == 101
    await env.svc.games.cancel(row.id, 1)  # the channel is free again once the game is over
    again = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=6, host_name="f", variant="basic")
    assert again.game.status == "lobby"


async def test_one_open_lobby_per_host_and_server(env):
    first = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=101, host_id=5, host_name="e", variant="gin")
    games = (await env.db.fetchone("SELECT COUNT(*) AS n FROM games"))["n"]
    # A second lobby elsewhere in the same server is refused, naming the open one; nothing is written.
    with pytest.raises(Refusal) as refused:
        await env.svc.games.check_lobby(guild_id=GUILD, channel_id=102, host_id=5, variant="basic")
    assert refused.value.code == "host_has_lobby" and refused.value.params == {"channel": "<#101>"}
    with pytest.raises(Refusal, match="host_has_lobby"):
        await env.svc.games.open_lobby(guild_id=GUILD, channel_id=102, host_id=5, host_name="e", variant="basic")
    assert (await env.db.fetchone("SELECT COUNT(*) AS n FROM games"))["n"] == games
    # Another server, or another host in the same server: allowed.
    await env.svc.games.open_lobby(guild_id=GUILD + 1, channel_id=201, host_id=5, host_name="e", variant="basic")
    await env.svc.games.open_lobby(guild_id=GUILD, channel_id=103, host_id=6, host_name="f", variant="basic")
    # Once the lobby has started (or been cancelled) its host may open another.
    await env.svc.games.join(first.game.id, 2, "b")
    await env.svc.games.start(first.game.id, 5, seed="1")
    again = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=102, host_id=5, host_name="e", variant="basic")
    await env.svc.games.cancel(again.game.id, 5)
    await env.svc.games.check_lobby(guild_id=GUILD, channel_id=104, host_id=5, variant="basic")


async def test_two_lobbies_opened_at_once_by_one_host_make_one(env):
    attempts = [
        env.svc.games.open_lobby(guild_id=GUILD, channel_id=110 + i, host_id=5, host_name="e", variant="basic")
        for i in range(6)
    ]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    opened = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(opened) == 1
    assert all(isinstance(o, Refusal) and o.code == "host_has_lobby" for o in outcomes if o not in opened)
    assert (await env.db.fetchone("SELECT COUNT(*) AS n FROM games WHERE host_id = 5"))["n"] == 1


async def test_join_rules(env):
    row = await lobby(env.svc, "gin", 1)
    with pytest.raises(Refusal, match="already_seated"):
        await env.svc.games.join(row.id, 1, "user1")
    change = await env.svc.games.join(row.id, 2, "user2")
    assert change.kind == "join" and change.game.version == 2
    assert [s.seat for s in change.game.seats] == ["p1", "p2"]
    with pytest.raises(Refusal) as refused:
        await env.svc.games.join(row.id, 3, "user3")
    assert refused.value.code == "lobby_full" and refused.value.params == {"max": 2}
    with pytest.raises(Refusal, match="no_game"):
        await env.svc.games.join(12345, 3, "user3")


@pytest.mark.parametrize("variant", VARIANTS)
async def test_player_counts_per_variant(env, variant):
    lo, hi = PLAYERS[variant]
    row = await lobby(env.svc, variant, 1)
    with pytest.raises(Refusal) as refused:  # alone
        await env.svc.games.start(row.id, 1)
    assert refused.value.code == "player_count" and refused.value.params["min"] == lo
    for u in range(2, hi + 1):
        await env.svc.games.join(row.id, u, f"user{u}")
    with pytest.raises(Refusal, match="lobby_full"):
        await env.svc.games.join(row.id, hi + 1, "one too many")
    change = await env.svc.games.start(row.id, 1, seed="3")
    assert change.game.status == "playing"
    assert change.engine is not None and len(change.engine.seats) == hi
    assert change.game.lobby_expires_at is None and change.game.turn_deadline == T0 + 5 * 60


async def test_only_the_host_starts(env):
    row = await lobby(env.svc, "basic", 3)
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.start(row.id, 2)
    assert await snapshot(env.db, row.id) == before
    change = await env.svc.games.start(row.id, 1)
    assert change.kind == "start" and change.turn_changed
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.start(row.id, 1)
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.join(row.id, 9, "late")


async def test_leave_passes_the_host_on_and_the_last_one_out_cancels(env):
    row = await lobby(env.svc, "basic", 3)
    with pytest.raises(Refusal, match="not_seated"):
        await env.svc.games.leave(row.id, 9)
    change = await env.svc.games.leave(row.id, 1)
    assert change.game.host_id == 2
    assert [(s.user_id, s.seat, s.position) for s in change.game.seats] == [(2, "p1", 0), (3, "p2", 1)]
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.start(row.id, 3)
    await env.svc.games.leave(row.id, 3)
    change = await env.svc.games.leave(row.id, 2)
    assert change.game.status == "cancelled" and change.game.seats == ()
    assert await env.svc.reading.in_channel(100) is None


async def test_cancel_host_or_admin_only(env):
    row = await lobby(env.svc, "basic", 2)
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.cancel(row.id, 2)
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.cancel(row.id, 99)
    assert await snapshot(env.db, row.id) == before
    change = await env.svc.games.cancel(row.id, 99, is_admin=True)  # Manage Server
    assert change.kind == "cancel" and change.game.status == "cancelled"
    with pytest.raises(Refusal, match="nothing_to_cancel"):
        await env.svc.games.cancel(row.id, 1)


async def test_host_cancels_a_running_game_unscored(env):
    row = await started(env.svc, "basic", 2)
    change = await env.svc.games.cancel(row.id, 1)
    assert change.game.status == "cancelled" and change.game.turn_deadline is None
    assert await repo.results_of(env.db, row.id) == []
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.play(row.id, 1, "draw")
    assert await env.svc.clock.due() == []


async def test_unknown_options_are_refused_listing_the_valid_ones(env):
    with pytest.raises(IllegalMove) as bad:
        await env.svc.games.open_lobby(
            guild_id=GUILD, channel_id=100, host_id=1, host_name="a", variant="gin", options="gin_bonus=25 banana=3"
        )
    assert bad.value.code == "unknown_option"
    assert bad.value.params["name"] == "banana"
    assert {"gin_bonus", "target", "knock_limit"} <= set(bad.value.params["valid"])

    with pytest.raises(IllegalMove) as bad:
        await env.svc.games.open_lobby(
            guild_id=GUILD, channel_id=100, host_id=1, host_name="a", variant="gin", options="target=0"
        )
    assert bad.value.code == "bad_option_value" and bad.value.params["allowed"] == "1..10000"

    with pytest.raises(IllegalMove) as bad:
        await env.svc.games.open_lobby(
            guild_id=GUILD, channel_id=100, host_id=1, host_name="a", variant="basic", options="game_end=forever"
        )
    assert bad.value.code == "bad_option_value" and "target:N" in bad.value.params["allowed"]

    with pytest.raises(IllegalMove) as bad:
        await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=1, host_name="a", variant="canasta")
    assert bad.value.code == "unknown_variant" and "gin" in bad.value.params["valid"]

    assert await env.svc.reading.in_channel(100) is None  # nothing was created by any of them


async def test_bot_window_option(env):
    row = await lobby(env.svc, "tradicional", 3, "opt2_rummy_call=true window=15")
    assert set(row.options.split()) == {"opt2_rummy_call=true", "window=15"}
    change = await env.svc.games.start(row.id, 1)
    assert change.engine is not None and change.engine.rules["opt2_rummy_call"] is True
    for bad in ("window=500", "window=-1", "window=soon"):
        with pytest.raises(Refusal) as refused:
            await env.svc.games.open_lobby(
                guild_id=GUILD, channel_id=200, host_id=1, host_name="a", variant="gin", options=bad
            )
        assert refused.value.code == "bad_bot_option" and refused.value.params["high"] == 120


# ------------------------------------------------------------------------------------------ whole games
async def test_two_player_gin_played_to_the_end(env):
    row = await started(env.svc, "gin", 2, "target=1", seed="gin-1")
    final, moves, deals = await play_to_the_end(env.svc, row, random.Random(3), clock=env.clock)
    results = await check_results(env.db, final)
    assert sorted(r["place"] for r in results) == [1, 2]
    assert moves > 10 and deals >= 2  # the second deal came from the clock, after the pause
    # Scored once: the action log is complete and nothing more can be played.
    assert await repo.action_count(env.db, row.id) == final.version
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.play(row.id, 1, "draw")
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.next_deal(row.id, 1)
    assert await env.svc.clock.tick(row.id) == []
    assert len(await repo.results_of(env.db, row.id)) == 2
    assert (await env.svc.reading.last_in_channel(100)).id == row.id
    assert await env.svc.reading.in_channel(100) is None


async def test_four_player_basic_played_to_the_end(env):
    row = await started(env.svc, "basic", 4, "game_end=hands:2 hand_turn_limit=20", seed="basic-4")
    final, _, deals = await play_to_the_end(env.svc, row, random.Random(4))
    assert deals == 2
    results = await check_results(env.db, final)
    assert len({r["user_id"] for r in results}) == 4
    assert min(r["place"] for r in results) == 1
    assert await repo.action_count(env.db, row.id) == final.version


async def test_resigning_in_a_two_player_game_ends_it_scored_once(env):
    row = await started(env.svc, "gin", 2, seed="r")
    change = await env.svc.games.resign(row.id, 2)
    assert change.kind == "resign" and change.game_over and change.game.status == "finished"
    results = await check_results(env.db, change.game)
    assert {r["user_id"]: r["place"] for r in results} == {1: 1, 2: 2}
    assert [s.resigned for s in change.game.seats] == [False, True]


# ------------------------------------------------------------------------------------------ refusals
async def test_refused_moves_change_nothing(env):
    row = await started(env.svc, "basic", 2, seed="refuse")
    game = env.svc.core.engine(row)
    me, other = game.current_seat, next(s for s in game.seats if s != game.current_seat)
    before = await snapshot(env.db, row.id)

    attempts = [
        (99, "draw", "not_seated"),
        (uid(row, other), "draw", "not_your_turn"),
        (uid(row, me), "timeout", "not_a_player_move"),
        (uid(row, me), "discard " + game.hand(me)[0], None),  # must draw first: the engine refuses
        (uid(row, me), "meld AS AH", None),
        (uid(row, me), "fly", None),
    ]
    for user, move, code in attempts:
        with pytest.raises((Refusal, IllegalMove)) as refused:
            await env.svc.acting.play(row.id, user, move, interaction_id=555)
        if code is None:
            assert isinstance(refused.value, IllegalMove)
        else:
            assert isinstance(refused.value, Refusal) and refused.value.code == code
        assert await snapshot(env.db, row.id) == before, move

    # The refused attempts left neither the cache nor the interaction id behind: the same id now plays.
    change = await env.svc.acting.play(row.id, uid(row, me), "draw", interaction_id=555)
    assert change.game.version == row.version + 1
    assert env.svc.core.engine(change.game).record() == change.engine.record()


async def test_same_interaction_twice_applies_once(env):
    row = await started(env.svc, "basic", 2, seed="twice")
    seat = env.svc.core.engine(row).current_seat
    first = await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=42)
    after = await snapshot(env.db, row.id)
    with pytest.raises(Refusal, match="already_done"):
        await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=42)
    assert await snapshot(env.db, row.id) == after

    # Both deliveries at once (R4): exactly one applies.
    game = first.engine
    move = next(m for m in game.legal_moves(seat) if m.startswith("discard"))
    outcomes = await asyncio.gather(
        env.svc.acting.play(row.id, uid(row, seat), move, interaction_id=43),
        env.svc.acting.play(row.id, uid(row, seat), move, interaction_id=43),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], Refusal) and refused[0].code == "already_done"
    final = await env.svc.core.get(row.id)
    assert final.version == first.game.version + 1
    rows = await env.db.fetchall("SELECT * FROM actions WHERE interaction_id = 43")
    assert len(rows) == 1


async def test_concurrent_clicks_by_two_seats_only_the_actor_applies(env):
    """R5: the player whose turn it is and another seat click at the same moment (both from the
    same table version, in random order): only the actor's move applies."""
    row = await started(env.svc, "basic", 3, "hand_turn_limit=200", seed="race")
    rng = random.Random(5)
    for _ in range(30):
        game = env.svc.core.engine(row)
        if game.hand_over:
            break
        actor = game.actors[0]
        intruder = rng.choice([s for s in game.seats if s != actor])
        calls = [
            env.svc.acting.play(row.id, uid(row, actor), choose(game, actor, rng), version=row.version),
            env.svc.acting.play(row.id, uid(row, intruder), "draw", version=row.version),
        ]
        if rng.random() < 0.5:
            calls.reverse()
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        applied = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(applied) == 1 and applied[0].seat == actor
        assert len(refused) == 1 and isinstance(refused[0], Refusal)
        assert refused[0].code in ("not_your_turn", "stale")
        row = await env.svc.core.get(row.id)
        assert row.version == applied[0].game.version
    assert await repo.action_count(env.db, row.id) == row.version


async def test_stale_version_is_refused_with_the_fresh_table(env):
    row = await started(env.svc, "basic", 2, seed="stale")
    rng = random.Random(8)
    old = row.version
    for _ in range(3):
        row = (await play_one(env.svc, row, rng)).game
    before = await snapshot(env.db, row.id)
    game = env.svc.core.engine(row)
    seat = game.current_seat
    with pytest.raises(Stale) as stale:
        await env.svc.acting.play(row.id, uid(row, seat), game.legal_moves(seat)[0], version=old)
    assert stale.value.code == "stale" and stale.value.game.version == row.version
    assert await snapshot(env.db, row.id) == before


async def test_two_services_on_one_database_never_both_apply(env):
    """Two ``GameService`` objects sharing a database do not share locks: the version check in the
    commit must still let only one of two simultaneous moves through."""
    row = await started(env.svc, "basic", 2, seed="two")
    other = GameService(env.db, clock=env.clock)
    seat = env.svc.core.engine(row).current_seat
    moves = ["draw", "take"]
    outcomes = await asyncio.gather(
        env.svc.acting.play(row.id, uid(row, seat), moves[0], version=row.version),
        other.acting.play(row.id, uid(row, seat), moves[1], version=row.version),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(applied) == 1, outcomes
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert isinstance(refused[0], Stale), refused
    final = await env.svc.core.get(row.id)
    assert final.version == row.version + 1
    assert await repo.action_count(env.db, row.id) == final.version
    log = await env.db.fetchall("SELECT move FROM actions WHERE game_id = ? ORDER BY id DESC LIMIT 1", (row.id,))
    assert final.record.rstrip().endswith(f"{seat} {log[0]['move']}")
    # Both services carry on from the stored game.
    nxt = await play_one(other, final, random.Random(1))
    await play_one(env.svc, nxt.game, random.Random(2))


# ------------------------------------------------------------------------------------------ restarts and failures
async def test_restart_continues_the_game_exactly(tmp_path):
    """R1 at the service level: a new Database and GameService on the same file, every few moves,
    end in exactly the same game as one uninterrupted run with the same seed and moves."""
    opts, seed = "target=1", "restart"

    async def run(path, restart_every: int | None) -> tuple[str, list[tuple[int, str, int]]]:
        clock = Clock()
        db = await Database.open(path)
        svc = GameService(db, clock=clock)
        change = await svc.games.start((await lobby(svc, "gin", 2, opts)).id, 1, seed=seed)
        row, game = change.game, change.engine
        rng = random.Random(11)
        n = 0
        while row.status == "playing":
            if restart_every and n % restart_every == restart_every - 1:
                await db.close()
                db = await Database.open(path)
                svc = GameService(db, clock=clock)
                fresh = await svc.core.get(row.id)
                assert fresh == row  # everything committed is there, nothing else
                game = svc.core.engine(fresh)
            if game.hand_over:
                change = await svc.acting.next_deal(row.id, 1)
            else:
                seat = rng.choice(game.actors)
                change = await svc.acting.play(row.id, uid(row, seat), choose(game, seat, rng), version=row.version)
            row, game = change.game, change.engine
            n += 1
            clock.advance(1)
        results = [(r["user_id"], r["score"], r["place"]) for r in await repo.results_of(db, row.id)]
        await check_results(db, row)
        await db.close()
        return row.record or "", results

    straight = await run(tmp_path / "a.db", None)
    restarted = await run(tmp_path / "b.db", 5)
    assert restarted == straight


async def test_error_inside_the_commit_leaves_the_game_as_before(env, monkeypatch):
    row = await started(env.svc, "basic", 2, seed="boom")
    seat = env.svc.core.engine(row).current_seat
    before = await snapshot(env.db, row.id)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(repo, "log_action", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=77)
    assert await snapshot(env.db, row.id) == before
    monkeypatch.undo()

    change = await env.svc.acting.play(row.id, uid(row, seat), "draw", interaction_id=77)
    assert change.game.version == row.version + 1
    assert env.svc.core.engine(change.game).record() == change.engine.record()
    assert change.engine.phase == "play"


async def _fail_at_each_statement(env, monkeypatch, row: GameRow, seat: str, move: str):
    """R2-like: the i-th statement of the move's transaction raises (an error, or a cancellation as
    when a task is cancelled at that await), for i = 1, 2, ... until the move goes through. Every
    failed attempt leaves the stored game exactly as before. Returns the change that went through."""
    before = await snapshot(env.db, row.id)
    tx_class = env.db.tx_class  # the backend's transaction type (SQLite or PostgreSQL)
    methods = {name: getattr(tx_class, name) for name in ("execute", "insert", "update", "fetchone", "fetchall")}
    for i in range(1, 50):
        calls = 0

        def failing(real, _i=i):
            async def statement(self, sql, params=()):
                nonlocal calls
                calls += 1
                if calls == _i:
                    raise asyncio.CancelledError() if _i % 2 else OSError("I/O error")
                return await real(self, sql, params)

            return statement

        for name, real in methods.items():
            monkeypatch.setattr(tx_class, name, failing(real))
        try:
            change = await env.svc.acting.play(row.id, uid(row, seat), move, interaction_id=900 + i,
                                               version=row.version)
        except (asyncio.CancelledError, OSError):
            assert calls == i
            for name, real in methods.items():
                monkeypatch.setattr(tx_class, name, real)
            assert await snapshot(env.db, row.id) == before, f"statement {i}"
            assert not env.db.in_transaction
            continue
        for name, real in methods.items():
            monkeypatch.setattr(tx_class, name, real)
        assert i > 2  # at least the version bump and the action row were tried
        return change
    raise AssertionError("the move never went through")


async def test_failure_at_every_statement_of_a_move(env, monkeypatch):
    row = await started(env.svc, "basic", 2, seed="r2")
    seat = env.svc.core.engine(row).current_seat
    change = await _fail_at_each_statement(env, monkeypatch, row, seat, "draw")
    assert change.game.version == row.version + 1
    assert await repo.action_count(env.db, row.id) == change.game.version
    assert env.svc.core.engine(change.game).record() == change.engine.record()


async def test_failure_at_every_statement_of_the_final_move_scores_once(env, monkeypatch):
    """R16: the move that ends the game, failed at each of its statements, then applied: the
    results are written exactly once, with the final state."""
    row = await started(env.svc, "gin", 2, "target=1", seed="final")
    rng = random.Random(3)
    for _ in range(3000):
        game = env.svc.core.engine(row)
        if game.hand_over:
            row = (await env.svc.acting.next_deal(row.id, 1)).game
            continue
        seat = rng.choice(game.actors)
        move = choose(game, seat, rng)
        probe = load_game(game.record())
        probe.play(seat, move)
        if probe.game_over:
            break
        row = (await env.svc.acting.play(row.id, uid(row, seat), move, version=row.version)).game
    else:
        raise AssertionError("no game-ending move found")
    change = await _fail_at_each_statement(env, monkeypatch, row, seat, move)
    assert change.game_over and change.game.status == "finished"
    await check_results(env.db, change.game)
    assert await repo.action_count(env.db, row.id) == change.game.version


# ------------------------------------------------------------------------------------------ the clock
async def test_turn_reminder_at_80_percent_then_timeout_at_100(env):
    row = await started(env.svc, "basic", 2, timer=1, seed="clock")
    game = env.svc.core.engine(row)
    seat = game.current_seat
    assert row.turn_deadline == T0 + 60

    env.clock.advance(60 * REMIND_AT - 0.5)
    assert await env.svc.clock.due() == []
    assert await env.svc.clock.tick(row.id) == []
    assert await env.svc.clock.next_deadline() == pytest.approx(T0 + 60 * REMIND_AT)

    env.clock.advance(0.5)
    assert await env.svc.clock.due() == [row.id]
    [remind] = await env.svc.clock.tick(row.id)
    assert remind.kind == "remind" and remind.seat == seat
    assert remind.game.turn_reminded and remind.game.version == row.version  # a reminder changes no game
    assert await env.svc.clock.tick(row.id) == []  # once
    assert await env.svc.clock.due() == []

    env.clock.advance(60 * (1 - REMIND_AT) - 0.5)
    assert await env.svc.clock.tick(row.id) == []
    env.clock.advance(0.5)
    assert await env.svc.clock.due() == [row.id]
    [timeout] = await env.svc.clock.tick(row.id)
    assert timeout.kind == "timeout" and timeout.seat == seat and timeout.turn_changed
    assert timeout.game.version == row.version + 1
    assert (timeout.game.record or "").rstrip().endswith(f"{seat} timeout")
    assert timeout.engine.current_seat != seat
    assert timeout.game.by_seat(seat).timeouts == 1
    assert timeout.game.turn_deadline == env.clock() + 60 and not timeout.game.turn_reminded
    log = await env.db.fetchall(
        "SELECT kind, move, user_id FROM actions WHERE game_id = ? ORDER BY id DESC LIMIT 1", (row.id,)
    )
    assert tuple(log[0]) == ("timeout", "timeout", None)


async def _other_turn(svc: GameService, row: GameRow, seat: str) -> GameRow:
    """``seat`` draws and discards (a plain turn, ending nothing)."""
    game = svc.core.engine(row)
    assert game.current_seat == seat
    row = (await svc.acting.play(row.id, uid(row, seat), "draw")).game
    game = svc.core.engine(row)
    discard = next(m for m in game.legal_moves(seat) if m.startswith("discard"))
    return (await svc.acting.play(row.id, uid(row, seat), discard)).game


async def _time_out(env, row: GameRow):
    env.clock.t = row.turn_deadline
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "timeout"
    return change


async def test_three_timeouts_in_a_row_resign_the_seat(env):
    row = await started(env.svc, "basic", 2, timer=1, seed="absent")
    game = env.svc.core.engine(row)
    absent = game.current_seat
    present = next(s for s in game.seats if s != absent)
    for n in (1, 2):
        change = await _time_out(env, row)
        assert change.resigned_by_timeouts is None and change.game.by_seat(absent).timeouts == n
        row = await _other_turn(env.svc, change.game, present)
    change = await _time_out(env, row)
    assert change.resigned_by_timeouts == absent
    assert change.game_over and change.game.status == "finished"
    assert change.game.by_seat(absent).resigned
    results = await check_results(env.db, change.game)
    assert {r["user_id"]: r["place"] for r in results} == {uid(row, present): 1, uid(row, absent): 2}


async def test_playing_resets_the_timeout_count(env):
    row = await started(env.svc, "basic", 2, timer=1, seed="absent")
    game = env.svc.core.engine(row)
    slow = game.current_seat
    fast = next(s for s in game.seats if s != slow)
    change = await _time_out(env, row)
    row = await _other_turn(env.svc, change.game, fast)
    row = await _other_turn(env.svc, row, slow)  # slow plays once: the count starts again
    assert row.by_seat(slow).timeouts == 0
    row = await _other_turn(env.svc, row, fast)
    for _ in (1, 2):
        change = await _time_out(env, row)
        assert change.resigned_by_timeouts is None
        row = await _other_turn(env.svc, change.game, fast)
    assert row.by_seat(slow).timeouts == 2 and row.status == "playing"


async def test_lobby_expires_after_30_minutes(env):
    row = await lobby(env.svc, "basic", 2)
    env.clock.advance(LOBBY_TTL - 1)
    assert await env.svc.clock.due() == []
    assert await env.svc.clock.tick(row.id) == []
    assert (await env.svc.core.get(row.id)).status == "lobby"
    assert await env.svc.clock.next_deadline() == T0 + LOBBY_TTL
    env.clock.advance(1)
    assert await env.svc.clock.due() == [row.id]
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "expire" and change.game.status == "expired"
    assert await env.svc.clock.tick(row.id) == []
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.join(row.id, 5, "late")
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.start(row.id, 1)
    assert await repo.results_of(env.db, row.id) == []
    again = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=3, host_name="c", variant="gin")
    assert again.game.status == "lobby"


async def _play_until_deal_over(env, row: GameRow, rng: random.Random) -> GameRow:
    for _ in range(2000):
        if env.svc.core.engine(row).hand_over:
            return row
        env.clock.advance(1)
        row = (await play_one(env.svc, row, rng)).game
    raise AssertionError("the deal did not end")


async def test_next_deal_after_the_pause(env):
    row = await started(env.svc, "basic", 2, "game_end=hands:3 hand_turn_limit=20", timer=1, seed="pause")
    row = await _play_until_deal_over(env, row, random.Random(6))
    over_at = env.clock()
    assert row.next_deal_at == over_at + DEAL_PAUSE and row.turn_deadline is None
    with pytest.raises(Refusal, match="not_your_turn"):
        await env.svc.acting.play(row.id, 1, "draw")
    env.clock.advance(DEAL_PAUSE - 0.1)
    assert await env.svc.clock.tick(row.id) == []
    env.clock.advance(0.1)
    assert await env.svc.clock.due() == [row.id]
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "deal" and change.turn_changed and not change.deal_over
    assert change.engine.public_view().deal_number == 2
    assert change.game.next_deal_at is None and change.game.turn_deadline == env.clock() + 60

    # "Next deal" pressed before the pause is over: dealt at once, and the clock then has nothing to do.
    row = await _play_until_deal_over(env, change.game, random.Random(7))
    with pytest.raises(Refusal, match="not_seated"):
        await env.svc.acting.next_deal(row.id, 99)
    with pytest.raises(Stale):
        await env.svc.acting.next_deal(row.id, 1, version=row.version - 1)
    change = await env.svc.acting.next_deal(row.id, 2, version=row.version)
    assert change.engine.public_view().deal_number == 3
    env.clock.advance(DEAL_PAUSE)
    assert [c.kind for c in await env.svc.clock.tick(row.id)] == []
    with pytest.raises(Refusal, match="deal_not_over"):
        await env.svc.acting.next_deal(row.id, 1)


async def _open_window(env, row: GameRow, rng: random.Random) -> GameRow:
    """Random moves (never claiming or cutting in) until a discard opens a window."""
    for _ in range(3000):
        game = env.svc.core.engine(row)
        if game.phase == "window":
            return row
        if game.hand_over:
            row = (await env.svc.acting.next_deal(row.id, 1)).game
            continue
        seat = game.actors[0]
        move = choose(game, seat, rng, avoid=("claim", "cut", "take"))
        env.clock.advance(1)
        row = (await env.svc.acting.play(row.id, uid(row, seat), move, version=row.version)).game
    raise AssertionError("no window opened")


async def test_claim_window_closes_with_pass_after_the_window_option(env):
    row = await started(env.svc, "tradicional", 4, "opt2_rummy_call=true window=7", timer=1, seed="claims")
    row = await _open_window(env, row, random.Random(9))
    opened = env.clock()
    game = env.svc.core.engine(row)
    waiting = list(game.actors)
    assert len(waiting) == 2 and game.current_seat not in waiting
    assert row.window_deadline == opened + 7

    # One eligible seat passes: the window keeps its deadline (it is not renewed by each answer).
    env.clock.advance(3)
    row = (await env.svc.acting.play(row.id, uid(row, waiting[0]), "pass")).game
    assert row.window_deadline == opened + 7
    env.clock.advance(3.9)
    assert await env.svc.clock.tick(row.id) == []  # no timeout of the next player while the window is open
    assert env.svc.core.engine(row).phase == "window"

    env.clock.advance(0.1)
    assert await env.svc.clock.due() == [row.id]
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "window" and change.move == "pass"
    game = change.engine
    assert game.phase == "draw" and game.actors == [game.current_seat]
    assert (change.game.record or "").rstrip().endswith(f"{waiting[1]} pass")
    assert change.game.window_deadline is None
    assert change.game.turn_deadline == env.clock() + 60  # the next player's turn starts now
    log = await env.db.fetchall(
        "SELECT kind, user_id FROM actions WHERE game_id = ? ORDER BY id DESC LIMIT 1", (row.id,)
    )
    assert tuple(log[0]) == ("window", None)


async def test_claim_window_lasts_the_engine_option_by_default(env):
    row = await started(env.svc, "tradicional", 3, "opt2_rummy_call=true claim_window_s=30", timer=5, seed="c30")
    row = await _open_window(env, row, random.Random(2))
    assert row.window_deadline == env.clock() + 30


async def test_cut_in_window_then_the_next_player_decides_on_the_turn_timer(env):
    """Dummy cut-ins: a seat asks to cut in, the other stays silent; the window closes with its
    pass, then the next player decides (take or allow) on the turn timer, and the clock never
    tries to ``pass`` for them."""
    row = await started(env.svc, "dummy", 4, "cut_ins=true window=5", timer=1, seed="cuts")
    row = await _open_window(env, row, random.Random(4))
    game = env.svc.core.engine(row)
    asker, silent = game.actors
    decider = game.current_seat
    row = (await env.svc.acting.play(row.id, uid(row, asker), "cut")).game
    env.clock.t = row.window_deadline
    [closed] = await env.svc.clock.tick(row.id)
    assert closed.kind == "window"
    game = closed.engine
    assert game.phase == "window" and game.actors == [decider]
    assert sorted(game.legal_moves(decider)) == ["allow", "take"]
    assert (closed.game.record or "").rstrip().endswith(f"{silent} pass")
    row = closed.game
    assert row.turn_deadline == env.clock() + 60

    for _ in range(5):  # the clock leaves the decision alone until the turn timer runs out
        env.clock.advance(5)
        for change in await env.svc.clock.tick(row.id):
            assert change.kind == "remind"
        row = await env.svc.core.get(row.id)
        assert env.svc.core.engine(row).phase == "window"
    env.clock.t = row.turn_deadline
    [timeout] = await env.svc.clock.tick(row.id)
    assert timeout.kind == "timeout" and timeout.seat == decider
    assert timeout.engine.phase != "window"
    assert any(e.kind == "cut_in" and e.seat == asker for e in timeout.events)


def test_display_names_are_stored_without_control_or_bidi_characters():
    from bot.service import clean_name

    assert clean_name("Ana\u200b\u202e**x**\n@everyone") == "Ana**x** @everyone"
    assert clean_name("\u200b\u2066") == "?"
    assert len(clean_name("x" * 100)) == 32


async def test_turn_timers_from_fifteen_seconds_to_a_day(env):
    for bad in (0.1, 0.24, 1441, -1):
        with pytest.raises(Refusal, match="bad_timer"):
            await env.svc.games.check_lobby(guild_id=GUILD, channel_id=100, host_id=1, variant="gin", timer_minutes=bad)
    row = await started(env.svc, "gin", 2, timer=0.25)
    assert row.turn_deadline == pytest.approx(env.clock() + 15)
    env.clock.advance(12)  # the reminder at 80%
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "remind"
    env.clock.advance(3)
    [change] = await env.svc.clock.tick(row.id)
    assert change.kind == "timeout"
