"""The ``/rummy`` commands and every click: parse, authorize by ``interaction.user.id``, acknowledge,
ask the service, then talk to Discord.

What it is: the thin Discord layer. Each handler acknowledges first (ephemeral when a hand may
follow, so a hand never lands in a public message), calls ``GameService`` (which commits before we
say anything), renders off the event loop and replies. Refusals (``Refusal``, ``IllegalMove``) are
answered privately in the user's language. Public tables are edited through one coalescing task
per channel and re-posted when old or buried.
What it is not: no rules (``bot.engine``), no SQL (``bot.store``), no drawing (``renderers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.engine import VARIANTS, Game, IllegalMove
from bot.i18n import locale_of, translate
from bot.moves import describe_move, normalize_move, rank_moves, refusal_text
from bot.ratelimit import TYPING_BURST, TYPING_RATE, FloodGate
from bot.service import Change, GameService, Refusal, Stale
from bot.store import GameRow, repo
from cogs.standings import history_message, scores_message, standings_info, stats_message
from cogs.ui import (
    DYNAMIC_ITEMS,
    NEEDS_ONE,
    NEEDS_TARGET,
    SORT_NAMES,
    HandState,
    RearrangeModal,
    clock_text,
    file_of,
    final_message,
    hand_message,
    hand_order,
    lobby_info,
    lobby_message,
    mask_of,
    nm,
    result_lines,
    selected_cards,
    table_message,
    target_message,
    variant_name,
)

if TYPE_CHECKING:
    from bot.client import RummyBot

log = logging.getLogger(__name__)

TABLE_MAX_AGE = 45 * 60  # re-post instead of editing well before Discord's one-hour edit cap
BURIED_AFTER = 8  # re-post when this many messages arrived under the table
COALESCE = 0.25  # seconds: edits of one channel's table within this window become one
RENDER_SLOTS = 2  # renders at once (the machine's cores); more would only queue inside threads
HISTORY_GAMES = 15  # games listed by /rummy history


MODAL_ID = re.compile(r"rummy:m:(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9})")


async def refuse_with(exc: Exception) -> None:
    """A coroutine that raises ``exc``: the refusal goes through ``guarded`` like any handler's."""
    raise exc


def _custom_ids_of(message: discord.Message | None) -> set[str]:
    out: set[str] = set()
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        comp = stack.pop()
        cid = getattr(comp, "custom_id", None)
        if cid:
            out.add(cid)
        stack += list(getattr(comp, "children", None) or [])
    return out


def _text_input(components: Any, custom_id: str) -> str:
    """The value of text input ``custom_id`` in a modal submit's components (rows or labels)."""
    stack = list(components or [])
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        if comp.get("custom_id") == custom_id and "value" in comp:
            return str(comp["value"])
        stack += comp.get("components", []) or []
        if isinstance(comp.get("component"), dict):
            stack.append(comp["component"])
    return ""


def L(text: str, key: str) -> locale_str:
    return locale_str(text, key=key)


def user_locale(interaction: discord.Interaction) -> str:
    return locale_of(str(interaction.locale.value) if interaction.locale else None)


class RummyCog(commands.Cog, name="RummyCog"):
    rummy = app_commands.Group(name=L("rummy", "cmd.rummy"), description=L("Play rummy in this channel",
                               "cmd.rummy.desc"), guild_only=True)

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self._render = asyncio.Semaphore(RENDER_SLOTS)
        self._dirty: dict[int, int] = {}
        self._refreshers: dict[int, asyncio.Task[None]] = {}
        self._under_table: dict[int, int] = {}
        self._in_flight = 0  # guarded handlers running now (a graceful stop waits for them)
        self._idle = asyncio.Event()
        self._idle.set()
        flood = bot.settings.flood
        # Every command, click and modal; autocomplete (which cannot be answered in words) apart.
        self.clicks = FloodGate(*flood) if flood else None  # reliability.md R20
        self.typing = FloodGate(TYPING_RATE, TYPING_BURST) if flood else None

    @property
    def service(self) -> GameService:
        assert self.bot.service is not None
        return self.bot.service

    def register_dynamic_items(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def render(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Pillow off the event loop, bounded (reliability.md §1.4, style.md pattern 10)."""
        async with self._render:
            return await asyncio.to_thread(fn, *args, **kwargs)

    # ------------------------------------------------------------------ refusals
    async def refuse(self, interaction: discord.Interaction, exc: Exception, names: dict[str, str] | None = None,
                     ) -> None:
        loc = user_locale(interaction)
        if isinstance(exc, IllegalMove):
            text = refusal_text(exc, loc, names)
        elif isinstance(exc, Refusal):
            text = translate(f"refusal.{exc.code}", loc, **exc.params)
        else:
            text = translate("refusal.error", loc)
        await self.say(interaction, text, ephemeral=True)

    async def say(self, interaction: discord.Interaction, text: str, *, ephemeral: bool = True, **kw: Any) -> None:
        """Answer once: the initial response if none was sent yet, else a followup."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text[:2000], ephemeral=ephemeral, **kw)
            else:
                await interaction.response.send_message(text[:2000], ephemeral=ephemeral, **kw)
        except (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError) as exc:
            log.warning("could not answer interaction %s: %r", interaction.id, exc)

    async def guarded(self, interaction: discord.Interaction, coro: Any, names: dict[str, str] | None = None) -> None:
        if getattr(self.bot, "stopping", False):
            # Shutting down (reliability.md R3): nothing new starts; the player is told to retry.
            coro.close()
            await self.say(interaction, translate("refusal.restarting", user_locale(interaction)))
            return
        self._in_flight += 1
        self._idle.clear()
        try:
            await self._guarded(interaction, coro, names)
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    async def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for the handlers in flight and the pending table edits; the
        number of them still unfinished."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        # A handler's last act may be to ask for a table edit: wait for those after the handlers.
        pending = [t for t in self._refreshers.values() if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()))
        return self._in_flight + sum(not t.done() for t in self._refreshers.values())

    async def _guarded(self, interaction: discord.Interaction, coro: Any, names: dict[str, str] | None) -> None:
        if self.clicks is not None and not self.clicks.allow(interaction.user.id):
            # Flooding: answer at once, touch nothing (no database, no render) (reliability.md R20).
            coro.close()
            wait = max(1, round(self.clicks.retry_after(interaction.user.id)))
            await self.say(interaction, translate("refusal.slow_down", user_locale(interaction), seconds=wait))
            return
        try:
            await coro
        except (Refusal, IllegalMove) as exc:
            if isinstance(exc, Stale):
                await self.stale(interaction, exc.game)
            else:
                await self.refuse(interaction, exc, names)
        except discord.HTTPException as exc:
            # Discord's answer is the whole story (10062: the acknowledgement came too late or the
            # interaction was lost); nothing was committed before the acknowledgement.
            log.warning("Discord refused a reply to interaction %s: %s", interaction.id, exc)
        except Exception as exc:
            log.exception("interaction %s failed", interaction.id)
            await self.refuse(interaction, exc)

    async def stale(self, interaction: discord.Interaction, row: GameRow) -> None:
        await self.say(interaction, translate("refusal.stale", user_locale(interaction)), ephemeral=True)
        await self.post_table(row.id, repost=True)

    # ------------------------------------------------------------------ slash commands
    @rummy.command(name=L("new", "cmd.new"), description=L("Open a lobby for a game in this channel",
                   "cmd.new.desc"))
    @app_commands.describe(
        variant=L("Which rummy", "cmd.new.variant"),
        options=L("Rule options as name=value pairs (see /rummy rules)", "cmd.new.options"),
        timer=L("Turn timer in minutes: 0 = none, 0.5 = 30 s (default 5)", "cmd.new.timer"),
    )
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    async def new(self, interaction: discord.Interaction, variant: Choice[str], options: str | None = None,
                  timer: app_commands.Range[float, 0, 1440] | None = None) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None and interaction.channel_id is not None
            locale = locale_of(str(interaction.guild_locale.value) if interaction.guild_locale else None)
            timer_minutes = 5 if timer is None else timer
            # Refusals are private and come first; then acknowledge publicly (the lobby is for all).
            await self.service.check_lobby(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                           host_id=interaction.user.id, variant=variant.value,
                                           options=options or "", timer_minutes=timer_minutes)
            await interaction.response.defer(thinking=True)
            change = await self.service.open_lobby(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, host_id=interaction.user.id,
                host_name=interaction.user.display_name, variant=variant.value, options=options or "",
                timer_minutes=timer_minutes, locale=locale,
            )
            content, view = lobby_message(change.game, change.game.locale)
            image = await self.lobby_picture(change.game)
            message = await interaction.followup.send(content, view=view, file=file_of(image), wait=True)
            await self.service.set_messages(change.game.id, lobby_message_id=message.id)

        await self.guarded(interaction, run())

    async def _channel_game(self, interaction: discord.Interaction) -> GameRow:
        row = await self.service.in_channel(interaction.channel_id or 0)
        if row is None or row.guild_id != interaction.guild_id:
            raise Refusal("no_game")
        return row

    @rummy.command(name=L("join", "cmd.join"), description=L("Take a seat in this channel's lobby", "cmd.join.desc"))
    async def join(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self._channel_game(interaction)
            await self.lobby_action(interaction, "join", row.id, edit=False)

        await self.guarded(interaction, run())

    @rummy.command(name=L("leave", "cmd.leave"), description=L("Leave this channel's lobby", "cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self._channel_game(interaction)
            await self.lobby_action(interaction, "leave", row.id, edit=False)

        await self.guarded(interaction, run())

    @rummy.command(name=L("start", "cmd.start"), description=L("Start the game (host only)", "cmd.start.desc"))
    async def start(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self._channel_game(interaction)
            await self.lobby_action(interaction, "start", row.id, edit=False)

        await self.guarded(interaction, run())

    @rummy.command(name=L("cancel", "cmd.cancel"), description=L("Cancel this channel's lobby or game",
                   "cmd.cancel.desc"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self._channel_game(interaction)
            await self.lobby_action(interaction, "cancel", row.id, edit=False)

        await self.guarded(interaction, run())

    @rummy.command(name=L("hand", "cmd.hand"), description=L("See your hand (only you see it)", "cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self._channel_game(interaction)
            await self.send_hand(interaction, row)

        await self.guarded(interaction, run())

    @rummy.command(name=L("play", "cmd.play"), description=L("Play a move, e.g. discard KS", "cmd.play.desc"))
    @app_commands.describe(move=L("The move (suggestions list your legal moves)", "cmd.play.move"))
    async def play(self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 4000]) -> None:
        names: dict[str, str] = {}

        async def run() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self._channel_game(interaction)
            names.update(row.names)
            text = await self._resolve_token(row, interaction.user.id, move)
            change = await self.service.play(row.id, interaction.user.id, normalize_move(text),
                                             interaction_id=interaction.id)
            await self.send_hand(interaction, change.game, engine=change.engine)
            await self.announce(change)

        await self.guarded(interaction, run(), names)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The caller's legal moves right now, most useful first; none when it is not their turn.
        Cannot be deferred: answered from the engine directly."""
        if self.typing is not None and not self.typing.allow(interaction.user.id):
            return []
        row = await self.service.in_channel(interaction.channel_id or 0)
        if row is None or row.status != "playing":
            return []
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return []
        game = self.service.engine(row)
        legal = game.legal_moves(seat.seat)
        if not legal:
            return []
        loc = user_locale(interaction)
        picked = rank_moves(legal, current, limit=25)
        out = []
        for m in picked:
            value = m if len(m) <= 100 else f"#{row.version}:{legal.index(m)}"
            out.append(Choice(name=describe_move(m, loc)[:100], value=value))
        return out

    async def _resolve_token(self, row: GameRow, user_id: int, text: str) -> str:
        """A suggestion too long for Discord's 100 characters comes back as ``#<version>:<index>``."""
        if not text.startswith("#"):
            return text
        version, _, index = text[1:].partition(":")
        seat = row.seat_of(user_id)
        if seat is None or not version.isdigit() or not index.isdigit():
            raise Refusal("bad_suggestion")
        if int(version) != row.version:
            raise Refusal("stale_suggestion")
        legal = self.service.engine(row).legal_moves(seat.seat)
        if int(index) >= len(legal):
            raise Refusal("bad_suggestion")
        return legal[int(index)]

    @rummy.command(name=L("table", "cmd.table"), description=L("Post the table again", "cmd.table.desc"))
    async def table(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self._channel_game(interaction)
            if row.status != "playing":
                raise Refusal("not_playing")
            await interaction.response.send_message(translate("table.reposting", user_locale(interaction)),
                                                    ephemeral=True)
            await self.post_table(row.id, repost=True)

        await self.guarded(interaction, run())

    @rummy.command(name=L("rules", "cmd.rules"), description=L("The rules in brief", "cmd.rules.desc"))
    @app_commands.describe(variant=L("Which rummy (default: this channel's game)", "cmd.rules.variant"))
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    async def rules(self, interaction: discord.Interaction, variant: Choice[str] | None = None) -> None:
        async def run() -> None:
            loc = user_locale(interaction)
            row = await self.service.in_channel(interaction.channel_id or 0)
            name = variant.value if variant else (row.variant if row else "basic")
            text = translate(f"rules.{name}", loc)
            if row is not None and row.variant == name:
                text += "\n\n" + translate("rules.options_header", loc) + " " + (
                    f"`{row.options}`" if row.options else translate("lobby.defaults", loc))
            await interaction.response.send_message(text[:2000], ephemeral=True)

        await self.guarded(interaction, run())

    @rummy.command(name=L("scores", "cmd.scores"), description=L("This server's season standings",
                   "cmd.scores.desc"))
    @app_commands.describe(
        variant=L("Only games of this rummy", "cmd.scores.variant"),
        season=L("An earlier season (default: the current one)", "cmd.scores.season"),
        share=L("Post it for the whole channel (default: only you see it)", "cmd.scores.share"),
    )
    @app_commands.choices(variant=[Choice(name=L(v, f"variant.{v}"), value=v) for v in VARIANTS])
    async def scores(self, interaction: discord.Interaction, variant: Choice[str] | None = None,
                     season: app_commands.Range[int, 1, 100_000] | None = None, share: bool = False) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None
            v = variant.value if variant else None
            found, table, games = await self.service.scores(interaction.guild_id, season, v)
            loc = user_locale(interaction) if not share else locale_of(
                str(interaction.guild_locale.value) if interaction.guild_locale else None)
            await interaction.response.defer(ephemeral=not share, thinking=True)
            text = scores_message(found, table, games, loc, variant=v, reader=interaction.user.id)
            schedule = await self.service.season_schedule(interaction.guild_id) if found.ended_at is None else None
            if schedule is not None:
                when = f"<t:{int(schedule['next_at'])}:R>"
                text = (text + "\n" + translate("scores.next", loc, when=when))[:2000]
            from renderers.standings import render_standings

            image = await self.render(render_standings, standings_info(found, table, games, variant=v,
                                                                       reader=interaction.user.id), locale=loc)
            await interaction.followup.send(text, file=file_of(image), ephemeral=not share)

        await self.guarded(interaction, run())

    @rummy.command(name=L("stats", "cmd.stats"), description=L("A player's record in this server",
                   "cmd.stats.desc"))
    @app_commands.describe(member=L("Whose record (default: yours)", "cmd.stats.member"))
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None
            who = member or interaction.user
            record = await self.service.stats(interaction.guild_id, who.id)
            text = stats_message(who.display_name, record, user_locale(interaction))
            await interaction.response.send_message(text, ephemeral=True)

        await self.guarded(interaction, run())

    @rummy.command(name=L("history", "cmd.history"), description=L("The latest finished games in this server",
                   "cmd.history.desc"))
    @app_commands.describe(member=L("Only the games of this player", "cmd.history.member"))
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def run() -> None:
            assert interaction.guild_id is not None
            games = await self.service.finished_games(interaction.guild_id, HISTORY_GAMES,
                                                      user_id=member.id if member else None)
            text = history_message(games, user_locale(interaction), member.display_name if member else None)
            await interaction.response.send_message(text, ephemeral=True)

        await self.guarded(interaction, run())

    @rummy.command(name=L("help", "cmd.help"), description=L("How to play with this bot", "cmd.help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.send_message(translate("help.text", user_locale(interaction))[:2000],
                                                    ephemeral=True)

        await self.guarded(interaction, run())

    @rummy.command(name=L("resign", "cmd.resign"), description=L("Leave the game you are playing",
                   "cmd.resign.desc"))
    async def resign(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self._channel_game(interaction)
            change = await self.service.play(row.id, interaction.user.id, "resign", interaction_id=interaction.id)
            await interaction.followup.send(translate("resign.done", user_locale(interaction)), ephemeral=True)
            await self.announce(change)

        await self.guarded(interaction, run())

    @rummy.command(name=L("replay", "cmd.replay"), description=L("Replay of the last finished deal here",
                   "cmd.replay.desc"))
    async def replay(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            row = await self.service.in_channel(interaction.channel_id or 0)
            if row is None or not row.record:
                row = await self.service.last_in_channel(interaction.channel_id or 0)
            if row is None or not row.record:
                raise Refusal("no_replay")
            game = self.service.engine(row)
            deal = game.public_view().deal_number - (0 if game.hand_over else 1)
            if deal < 1 or deal < getattr(game, "first_deal", 1):
                raise Refusal("no_replay")
            await interaction.response.defer(thinking=True)  # public: the replay is for the channel
            from renderers import render_replay

            image = await self.render(render_replay, row.record, deal=deal, locale=row.locale, names=row.names)
            await interaction.followup.send(translate("replay.title", row.locale, deal=deal), file=file_of(image))

        await self.guarded(interaction, run())

    # ------------------------------------------------------------------ lobby buttons and commands
    async def on_lobby_button(self, interaction: discord.Interaction, verb: str, game_id: int) -> None:
        await self.guarded(interaction, self.lobby_action(interaction, verb, game_id, edit=True))

    async def lobby_action(self, interaction: discord.Interaction, verb: str, game_id: int, *, edit: bool) -> None:
        # Acknowledge first: a button privately (type 6, the lobby is then edited in place), a
        # command ephemerally; refusals that follow are ephemeral followups either way.
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.get(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise Refusal("no_game")
        user = interaction.user
        if verb == "join":
            change = await self.service.join(game_id, user.id, user.display_name)
        elif verb == "leave":
            change = await self.service.leave(game_id, user.id)
        elif verb == "bot":
            change = await self.service.add_bot(game_id, user.id)
        elif verb == "unbot":
            change = await self.service.remove_bot(game_id, user.id)
        elif verb == "cancel":
            perms = interaction.permissions
            is_admin = bool(perms.manage_guild or perms.administrator)  # checked now, not by Discord's defaults
            change = await self.service.cancel(game_id, user.id, is_admin=is_admin)
        else:
            change = await self.service.start(game_id, user.id)
        loc = change.game.locale
        closed = None
        if change.game.status == "cancelled":
            closed = translate("lobby.cancelled", loc)
        elif change.game.status == "playing":
            closed = translate("lobby.started", loc)
        if change.kind == "cancel" and row.status == "playing":
            closed = translate("game.cancelled", loc)
        content, view = lobby_message(change.game, loc, closed=closed)
        image = await self.lobby_picture(change.game)
        if edit and row.status == "lobby":
            await interaction.edit_original_response(content=content, view=view, attachments=[file_of(image)])
        else:
            await interaction.followup.send(translate(f"lobby.done.{verb}", user_locale(interaction)), ephemeral=True)
            if row.status == "lobby":
                await self.update_lobby_message(change.game, content, view, image)
        await self.announce(change)

    async def update_lobby_message(self, row: GameRow, content: str | None = None, view: Any = None,
                                   image: Any = None) -> None:
        """Edit the public lobby message in place (after a change made from elsewhere)."""
        if not row.lobby_message_id:
            return
        if content is None:
            content, view = lobby_message(row, row.locale)
            image = await self.lobby_picture(row)
        await self._edit_channel_message(row.channel_id, row.lobby_message_id, content=content, view=view,
                                         attachments=[file_of(image)])

    # ------------------------------------------------------------------ table buttons
    async def on_table_button(self, interaction: discord.Interaction, verb: str, game_id: int,
                              version: int | None) -> None:
        names: dict[str, str] = {}

        async def run() -> None:
            row = await self.service.get(game_id)
            if row is None or row.guild_id != interaction.guild_id:
                raise Refusal("no_game")
            names.update(row.names)
            if verb == "rematch":
                await interaction.response.defer()
                change = await self.service.rematch(game_id, interaction.user.id, interaction.user.display_name)
                content, view = lobby_message(change.game, change.game.locale)
                channel = self._channel(change.game.channel_id)
                image = await self.lobby_picture(change.game)
                message = await channel.send(content, view=view, file=file_of(image))
                await self.service.set_messages(change.game.id, lobby_message_id=message.id)
                return
            if verb == "next":
                await interaction.response.defer()
                change = await self.service.next_deal(game_id, interaction.user.id, version=version)
                await self.announce(change)
                return
            # A hand may follow: acknowledge privately first (a public defer would make it public).
            await interaction.response.defer(ephemeral=True, thinking=True)
            if row.seat_of(interaction.user.id) is None:
                raise Refusal("not_seated")
            if verb == "hand":
                await self.send_hand(interaction, row)
                return
            change = await self.service.play(game_id, interaction.user.id, verb, interaction_id=interaction.id,
                                             version=version)
            await self.send_hand(interaction, change.game, engine=change.engine)
            await self.announce(change)

        await self.guarded(interaction, run(), names)

    # ------------------------------------------------------------------ the private hand
    async def send_hand(self, interaction: discord.Interaction, row: GameRow, *, engine: Game | None = None,
                        state: HandState | None = None, edit: bool = False) -> None:
        """The caller's own hand, privately: seat from ``interaction.user.id``, never from a custom_id."""
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("not_seated")
        if row.status != "playing" and not (row.status == "finished" and engine is not None):
            raise Refusal("not_playing")
        game = engine if engine is not None else self.service.engine(row)
        loc = user_locale(interaction)
        state = state or HandState(row.id, row.version)
        if state.version != row.version:
            state = HandState(row.id, row.version, 0, state.sort)
        from renderers import render_hand

        picked = frozenset(i for i in range(state.mask.bit_length()) if state.mask >> i & 1)
        image = await self.render(render_hand, game.view(seat.seat), sort=SORT_NAMES[state.sort], locale=loc,
                                  selected=picked)
        content, view = hand_message(row, game, seat.seat, state, loc)
        if edit:
            await interaction.edit_original_response(content=content, attachments=[file_of(image)], view=view)
        else:
            await interaction.followup.send(content, file=file_of(image), view=view, ephemeral=True)

    async def on_hand_select(self, interaction: discord.Interaction, page: int, values: list[str],
                             state: HandState) -> None:
        async def run() -> None:
            await interaction.response.defer()  # type 6: the hand message is edited in place
            row = await self.service.get(state.game_id)
            if row is None:
                raise Refusal("no_game")
            if row.version != state.version:
                raise Refusal("hand_changed")
            picked = 0
            for v in values:
                if v.isdigit():
                    picked |= 1 << int(v)
            page_bits = ((1 << 25) - 1) << (page * 25)
            mask = (state.mask & ~page_bits) | (picked & page_bits)
            await self.send_hand(interaction, row, state=HandState(row.id, row.version, mask, state.sort), edit=True)

        await self.guarded(interaction, run())

    async def on_hand_button(self, interaction: discord.Interaction, verb: str, arg: int | None,
                             state: HandState) -> None:
        names: dict[str, str] = {}

        async def run() -> None:
            row = await self.service.get(state.game_id)
            if row is None or row.guild_id != interaction.guild_id:
                raise Refusal("no_game")
            names.update(row.names)
            seat = row.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("not_seated")
            if verb == "table":
                if row.version != state.version:
                    raise Stale(row)
                game = self.service.engine(row)
                text = " | ".join(" ".join(m) for m in game.table)
                await interaction.response.send_modal(RearrangeModal(row.id, row.version, text,
                                                                     user_locale(interaction)))
                return
            await interaction.response.defer()  # type 6: edit this hand message in place afterwards
            if verb in ("sort", "clear"):
                game = self.service.engine(row)
                sort = (state.sort + 1) % len(SORT_NAMES) if verb == "sort" else state.sort
                mask = 0
                if verb == "sort" and row.version == state.version:  # keep the same cards selected
                    mask = mask_of(hand_order(game, seat.seat, sort), selected_cards(game, seat.seat, state))
                await self.send_hand(interaction, row, state=HandState(row.id, row.version, mask, sort), edit=True)
                return
            if row.version != state.version:
                await self.say(interaction, translate("refusal.hand_changed", user_locale(interaction)))
                await self.send_hand(interaction, row, edit=True)
                return
            game = self.service.engine(row)
            cards = selected_cards(game, seat.seat, state)
            move = await self._move_from_hand(interaction, row, game, seat.seat, verb, arg, cards, state)
            if move is None:
                return
            change = await self.service.play(row.id, interaction.user.id, move, interaction_id=interaction.id,
                                             version=state.version)
            await self.send_hand(interaction, change.game, engine=change.engine,
                                 state=HandState(row.id, change.game.version, 0, state.sort), edit=True)
            await self.announce(change)

        await self.guarded(interaction, run(), names)

    async def _move_from_hand(self, interaction: discord.Interaction, row: GameRow, game: Game, seat: str, verb: str,
                              arg: int | None, cards: list[str], state: HandState) -> str | None:
        """The RGN move a hand button means with the selected cards; None when we asked a question."""
        if verb in NEEDS_ONE:
            if len(cards) != 1:
                raise Refusal("pick_one_card")
            return f"{verb} {cards[0]}"
        if verb == "meld":
            if not cards:
                raise Refusal("pick_cards")
            return "meld " + " ".join(cards)
        if verb in NEEDS_TARGET:
            if not cards:
                raise Refusal("pick_cards")
            if arg is not None:
                return f"{verb} {' '.join(cards)} to {arg}"
            targets = [n for n in range(1, len(game.table) + 1)
                       if game.accepts(seat, f"{verb} {' '.join(cards)} to {n}")]
            if len(targets) == 1:
                return f"{verb} {' '.join(cards)} to {targets[0]}"
            if not targets:
                return f"{verb} {' '.join(cards)} to 1"  # let the engine say why
            content, view = target_message(state, verb, targets, user_locale(interaction))
            await interaction.followup.send(content, view=view, ephemeral=True)
            return None
        return verb

    async def on_rearrange(self, interaction: discord.Interaction, game_id: int, version: int, text: str) -> None:
        names: dict[str, str] = {}

        async def run() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.service.get(game_id)
            if row is None:
                raise Refusal("no_game")
            names.update(row.names)
            cleaned = " ".join(text.replace("\n", " | ").split())
            change = await self.service.play(game_id, interaction.user.id, f"table {cleaned}",
                                             interaction_id=interaction.id, version=version)
            await self.send_hand(interaction, change.game, engine=change.engine)
            await self.announce(change)

        await self.guarded(interaction, run(), names)

    # ------------------------------------------------------------------ announcing committed changes
    async def announce(self, change: Change) -> None:
        """Say on Discord what a committed change did. Discord errors are logged, never undone."""
        try:
            await self._announce(change)
        except (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError) as exc:
            # The move is committed; the next refresh (or /rummy table) shows it.
            log.warning("announcing %s of game %s failed: %r", change.kind, change.game.id, exc)

    async def _announce(self, change: Change) -> None:
        row = change.game
        loc = row.locale
        if change.kind in ("join", "leave"):
            return
        if change.kind in ("cancel", "expire"):
            if change.kind == "expire" and row.lobby_message_id:
                content, _ = lobby_message(row, loc, closed=translate("lobby.expired", loc))
                image = await self.lobby_picture(row)
                await self._edit_channel_message(row.channel_id, row.lobby_message_id, content=content, view=None,
                                                 attachments=[file_of(image)])
            await self._delete_turn_message(row)
            if row.table_message_id:
                await self._edit_channel_message(row.channel_id, row.table_message_id,
                                                 content=translate("game.cancelled", loc), view=None)
            return
        game = change.engine or self.service.engine(row)
        if change.kind == "remind":
            seat = row.by_seat(change.seat or "")
            if seat is not None:
                await self._post_turn(row, seat.user_id, translate("turn.reminder", loc, user=f"<@{seat.user_id}>")
                                      + clock_text(row, game, loc))
            return
        if change.kind == "start":
            await self.post_table(row.id, repost=True)
        else:
            self.request_table(row)
        if change.kind == "timeout" and change.seat:
            seat = row.by_seat(change.seat)
            if seat is not None:
                key = "turn.resigned_timeouts" if change.resigned_by_timeouts else "turn.timed_out"
                await self._channel(row.channel_id).send(translate(key, loc, name=nm(seat.name)))
        if change.deal_over and change.kind in ("move", "timeout", "window", "resign", "bot"):
            await self._post_deal_end(row, game)
        if change.game_over:
            await self._delete_turn_message(row)
            results = await repo.results_of(self.service.db, row.id)
            content, view = final_message(row, game, list(results), loc)
            await self._channel(row.channel_id).send(content, view=view)
            return
        if change.turn_changed and not game.hand_over:
            await self._announce_turn(row, game)

    async def _announce_turn(self, row: GameRow, game: Game) -> None:
        loc = row.locale
        actors = list(game.actors)
        if not actors:
            return
        users = [s.user_id for a in actors if (s := row.by_seat(a)) is not None and not s.is_bot]
        if not users:  # only computer players to act: nobody to call, and the last call is over
            await self._delete_turn_message(row)
            return
        if game.phase == "window":
            text = translate("turn.window", loc, users=" ".join(f"<@{u}>" for u in users))
        else:
            text = translate("turn.yours", loc, user=f"<@{users[0]}>", variant=variant_name(row.variant, loc))
        await self._post_turn(row, users, text + clock_text(row, game, loc))

    async def _post_turn(self, row: GameRow, users: int | list[int], text: str) -> None:
        """A new short message that mentions whose turn it is (an edit would not notify); the
        previous one is deleted. Only these users can be pinged, never roles or everyone."""
        ids = [users] if isinstance(users, int) else users
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(u) for u in ids])
        channel = self._channel(row.channel_id)
        message = await channel.send(text, allowed_mentions=mentions)
        old = row.turn_message_id
        await self.service.set_messages(row.id, turn_message_id=message.id)
        if old:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()

    async def _delete_turn_message(self, row: GameRow) -> None:
        if row.turn_message_id:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(row.channel_id).get_partial_message(row.turn_message_id).delete()
            await self.service.set_messages(row.id, turn_message_id=None)

    async def _post_deal_end(self, row: GameRow, game: Game) -> None:
        from renderers import render_result

        loc = row.locale
        image = await self.render(render_result, game.public_view(), locale=loc, names=row.names)
        lines = [translate("deal.over", loc, deal=game.public_view().deal_number), *result_lines(row, game, loc)]
        view = None
        if not game.game_over:
            lines.append(translate("deal.next_hint", loc, seconds=int(self.service.deal_pause)))
            from cogs.ui import TableButton

            view = discord.ui.View(timeout=None)
            view.add_item(TableButton("next", row.id, row.version, label=translate("button.next", loc),
                                      style=discord.ButtonStyle.success))
        kwargs: dict[str, Any] = {"file": file_of(image)}
        if view is not None:
            kwargs["view"] = view
        await self._channel(row.channel_id).send("\n".join(lines)[:2000], **kwargs)

    # ------------------------------------------------------------------ the public table
    def request_table(self, row: GameRow) -> None:
        """Coalesce: several changes within ``COALESCE`` seconds become one edit of the table."""
        self._dirty[row.channel_id] = row.id
        task = self._refreshers.get(row.channel_id)
        if task is None or task.done():
            self._refreshers[row.channel_id] = asyncio.create_task(self._refresh(row.channel_id))

    async def _refresh(self, channel_id: int) -> None:
        await asyncio.sleep(COALESCE)
        while channel_id in self._dirty:
            game_id = self._dirty.pop(channel_id)
            try:
                await self.post_table(game_id)
            except Exception:
                log.exception("refreshing the table of game %s failed", game_id)

    async def post_table(self, game_id: int, *, repost: bool = False, note: str | None = None) -> None:
        """Edit the table message in place, or post it afresh when asked, when it is old (Discord
        caps edits of old messages) or buried under other messages; an edit that fails re-posts once."""
        row = await self.service.get(game_id)
        if row is None or row.status not in ("playing", "finished") or not row.record:
            return
        game = self.service.engine(row)
        from renderers import render_table

        image = await self.render(render_table, game.public_view(), locale=row.locale, names=row.names)
        content, view = table_message(row, game, row.locale, note=note)
        channel = self._channel(row.channel_id)
        fresh = (row.table_message_id and row.table_posted_at and time.time() - row.table_posted_at < TABLE_MAX_AGE
                 and self._under_table.get(row.channel_id, 0) < BURIED_AFTER)
        if not repost and fresh and row.table_message_id:
            try:
                await channel.get_partial_message(row.table_message_id).edit(
                    content=content, attachments=[file_of(image)], view=view)
                return
            except discord.HTTPException:
                log.info("table message of game %s could not be edited; posting it again", game_id)
        # The old table is left as it is, not edited (it may be past the edit cap) nor deleted:
        # its buttons keep answering, a turn button there says "out of date".
        message = await channel.send(content, file=file_of(image), view=view)
        self._under_table[row.channel_id] = 0
        await self.service.set_messages(row.id, table_message_id=message.id, table_posted_at=time.time())

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer what no handler will (reliability.md R7): a custom_id that matches none of our
        templates (forged, or from a bot version long gone), and a rearrange modal submitted after
        a restart emptied discord.py's modal store (the modal's id carries the game and version)."""
        data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
        custom_id = str(data.get("custom_id", ""))
        if interaction.type == discord.InteractionType.component:
            # discord.py drops a click whose custom_id is not on the clicked message, even when it
            # matches a template: answered here too.
            known = any(p.fullmatch(custom_id) for p in getattr(self.bot, "item_patterns", ()))
            if not known or custom_id not in _custom_ids_of(interaction.message):
                await self.guarded(interaction, refuse_with(Refusal("unknown_button")))
        elif interaction.type == discord.InteractionType.modal_submit:
            store = getattr(getattr(self.bot, "_connection", None), "_view_store", None)
            if custom_id in getattr(store, "_modals", {}):
                return  # a live modal: its own on_submit answers
            match = MODAL_ID.fullmatch(custom_id)
            if match is None:
                await self.guarded(interaction, refuse_with(Refusal("unknown_button")))
            else:
                text = _text_input(data.get("components", []), "table")
                await self.on_rearrange(interaction, int(match["game"]), int(match["version"]), text)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.id != getattr(self.bot.user, "id", None):
            self._under_table[message.channel.id] = self._under_table.get(message.channel.id, 0) + 1

    async def resume_games(self, game_ids: list[int]) -> None:
        """After a restart: every running game's table is posted afresh with a note, and running
        turn timers get a full turn again (players should not lose a turn to our downtime). The
        old table stays: its buttons still answer (My hand always; a turn button from an older
        version says so and points to the fresh table)."""
        for game_id in game_ids:
            row = await self.service.get(game_id)
            if row is None or row.status != "playing":
                continue
            try:
                if row.turn_deadline is not None and row.timer_minutes:
                    await self.service.set_messages(row.id, turn_deadline=time.time() + row.timer_minutes * 60,
                                                    turn_reminded=0)
                await self.post_table(row.id, repost=True, note=translate("table.restarted", row.locale))
            except Exception:
                log.exception("could not resume game %s", row.id)

    async def lobby_picture(self, row: GameRow) -> Any:
        from renderers import render_lobby

        return await self.render(render_lobby, lobby_info(row), locale=row.locale)

    # ------------------------------------------------------------------ small helpers
    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def _edit_channel_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self._channel(channel_id).get_partial_message(message_id).edit(**kwargs)

