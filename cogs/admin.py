"""``/rummy-admin``: what a server manager can do — start a new season (now or on a weekly or
monthly schedule, which the bot's clock then serves through ``scheduled_seasons``), remove a
player, void or restore a game's result, read the log.

What it is: the thin Discord layer for managers. Discord hides the group from members without
Manage Server (``default_permissions``), but that is only a default a server can override, so every
command and the confirm button check the member's permissions again when they run (reliability.md
R15). A new season asks for a confirmation that only the same manager can give, within a minute.
What it is not: no SQL, no rules; the service writes the change and its audit row in one transaction.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import locale_of, translate
from bot.service import FinishedGame, GameService, Refusal
from cogs.rummy import RummyCog, refuse_with, user_locale
from cogs.standings import audit_message, scores_message, standings_info
from cogs.ui import file_of, nm, variant_name
from renderers.standings import render_standings

if TYPE_CHECKING:
    from bot.client import RummyBot

log = logging.getLogger(__name__)

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
            await self.announce_season(interaction.channel_id, interaction.guild_id, ending, season.number,
                                       _guild_loc(interaction))

        await self._managed(interaction, run())

    async def announce_season(self, channel_id: int, guild_id: int, ending: int, number: int, locale: str) -> None:
        """The closing standings of the season that ended, for everybody, in the server's language."""
        old, table, games = await self.service.scores(guild_id, ending)
        text = translate("season.announce", locale, number=number, ended=ending) + "\n\n" + scores_message(
            old, table, games, locale)
        cog = self.bot.get_cog("RummyCog")
        assert isinstance(cog, RummyCog)
        image = await cog.render(render_standings, standings_info(old, table, games), locale=locale)
        await cog._channel(channel_id).send(text[:2000], file=file_of(image))

    async def scheduled_seasons(self) -> None:
        """Roll over every server whose scheduled season boundary passed (called by the clock);
        the new season is committed before it is announced, and a failed post loses nothing."""
        for guild_id in await self.service.due_seasons():
            done = await self.service.scheduled_season(guild_id)
            if done is None:
                continue
            ending, season, schedule = done
            try:
                await self.announce_season(schedule["channel_id"], guild_id, ending, season.number, schedule["locale"])
            except discord.HTTPException as exc:
                log.warning("season %s of server %s started; announcing it failed: %s", season.number, guild_id, exc)

    @admin.command(name=L("schedule", "cmd.schedule"), description=L(
        "Start new seasons by themselves every week or month", "cmd.schedule.desc"))
    @app_commands.describe(every=L("How often (off: only by hand with /rummy-admin season)", "cmd.schedule.every"))
    @app_commands.choices(every=[
        Choice(name=L("every week (Monday 00:00 UTC)", "schedule.choice.week"), value="week"),
        Choice(name=L("every month (the 1st, 00:00 UTC)", "schedule.choice.month"), value="month"),
        Choice(name=L("off", "schedule.choice.off"), value="off"),
    ])
    async def schedule(self, interaction: discord.Interaction, every: Choice[str]) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None and interaction.channel_id is not None
            await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
            schedule = await self.service.set_season_schedule(
                interaction.guild_id, interaction.user.id, None if every.value == "off" else every.value,
                channel_id=interaction.channel_id, locale=_guild_loc(interaction))
            loc = _loc(interaction)
            if schedule is None:
                text = translate("schedule.off", loc)
            else:
                text = translate("schedule.set", loc, every=translate(f"schedule.every.{schedule['every']}", loc),
                                 when=int(schedule["next_at"]), channel=f"<#{schedule['channel_id']}>")
            await interaction.followup.send(text, ephemeral=True)

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

    @admin.command(name=L("void", "cmd.void"), description=L(
        "Void a finished game's result: it stops counting in standings and records", "cmd.void.desc"))
    @app_commands.describe(game=L("The game (its number; pick from the list)", "cmd.void.game"),
                           reason=L("Why (kept in the audit log and shown in the game's channel)", "cmd.void.reason"))
    async def void(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12],
                   reason: app_commands.Range[str, 0, 100] | None = None) -> None:
        await self._managed(interaction, self._void(interaction, game, reason or "", restore=False))

    @admin.command(name=L("restore", "cmd.restore"), description=L("Make a voided game's result count again",
                   "cmd.restore.desc"))
    @app_commands.describe(game=L("The voided game (its number; pick from the list)", "cmd.restore.game"))
    async def restore(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12]) -> None:
        await self._managed(interaction, self._void(interaction, game, "", restore=True))

    async def _void(self, interaction: discord.Interaction, game_id: int, reason: str, *, restore: bool) -> None:
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
        done = await self.service.void_result(interaction.guild_id, game_id, interaction.user.id, reason,
                                              restore=restore)
        loc = _loc(interaction)
        key = "void.restored" if restore else "void.done"
        await interaction.followup.send(translate(key, loc, **summary(done, loc)), ephemeral=True)
        # Everybody who played it is told where they played it, in the server's language.
        row = await self.service.get(game_id)
        if row is not None:
            glo = row.locale
            lines = [translate("void.announce_restored" if restore else "void.announce", glo, **summary(done, glo))]
            if done.reason:
                lines.append(translate("void.reason", glo, reason=nm(done.reason)))
            await rummy_cog(interaction)._channel(row.channel_id).send("\n".join(lines)[:2000])

    @void.autocomplete("game")
    async def void_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        return await self._game_choices(interaction, current, voided=False)

    @restore.autocomplete("game")
    async def restore_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        return await self._game_choices(interaction, current, voided=True)

    async def _game_choices(self, interaction: discord.Interaction, current: Any, *, voided: bool) -> list[Choice[int]]:
        """The server's latest finished games a manager may void (or restore), newest first; what
        was typed filters by game number. Nothing for members who are not managers."""
        cog = rummy_cog(interaction)
        if not is_manager(interaction) or interaction.guild_id is None or (
                cog.typing is not None and not cog.typing.allow(interaction.user.id)):
            return []
        typed = str(current or "").strip().lstrip("#")
        loc = _loc(interaction)
        games = [g for g in await self.service.finished_games(interaction.guild_id, 100)
                 if g.voided == voided and not g.with_bots and str(g.game_id).startswith(typed)]
        return [Choice(name=choice_name(g, loc), value=g.game_id) for g in games[:25]]

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


def summary(game: FinishedGame, locale: str) -> dict[str, Any]:
    """What identifies a finished game to people: its number, variant and players by place."""
    players = ", ".join(f"{place}. {nm(name)}" for _, name, place in game.players)
    return {"game": game.game_id, "variant": variant_name(game.variant, locale), "players": players}


def choice_name(game: FinishedGame, locale: str) -> str:
    """An autocomplete line (plain text, at most 100 characters): number, variant, date, players."""
    when = time.strftime("%Y-%m-%d", time.gmtime(game.finished_at))
    players = ", ".join(f"{place}. {name}" for _, name, place in game.players)
    return f"#{game.game_id} · {variant_name(game.variant, locale)} · {when} · {players}"[:100]
