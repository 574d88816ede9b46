"""``/rummy-admin settings``, ``bar`` and ``unbar``: a server's house rules, as managers set them
and see them (issue 12).

What it is: the handlers the admin group's commands call (``cogs.admin`` declares the commands,
so the group stays one), ``settings_card``, the embed that shows a server's settings in the
manager's language, and ``settings_info``, the same settings for the card's picture
(``renderers.settings``), sent beside the embed; the embed stays as the text of the picture, and
goes alone when the picture cannot be drawn. Every handler checks the manager's permission again first (R15).
What it is not: no validation and no SQL: ``GameService`` checks every value and writes the
changes with their audit rows in one transaction; a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

import discord
from discord.app_commands import Choice

from bot.engine import VARIANTS
from bot.service import DEFAULT_TIMER, ServerConfig, SettingsChange
from bot.words.i18n import timer_text, translate
from bot.words.options import option_lines, option_suggestions, option_words
from cogs.anywhere import place_key
from cogs.base import client_of, place_games, user_locale
from cogs.ui import file_of, nm, t, variant_name
from renderers.settings import BANNED, SettingsInfo, info_options, render_settings

log = logging.getLogger(__name__)

FIELD = 1024  # an embed field's value, at most (Discord)
SETTINGS_COLOUR = 0x2E7D32


def _fit(lines: list[str]) -> str:
    out, size = [], 0
    for line in lines:
        if size + len(line) + 1 > FIELD - 2:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out) or "-"


def settings_card(config: ServerConfig, locale: str, server: str) -> discord.Embed:
    """The server's settings as one card: timer, public language, computer players, open
    rummies, default options per rummy, presets and barred members."""
    embed = discord.Embed(title=t("settings.title", locale, server=nm(server))[:256], colour=SETTINGS_COLOUR)
    if config.timer_minutes is None:
        timer = t("settings.timer_default", locale, time=timer_text(DEFAULT_TIMER, locale))
    elif config.timer_minutes == 0:
        timer = t("lobby.timer_none", locale)
    else:
        timer = timer_text(config.timer_minutes, locale)
    embed.add_field(name=t("settings.timer", locale), value=timer, inline=True)
    embed.add_field(name=t("settings.language", locale),
                    value=t(f"settings.language.{config.language or 'auto'}", locale), inline=True)
    embed.add_field(name=t("settings.bots", locale), value=t("settings.bots.on" if config.bots else "settings.bots.off",
                                                           locale), inline=True)
    opened = [variant_name(v, locale) for v in VARIANTS if v not in config.closed]
    closed = [variant_name(v, locale) for v in VARIANTS if v in config.closed]
    lines = [", ".join(opened) or t("settings.none", locale)]
    if closed:
        lines.append(t("settings.variants.closed", locale, variants=", ".join(closed)))
    embed.add_field(name=t("settings.variants", locale), value=_fit(lines), inline=False)
    defaults = [f"**{variant_name(v, locale)}**: {option_words(config.defaults[v], locale)}" for v in VARIANTS
                if v in config.defaults]
    embed.add_field(name=t("settings.defaults", locale), value=_fit(defaults) if defaults else t(
        "settings.none", locale), inline=False)
    presets = [f"**{variant_name(v, locale)}** · {name}: {option_words(text, locale)}" for (v, name), text in
               sorted(config.presets.items(), key=lambda kv: (VARIANTS.index(kv[0][0]), kv[0][1]))]
    embed.add_field(name=t("settings.presets", locale), value=_fit(presets) if presets else t(
        "settings.none", locale), inline=False)
    banned = [f"<@{b.user_id}>: {nm(b.reason) if b.reason else t('settings.no_reason', locale)}"
              for b in config.banned]
    embed.add_field(name=t("settings.banned", locale), value=_fit(banned) if banned else t(
        "settings.none", locale), inline=False)
    embed.set_footer(text=t("settings.help", locale))
    return embed


def settings_info(config: ServerConfig, server: str, names: Mapping[int, str]) -> SettingsInfo:
    """The settings for the card's picture; ``names``: barred members' display names (one who left
    the server has none, and the picture says "member 1234…")."""
    presets = tuple((v, name, info_options(text)) for (v, name), text in config.presets.items())
    return SettingsInfo(server, config.timer_minutes, config.language, config.bots, frozenset(config.closed),
                        tuple((v, info_options(text)) for v, text in config.defaults.items()), presets,
                        tuple((b.user_id, names.get(b.user_id), b.reason) for b in config.banned), DEFAULT_TIMER)


async def _member_names(interaction: discord.Interaction, config: ServerConfig) -> dict[int, str]:
    """The display names of the barred members the picture lists. The bot keeps no member cache
    (no members intent), so each is asked of Discord; one who left the server has none."""
    guild = interaction.guild
    if guild is None:
        return {}

    async def one(user_id: int) -> discord.Member | None:
        try:
            return guild.get_member(user_id) or await guild.fetch_member(user_id)
        except discord.HTTPException:  # gone from the server (or Discord failed): "member 1234…"
            return None

    found = await asyncio.gather(*(one(b.user_id) for b in config.banned[:BANNED]))
    return {m.id: m.display_name for m in found if m is not None}


async def change_settings(interaction: discord.Interaction, change: SettingsChange) -> None:
    """Apply what the manager gave (nothing: just show), then show the card privately: the picture,
    with the embed as its text."""
    assert interaction.guild_id is not None
    await interaction.response.defer(ephemeral=True, thinking=True)  # a write may come first
    service = client_of(interaction).service
    done = await service.settings.change_settings(interaction.guild_id, interaction.user.id, change)
    config = await service.settings.server_config(interaction.guild_id)
    loc = user_locale(interaction)
    content = t("settings.changed", loc, changes=", ".join(f"`{d}`" for d in done))[:2000] if done else None
    said = content or discord.utils.MISSING  # nothing changed: the card alone
    server = interaction.guild.name if interaction.guild is not None else str(interaction.guild_id)
    embed = settings_card(config, loc, server)
    info = settings_info(config, server, await _member_names(interaction, config))
    try:
        image = await client_of(interaction).announcer.render(render_settings, info, locale=loc)
    except Exception:  # the embed holds every setting: it goes out without its picture
        log.exception("settings picture failed")
        await interaction.followup.send(content=said, embed=embed, ephemeral=True)
        return
    await interaction.followup.send(content=said, embed=embed, file=file_of(image), ephemeral=True)


async def bar_member(interaction: discord.Interaction, member: discord.User, reason: str, *, bar: bool) -> None:
    """Bar ``member`` from the server's games (audited with the reason), or let them back."""
    assert interaction.guild_id is not None
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = client_of(interaction).service
    if bar:
        await service.settings.ban_member(interaction.guild_id, interaction.user.id, member.id, reason)
    else:
        await service.settings.unban_member(interaction.guild_id, interaction.user.id, member.id)
    await interaction.followup.send(t("ban.done" if bar else "unban.done", user_locale(interaction),
                                      name=nm(member.display_name)), ephemeral=True)


