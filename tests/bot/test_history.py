"""Admin corrections and history (issue 12), at the service: on SQLite and PostgreSQL.

What a user would notice if these failed: a host who cannot get an unwanted player out of their
lobby, or a player (or a stranger) who can take others out; a manager's adjustment that does not
show in the standings, cannot be undone, or can be undone twice; a closed season whose standings
move when an old game is voided without anyone confirming it, or an amendment not marked as one;
any refusal that changes something.
"""

from __future__ import annotations

import pytest

from bot.service import AuditAction, GameStatus, Refusal
from tests.bot.helpers import GUILD, lobby, snapshot
from tests.bot.test_ratings import A, B, C, rated_game


async def dump(db) -> dict[str, list[tuple]]:
    """Every row of the tables a correction may write."""
    out = {}
    for table in ("adjustments", "season_standings", "season_variant_standings", "audit", "voided", "results",
                  "seasons", "ratings"):
        out[table] = sorted(tuple(r) for r in await db.fetchall(f"SELECT * FROM {table}"))
    return out


async def test_the_host_removes_a_player_from_their_lobby(env) -> None:
    row = await lobby(env.svc, "rami", 3)  # user1 hosts; user2 and user3 sit
    change = await env.svc.games.remove_player(row.id, 1, 2)
    assert change.game.status == GameStatus.LOBBY
    assert [s.user_id for s in change.game.seats] == [1, 3]
    assert [s.seat for s in change.game.seats] == ["p1", "p2"]  # renumbered, as when leaving
    assert change.game.host_id == 1
    # The removed player may sit again (a removal is not a ban).
    await env.svc.games.join(row.id, 2, "user2")
    assert len((await env.svc.core.get(row.id)).seats) == 3


@pytest.mark.parametrize(("who", "target", "code"), [
    (2, 3, "host_only"),  # a seated player is not the host
    (9, 2, "host_only"),  # nor is a stranger
    (1, 1, "remove_self"),  # the host leaves or cancels instead
    (1, 9, "not_seated_other"),  # nobody to remove
])
async def test_a_removal_is_refused_and_changes_nothing(env, who: int, target: int, code: str) -> None:
    row = await lobby(env.svc, "rami", 3)
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal) as refused:
        await env.svc.games.remove_player(row.id, who, target)
    assert refused.value.code == code
    assert await snapshot(env.db, row.id) == before


async def test_nobody_is_removed_once_the_game_started(env) -> None:
    row = await lobby(env.svc, "rami", 3)
    await env.svc.games.start(row.id, 1, seed="7")
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal) as refused:
        await env.svc.games.remove_player(row.id, 1, 2)
    assert refused.value.code == "not_a_lobby"
    assert await snapshot(env.db, row.id) == before


# ------------------------------------------------------------------ point adjustments
MANAGER = 99


async def test_an_adjustment_counts_in_the_standings_and_can_be_undone(env) -> None:
    await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])  # Ana 1 point, Bea 0
    done = await env.svc.history.adjust(GUILD, MANAGER, B, "bea", 3, "  fair\u200b play  ")
    assert (done.points, done.season, done.reason) == (3, 1, "fair play")
    view = await env.svc.history.season_view(GUILD)
    assert [(s.user_id, s.points, s.adjusted) for s in view.table] == [(B, 3, 3), (A, 1, 0)]
    assert [(a.user_id, a.points, a.reason) for a in view.adjustments] == [(B, 3, "fair play")]
    # A member with no game this season is listed by an adjustment alone (taking points too).
    await env.svc.history.adjust(GUILD, MANAGER, C, "carla", -2, "rudeness")
    view = await env.svc.history.season_view(GUILD)
    assert [(s.user_id, s.points, s.games) for s in view.table] == [(B, 3, 1), (A, 1, 1), (C, -2, 0)]
    log = await env.svc.records.audit(GUILD)
    assert [r.action for r in log[:2]] == [AuditAction.ADJUST, AuditAction.ADJUST]
    entry = log[1].id  # Bea's
    assert [(a.entry, a.user_id) for a in await env.svc.history.undoable(GUILD)] == [(log[0].id, C), (entry, B)]
    undone = await env.svc.history.undo(GUILD, MANAGER, entry)
    assert undone.undone_at is not None
    view = await env.svc.history.season_view(GUILD)
    assert [(s.user_id, s.points, s.adjusted) for s in view.table] == [(A, 1, 0), (B, 0, 0), (C, -2, -2)]
    assert [a.user_id for a in await env.svc.history.undoable(GUILD)] == [C]
    log = await env.svc.records.audit(GUILD)
    assert log[0].action == AuditAction.UNDO and log[0].detail.split()[0] == str(entry)
    # Undoing it again is refused and changes nothing.
    before = await dump(env.db)
    with pytest.raises(Refusal) as refused:
        await env.svc.history.undo(GUILD, MANAGER, entry)
    assert refused.value.code == "already_undone"
    assert await dump(env.db) == before


