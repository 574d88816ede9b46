"""One way to act on a game (issue 35, ``bot.service.acting``): the place, the status, the seat
and the version are checked once, by the service, and answered with a typed refusal.

What a user would notice if these failed: a button of a game in another server (a forged
custom_id) playing there, a stranger's click playing a seat, an old button playing on a newer
table, an old hand, hint or builder message told "the table is out of date" instead of what is
out of date, a Next deal pressed by an onlooker dealing, or a draft opened from another server.
"""

from __future__ import annotations

import pytest

from bot.engine import Move, Verb
from bot.service import Refusal, Stale
from bot.store import repo
from tests.bot.helpers import GUILD, lobby, snapshot, started, uid

ELSEWHERE = GUILD + 1  # another server; and minus a channel's id is a place of its own (docs/anywhere.md)


async def test_a_game_of_another_place_is_no_game_there(env):
    row = await started(env.svc, "gin", 2, seed="place")
    me = uid(row, env.svc.core.engine(row).actors[0])
    before = await snapshot(env.db, row.id)
    for place in (ELSEWHERE, -100, None):
        for attempt in (
            env.svc.acting.act(place, me, row.id, Move.of(Verb.DRAW)),
            env.svc.acting.seat_at(place, me, row.id),
            env.svc.acting.next_deal_at(place, me, row.id),
            env.svc.acting.game_at(place, row.id),
            env.svc.drafts.draft_open(place, me, row.id, row.version),
            env.svc.games.hosted_lobby(place, 1, row.id),
        ):
            with pytest.raises(Refusal) as refused:
                await attempt
            assert refused.value.code == "no_game", (place, attempt)
    assert await snapshot(env.db, row.id) == before
    with pytest.raises(Refusal, match="no_game"):
        await env.svc.acting.act(GUILD, me, 12345, Move.of(Verb.DRAW))


async def test_act_checks_status_seat_and_version_once_then_plays(env):
    row = await started(env.svc, "gin", 2, seed="act")
    game = env.svc.core.engine(row)
    me = uid(row, game.actors[0])
    other = next(s.user_id for s in row.seats if s.user_id != me)
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal, match="not_seated"):
        await env.svc.acting.act(GUILD, 99, row.id, Move.of(Verb.DRAW))
    with pytest.raises(Stale) as stale:  # a button of an older table: the fresh table comes back
        await env.svc.acting.act(GUILD, me, row.id, Move.of(Verb.DRAW), version=row.version - 1)
    assert stale.value.game.version == row.version
    with pytest.raises(Refusal, match="not_your_turn"):
        await env.svc.acting.act(GUILD, other, row.id, Move.of(Verb.DRAW))
    assert await snapshot(env.db, row.id) == before
    change = await env.svc.acting.act(GUILD, me, row.id, game.legal_moves(game.actors[0])[0], version=row.version,
                                      interaction_id=777)
    assert change.game.version == row.version + 1 and change.seated.seat.user_id == me
    assert change.seated.row is change.game and change.seated.engine is change.engine
    with pytest.raises(Refusal, match="already_done"):  # the same click delivered twice
        await env.svc.acting.act(GUILD, me, row.id, Move.of(Verb.DRAW), version=row.version, interaction_id=777)
    assert await repo.action_count(env.db, row.id) == change.game.version


async def test_a_lobby_or_an_ended_game_is_not_played(env):
    row = await lobby(env.svc, "gin", 2)
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.act(GUILD, 1, row.id, Move.of(Verb.DRAW))
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.seat_at(GUILD, 1, row.id)
    assert (await env.svc.acting.game_at(GUILD, row.id)).id == row.id
    assert (await env.svc.games.hosted_lobby(GUILD, 1, row.id)).id == row.id
    with pytest.raises(Refusal, match="host_only"):
        await env.svc.games.hosted_lobby(GUILD, 2, row.id)
    with pytest.raises(Refusal, match="no_past_game"):  # not over yet: nothing to look back at
        await env.svc.acting.ended_game_at(GUILD, row.id)
    row = (await env.svc.games.start(row.id, 1, seed="end")).game
    ended = (await env.svc.acting.act(GUILD, 2, row.id, Move.of(Verb.RESIGN))).game
    assert (await env.svc.acting.ended_game_at(GUILD, row.id)).id == row.id
    with pytest.raises(Refusal) as refused:
        await env.svc.acting.ended_game_at(ELSEWHERE, row.id)
    assert (refused.value.code, refused.value.params) == ("no_past_game", {"game": row.id})
    with pytest.raises(Refusal, match="not_playing"):
        await env.svc.acting.act(GUILD, 1, row.id, Move.of(Verb.DRAW), version=ended.version)
    with pytest.raises(Refusal, match="not_a_lobby"):
        await env.svc.games.hosted_lobby(GUILD, 1, row.id)


async def test_the_opener_says_what_an_old_message_is_and_whose_seat_it_was_for(env):
    row = await started(env.svc, "gin", 2, seed="open")
    me = uid(row, "p1")
    seated = await env.svc.acting.seat_at(GUILD, me, row.id, version=row.version, seat="p1")
    assert (seated.row.id, seated.seat.seat, seated.engine) == (row.id, "p1", None)
    assert seated.shows(row.version) and not seated.shows(row.version - 1)
    with pytest.raises(Stale):
        await env.svc.acting.seat_at(GUILD, me, row.id, version=row.version - 1)
    for stale in ("hand_changed", "hint_changed", "stale_suggestion"):
        with pytest.raises(Refusal) as refused:
            await env.svc.acting.seat_at(GUILD, me, row.id, version=row.version - 1, stale=stale)
        assert refused.value.code == stale and not isinstance(refused.value, Stale)
    with pytest.raises(Refusal, match="not_offered"):  # a private message made for the other seat
        await env.svc.acting.seat_at(GUILD, me, row.id, seat="p2")
    with pytest.raises(Refusal, match="not_seated"):
        env.svc.acting.seat_in(row, 99)
    assert env.svc.acting.seat_in(row, me).seat.seat == "p1"


async def test_the_next_deal_from_a_button_is_checked_like_a_move(env):
    row = await started(env.svc, "gin", 2, "target=1", seed="deal")
    me = uid(row, "p1")
    with pytest.raises(Refusal, match="deal_not_over"):
        await env.svc.acting.next_deal_at(GUILD, me, row.id, version=row.version)
    with pytest.raises(Refusal, match="not_seated"):
        await env.svc.acting.next_deal_at(GUILD, 99, row.id, version=row.version)
    with pytest.raises(Stale):
        await env.svc.acting.next_deal_at(GUILD, me, row.id, version=row.version - 1)
