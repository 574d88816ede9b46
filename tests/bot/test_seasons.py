"""Seasons, standings and what server managers may do (reliability.md R15, R16).

What a user would notice if these failed: a leaderboard that counts a game twice or not at all, a
new season that rewrites the last one's standings, a second "new season" click that skips a season,
a game running across the reset scored in the wrong season, a kicked player still seated, a
manager's action with no trace in the audit log, an old database losing its scores on upgrade.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.service import Refusal
from bot.service.seasons import standings
from bot.store import Database, repo
from bot.store.schema import MIGRATIONS
from tests.bot.helpers import GUILD, lobby, play_to_the_end, started


def row(game: int, user: int, place: int, name: str = "") -> dict[str, object]:
    return {"game_id": game, "user_id": user, "place": place, "name": name or f"u{user}"}


# ------------------------------------------------------------------------------------ the arithmetic
def test_a_point_for_every_opponent_finished_ahead_of() -> None:
    table = standings([row(1, 1, 1), row(1, 2, 2), row(1, 3, 3), row(1, 4, 4), row(2, 3, 1), row(2, 1, 2)])
    got = {s.user_id: (s.points, s.wins, s.games) for s in table}
    assert got == {1: (3, 1, 2), 2: (2, 0, 1), 3: (2, 1, 2), 4: (0, 0, 1)}
    # Equal points: more wins first; u3 and u2 both have 2 points, u3 has a win.
    assert [s.user_id for s in table] == [1, 3, 2, 4]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_two_winners_beat_the_same_players_and_not_each_other() -> None:
    table = standings([row(1, 1, 1), row(1, 2, 1), row(1, 3, 3)])
    assert [(s.user_id, s.points, s.wins, s.rank) for s in table] == [(1, 1, 1, 1), (2, 1, 1, 1), (3, 0, 0, 3)]


def test_the_latest_name_is_shown_and_fewer_games_rank_first() -> None:
    table = standings([row(1, 1, 1, "old"), row(1, 2, 2), row(2, 1, 2, "new"), row(2, 3, 1), row(3, 4, 1),
                       row(3, 2, 2)])
    assert table[0].user_id in (3, 4) and table[0].games == 1  # one win in one game beats one in two
    assert next(s.name for s in table if s.user_id == 1) == "new"
    assert standings([]) == []


# ------------------------------------------------------------------------------------ the service
async def test_finished_games_make_the_standings_and_cancelled_ones_do_not(env):
    a = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, a, random.Random(1), clock=env.clock)
    b = await started(env.svc, "basic", 3, "game_end=hands:1", channel=101, seed="s2")
    await play_to_the_end(env.svc, b, random.Random(2))
    c = await started(env.svc, "basic", 2, channel=102)
    await env.svc.games.cancel(c.id, 1)
    season, table, games = await env.svc.history.scores(GUILD)
    assert season.number == 1 and games == 2
    results = await env.db.fetchall("SELECT user_id, place, game_id FROM results")
    expected: dict[int, int] = {}
    for r in results:
        beaten = sum(1 for o in results if o["game_id"] == r["game_id"] and o["place"] > r["place"])
        expected[r["user_id"]] = expected.get(r["user_id"], 0) + beaten
    assert {s.user_id: s.points for s in table} == expected
    assert sum(s.games for s in table) == 5  # 2 + 3 seats
    _, gin_only, gin_games = await env.svc.history.scores(GUILD, variant="gin")
    assert gin_games == 1 and {s.user_id for s in gin_only} == {1, 2}
    _, other_server, none = await env.svc.history.scores(GUILD + 1)
    assert other_server == [] and none == 0


async def test_a_new_season_archives_the_old_standings_and_twice_is_a_no_op(env):
    a = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, a, random.Random(1), clock=env.clock)
    running = await started(env.svc, "gin", 2, "target=1", channel=101, seed="s3")
    _, before, _ = await env.svc.history.scores(GUILD)
    env.clock.advance(60)
    season = await env.svc.records.new_season(GUILD, 99, ending=1)
    assert season.number == 2 and season.started_at == env.clock() and season.started_by == 99
    # Confirming again (or a second manager at once) changes nothing.
    with pytest.raises(Refusal) as refused:
        await env.svc.records.new_season(GUILD, 98, ending=1)
    assert refused.value.code == "season_already" and refused.value.params == {"number": 2}
    assert (await env.svc.records.season(GUILD)).number == 2
    audit = await env.svc.records.audit(GUILD)
    assert [(r["user_id"], r["action"], r["detail"]) for r in audit] == [(99, "new_season", "1->2")]
    # The game that was running scores in the season open when it ended; season 1 stays as it was.
    await play_to_the_end(env.svc, running, random.Random(5), clock=env.clock)
    _, now, games = await env.svc.history.scores(GUILD)
    assert games == 1 and {s.user_id for s in now} == {1, 2}
    old_season, old, old_games = await env.svc.history.scores(GUILD, 1)
    assert old == before and old_games == 1 and old_season.ended_at == season.started_at
    with pytest.raises(Refusal) as refused:
        await env.svc.history.scores(GUILD, 3)
    assert refused.value.code == "no_such_season" and refused.value.params == {"number": 3, "current": 2}
    # Another server's seasons are its own.
    assert (await env.svc.records.season(GUILD + 1)).number == 1


async def test_a_manager_kicks_from_a_lobby_and_from_a_game_audited(env):
    row = await lobby(env.svc, "basic", 3)
    with pytest.raises(Refusal, match="kick_host"):
        await env.svc.games.kick(row.id, 99, 1)
    with pytest.raises(Refusal, match="not_seated_other"):
        await env.svc.games.kick(row.id, 99, 42)
    change = await env.svc.games.kick(row.id, 99, 3)
    assert [s.user_id for s in change.game.seats] == [1, 2]
    game = (await env.svc.games.start(row.id, 1, seed="k")).game
    change = await env.svc.games.kick(game.id, 99, 2)  # two players: the kicked one's resignation ends it
    assert change.game.status == "finished" and change.game.by_seat("p2").resigned
    places = {r["user_id"]: r["place"] for r in await repo.results_of(env.db, game.id)}
    assert places == {1: 1, 2: 2}
    audit = await env.svc.records.audit(GUILD)
    assert [(r["action"], r["game_id"], r["detail"]) for r in audit] == [("kick", game.id, "2"), ("kick", row.id, "3")]
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.games.kick(game.id, 99, 1)


async def test_cancelling_someone_elses_game_is_audited_and_ones_own_is_not(env):
    mine = await started(env.svc, "basic", 2)
    await env.svc.games.cancel(mine.id, 1)
    theirs = await started(env.svc, "basic", 2, channel=101)
    await env.svc.games.cancel(theirs.id, 99, is_admin=True)
    assert [(r["user_id"], r["action"], r["game_id"]) for r in await env.svc.records.audit(GUILD)] == [
        (99, "cancel", theirs.id)
    ]


async def test_scores_of_a_database_from_before_seasons_are_kept_in_season_one(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as c:
        c.executescript(MIGRATIONS[0])
        c.execute("PRAGMA user_version = 1")
        c.execute("INSERT INTO games (id, guild_id, channel_id, host_id, variant, status, created_at, updated_at) "
                  "VALUES (1, 7, 100, 1, 'gin', 'finished', 0, 0)")
        for uid, place in ((1, 1), (2, 2)):
            c.execute("INSERT INTO seats (game_id, position, user_id, seat, name) VALUES (1, ?, ?, ?, ?)",
                      (uid - 1, uid, f"p{uid}", f"Ana{uid}"))
            c.execute("INSERT INTO results (game_id, guild_id, variant, user_id, score, place, finished_at) "
                      "VALUES (1, 7, 'gin', ?, '0', ?, 5)", (uid, place))
    db = await Database.open(path)
    try:
        rows = await repo.season_results(db, 7, 1)
        assert [(r["user_id"], r["place"], r["name"]) for r in rows] == [(1, 1, "Ana1"), (2, 2, "Ana2")]
    finally:
        await db.close()


async def test_a_players_record_counts_rated_games_of_every_season(env):
    a = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, a, random.Random(1), clock=env.clock)
    await env.svc.records.new_season(GUILD, 99, ending=1)
    b = await started(env.svc, "basic", 3, "game_end=hands:1", channel=101, seed="s2")
    await play_to_the_end(env.svc, b, random.Random(2))
    bot_game = await lobby(env.svc, "gin", 1, channel=102)
    await env.svc.games.add_bot(bot_game.id, 1)
    results = await env.db.fetchall("SELECT game_id, user_id, place FROM results ORDER BY finished_at")
    for user in (1, 2, 3):
        mine = [r for r in results if r["user_id"] == user]
        record = await env.svc.records.stats(GUILD, user)
        assert record.games == len(mine) and record.wins == sum(r["place"] == 1 for r in mine)
        beaten = sum(1 for r in mine for o in results if o["game_id"] == r["game_id"] and o["place"] > r["place"])
        assert record.points == beaten
    one = await env.svc.records.stats(GUILD, 1)
    assert set(one.by_variant) == {"gin", "basic"} and sum(g for g, _ in one.by_variant.values()) == 2
    assert (await env.svc.records.stats(GUILD + 1, 1)).games == 0


def test_streaks() -> None:
    from bot.service.seasons import player_stats

    rows = [{"place": p, "beaten": 2 if p == 1 else 0, "variant": "basic"} for p in (1, 1, 2, 1, 1, 1, 3)]
    record = player_stats(rows)
    assert (record.games, record.wins, record.best_streak, record.streak, record.points) == (7, 5, 3, 0, 10)


async def test_a_voided_result_counts_nowhere_until_restored_and_both_are_audited(env):
    a = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, a, random.Random(1), clock=env.clock)
    b = await started(env.svc, "basic", 3, "game_end=hands:1", channel=101, seed="s2")
    await play_to_the_end(env.svc, b, random.Random(2))
    _, both, _ = await env.svc.history.scores(GUILD)
    record = await env.svc.records.stats(GUILD, 1)
    _, only_b, _ = await env.svc.history.scores(GUILD, variant="basic")
    # The managers' list: newest first, players in finishing order.
    listed = await env.svc.records.finished_games(GUILD)
    assert [g.game_id for g in listed] == [b.id, a.id] and not any(g.voided or g.with_bots for g in listed)
    only_b_players = {uid for uid, _, _ in listed[0].players} - {uid for uid, _, _ in listed[1].players}
    assert [g.game_id for g in await env.svc.records.finished_games(GUILD, user_id=min(only_b_players))] == [b.id]
    assert await env.svc.records.finished_games(GUILD + 1) == []
    assert [p[2] for p in listed[0].players] == sorted(p[2] for p in listed[0].players)
    voided = await env.svc.records.void_result(GUILD, a.id, 99, "collusion\u202e  with\nfriends " + "x" * 300)
    assert voided.voided and voided.game_id == a.id and voided.reason.startswith("collusion with friends")
    _, table, games = await env.svc.history.scores(GUILD)
    assert games == 1 and table == only_b  # the gin game counts no more
    assert (await env.svc.records.stats(GUILD, 1)).games == record.games - 1
    assert len(await repo.results_of(env.db, a.id)) == 2  # kept, only not counted
    with pytest.raises(Refusal) as refused:
        await env.svc.records.void_result(GUILD, a.id, 98)
    assert refused.value.code == "already_voided" and refused.value.params == {"game": a.id}
    assert [g.voided for g in await env.svc.records.finished_games(GUILD)] == [False, True]
    restored = await env.svc.records.void_result(GUILD, a.id, 98, restore=True)
    assert not restored.voided
    assert (await env.svc.history.scores(GUILD))[1] == both and (await env.svc.records.stats(GUILD, 1)) == record
    with pytest.raises(Refusal, match="not_voided"):
        await env.svc.records.void_result(GUILD, a.id, 98, restore=True)
    audit = await env.svc.records.audit(GUILD)
    assert [(r["user_id"], r["action"], r["game_id"]) for r in audit] == [(98, "restore", a.id), (99, "void", a.id)]
    reason = audit[1]["detail"]
    assert reason.startswith("collusion with friends x") and len(reason) == 100 and "\u202e" not in reason


async def test_only_a_finished_rated_game_of_this_server_can_be_voided(env):
    finished = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, finished, random.Random(1), clock=env.clock)
    running = await started(env.svc, "gin", 2, channel=101)
    for guild, game in ((GUILD + 1, finished.id), (GUILD, running.id), (GUILD, 9999)):
        with pytest.raises(Refusal) as refused:
            await env.svc.records.void_result(guild, game, 99)
        assert refused.value.code == "no_result" and refused.value.params == {"game": game}
    # A game with a computer player was never rated: there is nothing to void.
    with_bot = await lobby(env.svc, "gin", 1, channel=102)
    with_bot = (await env.svc.games.add_bot(with_bot.id, 1)).game
    async with env.db.transaction() as tx:
        await repo.insert_results(tx, [(with_bot.id, GUILD, "gin", s.user_id, "0", place, env.clock())
                                       for place, s in enumerate(with_bot.seats, 1)])
    assert [g.with_bots for g in await env.svc.records.finished_games(GUILD)] == [True, False]
    with pytest.raises(Refusal, match="not_rated"):
        await env.svc.records.void_result(GUILD, with_bot.id, 99)
    assert await env.svc.records.audit(GUILD) == []


# ------------------------------------------------------------------------------- automatic seasons
def utc(text: str) -> float:
    from datetime import UTC, datetime

    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_scheduled_boundaries_are_the_next_monday_or_first_of_the_month_in_utc() -> None:
    from bot.service.seasons import next_rollover

    assert next_rollover("week", utc("2026-11-22T13:00:00")) == utc("2026-11-23T00:00:00")  # a Sunday
    assert next_rollover("week", utc("2026-11-23T00:00:00")) == utc("2026-11-30T00:00:00")  # strictly after
    assert next_rollover("week", utc("2026-12-31T23:59:59")) == utc("2027-01-04T00:00:00")
    assert next_rollover("month", utc("2026-11-30T23:00:00")) == utc("2026-12-01T00:00:00")
    assert next_rollover("month", utc("2026-12-01T00:00:00")) == utc("2027-01-01T00:00:00")
    with pytest.raises(ValueError):
        next_rollover("fortnight", 0)


async def test_a_scheduled_season_rolls_over_once_per_boundary_however_late(env):
    env.clock.t = utc("2026-11-22T13:00:00")
    game = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, game, random.Random(1), clock=env.clock)
    schedule = await env.svc.records.set_season_schedule(GUILD, 99, "week", channel_id=555, locale="es")
    assert (schedule["every"], schedule["next_at"], schedule["channel_id"]) == ("week", utc("2026-11-23T00:00:00"), 555)
    assert await env.svc.records.due_seasons() == [] and await env.svc.records.scheduled_season(GUILD) is None
    env.clock.t = utc("2026-11-23T00:00:01")
    assert await env.svc.records.due_seasons() == [GUILD]
    ending, season, sched = await env.svc.records.scheduled_season(GUILD)
    assert (ending, season.number, season.started_by, sched["channel_id"]) == (1, 2, 0, 555)
    assert await env.svc.records.scheduled_season(GUILD) is None  # once per boundary
    assert (await env.svc.records.season_schedule(GUILD))["next_at"] == utc("2026-11-30T00:00:00")
    _, old, games = await env.svc.history.scores(GUILD, 1)
    assert games == 1 and len(old) == 2  # the closing standings are season 1's
    # Down for three weeks: one new season on coming back, and the next boundary is after now.
    env.clock.t = utc("2026-12-20T10:00:00")
    _, season, _ = await env.svc.records.scheduled_season(GUILD)
    schedule = await env.svc.records.season_schedule(GUILD)
    assert season.number == 3 and schedule["next_at"] == utc("2026-12-21T00:00:00")
    # Switched off: never due again; switching off twice is refused and changes nothing.
    assert await env.svc.records.set_season_schedule(GUILD, 98, None, channel_id=555, locale="es") is None
    env.clock.t = utc("2027-02-01T00:00:00")
    assert await env.svc.records.due_seasons() == [] and await env.svc.records.scheduled_season(GUILD) is None
    with pytest.raises(Refusal, match="no_schedule"):
        await env.svc.records.set_season_schedule(GUILD, 98, None, channel_id=555, locale="es")
    audit = [(r["user_id"], r["action"], r["detail"]) for r in await env.svc.records.audit(GUILD)]
    assert audit == [(98, "schedule", "off"), (0, "new_season", "2->3"), (0, "new_season", "1->2"),
                     (99, "schedule", "week")]
    with pytest.raises(Refusal, match="bad_schedule"):
        await env.svc.records.set_season_schedule(GUILD, 98, "fortnight", channel_id=555, locale="es")
    # Another server is untouched.
    assert (await env.svc.records.season(GUILD + 1)).number == 1


async def test_seasons_history_voiding_and_the_audit_log_never_take_a_game_lock(env, monkeypatch):
    """They read and write results, seasons and the audit log, never a game: a game's lock held by
    a long move must not hold up the standings (bot.service.records)."""
    from bot.service.core import Core

    env.clock.t = utc("2026-11-22T13:00:00")
    game = await started(env.svc, "gin", 2, "target=1", seed="s1")
    await play_to_the_end(env.svc, game, random.Random(1), clock=env.clock)
    running = await started(env.svc, "gin", 2, channel=101)

    def no_lock(self: Core, game_id: int) -> None:
        raise AssertionError(f"took the lock of game {game_id}")

    monkeypatch.setattr(Core, "lock", no_lock)
    assert (await env.svc.records.season(GUILD)).number == 1
    assert (await env.svc.history.scores(GUILD))[2] == 1 and (await env.svc.records.stats(GUILD, 1)).games == 1
    assert [g.game_id for g in await env.svc.records.finished_games(GUILD)] == [game.id]
    await env.svc.records.void_result(GUILD, game.id, 99, "why")
    await env.svc.records.void_result(GUILD, game.id, 99, restore=True)
    await env.svc.records.set_season_schedule(GUILD, 99, "week", channel_id=555, locale="es")
    assert (await env.svc.records.season_schedule(GUILD)).every == "week"
    env.clock.t = utc("2026-11-23T00:00:01")
    assert await env.svc.records.due_seasons() == [GUILD] and await env.svc.records.scheduled_season(GUILD) is not None
    await env.svc.records.new_season(GUILD, 99, ending=2)
    assert len(await env.svc.records.audit(GUILD)) == 5
    assert (await env.svc.core.get(running.id)).version == running.version  # no game was touched
