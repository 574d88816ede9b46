"""Server settings and house rules (issue 12), at the service: on SQLite and PostgreSQL.

What a user would notice if these failed: a manager's defaults, preset, timer or language not
used by the next lobby; a closed variant opened anyway, a computer player seated where the server
turned them off, a barred member hosting or joining; a refused change that half-applied; a
change missing from the audit log.
"""

from __future__ import annotations

import pytest

from bot.engine import IllegalMove
from bot.service import Refusal, SettingsChange, merge_options
from bot.store import repo
from bot.store.rows import AuditAction
from tests.bot.helpers import GUILD

MANAGER = 99
HOST, OTHER = 1, 2


async def audit_details(env) -> list[tuple[str, str]]:
    return [(r.action, r.detail) for r in reversed(await repo.audit_of(env.db, GUILD))]


def test_merging_lets_the_later_text_win_by_name():
    assert merge_options("a=1 b=2", "b=3", "c=4 a=5") == "a=5 b=3 c=4"
    assert merge_options("", "oops") == "oops"  # kept for the engine to refuse


async def test_a_manager_sets_defaults_presets_timer_and_language_each_audited(env):
    svc = env.svc
    done = await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(
        variant="rami", options="first_meld_min=40", timer_minutes=2, language="en", bots=False))
    assert done == ["options:rami=first_meld_min=40", "timer=2", "bots=off", "language=en"]
    await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(variant="rami", preset="Casa",
                                                                      options="jokers_per_deck=0 ace_wrap=true"))
    await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(variant="dummy", open=False))
    config = await svc.settings.server_config(GUILD)
    assert config.defaults == {"rami": "first_meld_min=40"}
    assert config.presets == {("rami", "casa"): "jokers_per_deck=0 ace_wrap=true"}
    assert (config.timer_minutes, config.language, config.bots, config.closed) == (2, "en", False,
                                                                                     frozenset({"dummy"}))
    assert [a for a, _ in await audit_details(env)] == [AuditAction.SETTINGS] * 6
    assert (await audit_details(env))[-1][1] == "open:dummy=off"

    # The lobby starts from all of it: defaults, then the preset, then what the host typed.
    plan = await svc.settings.lobby_plan(GUILD, HOST, "rami", preset="casa", options="ace_wrap=false", locale="es")
    assert plan.options == "first_meld_min=40 jokers_per_deck=0 ace_wrap=false"
    assert (plan.timer_minutes, plan.locale) == (2, "en")
    assert (await svc.settings.lobby_plan(GUILD, HOST, "rami", timer_minutes=0)).timer_minutes == 0
    change = await svc.games.open_lobby(guild_id=GUILD, channel_id=5, host_id=HOST, host_name="h", variant="rami",
                                        options=plan.options, timer_minutes=plan.timer_minutes, locale=plan.locale)
    assert change.game.options == "first_meld_min=40 jokers_per_deck=0" and change.game.locale == "en"

    # The manager's choice wins over the host's own language (cogs.rummy passes the host's locale).
    assert (await svc.settings.lobby_plan(GUILD, HOST, "rami", locale="fr")).locale == "en"
    # Forgetting: the defaults go, and "auto" (unset, None) lets each game speak its host's language.
    await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(variant="rami", options="-", language="auto"))
    config = await svc.settings.server_config(GUILD)
    assert config.defaults == {} and config.language is None
    assert (await svc.settings.lobby_plan(GUILD, HOST, "rami", locale="es")).locale == "es"
    assert (await svc.settings.lobby_plan(GUILD, HOST, "rami", locale="fr")).locale == "fr"


