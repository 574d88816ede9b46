"""Skill ratings (issue 12), at the service: on SQLite and PostgreSQL.

What a user would notice if these failed: a rating that does not move after a rated game, or
moves after an unrated one; a game's result written without its rating update (or the other way
round); a voided game still weighing on the ladder, or a restored one weighing differently from
before; a ladder listing newcomers or in the wrong order; a reset that does not forget.
"""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from bot.service import GameService
from bot.service.skill import BASE, MIN_GAMES, OVERALL, Rating, rate, shown
from bot.store import Database
from bot.store import ratings as store
from tests.bot.helpers import GUILD, Clock, choose

MANAGER = 99
A, B, C = 11, 12, 13
NAMES = {A: "ana", B: "bea", C: "carla"}


async def rated_game(svc: GameService, clock: Clock, variant: str, users: list[int], resign: list[int], *,
                     channel: int = 100) -> int:
    """A game every player moves in once (so it is rated), then ``resign`` resign in that order:
    the player left wins, the last to resign is second, and so on. Returns the game's id."""
    clock.advance(60)
    change = await svc.games.open_lobby(guild_id=GUILD, channel_id=channel, host_id=users[0],
                                        host_name=NAMES.get(users[0], "p"), variant=variant)
    for u in users[1:]:
        await svc.games.join(change.game.id, u, NAMES.get(u, f"p{u}"))
    row = (await svc.games.start(change.game.id, users[0], seed="7")).game
    rng = random.Random(3)
    moved: set[str] = set()
    while len(moved) < len(users):
        game = svc.core.engine(row)
        assert not game.hand_over, "the deal ended before everybody moved"
        seat = game.actors[0]
        seat_row = row.by_seat(seat)
        assert seat_row is not None
        row = (await svc.acting.play(row.id, seat_row.user_id, choose(game, seat, rng, avoid=("knock", "go")),
                                     version=row.version)).game
        moved.add(seat)
    for u in resign:
        clock.advance(1)
        change = await svc.games.resign(row.id, u)
    assert change.game_over
    return row.id


async def ratings_of(db) -> list[tuple]:
    rows = await db.fetchall("SELECT guild_id, variant, user_id, mu, sigma, games FROM ratings "
                             "ORDER BY guild_id, variant, user_id")
    return [(int(r[0]), r[1], int(r[2]), float(r[3]), float(r[4]), int(r[5])) for r in rows]


async def history_of(db) -> list[tuple]:
    rows = await db.fetchall("SELECT user_id, mu, sigma FROM rating_history ORDER BY finished_at, user_id")
    return [(int(r[0]), float(r[1]), float(r[2])) for r in rows]


# --------------------------------------------------------------------------------------- the model
@pytest.mark.parametrize("players", range(2, 9))
def test_rate_is_openskill_plackett_luce_for_two_to_eight_players(players):
    places = {100 + i: i + 1 for i in range(players)}
    after = rate({}, places)
    expected = PlackettLuce().rate([[PlackettLuce().rating()] for _ in range(players)],
                                   ranks=[float(p) for p in places.values()])
    assert [(after[u].mu, after[u].sigma) for u in sorted(places)] == [(t[0].mu, t[0].sigma) for t in expected]
    values = [after[u].value for u in sorted(places)]
    assert values == sorted(values, reverse=True) and values[0] > BASE > values[-1]
    assert all(r.games == 1 for r in after.values())


def test_equal_places_are_a_tie_and_the_shown_number_is_documented():
    after = rate({}, {1: 1, 2: 1, 3: 3})
    assert (after[1].mu, after[1].sigma) == (after[2].mu, after[2].sigma)
    assert after[1].value > after[3].value
    newcomer = Rating()
    assert shown(newcomer.mu, newcomer.sigma) == (BASE, 333)  # 1000 + 40·(25 − 3·25/3), ± 40·25/3


