"""The rearrange builder's drafts in the service (issue 13), on SQLite and PostgreSQL: stored per
game and seat, surviving a new service on the same database, out of date once the game moves on,
refused for strangers and other seats, and played as one move the engine judges."""

from __future__ import annotations

import pytest

from bot.engine import load_game
from bot.service import GameService, Refusal
from bot.store import drafts as store
from bot.store import repo
from tests.bot.helpers import started, uid


def rami_position(a: str, b: str) -> str:
    return f"""[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "{a} {b}"]
[Hand "{a}" "6H 7H 8H 6D QS JK KD"]
[Hand "{b}" "KD QD 9C 8H 3D 4S 5S"]
[Table "{a}: 3C 4C 5C 6C 7C 8C 9C | {b}: QH QD QC"]
[Opened "{a} {b}"]
[Turn "{a}"]
[Phase "play"]
"""


async def positioned(env):
    """A started two-seat Rami whose record is replaced by a prepared position (seat 1 to play)."""
    row = await started(env.svc, "rami", 2, "table_manipulation=true")
    a, b = row.seats[0].seat, row.seats[1].seat
    record = load_game(rami_position(a, b)).record()
    async with env.db.transaction() as tx:
        await repo.update_game(tx, row.id, record=record, version=row.version + 1)
    env.svc.core.cache.pop(row.id, None)
    row = await env.svc.core.get(row.id)
    return row, a, b


async def test_a_draft_is_stored_changed_and_survives_a_new_service(env):
    row, a, _ = await positioned(env)
    user = uid(row, a)
    state = await env.svc.drafts.draft_open(row.guild_id, user, row.id, row.version)
    assert state.draft.melds == state.game.table and await store.count(env.db, row.id) == 1
    await env.svc.drafts.draft_change(row.guild_id, user, row.id,
                                      lambda d, g: d.take_out([(1, d.melds[0].index("6C"))]))
    # A restart: a new service on the same database finds the same draft.
    again = GameService(env.db, clock=env.clock)
    state = await again.drafts.draft_get(row.guild_id, user, row.id)
    assert state.draft.loose == ["6C"]
    # Opened again from a hand message of the same version: the stored draft, not a fresh one.
    state = await again.drafts.draft_open(row.guild_id, user, row.id, row.version)
    assert state.draft.loose == ["6C"]


async def test_other_seats_strangers_and_a_new_record_change_nothing(env):
    row, a, b = await positioned(env)
    user, other = uid(row, a), uid(row, b)
    await env.svc.drafts.draft_open(row.guild_id, user, row.id, row.version)
    stored = await store.get(env.db, row.id, a)
    with pytest.raises(Refusal) as err:
        await env.svc.drafts.draft_change(row.guild_id, 999, row.id, lambda d, g: d.take_apart([1]))
    assert err.value.code == "not_seated"
    with pytest.raises(Refusal) as err:  # the other seat has no draft and cannot build now
        await env.svc.drafts.draft_change(row.guild_id, other, row.id, lambda d, g: d.take_apart([1]))
    assert err.value.code == "builder_stale"
    with pytest.raises(Refusal) as err:
        await env.svc.drafts.draft_open(row.guild_id, other, row.id, row.version)
    assert err.value.code == "builder_not_now"
    assert await store.get(env.db, row.id, a) == stored
    # The game moves on (here: the player's own move): the draft is out of date and discarded.
    await env.svc.acting.play(row.id, user, "layoff QS to 2")
    assert await store.count(env.db, row.id) == 0  # discarded by the move's own commit
    with pytest.raises(Refusal) as err:
        await env.svc.drafts.draft_change(row.guild_id, user, row.id, lambda d, g: d.take_apart([1]))
    assert err.value.code == "builder_stale"
    assert await store.get(env.db, row.id, a) is None


async def test_a_refused_operation_stores_nothing(env):
    row, a, _ = await positioned(env)
    user = uid(row, a)
    await env.svc.drafts.draft_open(row.guild_id, user, row.id, row.version)
    stored = await store.get(env.db, row.id, a)
    with pytest.raises(Refusal) as err:
        await env.svc.drafts.draft_change(row.guild_id, user, row.id, lambda d, g: d.new_meld())
    assert err.value.code == "builder_pick_cards"
    assert await store.get(env.db, row.id, a) == stored


async def test_play_it_is_one_move_and_a_refusal_keeps_the_draft(env):
    row, a, _ = await positioned(env)
    user = uid(row, a)
    await env.svc.drafts.draft_open(row.guild_id, user, row.id, row.version)

    def broken(d, g):
        d.take_out([(1, d.melds[0].index("6C"))])
        d.pick([0], [])
        d.add_to(2)  # 6C with the queens: not a meld

    await env.svc.drafts.draft_change(row.guild_id, user, row.id, broken)
    with pytest.raises(Exception) as err:
        await env.svc.drafts.draft_play(row.guild_id, user, row.id)
    assert getattr(err.value, "code", "") == "invalid_table_meld"
    assert (await env.svc.core.get(row.id)).version == row.version
    assert await store.get(env.db, row.id, a) is not None  # still there, to be fixed

    def fixed(d, g):
        d.undo_last()
        d.pick([0], [d.rest.index("6H"), d.rest.index("6D")])
        d.new_meld()
        d.take_out([(1, d.melds[0].index(c)) for c in ("7C", "8C", "9C")])
        d.new_meld()

    await env.svc.drafts.draft_change(row.guild_id, user, row.id, fixed)
    change = await env.svc.drafts.draft_play(row.guild_id, user, row.id, interaction_id=4242)
    assert change.move is not None and change.move.startswith("table ")
    assert len(change.engine.table) == 4 and await store.get(env.db, row.id, a) is None


async def test_suggest_fills_the_draft(env):
    row, a, _ = await positioned(env)
    user = uid(row, a)
    await env.svc.drafts.draft_open(row.guild_id, user, row.id, row.version)
    state = await env.svc.drafts.draft_suggest(row.guild_id, user, row.id)
    assert state.draft.placed() >= 3
    change = await env.svc.drafts.draft_play(row.guild_id, user, row.id)
    assert len(change.engine.hand(a)) == 7 - state.draft.placed()