@pytest.mark.parametrize(("change", "code"), [
    (SettingsChange(options="first_meld_min=40"), "settings_variant"),
    (SettingsChange(variant="rami", preset="casa"), "preset_needs_options"),
    (SettingsChange(variant="rami", preset="c a s a", options="ace_wrap=true"), "bad_preset_name"),
    (SettingsChange(variant="rami", preset="nope", options="-"), "no_preset"),
    (SettingsChange(variant="rami", timer_minutes=0.1), "bad_timer"),
    (SettingsChange(variant="rami", options="window=999"), "bad_bot_option"),
])
async def test_a_refused_change_changes_nothing(env, change, code):
    with pytest.raises(Refusal) as err:
        await env.svc.settings.change_settings(GUILD, MANAGER, SettingsChange(
            variant=change.variant, options=change.options, preset=change.preset, open=change.open,
            timer_minutes=change.timer_minutes, bots=False))
    assert err.value.code == code
    config = await env.svc.settings.server_config(GUILD)
    assert config.bots and not config.defaults and not config.presets  # bots=False was not written either
    assert await audit_details(env) == []


async def test_options_the_engine_refuses_are_not_stored(env):
    with pytest.raises(IllegalMove):
        await env.svc.settings.change_settings(GUILD, MANAGER,
                                               SettingsChange(variant="rami", options="first_meld_min=5"))
    assert (await env.svc.settings.server_config(GUILD)).defaults == {}


async def test_closed_variants_bots_off_and_unknown_presets_are_refused(env):
    svc = env.svc
    await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(variant="gin", open=False, bots=False))
    with pytest.raises(Refusal) as err:
        await svc.settings.lobby_plan(GUILD, HOST, "gin")
    assert err.value.code == "variant_closed"
    with pytest.raises(Refusal) as err:  # the service refuses it too, whoever asks
        await svc.games.open_lobby(guild_id=GUILD, channel_id=5, host_id=HOST, host_name="h", variant="gin")
    assert err.value.code == "variant_closed"
    with pytest.raises(Refusal) as err:
        await svc.settings.lobby_plan(GUILD, HOST, "rami", preset="casa")
    assert err.value.code == "no_preset"
    row = (await svc.games.open_lobby(guild_id=GUILD, channel_id=5, host_id=HOST, host_name="h", variant="rami")).game
    with pytest.raises(Refusal) as err:
        await svc.games.add_bot(row.id, HOST)
    assert err.value.code == "bots_off"
    after = await svc.core.get(row.id)
    assert after is not None and len(after.seats) == 1 and after.version == row.version
    # Open again: the same lobby takes one.
    await svc.settings.change_settings(GUILD, MANAGER, SettingsChange(bots=True))
    assert len((await svc.games.add_bot(row.id, HOST)).game.seats) == 2


async def test_a_barred_member_may_not_host_or_join_until_let_back(env):
    svc = env.svc
    await svc.settings.ban_member(GUILD, MANAGER, OTHER, "insults\u200b in chat")
    config = await svc.settings.server_config(GUILD)
    assert [(b.user_id, b.reason, b.banned_by) for b in config.banned] == [(OTHER, "insults in chat", MANAGER)]
    with pytest.raises(Refusal) as err:
        await svc.settings.lobby_plan(GUILD, OTHER, "rami")
    assert err.value.code == "banned" and err.value.params["reason"] == "insults in chat"
    with pytest.raises(Refusal):
        await svc.games.open_lobby(guild_id=GUILD, channel_id=6, host_id=OTHER, host_name="o", variant="rami")
    row = (await svc.games.open_lobby(guild_id=GUILD, channel_id=5, host_id=HOST, host_name="h", variant="rami")).game
    with pytest.raises(Refusal) as err:
        await svc.games.join(row.id, OTHER, "o")
    assert err.value.code == "banned"
    after = await svc.core.get(row.id)
    assert after is not None and len(after.seats) == 1
    with pytest.raises(Refusal) as err:
        await svc.settings.ban_member(GUILD, MANAGER, MANAGER, "")
    assert err.value.code == "ban_self"
    await svc.settings.unban_member(GUILD, MANAGER, OTHER)
    with pytest.raises(Refusal) as err:
        await svc.settings.unban_member(GUILD, MANAGER, OTHER)
    assert err.value.code == "not_banned"
    assert len((await svc.games.join(row.id, OTHER, "o")).game.seats) == 2
    assert await audit_details(env) == [(AuditAction.BAN, f"{OTHER} insults in chat"),
                                        (AuditAction.UNBAN, str(OTHER))]
