"""Server settings and house rules (issue 12), against the real bot and our fake Discord.

A manager (who reads English) sets Rami's default options, a "casa" preset, a two-minute timer,
English public messages, no computer players, and closes Gin: each change is audited and the
card shows it back in the manager's language. A member who sees the command through a permission
override is refused and changes nothing. Ana (Spanish) then opens a Rami lobby from the "casa"
preset (offered by autocomplete): the lobby carries the server's defaults, the preset and the
server's timer, and is posted in English although the server's Discord language is Spanish.
Her lobby has no bot button; the one on a lobby posted earlier, and opening Gin, are refused
privately in the clicker's language; a member the manager barred (with a reason) can neither join
nor host, and is told why. Standings shared with the channel are in English too.

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

    # Carlos's lobby elsewhere, posted while computer players were still allowed.
    early_channel = fake.add_channel("early")
    early = await new_lobby(fake, carlos, {"variant": "basic"}, early_channel)
    early_id = int(custom_ids(early)[0].split(":")[2])
    assert f"rummy:bot:{early_id}" in custom_ids(early)

    offered = await fake.autocomplete(mod, "rummy-admin settings", {"variant": "rami", "options": "jokers"},
                                      focused="options")
    assert offered[0]["name"] == "jokers_per_deck=2 (default) — Jokers per deck"
    reply = await settings(mod, {"variant": "rami", "options": "first_meld_min=40", "timer": 2, "language": "en",
                                 "bots": False})
    card = card_text(reply)
    assert "Changed:" in reply.content and "`timer=2`" in reply.content
    assert "Settings of" in card and "**Rami**: Points of new melds needed to open: 40" in card and "2 min" in card
    assert "in English" in card and "not allowed" in card
    # The card's picture comes with the embed (which stays as its text).
    assert [(a.filename, a.data[:8]) for a in reply.attachments] == [("settings.png", b"\x89PNG\r\n\x1a\n")]
    await settings(mod, {"variant": "rami", "preset": "Casa", "options": "jokers_per_deck=0"})
    card = card_text(await settings(mod, {"variant": "gin", "open": False}))
    assert "**Rami** · casa: Jokers per deck: 0" in card and "closed: Gin" in card
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

    # Other public messages follow the chosen language too: standings Ana shares with the channel.
    await (await fake.slash(ana, "rummy scores", {"share": True})).settled(timeout=20)
    shared = await fake.wait_for_message(lambda m: m.public and "Season 1" in m.content, timeout=20)
    assert "No game has finished in this season yet." in shared.content

    channel = fake.add_channel("otra")
    # No computer players here: the new lobby has no bot button, and the one on Carlos's older
    # lobby is refused privately, in his language, the lobby as it was.
    assert not [c for c in custom_ids(lobby) if c.startswith("rummy:bot:")]
    rec = await (await fake.click(carlos, early, f"rummy:bot:{early_id}")).settled(timeout=15)
    assert "no permiten bots" in private(rec, carlos).content
    assert table.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (early_id,))[0][0] == 1
    # Gin is closed (Carlos reads Spanish).
    rec = await (await fake.slash(carlos, "rummy new", {"variant": "gin"}, channel=channel)).settled(timeout=15)
    assert "han cerrado las partidas de gin" in private(rec, carlos).content

    # Dani is barred with a reason: cannot join, cannot host; told why.
    rec = await (await fake.slash(mod, "rummy-admin bar", {"member": dani, "reason": "trampas"})).settled(timeout=15)
    assert "may no longer host or join" in private(rec, mod).content
    rec = await (await fake.click(dani, lobby, f"rummy:join:{game_id}")).settled(timeout=15)
    assert "te ha vetado" in private(rec, dani).content and "trampas" in private(rec, dani).content
    rec = await (await fake.slash(dani, "rummy new", {"variant": "rami"}, channel=channel)).settled(timeout=15)
    assert "te ha vetado" in private(rec, dani).content
    assert table.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))[0][0] == 1
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 2  # Carlos's and Ana's lobbies only
    # Bea may still join; the card lists Dani; the audit log names the bar.
    await (await fake.click(bea, lobby, f"rummy:join:{game_id}")).settled(timeout=15)
    await table.wait_until(lambda: table.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))[0][0] == 2)
    assert f"<@{dani.id}>: trampas" in card_text(await settings(mod, {}))
    rec = await (await fake.slash(mod, "rummy-admin audit", {})).settled(timeout=15)
    log = private(rec, mod).content
    assert f"barred <@{dani.id}> from games: trampas" in log and "changed a setting: `bots=off`" in log
    scan_for_leaks(fake, table.users)
    assert fake.violations == []


async def test_options_can_be_found_read_in_words_and_changed_from_the_lobby(table: Table) -> None:
    """Options that can be found: ``options:`` suggests names and values with what they do (in the
    typing user's language); ``/rummy rules`` lists every option; the lobby says the options in
    words and that option 5 rules out the Rummy double (rules.md §4.7.5); its host changes them
    from the lobby (a button, then a form) and the lobby follows; anyone else is refused."""
    fake = table.fake
    ana, bea = table.users[:2]
    offered = await fake.autocomplete(ana, "rummy new", {"variant": "tradicional", "options": "opt5"},
                                      focused="options")
    assert offered[0]["value"] == "opt5_two_turns=true"
    assert "Opción 5: para salir hay que bajar en dos turnos" in offered[0]["name"]
    offered = await fake.autocomplete(bea, "rummy new", {"variant": "tradicional",
                                                         "options": "opt2_rummy_call=true opt5_two_turns=t"},
                                      focused="options")
    assert [c["value"] for c in offered] == ["opt2_rummy_call=true opt5_two_turns=true"]
    assert "going out needs melds in two turns" in offered[0]["name"]

    rec = await (await fake.slash(bea, "rummy rules", {"variant": "tradicional"})).settled(timeout=15)
    listing = private(rec, bea).embeds[-1]
    assert "Options of Rummy tradicional" in listing["title"]
    assert "`opt5_two_turns` · default `false` · allowed: true | false — Option 5" in listing["description"]
    assert "`game_end` · default `target:100` · allowed: target:N | hands:N" in listing["description"]

    lobby = await new_lobby(fake, ana, {"variant": "tradicional", "options": "opt5_two_turns=true", "timer": 0})
    game_id = int(custom_ids(lobby)[0].split(":")[2])
    assert "Opción 5: para salir hay que bajar en dos turnos: sí" in lobby.content  # the server reads Spanish
    assert "anula el doble por «Rummy»" in lobby.content and "opt5_two_turns=" not in lobby.content

    # Only the host gets the form.
    rec = await (await fake.click(bea, lobby, f"rummy:options:{game_id}")).settled(timeout=15)
    assert rec.modal is None and "Only the host" in private(rec, bea).content
    rec = await (await fake.click(ana, lobby, f"rummy:options:{game_id}")).settled(timeout=15)
    assert rec.modal is not None
    version = table.query("SELECT version FROM games WHERE id = ?", (game_id,))[0][0]
    # A value the engine refuses: said privately, nothing changes.
    sub = await (await fake.submit_modal(ana, rec.modal.custom_id, {"options": "claim_window_s=999"})).settled(
        timeout=15)
    assert "claim_window_s" in private(sub, ana).content
    assert table.query("SELECT version, options FROM games WHERE id = ?", (game_id,))[0][:] == (
        version, "opt5_two_turns=true")
    sub = await (await fake.submit_modal(ana, rec.modal.custom_id, {"options": "opt3_ace_high_low=true"})).settled(
        timeout=15)
    assert "Las opciones de la sala han cambiado" in private(sub, ana).content
    assert table.query("SELECT options FROM games WHERE id = ?", (game_id,))[0][0] == "opt3_ace_high_low=true"
    edited = await fake.wait_for_message(lambda m: m.id == lobby.id and "Opción 3" in m.content, timeout=15)
    assert "anula" not in edited.content

    # The game starts with them.
    table.game_id, table.lobby = game_id, edited
    await (await fake.click(bea, edited, f"rummy:join:{game_id}")).settled(timeout=15)
    await table.wait_until(lambda: table.seats() == 2)
    await (await fake.click(ana, edited, f"rummy:start:{game_id}")).settled(timeout=15)
    await table.wait_until(lambda: table.row()["status"] == "playing")
    assert table.game().rules["opt3_ace_high_low"] is True
    table.check_action_log()
    assert fake.violations == []
