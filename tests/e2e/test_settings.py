"""Server settings and house rules (issue 12), against the real bot and our fake Discord.

A manager (who reads English) sets Rami's default options, a "casa" preset, a two-minute timer,
English public messages, no computer players, and closes Gin: each change is audited and the
card shows it back in the manager's language. A member who sees the command through a permission
override is refused and changes nothing. Ana (Spanish) then opens a Rami lobby from the "casa"
preset (offered by autocomplete): the lobby carries the server's defaults, the preset and the
server's timer, and is posted in English although the server's Discord language is Spanish.
Adding a computer player and opening Gin are refused privately in Ana's language; a member the
manager barred (with a reason) can neither join nor host, and is told why.

What a user would notice if these failed: house rules that a new lobby ignores, a closed variant
or a computer player let through, a barred member at the table, public messages in the wrong
language, settings changed by a non-manager or without a trace in the audit log.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks

pytestmark = pytest.mark.e2e


def private(rec: Any, user: Any) -> Any:
    replies = answers(rec)
    assert replies and all(m.ephemeral and m.visible_to == user.id for m in replies), replies
    return replies[-1]


def card_text(message: Any) -> str:
    """Everything a reader sees on the settings card (title, field names and values)."""
    embed = message.embeds[-1]
    parts = [embed.get("title", "")]
    for f in embed.get("fields", []):
        parts += [f["name"], f["value"]]
    return "\n".join(parts)


async def test_house_rules_shape_new_lobbies_and_are_enforced(table: Table) -> None:
    fake = table.fake
    ana, bea, carlos, dani = table.users
    mod = fake.add_user("Mod", locale="en-US", manage_guild=True)

    async def settings(user: Any, args: dict[str, Any], **kw: Any) -> Any:
        return private(await (await fake.slash(user, "rummy-admin settings", args, **kw)).settled(timeout=20), user)

    reply = await settings(mod, {"variant": "rami", "options": "first_meld_min=40", "timer": 2, "language": "en",
                                 "bots": False})
    card = card_text(reply)
    assert "Changed:" in reply.content and "`timer=2`" in reply.content
    assert "Settings of" in card and "first_meld_min=40" in card and "2 min" in card
    assert "in English" in card and "not allowed" in card
    await settings(mod, {"variant": "rami", "preset": "Casa", "options": "jokers_per_deck=0"})
    card = card_text(await settings(mod, {"variant": "gin", "open": False}))
    assert "casa: `jokers_per_deck=0`" in card and "closed: Gin" in card
    audited = [r[0] for r in table.query("SELECT detail FROM audit WHERE action = 'settings' ORDER BY id")]
    assert audited == ["options:rami=first_meld_min=40", "timer=2", "bots=off", "language=en",
                       "preset:rami:casa=jokers_per_deck=0", "open:gin=off"]

    # A member who sees the command through an override: refused, nothing written.
    before = table.query("SELECT COUNT(*) FROM audit")[0][0]
    said = await settings(bea, {"bots": True}, overridden=True)
    assert "server managers" in said.content and not said.embeds
    assert table.query("SELECT bots FROM server_settings")[0][0] == 0
    assert table.query("SELECT COUNT(*) FROM audit")[0][0] == before

    # Ana opens Rami from the preset autocomplete offers: defaults + preset + the server's timer,
    # posted in English (the server's Discord language is Spanish).
    offered = await fake.autocomplete(ana, "rummy new", {"variant": "rami", "preset": "c"}, focused="preset")
    assert [c["value"] for c in offered] == ["casa"]
    lobby = await new_lobby(fake, ana, {"variant": "rami", "preset": "casa"})
    game_id = int(custom_ids(lobby)[0].split(":")[2])
    row = table.query("SELECT options, timer_minutes, locale FROM games WHERE id = ?", (game_id,))[0]
    assert tuple(row) == ("first_meld_min=40 jokers_per_deck=0", 2.0, "en")
    assert "Options:" in lobby.content and "2 min" in lobby.content and "Join" in str(lobby.components)

    # No computer players here: refused privately, in Ana's language; the lobby as it was.
    rec = await (await fake.click(ana, lobby, f"rummy:bot:{game_id}")).settled(timeout=15)
    assert "no permiten jugadores de la computadora" in private(rec, ana).content
    # Gin is closed (Carlos reads Spanish).
    rec = await (await fake.slash(carlos, "rummy new", {"variant": "gin"})).settled(timeout=15)
    assert "han cerrado las partidas de gin" in private(rec, carlos).content

    # Dani is barred with a reason: cannot join, cannot host; told why.
    rec = await (await fake.slash(mod, "rummy-admin bar", {"member": dani, "reason": "trampas"})).settled(timeout=15)
    assert "may no longer host or join" in private(rec, mod).content
    rec = await (await fake.click(dani, lobby, f"rummy:join:{game_id}")).settled(timeout=15)
    assert "te ha vetado" in private(rec, dani).content and "trampas" in private(rec, dani).content
    channel = fake.add_channel("otra")
    rec = await (await fake.slash(dani, "rummy new", {"variant": "rami"}, channel=channel)).settled(timeout=15)
    assert "te ha vetado" in private(rec, dani).content
    assert table.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))[0][0] == 1
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 1
    # Bea may still join; the card lists Dani; the audit log names the bar.
    await (await fake.click(bea, lobby, f"rummy:join:{game_id}")).settled(timeout=15)
    await table.wait_until(lambda: table.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))[0][0] == 2)
    assert f"<@{dani.id}>: trampas" in card_text(await settings(mod, {}))
    rec = await (await fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    log = private(rec, mod).content
    assert f"barred <@{dani.id}> from games: trampas" in log and "changed a setting: `bots=off`" in log
    scan_for_leaks(fake, table.users)
    assert fake.violations == []
