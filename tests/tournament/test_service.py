"""Tournaments through the service: sign-up refusals, check-in, rounds started by the clock,
first-turn forfeits, managers' actions (audited), standings after each round and the podium,
results counted as ordinary games'. The clock is moved by hand; computer players play their
games out on ``tick``, people's moves are random legal ones."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.service import GameService, Refusal
from bot.service.tournament import EventKind, NewEvent, Stage
from bot.service.tournament.rounds import outcomes
from bot.store import repo
from bot.store import tournaments as tstore
from bot.store.rows import AuditAction, GameStatus
from tests.bot.helpers import GUILD, choose

CHANNEL = 500
MANAGER = 1


def plan(clock, **kw) -> NewEvent:
    values = dict(name="Evening Swiss", variant="gin", format="swiss", options="target=1", rounds=3,
                  signup_closes_at=clock() + 600, starts_at=clock() + 900, checkin_lead=300, grace_seconds=60,
                  pause_seconds=30, timer_minutes=0, cap=8, seed="seed-1")
    values.update(kw)
    return NewEvent(**values)


async def drive(svc: GameService, clock, event_id: int, *, absent: set[int] = frozenset(), rng=None,
                until=lambda e: e.stage in (Stage.FINISHED, Stage.CANCELLED), steps: int = 20000):
    """Run the clock: tournament ticks, game ticks (computer players, deals), people's moves
    (the ``absent`` never move); one second a step. Returns every event change seen."""
    rng = rng or random.Random(3)
    seen = []
    for _ in range(steps):
        event = await svc.tournaments.tournament(event_id)
        if until(event):
            return seen
        for eid in await svc.tournaments.rounds.tournaments_due():
            seen += await svc.tournaments.rounds.tournament_tick(eid)
        for gid in await svc.clock.due():
            await svc.clock.tick(gid)
        for t in await tstore.tables(svc.core.db, event_id):
            if t.game_id is None or t.ended_at is not None:
                continue
            row = await svc.core.get(t.game_id)
            if row is None or row.status != GameStatus.PLAYING:
                continue
            game = svc.core.engine(row)
            for seat in list(game.actors):
                s = row.by_seat(seat)
                if s is None or s.is_bot or s.user_id in absent or game.hand_over:
                    continue
                with contextlib.suppress(Refusal):
                    await svc.acting.play(row.id, s.user_id, choose(game, seat, rng), version=row.version)
                break
        clock.advance(1)
    raise AssertionError("the event did not get there")


async def test_signup_refusals_change_nothing(tenv):
    svc, clock = tenv.svc, tenv.clock
    created = await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(clock, cap=2))
    eid = created.event.id
    audit = await repo.audit_of(svc.core.db, GUILD)
    assert audit[0].action == AuditAction.TOURNAMENT and audit[0].detail.startswith(f"{eid} new")
    await svc.settings.ban_member(GUILD, MANAGER, 66, "spam")
    await svc.tournaments.tournament_join(eid, 10, "ana")
    before = await svc.tournaments.tournament_view(eid)
    for user, code in ((10, "tournament_already_in"), (66, "banned")):
        with pytest.raises(Refusal) as refused:
            await svc.tournaments.tournament_join(eid, user, "x")
        assert refused.value.code == code
    await svc.tournaments.tournament_join(eid, 11, "bea")
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.tournament_join(eid, 12, "carl")
    assert refused.value.code == "tournament_full"
    clock.advance(601)
    await svc.tournaments.tournament_leave(eid, 11)
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.tournament_join(eid, 12, "carl")
    assert refused.value.code == "tournament_closed"
    after = await svc.tournaments.tournament_view(eid)
    assert [e.user_id for e in after.entrants] == [10] and before.entrants[0] == after.entrants[0]
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(clock, format="knockout", table_size=4,
                                                                   variant="rami"))
    assert refused.value.code == "tournament_table_size"


async def test_eight_player_swiss_from_signup_to_podium(tenv):
    svc, clock = tenv.svc, tenv.clock
    eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(clock, cap=9))).event.id
    people = [10, 11, 12, 13, 14, 15]
    for p in people:
        await svc.tournaments.tournament_join(eid, p, f"player{p}")
    for _ in range(3):
        await svc.tournaments.tournament_add_bot(eid, MANAGER, "easy")
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.tournament_check_in(eid, 10)
    assert refused.value.code == "tournament_no_checkin"  # not open yet
    clock.advance(600)  # the check-in opens 300 s before the start; sign-up closed at 600
    [change] = await svc.tournaments.rounds.tournament_tick(eid)
    assert change.kind == EventKind.CHECKIN
    for p in people[:-1]:
        await svc.tournaments.tournament_check_in(eid, p)  # 15 never checks in: dropped at the start
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.tournament_join(eid, 16, "late")
    assert refused.value.code == "tournament_closed"
    clock.advance(301)
    [start] = await svc.tournaments.rounds.tournament_tick(eid)
    assert start.kind == EventKind.ROUND and start.round == 1 and len(start.games) == 4
    view = await svc.tournaments.tournament_view(eid)
    assert len(view.entrants) == 8 and 15 not in view.names
    # 13 is a no-show: forfeits each first turn that comes to them after the grace
    seen = await drive(svc, clock, eid, absent={13})
    kinds = [c.kind for c in seen]
    assert kinds.count(EventKind.ROUND_OVER) == 2 and kinds[-1] == EventKind.FINISHED
    assert EventKind.FORFEIT in kinds
    view = await svc.tournaments.tournament_view(eid)
    rounds = {t.round for t in view.tables}
    assert rounds == {1, 2, 3}
    met = set()
    for t in view.tables:
        if len(t.players) == 2:
            assert frozenset(t.players) not in met
            met.add(frozenset(t.players))
    byes = [t.players[0] for t in view.tables if len(t.players) == 1]
    assert len(byes) == len(set(byes)) == (3 if len(view.entrants) % 2 else 0)
    podium = seen[-1].standings
    assert podium is not None and podium.tiebreaks == ("buchholz", "sonneborn_berger", "game_points")
    assert podium.rows[0].points >= podium.rows[1].points >= podium.rows[2].points
    # Every game is an ordinary game with results (season standings), none left running.
    for t in view.tables:
        if t.game_id is not None:
            row = await svc.core.get(t.game_id)
            assert row.status in (GameStatus.FINISHED, GameStatus.CANCELLED)
            assert t.places
    assert all(o.players for o in outcomes(list(view.tables)))


async def test_knockout_six_with_byes_in_rami(tenv):
    svc, clock = tenv.svc, tenv.clock
    eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(
        clock, name="Cup", variant="rami", format="knockout", rounds=0, options="rounds_per_game=1"))).event.id
    for _ in range(6):
        await svc.tournaments.tournament_add_bot(eid, MANAGER, "easy")
    clock.advance(901)
    await svc.tournaments.rounds.tournament_tick(eid)  # check-in
    [start] = await svc.tournaments.rounds.tournament_tick(eid)
    assert start.kind == EventKind.ROUND and len(start.games) == 2
    view = await svc.tournaments.tournament_view(eid)
    assert [len(t.players) for t in view.tables] == [1, 2, 1, 2]  # seeds 1 and 2 have byes
    seen = await drive(svc, clock, eid)
    assert seen[-1].kind == EventKind.FINISHED
    view = await svc.tournaments.tournament_view(eid)
    assert max(t.round for t in view.tables) == 3
    assert view.standings.rows[0].tiebreaks[0] == 4  # the champion won round 3


async def test_managers_actions_are_audited(tenv):
    svc, clock = tenv.svc, tenv.clock
    league = plan(clock, format="league", rounds=0)
    eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, league)).event.id
    for p in (10, 11, 12):
        await svc.tournaments.tournament_join(eid, p, f"p{p}")
    clock.advance(600)
    await svc.tournaments.rounds.tournament_tick(eid)
    for p in (10, 11, 12):
        await svc.tournaments.tournament_check_in(eid, p)
    clock.advance(301)
    [start] = await svc.tournaments.rounds.tournament_tick(eid)
    assert start.round == 1
    await svc.tournaments.tournament_replace(eid, MANAGER, 12, "easy")
    dropped = await svc.tournaments.tournament_drop(eid, MANAGER, 11)
    assert dropped.kind == EventKind.DROPPED
    paused = await svc.tournaments.tournament_pause(eid, MANAGER, paused=True)
    assert paused.event.paused
    with pytest.raises(Refusal):
        await svc.tournaments.tournament_pause(eid, MANAGER, paused=True)
    await svc.tournaments.tournament_pause(eid, MANAGER, paused=False)
    cancelled = await svc.tournaments.tournament_cancel(eid, MANAGER)
    assert cancelled.event.stage == Stage.CANCELLED
    audit = await repo.audit_of(svc.core.db, GUILD)
    details = [a.detail.split()[1] for a in audit if a.action == AuditAction.TOURNAMENT]
    assert set(details) >= {"new", "replace", "drop", "pause", "resume", "cancel"}


async def four_bots(svc: GameService, clock, **kw) -> int:
    eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(clock, **kw))).event.id
    for _ in range(4):
        await svc.tournaments.tournament_add_bot(eid, MANAGER, "easy")
    clock.advance(901)
    [checkin] = await svc.tournaments.rounds.tournament_tick(eid)
    assert checkin.kind == EventKind.CHECKIN
    return eid


async def test_a_voided_game_counts_nothing_and_nobody_is_paired_again(tenv):
    svc, clock = tenv.svc, tenv.clock
    eid = await four_bots(svc, clock, rounds=2, pause_seconds=3600)
    await svc.tournaments.rounds.tournament_tick(eid)
    await drive(svc, clock, eid, until=lambda e: e.stage == Stage.BETWEEN)
    view = await svc.tournaments.tournament_view(eid)
    voided = view.tables[0]
    change = await svc.tournaments.tournament_void(eid, MANAGER, voided.game_id)
    assert change.kind == EventKind.VOIDED
    with pytest.raises(Refusal) as refused:
        await svc.tournaments.tournament_void(eid, MANAGER, voided.game_id)
    assert refused.value.code == "tournament_void_already"
    view = await svc.tournaments.tournament_view(eid)
    assert all(view.standings.row_of(p).points == 0 for p in voided.players)
    [nxt] = await svc.tournaments.tournament_next_round(eid, MANAGER)  # the manager's button: no waiting for the pause
    assert nxt.kind == EventKind.ROUND and nxt.round == 2
    round_two = [set(t.players) for t in (await svc.tournaments.tournament_view(eid)).tables if t.round == 2]
    assert set(voided.players) not in round_two  # what was played is not paired again
    audit = [a.detail for a in await repo.audit_of(svc.core.db, GUILD) if a.action == AuditAction.TOURNAMENT]
    assert any(d.startswith(f"{eid} void {voided.game_id}") for d in audit)
    assert any(d.startswith(f"{eid} next_round 2") for d in audit)


async def test_two_processes_start_a_round_once(tenv):
    svc, clock = tenv.svc, tenv.clock
    other_db = await tenv.open_again()
    other = GameService(other_db, clock=clock, bot_delay=0)
    try:
        eid = await four_bots(svc, clock)
        both = await asyncio.gather(svc.tournaments.rounds.tournament_tick(eid),
                                    other.tournaments.rounds.tournament_tick(eid), return_exceptions=True)
        rounds = [c for result in both if isinstance(result, list) for c in result if c.kind == EventKind.ROUND]
        assert len(rounds) == 1 and sorted(len(r) for r in both) == [0, 1], both  # the other did nothing
        view = await svc.tournaments.tournament_view(eid)
        assert len(view.tables) == 2 and {t.round for t in view.tables} == {1}
        games = await svc.core.db.fetchall("SELECT COUNT(*) AS n FROM games")
        assert games[0]["n"] == 2  # no game was made twice
    finally:
        await other_db.close()


async def test_swiss_at_rami_tables_of_four_grouped_by_score(tenv):
    """Eight computer players at Rami tables of four: two tables a round, each game played out,
    round 2's tables grouped by the points of round 1 (a table of four gives 1, ⅔, ⅓, 0)."""
    svc, clock = tenv.svc, tenv.clock
    eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(
        clock, variant="rami", options="rounds_per_game=1", table_size=4, rounds=2))).event.id
    for _ in range(8):
        await svc.tournaments.tournament_add_bot(eid, MANAGER, "easy")
    clock.advance(901)
    await svc.tournaments.rounds.tournament_tick(eid)
    [start] = await svc.tournaments.rounds.tournament_tick(eid)
    assert [len(c.game.seats) for c in start.games] == [4, 4]
    await drive(svc, clock, eid, until=lambda e: e.stage == Stage.BETWEEN)
    after_one = (await svc.tournaments.tournament_view(eid)).standings
    clock.advance(31)
    seen = await drive(svc, clock, eid)
    assert seen[-1].kind == EventKind.FINISHED
    view = await svc.tournaments.tournament_view(eid)
    order = after_one.order()
    round_two = [set(t.players) for t in view.tables if t.round == 2]
    assert len(round_two) == 2 and all(len(t) == 4 for t in round_two)
    top = next(t for t in round_two if order[0] in t)
    assert top == {order[0], *[p for p in order[1:] if p in top]}  # the leader's table ...
    assert sum(order.index(p) for p in top) < sum(order.index(p) for p in set(order) - top)  # ... is the top half's


