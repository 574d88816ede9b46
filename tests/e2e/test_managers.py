"""The managers' powers (reliability.md R15), against the real bot and our fake Discord.

Discord hides ``/rummy-admin`` from members without Manage Server, but a server can show it to
anyone (Integrations settings: a permission override). A member who sees it that way and lacks the
permission runs every ``/rummy-admin`` command (season, schedule, kick, void, restore, audit): each
is refused privately and nothing in the database changes. The new season's confirmation is refused
when another manager presses it and when it has expired (its custom_id carries the manager and the
expiry; a client can send a confirmation after its minute with a forged expiry as easily as late).

What a user would notice if these failed: a player who kicks their opponent for a rated win, voids
their own losses, ends a season or reads the managers' log; a season ended by a button that was
someone else's, or an hour old.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks

pytestmark = pytest.mark.e2e


# What shows a game, not the game: message ids, and when its end or quarantine notice was posted (the
# announcer records those a moment after the post, whatever anyone presses meanwhile).
VIEWS = {"lobby_message_id", "table_message_id", "turn_message_id", "table_posted_at", "final_announced_at",
         "quarantine_announced_at"}


def everything(table: Table) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the database (but the ids of the messages that show a game,
    which the announcer may set a moment after a change it is still posting)."""
    names = [r[0] for r in table.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {n: [{k: v for k, v in zip(r.keys(), tuple(r), strict=True) if k not in VIEWS}
                for r in table.query(f"SELECT * FROM {n} ORDER BY rowid")] for n in names}


def refused(rec: Any, user: Any) -> str:
    """The private refusal that answered ``rec`` (the one message, only ``user`` sees it)."""
    replies = answers(rec)
    assert replies and all(m.ephemeral and m.visible_to == user.id and not m.attachments for m in replies), replies
    assert not any(custom_ids(m) for m in replies), replies  # no confirmation button, nothing to press
    return replies[-1].content


async def test_every_admin_command_refuses_a_member_without_manage_server(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    await table.open("gin", "target=1")
    await table.play_until_over(random.Random(11))
    finished = table.game_id
    # Something for each command to act on: a voided game to restore, an audit log to read, and a
    # game in this channel with the member's opponent in it to kick.
    rec = await (await table.fake.slash(mod, "rummy-admin void", {"game": finished, "reason": "test"})).settled(
        timeout=15)
    assert "voided" in answers(rec)[-1].content
    await table.open("gin")
    playing = table.game_id
    before = everything(table)
    assert before["voided"] and before["audit"] and not before["season_schedules"]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("rummy-admin season", {}), ("rummy-admin schedule", {"every": "week"}),
        ("rummy-admin kick", {"member": ana}), ("rummy-admin void", {"game": playing}),
        ("rummy-admin void", {"game": finished}), ("rummy-admin restore", {"game": finished}),
        ("rummy-admin audit", {}),
    ]
    for command, options in calls:
        # Discord's client would not show it to Bea; with the server's override it does.
        with pytest.raises(PermissionError):
            await table.fake.slash(bea, command, options)
        rec = await (await table.fake.slash(bea, command, options, overridden=True)).settled(timeout=15)
        said = refused(rec, bea)
        assert "server managers" in said, (command, said)
        assert "test" not in said and "voided game" not in said  # the audit log is not read out
        assert everything(table) == before, command
    # Autocomplete offers her no game to void or restore.
    for command in ("rummy-admin void", "rummy-admin restore"):
        assert await table.fake.autocomplete(bea, command, {"game": ""}, focused="game", overridden=True) == []
    assert table.row()["status"] == "playing" and table.game_id == playing
    # The same commands do work for a manager (the refusals above were about the permission).
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    assert f"voided game {finished}" in answers(rec)[-1].content
    table.check_action_log()
    scan_for_leaks(table.fake, [ana, bea, mod])
    assert table.fake.violations == []


async def test_the_season_confirmation_is_the_asking_managers_and_expires(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    other = table.fake.add_user("Otra", locale="es-ES", manage_guild=True)
    asked = answers(await (await table.fake.slash(mod, "rummy-admin season", {})).settled(timeout=15))[-1]
    assert asked.ephemeral and asked.visible_to == mod.id
    [button] = [c for c in custom_ids(asked) if c.startswith("rummy:season:")]
    ending, manager, until = (int(x) for x in button.split(":")[2:])
    assert manager == mod.id and time.time() < until <= time.time() + 61
    before = everything(table)
    # Another manager presses it (a client can send a click on a message it was not shown).
    rec = await (await table.fake.forged_click(other, asked, button)).settled(timeout=15)
    said = refused(rec, other)
    assert "el gestor que lo pidió" in said, said
    assert everything(table) == before
    # Expired: the same confirmation a minute later, as its message carries it (the expiry passed).
    past = f"rummy:season:{ending}:{manager}:{int(time.time()) - 1}"
    late = dataclasses.replace(asked, components=forged(asked.components, button, past))
    rec = await (await table.fake.forged_click(mod, late, past)).settled(timeout=15)
    said = refused(rec, mod)
    assert "has expired" in said, said
    assert everything(table) == before
    # A member without the permission, on the live confirmation: refused too.
    rec = await (await table.fake.forged_click(bea, asked, button)).settled(timeout=15)
    assert "server managers" in refused(rec, bea)
    assert everything(table) == before
    # The asking manager, in time: the season ends (the refusals above were not the button failing).
    rec = await (await table.fake.click(mod, asked, button)).settled(timeout=15)
    assert [tuple(r) for r in table.query("SELECT number, ended_at IS NULL FROM seasons ORDER BY number")] == [
        (1, 0), (2, 1)]
    scan_for_leaks(table.fake, [ana, bea, mod, other])
    assert table.fake.violations == []


def forged(components: list[dict[str, Any]], old: str, new: str) -> list[dict[str, Any]]:
    """``components`` with the custom_id ``old`` replaced by ``new`` (a copy)."""
    out = []
    for row in components:
        row = dict(row)
        row["components"] = [dict(c, custom_id=new) if c.get("custom_id") == old else c for c in row["components"]]
        out.append(row)
    return out
