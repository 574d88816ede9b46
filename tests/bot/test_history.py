"""Admin corrections and history (issue 12), at the service: on SQLite and PostgreSQL.

What a user would notice if these failed: a host who cannot get an unwanted player out of their
lobby, or a player (or a stranger) who can take others out; a removal that changes something when
it is refused.
"""

from __future__ import annotations

import pytest

from bot.service import GameStatus, Refusal
from tests.bot.helpers import lobby, snapshot


async def test_the_host_removes_a_player_from_their_lobby(env) -> None:
    row = await lobby(env.svc, "rami", 3)  # user1 hosts; user2 and user3 sit
    change = await env.svc.remove_player(row.id, 1, 2)
    assert change.game.status == GameStatus.LOBBY
    assert [s.user_id for s in change.game.seats] == [1, 3]
    assert [s.seat for s in change.game.seats] == ["p1", "p2"]  # renumbered, as when leaving
    assert change.game.host_id == 1
    # The removed player may sit again (a removal is not a ban).
    await env.svc.join(row.id, 2, "user2")
    assert len((await env.svc.get(row.id)).seats) == 3


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
        await env.svc.remove_player(row.id, who, target)
    assert refused.value.code == code
    assert await snapshot(env.db, row.id) == before


async def test_nobody_is_removed_once_the_game_started(env) -> None:
    row = await lobby(env.svc, "rami", 3)
    await env.svc.start(row.id, 1, seed="7")
    before = await snapshot(env.db, row.id)
    with pytest.raises(Refusal) as refused:
        await env.svc.remove_player(row.id, 1, 2)
    assert refused.value.code == "not_a_lobby"
    assert await snapshot(env.db, row.id) == before
