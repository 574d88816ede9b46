"""The ``/rummy`` slash commands, and the answer to every click and modal no handler takes.

What it is: the thin Discord layer for players. Every command runs under ``cogs.guard`` (flood
limit, graceful stop, refusals answered privately in the user's language) and does only this:
acknowledge (ephemeral when a hand may follow, so a hand never lands in a public message), ask
``GameService`` (which commits before anything is said), answer the user, and hand the committed
change to the announcer (``cogs.announcer``) for the public messages. The lobby's, the table's and
the hand's buttons live with their messages (``cogs.lobby``, ``cogs.table``, ``cogs.hand``).
What it is not: no rules (``bot.engine``), no SQL (``bot.store``), no drawing (``renderers``), no
public table or turn messages (``cogs.announcer``).
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.engine import VARIANTS, Move
from bot.service import GameService, Refusal
from bot.words.i18n import translate
from bot.words.moves import normalize_move
from cogs.acting import act, seat_here
from cogs.anywhere import ANY_CHANNEL, EVERYWHERE, check_new_game, is_anywhere, place_key
from cogs.base import (
    L,
    RummyClient,
    missing_permission,
    public_locale,
    thread_blocker,
    user_locale,
)
from cogs.builder import BUTTON_ID, SELECT_ID, BuilderButton, BuilderSelect, use_hand_sender
from cogs.guard import guarded, offering
from cogs.hand import (
    HAND_BUTTON_ID,
    HAND_SELECT_ID,
    JOKER_SELECT_ID,
    MODAL_ID,
    VERB_SELECT_ID,
    HandButton,
    HandSelect,
    JokerSelect,
    VerbSelect,
    rearrange,
    send_hand,
    shown_again,
    submitted_text,
)
from cogs.hints import HINT_ID, HintButton, send_hint
from cogs.history import PAST_GAME, game_choices, send_record
from cogs.history import replay as replay_any
from cogs.items import install
from cogs.ladder import chart_info, ladder_info, ladder_message, rating_line
from cogs.launch import LAUNCH_ID, LaunchButton
from cogs.lobby import LOBBY_ID, OPTIONS_MODAL_ID, REMOVE_ID, LobbyButton, RemoveSelect, lobby_action, submit_options
from cogs.pick import PICK_ID, PickSelect, game_here, repost_table, resign
from cogs.settings import option_choices, preset_choices, send_rules
from cogs.standings import history_message, scores_message, standings_info, stats_message
from cogs.suggest import move_choices, resolve_token
from cogs.table import TABLE_ID, TableButton
from cogs.tournament import show_tournaments
from cogs.ui import custom_ids_of, file_of
from renderers.ladder import render_chart, render_ladder
from renderers.standings import render_standings

HISTORY_GAMES = 15  # games listed by /rummy history
log = logging.getLogger(__name__)


@guarded
async def refuse_unknown(interaction: discord.Interaction) -> None:
    """A click or a modal that no handler takes: answered privately, nothing changes."""
    raise Refusal("unknown_button")


class RummyCog(commands.Cog, name="RummyCog"):
    # Installable on servers and users' accounts, usable in servers, DMs and group DMs (issue 24).
    rummy = app_commands.Group(name=L("rummy", "cmd.rummy"), description=L("Play rummy in this channel",
                               "cmd.rummy.desc"), allowed_installs=EVERYWHERE, allowed_contexts=ANY_CHANNEL)

    def __init__(self, bot: RummyClient) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ------------------------------------------------------------------ the lobby
    @rummy.command(name=L("new", "cmd.new"), description=L("Open a lobby for a game in this channel",
                   "cmd.new.desc"))
    @app_commands.describe(
        variant=L("Which rummy", "cmd.new.variant"),
        options=L("Rule options as name=value pairs (see /rummy rules)", "cmd.new.options"),
        timer=L("Turn timer in minutes: 0 = none, 0.5 = 30 s (default: the server's, or 5)", "cmd.new.timer"),
        preset=L("One of this server's presets (house rules) to start from", "cmd.new.preset"),
    )
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    @guarded
    async def new(self, interaction: discord.Interaction, variant: Choice[str], options: str | None = None,
                  timer: app_commands.Range[float, 0, 1440] | None = None,
                  preset: app_commands.Range[str, 1, 40] | None = None) -> None:
        key = place_key(interaction)
        assert key is not None and interaction.channel_id is not None
        anywhere = is_anywhere(interaction)  # issue 24: then the lobby is the public reply, checked before
        if not anywhere:  # every answer to the host is private (issue 15, hole 6); the lobby is posted
            await interaction.response.defer(ephemeral=True, thinking=True)
            missing_permission(interaction)
        check_new_game(interaction)
        no_thread = "" if anywhere else thread_blocker(interaction)  # issue 12: else a thread of its own
        plan = await self.service.settings.lobby_plan(  # the server's house rules, then what the host typed
            key, interaction.user.id, variant.value, options=options or "", timer_minutes=timer,
            preset=preset, locale=user_locale(interaction))  # the host's, unless a manager chose one
        await self.service.games.check_lobby(guild_id=key, channel_id=interaction.channel_id, host_id=(
            interaction.user.id), variant=variant.value, options=plan.options, timer_minutes=plan.timer_minutes,
            threaded=no_thread is None)
        if anywhere:
            await interaction.response.defer(thinking=True)  # public: the lobby fills it
            self.bot.tokens.hold(interaction, reply_free=True)
        change = await self.service.games.open_lobby(
            guild_id=key, channel_id=interaction.channel_id, host_id=interaction.user.id,
            host_name=interaction.user.display_name, variant=variant.value, options=plan.options,
            timer_minutes=plan.timer_minutes, locale=plan.locale, threaded=no_thread is None,
        )
        try:
            failed = await self.bot.announcer.post_lobby(change.game)
        except (discord.HTTPException, Refusal) as exc:
            # Nobody would see this lobby, or its thread could not be made and the channel has a
            # game already: close it again (nothing was played) and say so privately.
            await self.service.games.cancel(change.game.id, interaction.user.id)
            raise exc if isinstance(exc, Refusal) else Refusal("lobby_not_posted") from None
        loc = user_locale(interaction)
        note = no_thread or (failed and translate(failed, loc))  # said once: to the host, privately
        await interaction.followup.send(translate("lobby.opened", loc) + (f"\n{note}" if note else ""), ephemeral=True)

    @new.autocomplete("preset")
    @offering
    async def preset_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await preset_choices(interaction, current)

    @new.autocomplete("options")
    @offering
    async def options_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return option_choices(interaction, current)

    @rummy.command(name=L("join", "cmd.join"), description=L("Take a seat in this channel's lobby", "cmd.join.desc"))
    @guarded
    async def join(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, "join")
        await lobby_action(interaction, "join", row.id, edit=False)

    @rummy.command(name=L("leave", "cmd.leave"), description=L("Leave this channel's lobby", "cmd.leave.desc"))
    @guarded
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, "leave")
        await lobby_action(interaction, "leave", row.id, edit=False)

    @rummy.command(name=L("start", "cmd.start"), description=L("Start the game (host only)", "cmd.start.desc"))
    @guarded
    async def start(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, "start")
        await lobby_action(interaction, "start", row.id, edit=False)

    @rummy.command(name=L("cancel", "cmd.cancel"), description=L("Cancel this channel's lobby or game",
                   "cmd.cancel.desc"))
    @guarded
    async def cancel(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, "cancel")
        await lobby_action(interaction, "cancel", row.id, edit=False)

    @rummy.command(name=L("remove", "cmd.remove"), description=L("Take a player out of your lobby", "cmd.remove.desc"))
    @app_commands.describe(member=L("Who to take out", "cmd.remove.member"))
    @guarded
    async def remove(self, interaction: discord.Interaction, member: discord.User) -> None:
        row = await game_here(interaction, "remove", member.id)
        await lobby_action(interaction, "remove", row.id, edit=False, target=member.id)

    # ------------------------------------------------------------------ playing
    @rummy.command(name=L("hand", "cmd.hand"), description=L("See your hand (only you see it)", "cmd.hand.desc"))
    @guarded
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_hand(interaction, await seat_here(interaction, (await game_here(interaction, "hand")).id))

    @rummy.command(name=L("play", "cmd.play"), description=L("Play a move, e.g. discard KS", "cmd.play.desc"))
    @app_commands.describe(move=L("The move (suggestions list your legal moves)", "cmd.play.move"))
    @guarded
    async def play(self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 4000]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_here(interaction, "play")
        text = await resolve_token(self.service, row, interaction.user.id, move)
        # The typed-text edge: the player's words as RGN, read once into the Move played from here on.
        await act(interaction, row.id, Move.read(normalize_move(text)), answer=shown_again(interaction))

    @rummy.command(name=L("hint", "cmd.hint"), description=L("The move the strong bot would make, and why",
                   "cmd.hint.desc"))
    @guarded
    async def hint(self, interaction: discord.Interaction) -> None:
        """Privately, on your turn: the strong level's move and why, with a button that plays it
        (unrated games only; ``bot.service.hints``). Asking changes nothing."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_hint(interaction, (await game_here(interaction, "hint")).id)

    @play.autocomplete("move")
    @offering
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await move_choices(self.bot, interaction, current)

    @rummy.command(name=L("table", "cmd.table"), description=L("Post the table again", "cmd.table.desc"))
    @guarded
    async def table(self, interaction: discord.Interaction) -> None:
        await repost_table(interaction, await game_here(interaction, "table"))  # one per place per cooldown

    # ------------------------------------------------------------------ reading
    @rummy.command(name=L("rules", "cmd.rules"), description=L("The rules in brief", "cmd.rules.desc"))
    @app_commands.describe(variant=L("Which rummy (default: this channel's game)", "cmd.rules.variant"))
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    @guarded
    async def rules(self, interaction: discord.Interaction, variant: Choice[str] | None = None) -> None:
        await send_rules(interaction, variant.value if variant else None)

    @rummy.command(name=L("scores", "cmd.scores"), description=L("This server's season standings",
                   "cmd.scores.desc"))
    @app_commands.describe(
        variant=L("Only games of this rummy", "cmd.scores.variant"),
        season=L("An earlier season (default: the current one)", "cmd.scores.season"),
        share=L("Post it for the whole channel (default: only you see it)", "cmd.scores.share"),
    )
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    @guarded
    async def scores(self, interaction: discord.Interaction, variant: Choice[str] | None = None,
                     season: app_commands.Range[int, 1, 100_000] | None = None, share: bool = False) -> None:
        key = place_key(interaction)
        assert key is not None
        v = variant.value if variant else None
        view = await self.service.history.season_view(key, season, v)
        found, table, games = view.season, view.table, view.games
        loc = user_locale(interaction) if not share else await public_locale(interaction)
        await interaction.response.defer(ephemeral=not share, thinking=True)
        text = scores_message(found, table, games, loc, variant=v, reader=interaction.user.id,
                              adjustments=view.adjustments, amended=view.amended)
        schedule = await self.service.records.season_schedule(key) if found.ended_at is None else None
        if schedule is not None:
            when = f"<t:{int(schedule.next_at)}:R>"
            text = (text + "\n" + translate("scores.next", loc, when=when))[:2000]
        info = standings_info(found, table, games, variant=v, reader=interaction.user.id,
                              amended=view.amended is not None)
        image = await self.bot.announcer.render(render_standings, info, locale=loc)
        await interaction.followup.send(text, file=file_of(image), ephemeral=not share)

    @rummy.command(name=L("ladder", "cmd.ladder"), description=L("This server's skill rating ladder",
                   "cmd.ladder.desc"))
    @app_commands.describe(
        variant=L("Only the rating in this rummy (default: all of them)", "cmd.ladder.variant"),
        share=L("Post it for the whole channel (default: only you see it)", "cmd.ladder.share"),
    )
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    @guarded
    async def ladder(self, interaction: discord.Interaction, variant: Choice[str] | None = None,
                     share: bool = False) -> None:
        key = place_key(interaction)
        assert key is not None
        v = variant.value if variant else None
        lines = await self.service.ratings.ladder(key, v)
        loc = user_locale(interaction) if not share else await public_locale(interaction)
        await interaction.response.defer(ephemeral=not share, thinking=True)
        text = ladder_message(lines, loc, variant=v, reader=interaction.user.id)
        info = ladder_info(lines, variant=v, reader=interaction.user.id)
        try:
            image = await self.bot.announcer.render(render_ladder, info, locale=loc)
        except Exception:  # the text is the whole ladder: it goes out without its picture
            log.exception("ladder picture failed")
            await interaction.followup.send(text, ephemeral=not share)
            return
        await interaction.followup.send(text, file=file_of(image), ephemeral=not share)

    @rummy.command(name=L("stats", "cmd.stats"), description=L("A player's record in this server",
                   "cmd.stats.desc"))
    @app_commands.describe(member=L("Whose record (default: yours)", "cmd.stats.member"))
    @guarded
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        key = place_key(interaction)
        assert key is not None
        who = member or interaction.user
        loc = user_locale(interaction)
        record = await self.service.records.stats(key, who.id)
        card = await self.service.ratings.player_rating(key, who.id)
        text = stats_message(who.display_name, record, loc, rating=rating_line(card, loc))
        chart = chart_info(who.display_name, card)
        if chart is None:
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            image = await self.bot.announcer.render(render_chart, chart, locale=loc)
        except Exception:  # the rating is in the text: it goes out without its chart
            log.exception("rating chart failed")
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.followup.send(text, file=file_of(image), ephemeral=True)

    @rummy.command(name=L("history", "cmd.history"), description=L("The latest finished games in this server",
                   "cmd.history.desc"))
    @app_commands.describe(member=L("Only the games of this player", "cmd.history.member"))
    @guarded
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        key = place_key(interaction)
        assert key is not None
        games = await self.service.records.finished_games(key, HISTORY_GAMES,
                                                          user_id=member.id if member else None)
        text = history_message(games, user_locale(interaction), member.display_name if member else None)
        await interaction.response.send_message(text, ephemeral=True)

    @rummy.command(name=L("help", "cmd.help"), description=L("How to play with this bot", "cmd.help.desc"))
    @guarded
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(translate("help.text", user_locale(interaction))[:2000],
                                                ephemeral=True)

    # ------------------------------------------------------------------ leaving, looking back
    @rummy.command(name=L("resign", "cmd.resign"), description=L("Leave the game you are playing",
                   "cmd.resign.desc"))
    @guarded
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await resign(interaction, (await game_here(interaction, "resign")).id)

    @rummy.command(name=L("replay", "cmd.replay"), description=L("Replay of the last finished deal here",
                   "cmd.replay.desc"))
    @app_commands.describe(game=PAST_GAME, deal=L("Which deal of it (default: its last)", "cmd.replay.deal"))
    @guarded
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12] | None = None,
                     deal: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        await replay_any(interaction, game, deal)

    @rummy.command(name=L("record", "cmd.record"), description=L("A finished game's record and its moves in words",
                   "cmd.record.desc"))
    @app_commands.describe(game=PAST_GAME)
    @guarded
    async def record(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**12]) -> None:
        await send_record(interaction, game)

    @replay.autocomplete("game")
    @record.autocomplete("game")
    @offering
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        return await game_choices(interaction, current)

    @rummy.command(name=L("tournament", "cmd.tournament"), description=L(
        "Your next table in a tournament, and its standings", "cmd.tournament.player.desc"))
    @guarded
    async def tournament(self, interaction: discord.Interaction,
                         event: app_commands.Range[int, 1, 10**12] | None = None) -> None:
        await show_tournaments(interaction, event)

    # ------------------------------------------------------------------ what no handler takes
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer what no handler will (reliability.md R7): a custom_id that matches none of our
        templates (forged, or from a bot version long gone), and every rearrange modal: its id
        carries the game and version, so a modal sent before a restart is played the same way as a
        live one (``RearrangeModal`` itself answers nothing)."""
        data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
        custom_id = str(data.get("custom_id", ""))
        if interaction.type == discord.InteractionType.component:
            # discord.py drops a click whose custom_id is not on the clicked message, even when it
            # matches a template: answered here too.
            known = any(p.fullmatch(custom_id) for p in self.bot.item_patterns)
            if not known or custom_id not in custom_ids_of(interaction.message):
                await refuse_unknown(interaction)
        elif interaction.type == discord.InteractionType.modal_submit:
            match, lobby = MODAL_ID.fullmatch(custom_id), OPTIONS_MODAL_ID.fullmatch(custom_id)
            if lobby is not None:  # a lobby's new options, from its host (cogs.lobby)
                await submit_options(interaction, int(lobby["game"]), submitted_text(data.get("components", []),
                                                                                     "options"))
            elif match is None:
                await refuse_unknown(interaction)
            else:
                text = submitted_text(data.get("components", []), "table")
                await rearrange(interaction, int(match["game"]), int(match["version"]), text)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point (``bot.load_extension("cogs.rummy")``)."""
    client = cast(RummyClient, bot)  # typed structurally (cogs.base), never imported
    bot.add_dynamic_items(LobbyButton, RemoveSelect, TableButton, HandButton, HandSelect, HintButton, JokerSelect,
                          VerbSelect, BuilderButton, BuilderSelect, PickSelect, LaunchButton)
    client.item_patterns += [LOBBY_ID, REMOVE_ID, TABLE_ID, HAND_BUTTON_ID, HAND_SELECT_ID, HINT_ID, JOKER_SELECT_ID,
                             VERB_SELECT_ID, BUTTON_ID, SELECT_ID, PICK_ID, LAUNCH_ID]
    use_hand_sender(send_hand)  # the builder shows the hand after its move (cogs.hand imports cogs.builder)
    install(bot)  # the command tree's safety net (cogs.items)
    await bot.add_cog(RummyCog(client))
