"""``/rummy-admin``: what a server manager can do — start a new season, remove a player, read the log.

What it is: the thin Discord layer for managers. Discord hides the group from members without
Manage Server (``default_permissions``), but that is only a default a server can override, so every
command and the confirm button check the member's permissions again when they run (reliability.md
R15). A new season asks for a confirmation that only the same manager can give, within a minute.
What it is not: no SQL, no rules; the service writes the change and its audit row in one transaction.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import locale_of, translate
from bot.service import GameService, Refusal
from cogs.rummy import RummyCog, refuse_with, user_locale
from cogs.standings import audit_message, scores_message, standings_info
from cogs.ui import file_of, nm
from renderers.standings import render_standings

if TYPE_CHECKING:
    from bot.client import RummyBot

CONFIRM_SECONDS = 60


def L(text: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(text, key=key)


def is_manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def rummy_cog(interaction: discord.Interaction) -> RummyCog:
    cog = interaction.client.get_cog("RummyCog")  # type: ignore[attr-defined]
    assert isinstance(cog, RummyCog)
    return cog


def confirmation_refusal(*, clicker: int, manager: int, until: float, now: float, allowed: bool) -> Refusal | None:
    """Why a click on a new-season confirmation is refused, or None: the clicker must manage the
    server now, be the manager who asked, and click before the confirmation expires (R15)."""
    if not allowed:
        return Refusal("managers_only")
    if clicker != manager:
        return Refusal("not_your_confirmation")
    if now > until:
        return Refusal("confirmation_expired")
    return None


class NewSeasonButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"rummy:season:(?P<ending>[0-9]{1,6}):(?P<manager>[0-9]{1,20}):(?P<until>[0-9]{1,12})"):
    """Confirm ending season ``ending``. The ids in it only say who may confirm and until when;
    the permission itself is checked on the click."""

    def __init__(self, ending: int, manager: int, until: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "ok", style=discord.ButtonStyle.danger,
                                           custom_id=f"rummy:season:{ending}:{manager}:{until}"))
        self.ending, self.manager, self.until = ending, manager, until

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> NewSeasonButton:
        return cls(int(match["ending"]), int(match["manager"]), int(match["until"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("AdminCog")  # type: ignore[attr-defined]
        assert isinstance(cog, AdminCog)
        await cog.confirm_new_season(interaction, self.ending, self.manager, self.until)


class AdminCog(commands.Cog, name="AdminCog"):
    admin = app_commands.Group(
        name=L("rummy-admin", "cmd.admin"), description=L("Rummy tools for server managers", "cmd.admin.desc"),
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self.clock = time.time

    @property
    def service(self) -> GameService:
        assert self.bot.service is not None
        return self.bot.service

    def register_dynamic_items(self) -> None:
        self.bot.add_dynamic_items(NewSeasonButton)

    async def _managed(self, interaction: discord.Interaction, coro: Any) -> None:
        """Run ``coro`` for a manager; anyone else gets a private refusal and nothing runs."""
        if not is_manager(interaction):
            coro.close()
            coro = refuse_with(Refusal("managers_only"))
        await rummy_cog(interaction).guarded(interaction, coro)

    @admin.command(name=L("season", "cmd.season"), description=L("End this season and start the next",
                   "cmd.season.desc"))
    async def season(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None
            loc = _loc(interaction)
            current = await self.service.season(interaction.guild_id)
            until = int(self.clock()) + CONFIRM_SECONDS
            view = discord.ui.View(timeout=None)
            view.add_item(NewSeasonButton(current.number, interaction.user.id, until,
                                          label=translate("season.confirm_button", loc, number=current.number + 1)))
            text = translate("season.confirm", loc, number=current.number, next=current.number + 1,
                             seconds=CONFIRM_SECONDS)
            await interaction.response.send_message(text, view=view, ephemeral=True)

        await self._managed(interaction, run())

    async def confirm_new_season(self, interaction: discord.Interaction, ending: int, manager: int,
                                 until: int) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None and interaction.channel_id is not None
            loc = _loc(interaction)
            refusal = confirmation_refusal(clicker=interaction.user.id, manager=manager, until=until,
                                           now=self.clock(), allowed=is_manager(interaction))
            if refusal is not None:
                raise refusal
            season = await self.service.new_season(interaction.guild_id, interaction.user.id, ending=ending)
            await interaction.response.edit_message(
                content=translate("season.started", loc, number=season.number), view=None)
            # The closing standings of the season that ended, for everybody (the guild's language).
            old, table, games = await self.service.scores(interaction.guild_id, ending)
            glo = _guild_loc(interaction)
            text = translate("season.announce", glo, number=season.number, ended=ending) + "\n\n" + scores_message(
                old, table, games, glo)
            cog = rummy_cog(interaction)
            image = await cog.render(render_standings, standings_info(old, table, games), locale=glo)
            await cog._channel(interaction.channel_id).send(text[:2000], file=file_of(image))

        await self._managed(interaction, run())

    @admin.command(name=L("kick", "cmd.kick"), description=L("Take a player out of this channel's lobby or game",
                   "cmd.kick.desc"))
    @app_commands.describe(member=L("Who to take out", "cmd.kick.member"))
    async def kick(self, interaction: discord.Interaction, member: discord.User) -> None:
        async def run() -> None:
            cog = rummy_cog(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await cog._channel_game(interaction)
            change = await self.service.kick(row.id, interaction.user.id, member.id)
            await interaction.followup.send(
                translate("kick.done", _loc(interaction), name=nm(member.display_name)), ephemeral=True)
            if change.game.status == "lobby":
                await cog.update_lobby_message(change.game)
            await cog.announce(change)

        await self._managed(interaction, run())

    @admin.command(name=L("audit", "cmd.audit"), description=L("What managers did with the bot here, latest first",
                   "cmd.audit.desc"))
    async def audit(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None
            rows = await self.service.audit(interaction.guild_id)
            await interaction.response.send_message(audit_message(rows, _loc(interaction)), ephemeral=True)

        await self._managed(interaction, run())


def _loc(interaction: discord.Interaction) -> str:
    return user_locale(interaction)


def _guild_loc(interaction: discord.Interaction) -> str:
    return locale_of(str(interaction.guild_locale.value) if interaction.guild_locale else None)