# ------------------------------------------------------------------------------------- the service
async def test_a_rated_game_moves_the_ratings_overall_and_in_its_variant(env):
    await rated_game(env.svc, env.clock, "basic", [A, B, C], resign=[A, B])  # C first, B second, A third
    rows = await ratings_of(env.db)
    assert {(v, u) for _, v, u, *_ in rows} == {(v, u) for v in (OVERALL, "basic") for u in (A, B, C)}
    overall = {u: Rating(mu, sigma, n) for _, v, u, mu, sigma, n in rows if v == OVERALL}
    assert overall[C].value > overall[B].value > overall[A].value
    assert overall == rate({}, {C: 1, B: 2, A: 3})
    card = await env.svc.ratings.player_rating(GUILD, C)
    assert card.rating == overall[C] and card.rank is None and len(card.history) == 1  # ranked from 3 games


async def test_the_rating_update_is_in_the_results_transaction(env, monkeypatch):
    """A failing rating write leaves no result either: the game is still being played."""
    clock = env.clock
    clock.advance(60)
    change = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=A, host_name="ana", variant="gin")
    await env.svc.games.join(change.game.id, B, "bea")
    row = (await env.svc.games.start(change.game.id, A, seed="7")).game
    rng = random.Random(3)
    moved: set[str] = set()
    while len(moved) < 2:
        game = env.svc.core.engine(row)
        seat = game.actors[0]
        row = (await env.svc.acting.play(row.id, row.by_seat(seat).user_id, choose(game, seat, rng, avoid=("knock",)),
                                         version=row.version)).game
        moved.add(seat)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(store, "add_history", broken)
    with pytest.raises(RuntimeError):
        await env.svc.games.resign(row.id, A)
    assert (await env.svc.core.get(row.id)).status == "playing"
    assert await env.db.fetchall("SELECT * FROM results WHERE game_id = ?", (row.id,)) == []
    assert await ratings_of(env.db) == []
    monkeypatch.undo()
    assert (await env.svc.games.resign(row.id, A)).game_over
    assert len(await ratings_of(env.db)) == 4


async def test_an_unrated_result_leaves_the_ratings_alone(env):
    change = await env.svc.games.open_lobby(guild_id=GUILD, channel_id=100, host_id=A, host_name="ana", variant="gin")
    await env.svc.games.join(change.game.id, B, "bea")
    row = (await env.svc.games.start(change.game.id, A, seed="7")).game
    await env.svc.games.resign(row.id, A)  # before anyone moved: decided by an absent player, never rated
    assert (await env.svc.core.get(row.id)).status == "finished"
    assert await ratings_of(env.db) == []


async def play_series(svc: GameService, clock: Clock, skip: bool = False) -> list[int]:
    """Four rated games in two variants; with ``skip``, the second one is never played."""
    ids = [await rated_game(svc, clock, "basic", [A, B, C], resign=[A, B])]
    if not skip:
        ids.append(await rated_game(svc, clock, "gin", [A, B], resign=[B]))
    else:
        clock.advance(60 + 1)  # the same finishing times for the games after it
    ids.append(await rated_game(svc, clock, "basic", [B, C, A], resign=[C, A]))
    ids.append(await rated_game(svc, clock, "gin", [B, A], resign=[A]))
    return ids


async def test_voiding_and_restoring_replays_to_never_and_always_counted(env, tmp_path):
    ids = await play_series(env.svc, env.clock)
    counted = (await ratings_of(env.db), await history_of(env.db))

    await env.svc.records.void_result(GUILD, ids[1], MANAGER, "farmed")
    fresh = await Database.open(tmp_path / "never.db")
    try:
        clock = Clock()
        await play_series(GameService(fresh, clock=clock), clock, skip=True)
        expected = (await ratings_of(fresh), await history_of(fresh))
    finally:
        await fresh.close()
    assert (await ratings_of(env.db), await history_of(env.db)) == expected
    assert expected != counted

    await env.svc.records.void_result(GUILD, ids[1], MANAGER, restore=True)
    assert (await ratings_of(env.db), await history_of(env.db)) == counted