async def preset_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``/rummy new preset:``: the server's presets for the variant chosen so far (all of them
    before one is), filtered by what was typed."""
    client = client_of(interaction)
    key = place_key(interaction)
    if key is None or not client.guard.typing_allowed(interaction.user.id):
        return []
    config = await client.service.settings.server_config(key)
    chosen = str(getattr(interaction.namespace, "variant", "") or "")
    typed = str(current or "").strip().lower()
    names = sorted({name for v, name in config.presets if v == chosen or not chosen})
    return [Choice(name=name, value=name) for name in names if name.startswith(typed)][:25]


def option_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``/rummy new options:``: the typed words kept, the last one completed to ``name=value``,
    each suggestion saying what the option does in the typing user's language."""
    if not client_of(interaction).guard.typing_allowed(interaction.user.id):
        return []
    variant = str(getattr(interaction.namespace, "variant", "") or "") or None
    return [Choice(name=shown, value=value) for shown, value in
            option_suggestions(variant, str(current or ""), user_locale(interaction))]


def rules_options(variant: str, locale: str) -> discord.Embed:
    """``/rummy rules``: every option of ``variant`` with its default, its values and what it does."""
    lines = [*option_lines(variant, locale), "", t("rules.options_hint", locale)]
    text = "\n".join(lines)
    return discord.Embed(title=t("rules.options_list", locale, variant=variant_name(variant, locale))[:256],
                         description=text[:4000], colour=SETTINGS_COLOUR)


async def send_rules(interaction: discord.Interaction, variant: str | None) -> None:
    """``/rummy rules``: a rummy's rules in the reader's language (the game here's by default,
    with the options it is played with), and every option of it in a card under the rules."""
    loc = user_locale(interaction)
    rows = await place_games(interaction)
    row = rows[0] if len(rows) == 1 else None
    name = variant or (row.variant if row else "basic")
    text = translate(f"rules.{name}", loc)
    if row is not None and row.variant == name:
        text += "\n\n" + translate("rules.options_header", loc) + " " + (
            f"`{row.options}`" if row.options else translate("lobby.defaults", loc))
    await interaction.response.send_message(text[:2000], embed=rules_options(name, loc), ephemeral=True)
