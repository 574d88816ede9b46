"""What the cogs need from the bot, typed without importing it.

What it is: ``RummyClient``, the Protocol of the client attributes the Discord layer reads (the
service, the announcer, the guard, the stop flag, the custom_id patterns of the
persistent items); ``Publisher``, the announcer's methods the cogs call; ``Gatekeeper``, the
guard's; and the small helpers every handler uses (``client_of``, ``channel_game``, the locales, ``L``). The
client (``bot.client``) loads the cogs as extensions by name, so nothing here or in any cog
imports it: the types meet only in these Protocols.
What it is not: no decisions. The client is ``bot.client.RummyBot``, the announcer
``cogs.announcer.Announcer``, the guard ``cogs.guard.Guard``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar, Unpack, cast

import discord
from discord.app_commands import locale_str

from bot.service import Change, GameRow, GameService, GameStatus, Refusal
from bot.words.i18n import locale_of, translate
from cogs.anywhere import TokenBook, is_anywhere, place_key
from cogs.delivery import Parts
from renderers import Rendered

T = TypeVar("T")


class Publisher(Protocol):
    """What the cogs ask of the announcer (``cogs.announcer.Announcer``): every public message."""

    activity: bool  # the bot serves the Activity: lobbies and tables carry Open the table

    async def announce(self, change: Change) -> None: ...

    async def post_table(self, game_id: int, *, repost: bool = False, note: str | None = None) -> None: ...

    async def render(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def replay_picture(self, row: GameRow, deal: int, stamp: int) -> Rendered: ...

    async def lobby_picture(self, row: GameRow) -> Rendered: ...

    async def post_lobby(self, row: GameRow) -> str | None: ...

    async def update_lobby_message(self, row: GameRow, content: str | None = None,
                                   view: discord.ui.View | None = None, image: Rendered | None = None) -> None: ...

    async def send(self, channel_id: int, content: str, **parts: Unpack[Parts]) -> None: ...

    async def announce_season(self, channel_id: int, guild_id: int, ending: int, number: int,
                              locale: str) -> None: ...


class Gatekeeper(Protocol):
    """What the cogs ask of the guard (``cogs.guard.Guard``)."""

    async def run(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...

    def typing_allowed(self, user_id: int) -> bool: ...

    def repost_wait(self, channel_id: int) -> float: ...


class RummyClient(Protocol):
    """The bot as the cogs see it (``bot.client.RummyBot`` is one)."""

    stopping: bool
    item_patterns: list[re.Pattern[str]]
    tokens: TokenBook  # interaction tokens of places the bot is not a member of (issue 24)

    @property
    def service(self) -> GameService: ...

    @property
    def announcer(self) -> Publisher: ...

    @property
    def guard(self) -> Gatekeeper: ...


def client_of(interaction: discord.Interaction) -> RummyClient:
    """The bot that received ``interaction``, as the cogs see it."""
    return cast(RummyClient, interaction.client)


class Answered(Exception):
    """Raised by a handler that has already answered (it asked which game, ``cogs.pick``): the
    guard says nothing more."""


async def place_games(interaction: discord.Interaction, verb: str = "",
                      service: GameService | None = None) -> list[GameRow]:
    """The games "this place" may mean for ``interaction`` (issue 12: many tables in one channel).
    In a game's own thread: that game, whatever its status. Elsewhere: the lobbies and games of
    this server the user sits in (one, or the one of this channel, is it), else this channel's
    (for ``join``, its open lobbies first; for a manager's ``cancel`` and ``kick``, this channel's
    before the games they sit in elsewhere). More than one: the cog asks which."""
    service = service or client_of(interaction).service
    here, guild = interaction.channel_id or 0, place_key(interaction)
    row = await service.threads.in_thread(here)
    if row is not None and row.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
        row = await service.reading.in_channel(here) or row  # a game started later in the ended game's thread
    if row is not None and row.guild_id == guild:
        return [row]
    games = [g for g in await service.threads.channel_games(here) if g.guild_id == guild]
    if verb != "join" and guild is not None:
        mine = await service.threads.seated_games(guild, interaction.user.id)
        local = [g for g in mine if g.channel_id == here]
        if verb in ("cancel", "kick") and games and not local:
            return games  # a manager's power over this channel's games, not over their own elsewhere
        if mine:
            return mine if len(mine) == 1 else (local if len(local) == 1 else local or mine)
    if verb == "join":  # the open lobbies the user does not sit in yet, if there are any
        seated = ({g.id for g in await service.threads.seated_games(guild, interaction.user.id)}
                  if guild is not None else set())
        games = [g for g in games if g.status == GameStatus.LOBBY and g.id not in seated] or games
    return games


async def channel_game(interaction: discord.Interaction, verb: str = "") -> GameRow:
    """The one lobby or game of this place (``place_games``); ``Refusal("no_game")`` if none, and
    ``Refusal("which_game")`` (type it in the game's thread) when there are several."""
    rows = await place_games(interaction, verb)
    if not rows:
        raise Refusal("no_game")
    if len(rows) > 1:
        raise Refusal("which_game")
    return rows[0]


# What the bot needs in a channel to run a game there: see it, post the lobby, the table and the
# turn calls, and attach their pictures (README, "Invite"). Not Embed Links: Discord drops a bot's
# embeds without it, so nothing a game needs is said in an embed alone (the end of a deal draws
# its ledger in the picture; the ledger's embed repeats it as text where embeds are allowed).
CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "attach_files")
# What it needs more to give each game a thread of its own (README, "Invite"): make a public
# thread from the lobby message and post there. It archives only threads it made, which their
# creator may do without Manage Threads.
OWN_THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
THREADED_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)  # a message there can start a thread