async def test_the_ladder_needs_the_minimum_games_and_ranks_by_rating(env):
    for _ in range(MIN_GAMES - 1):
        await rated_game(env.svc, env.clock, "gin", [A, B], resign=[A])
    assert await env.svc.ratings.ladder(GUILD) == []
    await rated_game(env.svc, env.clock, "gin", [A, B], resign=[A])
    ladder = await env.svc.ratings.ladder(GUILD)
    assert [(line.rank, line.user_id, line.name) for line in ladder] == [(1, B, "bea"), (2, A, "ana")]
    assert [line.user_id for line in await env.svc.ratings.ladder(GUILD, "gin")] == [B, A]
    assert await env.svc.ratings.ladder(GUILD, "rami") == []
    card = await env.svc.ratings.player_rating(GUILD, A)
    assert card.rank == 2 and card.ranked == 2 and len(card.history) == MIN_GAMES
    assert [r.value for r in card.history] == sorted(r.value for r in card.history)[::-1]  # lost every game


async def test_a_reset_forgets_the_ratings_also_across_a_later_void(env):
    ids = [await rated_game(env.svc, env.clock, "gin", [A, B], resign=[A]) for _ in range(MIN_GAMES)]
    env.clock.advance(5)
    await env.svc.ratings.reset_ratings(GUILD, MANAGER)
    assert await ratings_of(env.db) == [] and await env.svc.ratings.ladder(GUILD) == []
    audit = await env.svc.records.audit(GUILD)
    assert audit[0].action == "reset_ratings" and audit[0].user_id == MANAGER
    after = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])
    only = await ratings_of(env.db)
    assert {u: (mu, sigma, n) for _, v, u, mu, sigma, n in only if v == OVERALL} == {
        u: (r.mu, r.sigma, 1) for u, r in rate({}, {A: 1, B: 2}).items()}
    await env.svc.records.void_result(GUILD, ids[0], MANAGER, "old")  # replaying must not bring the old games back
    assert await ratings_of(env.db) == only
    await env.svc.records.void_result(GUILD, after, MANAGER, "new")
    assert await ratings_of(env.db) == []


async def test_results_from_before_the_ratings_are_replayed_once_on_start(env):
    """A server upgraded with results and no ratings (migration 5 marks it) gets exactly the
    ratings those games would have given, once."""
    await play_series(env.svc, env.clock)
    counted = (await ratings_of(env.db), await history_of(env.db))
    async with env.db.transaction() as tx:  # as migration 5 leaves an upgraded server
        await tx.execute("DELETE FROM ratings")
        await tx.execute("DELETE FROM rating_history")
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, '')", (f"ratings-replay:{GUILD}",))
    assert await env.svc.ratings.replay_pending_ratings() == 1
    assert (await ratings_of(env.db), await history_of(env.db)) == counted
    assert await env.svc.ratings.replay_pending_ratings() == 0


async def test_eight_players_and_a_tie_read_from_the_results_table(env):
    """An eight-seat rami game rates all eight by place; a tie stored in the results table (equal
    places) rates the tied players alike when the server's ratings are replayed."""
    users = list(range(21, 29))
    game_id = await rated_game(env.svc, env.clock, "rami", users, resign=users[:7])
    overall = {u: Rating(mu, sigma, n) for _, v, u, mu, sigma, n in await ratings_of(env.db) if v == OVERALL}
    places = {int(r[0]): int(r[1]) for r in await env.db.fetchall(
        "SELECT user_id, place FROM results WHERE game_id = ?", (game_id,))}
    assert sorted(places.values()) == list(range(1, 9)) and overall == rate({}, places)
    by_place = sorted(places, key=places.get)
    assert [overall[u].value for u in by_place] == sorted((r.value for r in overall.values()), reverse=True)
    # The second and third tie (as a variant's result may have it); a void elsewhere replays.
    second, third = by_place[1], by_place[2]
    async with env.db.transaction() as tx:
        await tx.execute("UPDATE results SET place = 2 WHERE game_id = ? AND user_id = ?", (game_id, third))
    other = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[A])
    await env.svc.records.void_result(GUILD, other, MANAGER, "test")
    replayed = {u: Rating(mu, sigma, n) for _, v, u, mu, sigma, n in await ratings_of(env.db) if v == OVERALL}
    assert set(replayed) == set(users)
    assert (replayed[second].mu, replayed[second].sigma) == (replayed[third].mu, replayed[third].sigma)
    assert replayed == rate({}, {**places, third: 2})
