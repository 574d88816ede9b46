"""Standings that cannot be farmed (issue 15, hole 3), against the real bot and our fake Discord.

A rematch invites the previous players (mentioned in the lobby, drawn as "invited") but seats
only the presser: each other player takes their seat by pressing Join, and Start counts only the
seated. A win over someone who resigned before ever moving is kept but not rated, and the final
message says so. A host who cancels a game both sides have played in resigns it instead, and is
told so privately in their language.

What a user would notice if these failed: a rematch started at once against someone who had
already gone, a free win in the standings, a losing host wiping out a game they were losing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks

pytestmark = pytest.mark.e2e


def lobby_id(message: Any) -> int:
    return int(next(c for c in custom_ids(message) if c.startswith("rummy:join:")).split(":")[2])


async def test_a_rematch_seats_only_who_presses_join(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("gin")
    # Bea resigns before ever moving: Ana wins, the result is kept but not rated.
    rec = await (await table.fake.slash(bea, "rummy resign", {})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral
    rematch = f"rummy:rematch:{table.game_id}"
    final = await table.fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=20)
    assert "no puntúa" in final.content  # the server's language (Spanish)
    assert {r[0] for r in table.query("SELECT rated FROM results WHERE game_id = ?", (table.game_id,))} == {0}
    rec = await (await table.fake.slash(ana, "rummy scores", {})).settled(timeout=15)
    assert "partidas: 0" in answers(rec)[-1].content
    # Bea presses Rematch: a lobby she hosts, Ana invited (mentioned, pinged), not seated.
    await (await table.fake.click(bea, final, rematch)).settled(timeout=20)
    lobby = await table.fake.wait_for_message(
        lambda m: any(c.startswith("rummy:join:") and c != f"rummy:join:{table.game_id}" for c in custom_ids(m)),
        timeout=20)
    new_id = lobby_id(lobby)
    seated = lambda: [r[0] for r in table.query(  # noqa: E731
        "SELECT user_id FROM seats WHERE game_id = ? ORDER BY position", (new_id,))]
    assert seated() == [bea.id]
    assert f"<@{ana.id}>" in lobby.content and "Invitados a la revancha" in lobby.content
    assert str(ana.id) in [str(u) for u in (lobby.allowed_mentions or {}).get("users", [])]
    # Start counts only the seated: refused privately, nothing changes.
    rec = await (await table.fake.click(bea, lobby, f"rummy:start:{new_id}")).settled(timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == bea.id
    assert table.query("SELECT status FROM games WHERE id = ?", (new_id,))[0][0] == "lobby"
    # Ana accepts with Join: seated, no longer invited.
    await (await table.fake.click(ana, table.fake.message(lobby.id), f"rummy:join:{new_id}")).settled(timeout=15)
    assert seated() == [bea.id, ana.id]
    await table.wait_until(lambda: f"<@{ana.id}>" not in table.fake.message(lobby.id).content)
    await (await table.fake.click(bea, table.fake.message(lobby.id), f"rummy:start:{new_id}")).settled(timeout=15)
    assert table.query("SELECT status FROM games WHERE id = ?", (new_id,))[0][0] == "playing"
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []


async def test_the_hosts_cancel_once_both_have_played_is_their_resignation(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("gin")
    rnd = random.Random(3)
    moved: set[int] = set()
    while moved != {ana.id, bea.id}:  # each plays a move of their own
        user = table.user_of(table.game().actors[0])
        choices = [c for c in await table.suggestions(user) if c["value"].split()[0] not in ("knock", "gin")]
        await table.play(user, rnd.choice(choices)["value"])
        moved.add(user.id)
    assert table.row()["status"] == "playing"
    # Ana (the host) cancels: that is her resignation now, and she is told so, privately, in Spanish.
    rec = await (await table.fake.slash(ana, "rummy cancel", {})).settled(timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == ana.id and "cuenta como abandono" in reply.content
    assert table.row()["status"] == "finished"
    results = {r["user_id"]: (r["place"], r["rated"]) for r in
               table.query("SELECT user_id, place, rated FROM results WHERE game_id = ?", (table.game_id,))}
    assert results == {bea.id: (1, 1), ana.id: (2, 1)}
    last = table.query("SELECT user_id, kind FROM actions WHERE game_id = ? ORDER BY id DESC", (table.game_id,))[0]
    assert tuple(last) == (ana.id, "resign")
    assert table.query("SELECT COUNT(*) FROM audit")[0][0] == 0
    # The game ended as any resignation ends it: the final message, Bea the winner.
    final = await table.fake.wait_for_message(
        lambda m: f"rummy:rematch:{table.game_id}" in custom_ids(m), timeout=20)
    assert "Bea" in final.content.splitlines()[0] and "no puntúa" not in final.content
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []
