"""``/rummy-admin``: what a server manager can do — start a new season (now, or on a weekly or
monthly schedule the bot's clock then serves), reset the server's skill ratings, remove a player,
void or restore a game's result, set the server's house rules and bar members from its games
(``cogs.settings`` holds those handlers), read the log.

What it is: the thin Discord layer for managers. Discord hides the group from members without
Manage Server (``default_permissions``), but that is only a default a server can override, so every
command and the confirm button check the member's permissions again when they run (reliability.md
R15), as the first thing they do under the guard (``cogs.guard``). A new season and a ratings
reset ask for a confirmation that only the same manager can give, within a minute.
What it is not: no SQL, no rules; the service writes the change and its audit row in one
transaction, and the announcer (``cogs.announcer``) posts what is public.
"""

from __future__ import annotations

import re
import time
from typing import Any, Self, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.engine import VARIANTS
from bot.service import FinishedGame, GameService, GameStatus, Refusal, SettingsChange
from bot.words.i18n import translate
from cogs.anywhere import SERVER_INSTALL, SERVERS_ONLY, check_admin
from cogs.base import L, RummyClient, channel_game, client_of, public_locale, user_locale
from cogs.guard import guarded, offering
from cogs.items import Groups, Persistent, View
from cogs.settings import bar_member, change_settings, option_choices
from cogs.standings import audit_message, scores_message, standings_info
from cogs.tournament import ACTIONS as TOURNAMENT_ACTIONS
from cogs.tournament import event_choices, manage_tournament, new_tournament, tournament_button
from cogs.tournament_news import TOURNAMENT_ID, TournamentButton, use_button_handler
from cogs.ui import nm, variant_name
from renderers.standings import render_standings

CONFIRM_SECONDS = 60
TOURNAMENT_OPTIONS = {key: L(text, f"cmd.tournament.{key}") for key, text in (
    ("name", "The event's name"), ("variant", "Which game"),
    ("format", "swiss: rounds of similar scores; knockout: seeded bracket; league: all play all"),
    ("start", "When round 1 starts: minutes (90), a duration (2h, 1d 3h) or a timestamp <t:…>"),
    ("signup", "When sign-up closes (default: at the start), written the same way"),
    ("rounds", "Rounds (Swiss only)"),
    ("table", "Players per table (over two only in a Swiss, where the game allows it)"),
    ("timer", "Turn timer in minutes (0: none)"), ("rated", "Whether the games count for the skill ratings"),
    ("cap", "Most players"), ("options", "Game options (as in /rummy new)"),
    ("preset", "A server preset for the options"),
    ("grace", "Minutes a player has for their first turn before they forfeit"), ("pause", "Minutes between rounds"))}
# The reason of a void (or restore) of a closed season's game while its confirmation lasts, by
# (v|r, game, manager, until); a restart forgets it and the manager asks again.
PENDING: dict[tuple[str, int, int, int], str] = {}
SEASON_ID = re.compile(r"rummy:season:(?P<ending>[0-9]{1,6}):(?P<manager>[0-9]{1,20}):(?P<until>[0-9]{1,12})")
RESET_ID = re.compile(r"rummy:ratings-reset:(?P<manager>[0-9]{1,20}):(?P<until>[0-9]{1,12})")
# Confirm voiding (v) or restoring (r) a game of a closed season, whose stored standings it amends.
AMEND_ID = re.compile(r"rummy:amend:(?P<verb>[vr]):(?P<game>[0-9]{1,12}):(?P<manager>[0-9]{1,20}):"
                      r"(?P<until>[0-9]{1,12})")


def is_manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def require_manager(interaction: discord.Interaction) -> None:
    """Anyone but a manager (checked now, not by Discord's defaults) is refused before anything runs,
    and everybody outside a server that added the bot (issue 24)."""
    check_admin(interaction)
    if not is_manager(interaction):
        raise Refusal("managers_only")


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


