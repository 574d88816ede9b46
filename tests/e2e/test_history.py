"""Admin corrections and history (issue 12), through the fake Discord with the real bot.

What a user would notice if these failed: a host who cannot take an unwanted player out of their
lobby (or anyone else who can), a removal that is announced beyond the lobby itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks

pytestmark = pytest.mark.e2e


def private(rec: Any, user: Any) -> Any:
    """The one private answer to ``rec``, seen only by ``user``."""
    replies = answers(rec)
    assert replies and all(m.ephemeral and m.visible_to == user.id for m in replies), replies
    return replies[-1]


async def seated_lobby(table: Table, users: list[Any]) -> Any:
    """A lobby hosted by ``users[0]`` with the others seated by the Join button (not started)."""
    table.lobby = await new_lobby(table.fake, users[0], {"variant": "rami", "timer": 0})
    table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    for n, user in enumerate(users[1:], start=2):
        await (await table.fake.click(user, table.lobby, f"rummy:join:{table.game_id}")).settled(timeout=15)
        await table.wait_until(lambda n=n: table.seats() == n)
    return table.lobby


def seated(table: Table) -> list[int]:
    return [r[0] for r in table.query("SELECT user_id FROM seats WHERE game_id = ? ORDER BY position",
                                      (table.game_id,))]


async def test_the_host_removes_a_player_from_the_lobby(table: Table) -> None:
    ana, bea, carlos = table.users[:3]  # Ana hosts (es), Bea reads English
    lobby = await seated_lobby(table, [ana, bea, carlos])
    remove = f"rummy:remove:{table.game_id}"
    assert remove in custom_ids(await table.fake.wait_for_message(
        lambda m: m.id == lobby.id and remove in custom_ids(m), timeout=15))
    public_before = len(table.fake.public_messages())
    # Bea is not the host: refused privately, in her language, nothing changes.
    rec = await (await table.fake.click(bea, lobby, remove)).settled(timeout=15)
    said = private(rec, bea)
    assert "Only the host" in said.content and not custom_ids(said)
    assert seated(table) == [ana.id, bea.id, carlos.id]
    # The same with the command.
    rec = await (await table.fake.slash(bea, "rummy remove", {"member": carlos})).settled(timeout=15)
    assert "Only the host" in private(rec, bea).content
    assert seated(table) == [ana.id, bea.id, carlos.id]
    # The host removing herself is refused too (she leaves or cancels instead).
    rec = await (await table.fake.slash(ana, "rummy remove", {"member": ana})).settled(timeout=15)
    assert "No puedes sacarte" in private(rec, ana).content
    assert seated(table) == [ana.id, bea.id, carlos.id]
    # Ana presses Remove a player: a private pick of the others, then Carlos is out.
    rec = await (await table.fake.click(ana, lobby, remove)).settled(timeout=15)
    menu = private(rec, ana)
    pick = f"rummy:remove-pick:{table.game_id}"
    assert pick in custom_ids(menu)
    options = [o["value"] for c in menu.components for o in
               next(iter(c.get("components", [])), {}).get("options", [])]
    assert sorted(options) == sorted([str(bea.id), str(carlos.id)])
    rec = await (await table.fake.select(ana, menu, pick, [str(carlos.id)])).settled(timeout=15)
    assert "sacado" in private(rec, ana).content
    await table.wait_until(lambda: seated(table) == [ana.id, bea.id])
    # The public lobby shows two seats and no Carlos; nothing else was posted publicly.
    await table.fake.wait_for_message(lambda m: m.id == lobby.id and "Carlos" not in m.content
                                      and "Bea" in m.content, timeout=15)
    # Then with the command: Bea is out, and the lobby has nobody left to remove.
    rec = await (await table.fake.slash(ana, "rummy remove", {"member": bea})).settled(timeout=15)
    assert "sacado" in private(rec, ana).content
    await table.wait_until(lambda: seated(table) == [ana.id])
    await table.fake.wait_for_message(lambda m: m.id == lobby.id and "Bea" not in m.content
                                      and remove not in custom_ids(m), timeout=15)
    assert len(table.fake.public_messages()) == public_before
    assert table.row()["status"] == "lobby" and table.row()["host_id"] == ana.id
    scan_for_leaks(table.fake, [ana, bea, carlos])
    assert table.fake.violations == []