@pytest.mark.parametrize(("points", "reason", "user", "code"), [
    (0, "x", B, "adjust_points"), (1001, "x", B, "adjust_points"), (-1001, "x", B, "adjust_points"),
    (3, "  \u200b ", B, "adjust_reason"), (3, "x", -1, "adjust_member"),
])
async def test_an_adjustment_is_refused_and_changes_nothing(env, points: int, reason: str, user: int,
                                                              code: str) -> None:
    before = await dump(env.db)
    with pytest.raises(Refusal) as refused:
        await env.svc.history.adjust(GUILD, MANAGER, user, "bea", points, reason)
    assert refused.value.code == code
    assert await dump(env.db) == before


async def test_undo_takes_only_an_adjustment_of_this_server_and_season(env) -> None:
    game = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])
    await env.svc.records.void_result(GUILD, game, MANAGER, "test")
    await env.svc.history.adjust(GUILD, MANAGER, B, "bea", 2, "bonus")
    void_entry, adjust_entry = sorted(r.id for r in await env.svc.records.audit(GUILD))
    season = await env.svc.records.season(GUILD)
    await env.svc.records.new_season(GUILD, MANAGER, ending=season.number)
    before = await dump(env.db)
    for guild, entry, code in [(GUILD, void_entry, "not_undoable"), (GUILD + 1, adjust_entry, "no_entry"),
                               (GUILD, 10**9, "no_entry"), (GUILD, adjust_entry, "undo_closed_season")]:
        with pytest.raises(Refusal) as refused:
            await env.svc.history.undo(guild, MANAGER, entry)
        assert refused.value.code == code
        assert await dump(env.db) == before


# ------------------------------------------------------------------ closed seasons stay put
async def test_a_closed_season_keeps_its_standings_and_an_amendment_is_confirmed_and_marked(env) -> None:
    first = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])  # Ana beats Bea
    await rated_game(env.svc, env.clock, "gin", [A, C], resign=[C])  # Ana beats Carla
    await env.svc.history.adjust(GUILD, MANAGER, C, "carla", 5, "prize")
    await env.svc.records.new_season(GUILD, MANAGER, ending=1)
    closed = await env.svc.history.season_view(GUILD, 1)
    assert closed.amended is None
    assert [(s.user_id, s.points) for s in closed.table] == [(C, 5), (A, 2), (B, 0)]
    assert [a.reason for a in closed.adjustments] == ["prize"]
    # Voiding one of its games is refused without the confirmation, and changes nothing.
    before = await dump(env.db)
    with pytest.raises(Refusal) as refused:
        await env.svc.records.void_result(GUILD, first, MANAGER, "cheating")
    assert refused.value.code == "void_closed_season" and refused.value.params["season"] == 1
    assert await dump(env.db) == before
    # Confirmed: the amended standings are stored with the reason, and shown marked as amended.
    done = await env.svc.records.void_result(GUILD, first, MANAGER, "cheating", closed_ok=True)
    assert done.amended_season == 1
    view = await env.svc.history.season_view(GUILD, 1)
    assert view.amended is not None and view.amended.reason == "cheating" and view.amended.game_id == first
    assert [(s.user_id, s.points, s.games) for s in view.table] == [(C, 5, 1), (A, 1, 1)]
    assert view.games == 1
    # Restoring it (confirmed too) amends again: the standings it closed with, marked as amended.
    await env.svc.records.void_result(GUILD, first, MANAGER, "", restore=True, closed_ok=True)
    view = await env.svc.history.season_view(GUILD, 1)
    assert view.amended is not None and view.amended.version == 2
    assert [(s.user_id, s.points) for s in view.table] == [(C, 5), (A, 2), (B, 0)]
    # The running season is not asked about.
    second = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[A])
    assert (await env.svc.records.void_result(GUILD, second, MANAGER, "x")).amended_season is None


async def test_a_closed_seasons_variant_view_is_stored_and_amended_only_when_confirmed(env) -> None:
    """``/rummy scores season:N variant:X`` reads the standings stored when the season closed,
    amended (and marked) by a confirmed void, like the view over every variant."""
    gin = await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])  # Ana beats Bea at gin
    await rated_game(env.svc, env.clock, "gin", [A, C], resign=[A])  # Carla beats Ana at gin
    await rated_game(env.svc, env.clock, "basic", [B, C], resign=[C])  # Bea beats Carla at basic
    await env.svc.records.new_season(GUILD, MANAGER, ending=1)

    async def shown(variant: str | None) -> tuple[list[tuple[int, int, int]], int, str | None]:
        view = await env.svc.history.season_view(GUILD, 1, variant)
        return ([(s.user_id, s.points, s.games) for s in view.table], view.games,
                None if view.amended is None else view.amended.reason)

    closed = {v: await shown(v) for v in (None, "gin", "basic")}
    assert closed["gin"] == ([(C, 1, 1), (A, 1, 2), (B, 0, 1)], 2, None)
    assert closed["basic"] == ([(B, 1, 1), (C, 0, 1)], 1, None)
    # Not confirmed: refused, and no view changes.
    before = await dump(env.db)
    with pytest.raises(Refusal):
        await env.svc.records.void_result(GUILD, gin, MANAGER, "cheating")
    assert await dump(env.db) == before
    assert {v: await shown(v) for v in closed} == closed
    # Confirmed: the overall and the gin views show the amended standings, marked with the reason;
    # basic's standings did not change and are not marked.
    await env.svc.records.void_result(GUILD, gin, MANAGER, "cheating", closed_ok=True)
    assert (await shown("gin")) == ([(C, 1, 1), (A, 0, 1)], 1, "cheating")
    assert (await shown(None))[2] == "cheating"
    assert (await shown("basic")) == closed["basic"]
    # Stored, not worked out again: a result rewritten behind the bot's back changes no view.
    async with env.db.transaction() as tx:
        await tx.execute("UPDATE results SET place = 3 - place WHERE guild_id = ?", (GUILD,))
    assert (await shown("gin")) == ([(C, 1, 1), (A, 0, 1)], 1, "cheating")
    assert (await shown("basic")) == closed["basic"]


async def test_a_closed_season_does_not_change_by_itself(env) -> None:
    """What is stored when a season closes is what it shows, whatever the results say later."""
    await rated_game(env.svc, env.clock, "gin", [A, B], resign=[B])
    await env.svc.records.new_season(GUILD, MANAGER, ending=1)
    async with env.db.transaction() as tx:  # a result rewritten behind the bot's back
        await tx.execute("UPDATE results SET place = 3 - place WHERE guild_id = ?", (GUILD,))
    view = await env.svc.history.season_view(GUILD, 1)
    assert [(s.user_id, s.points) for s in view.table] == [(A, 1), (B, 0)]