def thread_blocker(interaction: discord.Interaction) -> str | None:
    """None when the game of a new lobby here can have a thread of its own; else the sentence (in
    the user's language) that says why it is played in the channel itself."""
    loc = user_locale(interaction)
    if getattr(interaction.channel, "type", None) not in THREADED_CHANNELS:
        return translate("thread.not_here", loc)
    for name in OWN_THREAD_PERMISSIONS:
        if not getattr(interaction.app_permissions, name):
            return translate("thread.no_permission", loc, permission=translate(f"permission.{name}", loc))
    return None


def missing_permission(interaction: discord.Interaction) -> None:
    """``Refusal("bot_permission")`` naming the first permission the bot lacks in this channel
    (``interaction.app_permissions``), in the user's language, so no game starts that nobody sees."""
    if is_anywhere(interaction):  # no channel messages there: only answers (issue 24, docs/anywhere.md)
        return
    channel = interaction.channel
    thread = isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)
    have = interaction.app_permissions
    for name in THREAD_PERMISSIONS if thread else CHANNEL_PERMISSIONS:
        if not getattr(have, name):
            raise Refusal("bot_permission", permission=translate(f"permission.{name}", user_locale(interaction)))


def L(text: str, key: str) -> locale_str:
    """A command name or description with its catalog key (``bot.client.CatalogTranslator``)."""
    return locale_str(text, key=key)


def user_locale(interaction: discord.Interaction) -> str:
    """The clicking user's language: private answers are in it."""
    return locale_of(str(interaction.locale.value) if interaction.locale else None)


def guild_locale(interaction: discord.Interaction) -> str:
    """The server's Discord language (the server's own public messages are in it unless a manager
    chose one; a game's are in its host's)."""
    return locale_of(str(interaction.guild_locale.value) if interaction.guild_locale else None)


async def public_locale(interaction: discord.Interaction) -> str:
    """The language of the server's own public messages (a season, a tournament, shared standings):
    the one the server's managers chose (``/rummy-admin settings language:``), else the server's
    Discord language. A game speaks its host's instead when no manager chose (``/rummy new``:
    ``SettingsService.lobby_plan``), and keeps that language (``GameRow.locale``)."""
    if is_anywhere(interaction):  # no server settings there: the language of whoever opens the game
        return user_locale(interaction)
    assert interaction.guild_id is not None
    chosen = (await client_of(interaction).service.settings.server_config(interaction.guild_id)).language
    return chosen or guild_locale(interaction)