async def test_games_left_unposted_by_a_stopped_process_are_handed_over_again(tenv):
    svc, clock = tenv.svc, tenv.clock
    eid = await four_bots(svc, clock)
    [start] = await svc.tournaments.rounds.tournament_tick(eid)  # committed; the process "stops" before posting them
    assert all(c.game.thread_id == 0 for c in start.games)
    clock.advance(5)
    # Not owed yet: it may be posting them.
    assert [c.kind for c in await svc.tournaments.rounds.tournament_tick(eid)] == []
    clock.advance(30)
    owed = [c for c in await svc.tournaments.rounds.tournament_tick(eid) if c.kind == EventKind.OWED]
    assert owed and {c.game.id for c in owed[0].games} <= {c.game.id for c in start.games}
    for c in owed[0].games:  # the wing posts them: each gets its thread
        await svc.threads.set_thread(c.game.id, 9000 + c.game.id)
    assert not [c for c in await svc.tournaments.rounds.tournament_tick(eid) if c.kind == EventKind.OWED]


async def test_two_processes_sign_people_up_and_manage_at_once(tenv):
    """Members pressing Join on two processes at once, while a manager pauses the event from one of
    them: every press is counted once and nobody sees an error (the event is read under its lock)."""
    svc, clock = tenv.svc, tenv.clock
    other_db = await tenv.open_again()
    other = GameService(other_db, clock=clock, bot_delay=0)
    try:
        eid = (await svc.tournaments.create_tournament(GUILD, CHANNEL, MANAGER, plan(clock, cap=16))).event.id
        people = list(range(10, 22))
        presses = [(svc if i % 2 else other).tournaments.tournament_join(eid, p, f"p{p}") for i, p in enumerate(people)]
        results = await asyncio.gather(*presses, svc.tournaments.tournament_pause(eid, MANAGER, paused=True),
                                       return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)], results
        view = await svc.tournaments.tournament_view(eid)
        assert sorted(e.user_id for e in view.entrants) == people
        assert view.event.paused
        assert view.event.version == 2 + len(people)  # created at 1; each join and the pause wrote once
        leaves = [(other if i % 2 else svc).tournaments.tournament_leave(eid, p) for i, p in enumerate(people[:6])]
        results = await asyncio.gather(*leaves, other.tournaments.tournament_pause(eid, MANAGER, paused=False),
                                       return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)], results
        view = await other.tournaments.tournament_view(eid)
        assert sorted(e.user_id for e in view.entrants) == people[6:] and not view.event.paused
    finally:
        await other_db.close()
