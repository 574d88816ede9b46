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


async def finished_gin(table: Table, loser: Any) -> int:
    """A rated gin game between the table's two users that ``loser`` resigns once both moved."""
    await table.open("gin")
    game = table.game_id
    moved: set[int] = set()
    while len(moved) < 2:  # both sides move, so the result is rated
        user = table.user_of(table.game().actors[0])
        choices = await table.suggestions(user)
        await table.play(user, choices[0]["value"])
        moved.add(user.id)
    rec = await (await table.fake.slash(loser, "rummy resign", {})).settled(timeout=15)
    assert answers(rec)
    await table.wait_until(lambda: table.row()["status"] == "finished")
    assert table.query("SELECT rated FROM results WHERE game_id = ?", (game,))[0][0] == 1
    return game


async def test_a_manager_adjusts_points_and_undoes_it_from_the_audit_log(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    await finished_gin(table, bea)  # Ana 1 point, Bea 0
    # A member who is not a manager is refused (the server shows her the command), nothing changes.
    rec = await (await table.fake.slash(bea, "rummy-admin adjust", {"member": bea, "points": 5, "reason": "me"},
                                        overridden=True)).settled(timeout=15)
    assert "server managers" in private(rec, bea).content
    assert table.query("SELECT COUNT(*) FROM adjustments")[0][0] == 0
    rec = await (await table.fake.slash(mod, "rummy-admin adjust", {"member": bea, "points": 3,
                                                                     "reason": "fair play"})).settled(timeout=15)
    assert "+3" in private(rec, mod).content
    # The standings: Bea first with 3 points, her line marked, the reason below.
    rec = await (await table.fake.slash(bea, "rummy scores", {})).settled(timeout=15)
    text = private(rec, bea).content
    line = next(x for x in text.splitlines() if "Bea" in x and "pts" in x)
    assert "3 pts" in line and "adjusted +3" in line, text
    assert "✎ Bea +3 pts: fair play" in text
    assert text.index("Bea") < text.index("Ana")
    # The audit log shows the entry's number; undoing it is audited, and the standings lose it.
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    audit = private(rec, mod).content
    entry = int(audit.split("`#")[1].split("`")[0])
    assert f"`#{entry}` adjusted <@{bea.id}> +3 pts: fair play" in audit
    offered = await table.fake.autocomplete(mod, "rummy-admin undo", {"entry": ""}, focused="entry")
    assert [c["value"] for c in offered] == [entry] and "Bea +3 · fair play" in offered[0]["name"]
    assert await table.fake.autocomplete(bea, "rummy-admin undo", {"entry": ""}, focused="entry",
                                         overridden=True) == []
    rec = await (await table.fake.slash(mod, "rummy-admin undo", {"entry": entry})).settled(timeout=15)
    assert f"#{entry}" in private(rec, mod).content
    assert await table.fake.autocomplete(mod, "rummy-admin undo", {"entry": ""}, focused="entry") == []
    rec = await (await table.fake.slash(mod, "rummy-admin undo", {"entry": entry})).settled(timeout=15)
    assert "already undone" in private(rec, mod).content
    rec = await (await table.fake.slash(ana, "rummy scores", {})).settled(timeout=15)
    text = private(rec, ana).content
    assert "ajuste" not in text and "✎" not in text and text.index("Ana") < text.index("Bea")
    rec = await (await table.fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    assert f"undid adjustment #{entry}" in private(rec, mod).content
    scan_for_leaks(table.fake, [ana, bea, mod])
    assert table.fake.violations == []


async def test_voiding_a_game_of_a_closed_season_is_confirmed_then_posted_as_amended(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    first = await finished_gin(table, bea)
    rec = await (await table.fake.slash(mod, "rummy-admin season", {})).settled(timeout=15)
    confirm = private(rec, mod)
    await (await table.fake.click(mod, confirm, custom_ids(confirm)[0])).settled(timeout=15)
    await table.wait_until(lambda: table.query("SELECT COUNT(*) FROM season_standings")[0][0] == 1)
    # Voiding the old game asks first; nothing changes until the manager confirms.
    rec = await (await table.fake.slash(mod, "rummy-admin void", {"game": first, "reason": "cheating"})
                 ).settled(timeout=15)
    ask = private(rec, mod)
    assert "season 1" in ask.content and "closed" in ask.content
    assert table.query("SELECT COUNT(*) FROM voided")[0][0] == 0
    # Another manager's click on it is refused.
    other = table.fake.add_user("Otra", locale="es-ES", manage_guild=True)
    button = custom_ids(ask)[0]
    rec = await (await table.fake.forged_click(other, ask, button)).settled(timeout=15)
    assert table.query("SELECT COUNT(*) FROM voided")[0][0] == 0
    posted = len(table.fake.public_messages())
    rec = await (await table.fake.click(mod, ask, button)).settled(timeout=15)
    await table.wait_until(lambda: table.query("SELECT COUNT(*) FROM voided")[0][0] == 1)
    # The amended standings are posted where the game was played, marked, with the reason.
    amended = await table.fake.wait_for_message(
        lambda m: not m.ephemeral and "Clasificación corregida" in m.content, timeout=15)
    assert "cheating" in amended.content and amended.attachments
    assert len(table.fake.public_messages()) > posted
    assert table.query("SELECT MAX(version) FROM season_standings")[0][0] == 1
    # /rummy scores season:1 shows the amended version, marked as amended.
    rec = await (await table.fake.slash(bea, "rummy scores", {"season": 1})).settled(timeout=15)
    text = private(rec, bea).content
    assert "Amended standings" in text and "cheating" in text
    scan_for_leaks(table.fake, [ana, bea, mod, other])
    assert table.fake.violations == []


async def test_any_finished_game_is_replayed_and_its_record_sent(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    first = await finished_gin(table, bea)
    second = await finished_gin(table, ana)  # the channel's last game is another one now
    # The autocomplete lists the server's finished games, newest first.
    choices = await table.fake.autocomplete(bea, "rummy replay", {"game": ""}, focused="game")
    assert [c["value"] for c in choices][:2] == [second, first]
    typed = await table.fake.autocomplete(bea, "rummy record", {"game": str(first)}, focused="game")
    assert typed[0]["value"] == first
    # The first game's last deal, for the channel (the server's language), as a picture.
    rec = await (await table.fake.slash(bea, "rummy replay", {"game": first})).settled(timeout=30)
    shown = answers(rec)[-1]
    assert not shown.ephemeral and f"partida {first}, mano 1" in shown.content
    assert shown.attachments and shown.attachments[0].filename.startswith("replay.")
    # Refusals are private, in the reader's language, and post nothing.
    posted = len(table.fake.public_messages())
    rec = await (await table.fake.slash(bea, "rummy replay", {"game": first, "deal": 5})).settled(timeout=15)
    assert "has no deal 5" in private(rec, bea).content
    rec = await (await table.fake.slash(bea, "rummy replay", {"game": 10**9})).settled(timeout=15)
    assert f"no finished game {10**9}" in private(rec, bea).content
    rec = await (await table.fake.slash(ana, "rummy record", {"game": 10**9})).settled(timeout=15)
    assert "No hay ninguna partida" in private(rec, ana).content
    assert len(table.fake.public_messages()) == posted
    # The record: the RGN text as stored, and the moves in words in Bea's language.
    rec = await (await table.fake.slash(bea, "rummy record", {"game": first})).settled(timeout=15)
    sent = private(rec, bea)
    files = {a.filename: a.data.decode() for a in sent.attachments}
    stored = table.query("SELECT record FROM games WHERE id = ?", (first,))[0][0]
    assert files[f"game-{first}.rgn.txt"] == stored
    words = files[f"game-{first}-en.txt"]
    assert words.startswith(f"Game {first} · ") and "— Deal 1 —" in words
    moves = [x for x in words.splitlines()[2:] if not x.startswith("—")]
    played = [x for x in stored.splitlines() if x and not x.startswith("[")]
    assert len(moves) == len(played) and moves[-1].startswith("Bea: ")  # she resigned last
    assert any(x.startswith("Ana: ") for x in moves) and "`" not in words
    scan_for_leaks(table.fake, [ana, bea])
    assert table.fake.violations == []