class NewSeasonButton(Persistent[discord.ui.Button[Any]], template=SEASON_ID):
    """Confirm ending season ``ending``. The ids in it only say who may confirm and until when;
    the permission itself is checked on the click."""

    def __init__(self, ending: int, manager: int, until: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "ok", style=discord.ButtonStyle.danger,
                                           custom_id=f"rummy:season:{ending}:{manager}:{until}"))
        self.ending, self.manager, self.until = ending, manager, until

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("ending"), groups.number("manager"), groups.number("until"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await confirm_new_season(interaction, self.ending, self.manager, self.until)


@guarded
async def confirm_new_season(interaction: discord.Interaction, ending: int, manager: int, until: int) -> None:
    """The manager who asked confirms in time: the season ends, and its standings are posted."""
    require_manager(interaction)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    client = client_of(interaction)
    loc = user_locale(interaction)
    refusal = confirmation_refusal(clicker=interaction.user.id, manager=manager, until=until, now=time.time(),
                                   allowed=is_manager(interaction))
    if refusal is not None:
        raise refusal
    season = await client.service.records.new_season(interaction.guild_id, interaction.user.id, ending=ending)
    await interaction.response.edit_message(content=translate("season.started", loc, number=season.number),
                                            view=None)
    await client.announcer.announce_season(interaction.channel_id, interaction.guild_id, ending, season.number,
                                           await public_locale(interaction))


class ResetRatingsButton(Persistent[discord.ui.Button[Any]], template=RESET_ID):
    """Confirm forgetting the server's skill ratings; checked on the click like a new season's."""

    def __init__(self, manager: int, until: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "ok", style=discord.ButtonStyle.danger,
                                           custom_id=f"rummy:ratings-reset:{manager}:{until}"))
        self.manager, self.until = manager, until

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("manager"), groups.number("until"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await confirm_reset_ratings(interaction, self.manager, self.until)


@guarded
async def confirm_reset_ratings(interaction: discord.Interaction, manager: int, until: int) -> None:
    """The manager who asked confirms in time: the server's ratings are forgotten (audited)."""
    require_manager(interaction)
    assert interaction.guild_id is not None
    refusal = confirmation_refusal(clicker=interaction.user.id, manager=manager, until=until, now=time.time(),
                                   allowed=is_manager(interaction))
    if refusal is not None:
        raise refusal
    await client_of(interaction).service.ratings.reset_ratings(interaction.guild_id, interaction.user.id)
    await interaction.response.edit_message(content=translate("ratings.reset_done", user_locale(interaction)),
                                            view=None)


class AmendButton(Persistent[discord.ui.Button[Any]], template=AMEND_ID):
    """Confirm voiding or restoring a game of a closed season; checked on the click like a new season's."""

    def __init__(self, verb: str, game: int, manager: int, until: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "ok", style=discord.ButtonStyle.danger,
                                           custom_id=f"rummy:amend:{verb}:{game}:{manager}:{until}"))
        self.verb, self.game, self.manager, self.until = verb, game, manager, until

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), groups.number("game"), groups.number("manager"), groups.number("until"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await confirm_amend(interaction, self.verb, self.game, self.manager, self.until)


@guarded
async def confirm_amend(interaction: discord.Interaction, verb: str, game: int, manager: int, until: int) -> None:
    """The manager who asked confirms in time: the game is voided (or restored) and the closed
    season's amended standings are stored and posted with the reason. The reason waits in this
    process for the minute the confirmation lasts; after a restart the manager asks again."""
    require_manager(interaction)
    refusal = confirmation_refusal(clicker=interaction.user.id, manager=manager, until=until, now=time.time(),
                                   allowed=is_manager(interaction))
    if refusal is not None:
        raise refusal
    key = (verb, game, manager, until)
    if key not in PENDING:
        raise Refusal("confirmation_expired")
    await void_game(interaction, game, PENDING.pop(key), restore=verb == "r", closed_ok=True)


async def void_game(interaction: discord.Interaction, game_id: int, reason: str, *, restore: bool,
                    closed_ok: bool = False) -> None:
    """Void (or restore) a game's result for a manager; a game of a closed season is confirmed first."""
    assert interaction.guild_id is not None
    client = client_of(interaction)
    loc = user_locale(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
    try:
        done = await client.service.records.void_result(interaction.guild_id, game_id, interaction.user.id, reason,
                                                        restore=restore, closed_ok=closed_ok)
    except Refusal as exc:
        if exc.code != "void_closed_season":
            raise
        # A closed season's standings are kept as they closed: changing them is confirmed first
        # (asked only once everything else about the void is right; nothing was written).
        season = exc.params["season"]
        until = int(time.time()) + CONFIRM_SECONDS
        verb = "r" if restore else "v"
        for old in [k for k in PENDING if k[3] < time.time()]:
            del PENDING[old]
        PENDING[(verb, game_id, interaction.user.id, until)] = reason
        view = View()
        view.add_item(AmendButton(verb, game_id, interaction.user.id, until,
                                  label=translate("amend.button", loc, season=season)))
        text = translate("amend.confirm", loc, game=game_id, season=season, seconds=CONFIRM_SECONDS)
        await interaction.followup.send(text, view=view, ephemeral=True)
        return
    key = "void.restored" if restore else "void.done"
    await interaction.followup.send(translate(key, loc, **summary(done, loc)), ephemeral=True)
    # Everybody who played it is told where they played it, in the server's language.
    row = await client.service.core.get(game_id)
    if row is not None:
        glo = row.locale
        lines = [translate("void.announce_restored" if restore else "void.announce", glo, **summary(done, glo))]
        if done.reason:
            lines.append(translate("void.reason", glo, reason=nm(done.reason)))
        await client.announcer.send(row.channel_id, "\n".join(lines)[:2000])
        if done.amended_season is not None:
            await post_amended(interaction, row.channel_id, done.amended_season, glo)


async def post_amended(interaction: discord.Interaction, channel_id: int, season: int, locale: str) -> None:
    """A closed season's amended standings, for everybody, marked as amended and with the reason."""
    assert interaction.guild_id is not None
    client = client_of(interaction)
    view = await client.service.history.season_view(interaction.guild_id, season)
    text = scores_message(view.season, view.table, view.games, locale, adjustments=view.adjustments,
                          amended=view.amended)
    info = standings_info(view.season, view.table, view.games, amended=view.amended is not None)
    image = await client.announcer.render(render_standings, info, locale=locale)
    await client.announcer.send(channel_id, text[:2000], image=image)


class AdminCog(commands.Cog, name="AdminCog"):
    admin = app_commands.Group(
        name=L("rummy-admin", "cmd.admin"), description=L("Rummy tools for server managers", "cmd.admin.desc"),
        default_permissions=discord.Permissions(manage_guild=True),
        # A server's install only, in servers only (issue 24); refused where the bot is not a member.
        allowed_installs=SERVER_INSTALL, allowed_contexts=SERVERS_ONLY,
    )

    def __init__(self, bot: RummyClient) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    @admin.command(name=L("season", "cmd.season"), description=L("End this season and start the next",
                   "cmd.season.desc"))
    @guarded
    async def season(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)
        assert interaction.guild_id is not None
        loc = user_locale(interaction)
        current = await self.service.records.season(interaction.guild_id)
        until = int(time.time()) + CONFIRM_SECONDS
        view = View()
        view.add_item(NewSeasonButton(current.number, interaction.user.id, until,
                                      label=translate("season.confirm_button", loc, number=current.number + 1)))
        text = translate("season.confirm", loc, number=current.number, next=current.number + 1,
                         seconds=CONFIRM_SECONDS)
        await interaction.response.send_message(text, view=view, ephemeral=True)

    @admin.command(name=L("reset-ratings", "cmd.reset_ratings"), description=L(
        "Forget everybody's skill rating in this server (the season standings stay)", "cmd.reset_ratings.desc"))
    @guarded
    async def reset_ratings(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)
        loc = user_locale(interaction)
        until = int(time.time()) + CONFIRM_SECONDS
        view = View()
        view.add_item(ResetRatingsButton(interaction.user.id, until, label=translate("ratings.reset_button", loc)))
        text = translate("ratings.reset_confirm", loc, seconds=CONFIRM_SECONDS)
        await interaction.response.send_message(text, view=view, ephemeral=True)

    @admin.command(name=L("schedule", "cmd.schedule"), description=L(
        "Start new seasons by themselves every week or month", "cmd.schedule.desc"))
    @app_commands.describe(every=L("How often (off: only by hand with /rummy-admin season)", "cmd.schedule.every"))
    @app_commands.choices(every=[
        Choice(name=L("every week (Monday 00:00 UTC)", "schedule.choice.week"), value="week"),
        Choice(name=L("every month (the 1st, 00:00 UTC)", "schedule.choice.month"), value="month"),
        Choice(name=L("off", "schedule.choice.off"), value="off"),
    ])
    @guarded
    async def schedule(self, interaction: discord.Interaction, every: Choice[str]) -> None:
        require_manager(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
        schedule = await self.service.records.set_season_schedule(
            interaction.guild_id, interaction.user.id, None if every.value == "off" else every.value,
            channel_id=interaction.channel_id, locale=await public_locale(interaction))
        loc = user_locale(interaction)
        if schedule is None:
            text = translate("schedule.off", loc)
        else:
            text = translate("schedule.set", loc, every=translate(f"schedule.every.{schedule.every}", loc),
                             when=int(schedule.next_at), channel=f"<#{schedule.channel_id}>")
        await interaction.followup.send(text, ephemeral=True)

    @admin.command(name=L("kick", "cmd.kick"), description=L("Take a player out of this channel's lobby or game",
                   "cmd.kick.desc"))
    @app_commands.describe(member=L("Who to take out", "cmd.kick.member"))
    @guarded
    async def kick(self, interaction: discord.Interaction, member: discord.User) -> None:
        require_manager(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await channel_game(interaction, "kick")
        change = await self.service.games.kick(row.id, interaction.user.id, member.id)
        await interaction.followup.send(
            translate("kick.done", user_locale(interaction), name=nm(member.display_name)), ephemeral=True)
        if change.game.status == GameStatus.LOBBY:
            await self.bot.announcer.update_lobby_message(change.game)
        await self.bot.announcer.announce(change)

    @admin.command(name=L("void", "cmd.void"), description=L(
        "Void a finished game's result: it stops counting in standings and records", "cmd.void.desc"))
    @app_commands.describe(game=L("The game (its number; pick from the list)", "cmd.void.game"),
                           reason=L("Why (kept in the audit log and shown in the game's channel)", "cmd.void.reason"))
    @guarded
    async def void(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12],
                   reason: app_commands.Range[str, 0, 100] | None = None) -> None:
        require_manager(interaction)
        await self._void(interaction, game, reason or "", restore=False)

    @admin.command(name=L("restore", "cmd.restore"), description=L("Make a voided game's result count again",
                   "cmd.restore.desc"))
    @app_commands.describe(game=L("The voided game (its number; pick from the list)", "cmd.restore.game"))
    @guarded
    async def restore(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12]) -> None:
        require_manager(interaction)
        await self._void(interaction, game, "", restore=True)

    async def _void(self, interaction: discord.Interaction, game_id: int, reason: str, *, restore: bool) -> None:
        await void_game(interaction, game_id, reason, restore=restore)

    @void.autocomplete("game")
    @offering
    async def void_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        return await self._game_choices(interaction, current, voided=False)

    @restore.autocomplete("game")
    @offering
    async def restore_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        return await self._game_choices(interaction, current, voided=True)

    async def _game_choices(self, interaction: discord.Interaction, current: Any, *, voided: bool) -> list[Choice[int]]:
        """The server's latest finished games a manager may void (or restore), newest first; what
        was typed filters by game number. Nothing for members who are not managers."""
        if not is_manager(interaction) or interaction.guild_id is None or (
                not self.bot.guard.typing_allowed(interaction.user.id)):
            return []
        typed = str(current or "").strip().lstrip("#")
        loc = user_locale(interaction)
        games = [g for g in await self.service.records.finished_games(interaction.guild_id, 100)
                 if g.voided == voided and not g.with_bots and g.rated and not g.practice
                 and str(g.game_id).startswith(typed)]
        return [Choice(name=choice_name(g, loc), value=g.game_id) for g in games[:25]]

    @admin.command(name=L("settings", "cmd.settings"), description=L(
        "See or change this server's house rules (default options, presets, timer, language...)",
        "cmd.settings.desc"))
    @app_commands.describe(
        variant=L("The rummy that options, preset and open apply to", "cmd.settings.variant"),
        options=L("That rummy's default options as name=value pairs (- forgets them)", "cmd.settings.options"),
        preset=L("Save the options as a named preset instead (e.g. casa); - as options deletes it",
                 "cmd.settings.preset"),
        open=L("Whether members may open games of that rummy", "cmd.settings.open"),
        timer=L("Default turn timer in minutes (0 = none)", "cmd.settings.timer"),
        bots=L("Whether hosts may add bots", "cmd.settings.bots"),
        language=L("Language of the bot's public messages", "cmd.settings.language"),
    )
    @app_commands.choices(
        variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS],
        language=[Choice(name=L("Spanish", "settings.choice.es"), value="es"),
                  Choice(name=L("English", "settings.choice.en"), value="en"),
                  Choice(name=L("French", "settings.choice.fr"), value="fr"),
                  Choice(name=L("the server's Discord language", "settings.choice.auto"), value="auto")],
    )
    @guarded
    async def settings(self, interaction: discord.Interaction, variant: Choice[str] | None = None,
                       options: app_commands.Range[str, 1, 1000] | None = None,
                       preset: app_commands.Range[str, 1, 20] | None = None, open: bool | None = None,
                       timer: app_commands.Range[float, 0, 1440] | None = None, bots: bool | None = None,
                       language: Choice[str] | None = None) -> None:
        require_manager(interaction)
        await change_settings(interaction, SettingsChange(
            variant=variant.value if variant else None, options=options, preset=preset, open=open,
            timer_minutes=timer, bots=bots, language=language.value if language else None))

    @settings.autocomplete("options")
    @offering
    async def settings_options_autocomplete(self, interaction: discord.Interaction,
                                            current: str) -> list[Choice[str]]:
        return option_choices(interaction, current) if is_manager(interaction) else []

    @admin.command(name=L("bar", "cmd.ban"), description=L("Stop a member from hosting or joining games in this server",
                   "cmd.ban.desc"))
    @app_commands.describe(member=L("Who", "cmd.ban.member"),
                           reason=L("Why (kept in the audit log, and told to them when refused)", "cmd.ban.reason"))
    @guarded
    async def bar(self, interaction: discord.Interaction, member: discord.User,
                  reason: app_commands.Range[str, 0, 100] | None = None) -> None:
        require_manager(interaction)
        await bar_member(interaction, member, reason or "", bar=True)

    @admin.command(name=L("unbar", "cmd.unban"), description=L("Let a barred member host and join games again",
                   "cmd.unban.desc"))
    @app_commands.describe(member=L("Who", "cmd.unban.member"))
    @guarded
    async def unbar(self, interaction: discord.Interaction, member: discord.User) -> None:
        require_manager(interaction)
        await bar_member(interaction, member, "", bar=False)

    @admin.command(name=L("adjust", "cmd.adjust"), description=L(
        "Add points to a member in this season (or take some away)", "cmd.adjust.desc"))
    @app_commands.describe(member=L("Whose points", "cmd.adjust.member"),
                           points=L("How many: below 0 takes them away", "cmd.adjust.points"),
                           reason=L("Why (shown in the standings and the audit log)", "cmd.adjust.reason"))
    @guarded
    async def adjust(self, interaction: discord.Interaction, member: discord.User,
                     points: app_commands.Range[int, -1000, 1000], reason: app_commands.Range[str, 1, 100]) -> None:
        require_manager(interaction)
        assert interaction.guild_id is not None
        if member.bot:
            raise Refusal("adjust_member")
        await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
        done = await self.service.history.adjust(interaction.guild_id, interaction.user.id, member.id,
                                                 member.display_name, points, reason)
        await interaction.followup.send(translate("adjust.done", user_locale(interaction), name=nm(done.name),
                                                  points=f"{done.points:+d}", season=done.season), ephemeral=True)

    @admin.command(name=L("undo", "cmd.undo"), description=L("Undo a points adjustment from the audit log",
                   "cmd.undo.desc"))
    @app_commands.describe(entry=L("The entry's number (#N in /rummy-admin audit)", "cmd.undo.entry"))
    @guarded
    async def undo(self, interaction: discord.Interaction, entry: app_commands.Range[int, 1, 10**12]) -> None:
        require_manager(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)  # a write comes first
        done = await self.service.history.undo(interaction.guild_id, interaction.user.id, entry)
        await interaction.followup.send(translate("adjust.undone", user_locale(interaction), entry=entry,
                                                  name=nm(done.name), points=f"{done.points:+d}"), ephemeral=True)

    @undo.autocomplete("entry")
    @offering
    async def undo_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        """The season's adjustments that still count, newest first; nothing for members who are not managers."""
        if not is_manager(interaction) or interaction.guild_id is None or (
                not self.bot.guard.typing_allowed(interaction.user.id)):
            return []
        typed = str(current or "").strip().lstrip("#")
        return [Choice(name=f"#{a.entry} · {a.name} {a.points:+d} · {a.reason}"[:100], value=a.entry)
                for a in await self.service.history.undoable(interaction.guild_id)
                if a.entry is not None and str(a.entry).startswith(typed)]

    @admin.command(name=L("audit", "cmd.audit"), description=L("What managers did with the bot here, latest first",
                   "cmd.audit.desc"))
    @guarded
    async def audit(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)
        assert interaction.guild_id is not None
        rows = await self.service.records.audit(interaction.guild_id)
        await interaction.response.send_message(audit_message(rows, user_locale(interaction)), ephemeral=True)


    # ------------------------------------------------------------------ tournaments (issue 22: cogs.tournament)
    tournament = app_commands.Group(name=L("tournament", "cmd.tournament"), parent=admin,
                                    description=L("Tournaments: create one, or manage a running one",
                                                  "cmd.tournament.desc"))

    @tournament.command(name=L("new", "cmd.tournament.new"), description=L(
        "Create a tournament in this channel (Swiss, knockout or league)", "cmd.tournament.new.desc"))
    @app_commands.describe(**TOURNAMENT_OPTIONS)
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS],
                          format=[Choice(name=L(f, f"tournament.format.{f}"), value=f)
                                  for f in ("swiss", "knockout", "league")])
    @guarded
    async def tournament_new(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], variant: Choice[str],
        format: Choice[str], start: app_commands.Range[str, 1, 40],
        signup: app_commands.Range[str, 1, 40] | None = None,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        table: app_commands.Range[int, 2, 8] = 2, timer: app_commands.Range[float, 0.0, 1440.0] | None = None,
        rated: bool = True, cap: app_commands.Range[int, 2, 128] = 32, options: str | None = None,
        preset: app_commands.Range[str, 1, 20] | None = None, grace: app_commands.Range[float, 0.0, 60.0] | None = None,
        pause: app_commands.Range[float, 0.0, 60.0] | None = None,
    ) -> None:
        await new_tournament(interaction, name=name, variant=variant.value, format=format.value, start=start,
                             signup=signup, rounds=rounds, table=table, timer=timer, rated=rated, cap=cap,
                             options=options, preset=preset, grace=grace, pause=pause)

    @tournament.command(name=L("manage", "cmd.tournament.manage"), description=L(
        "A manager's action on a running tournament", "cmd.tournament.manage.desc"))
    @app_commands.describe(action=L("What to do", "cmd.tournament.action"),
                           event=L("Which tournament (default: this server's latest)", "cmd.tournament.event"),
                           member=L("Whom (drop, replace)", "cmd.tournament.member"),
                           game=L("Which game (void)", "cmd.tournament.game"))
    @app_commands.choices(action=[Choice(name=L(a, f"tournament.action.{a}"), value=a) for a in TOURNAMENT_ACTIONS])
    @guarded
    async def tournament_manage(self, interaction: discord.Interaction, action: Choice[str],
                                event: app_commands.Range[int, 1, 10**12] | None = None,
                                member: discord.User | None = None,
                                game: app_commands.Range[int, 1, 10**12] | None = None) -> None:
        await manage_tournament(interaction, action.value, event, member, game)

    @tournament_manage.autocomplete("event")
    @offering
    async def tournament_event_autocomplete(self, interaction: discord.Interaction,
                                            current: str) -> list[Choice[int]]:
        return await event_choices(interaction, current)

def summary(game: FinishedGame, locale: str) -> dict[str, Any]:
    """What identifies a finished game to people: its number, variant and players by place."""
    players = ", ".join(f"{place}. {nm(name)}" for _, name, place in game.players)
    return {"game": game.game_id, "variant": variant_name(game.variant, locale), "players": players}


def choice_name(game: FinishedGame, locale: str) -> str:
    """An autocomplete line (plain text, at most 100 characters): number, variant, date, players."""
    when = time.strftime("%Y-%m-%d", time.gmtime(game.finished_at))
    players = ", ".join(f"{place}. {name}" for _, name, place in game.players)
    return f"#{game.game_id} · {variant_name(game.variant, locale)} · {when} · {players}"[:100]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point (``bot.load_extension("cogs.admin")``)."""
    client = cast(RummyClient, bot)  # typed structurally (cogs.base), never imported
    bot.add_dynamic_items(NewSeasonButton, ResetRatingsButton, AmendButton, TournamentButton)
    client.item_patterns += [SEASON_ID, RESET_ID, AMEND_ID, TOURNAMENT_ID]
    use_button_handler(tournament_button)
    await bot.add_cog(AdminCog(client))
