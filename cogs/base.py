"""What the cogs need from the bot, typed without importing it.

What it is: ``RummyClient``, the Protocol of the client attributes the Discord layer reads (the
service, the announcer, the guard, the settings, the stop flag, the custom_id patterns of the
persistent items); ``Publisher``, the announcer's methods the cogs call; ``Gatekeeper``, the
guard's; and the small helpers every handler uses (``client_of``, ``channel_game``, the locales, ``L``). The
client (``bot.client``) loads the cogs as extensions by name, so nothing here or in any cog
imports it: the types meet only in these Protocols.
What it is not: no decisions. The client is ``bot.client.RummyBot``, the announcer
``bot.announcer.Announcer``, the guard ``cogs.guard.Guard``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar, cast

import discord
from discord.app_commands import locale_str

from bot.config import Settings
from bot.i18n import locale_of, translate
from bot.service import Change, GameRow, GameService, Refusal
from renderers import Rendered

T = TypeVar("T")


class Publisher(Protocol):
    """What the cogs ask of the announcer (``bot.announcer.Announcer``): every public message."""

    async def announce(self, change: Change) -> None: ...

    async def post_table(self, game_id: int, *, repost: bool = False, note: str | None = None) -> None: ...

    async def render(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def replay_picture(self, row: GameRow, deal: int, stamp: int) -> Rendered: ...

    async def lobby_picture(self, row: GameRow) -> Rendered: ...

    async def post_lobby(self, row: GameRow) -> None: ...

    async def update_lobby_message(self, row: GameRow, content: str | None = None,
                                   view: discord.ui.View | None = None, image: Rendered | None = None) -> None: ...

    async def send(self, channel_id: int, content: str, **kwargs: Any) -> None: ...

    async def announce_season(self, channel_id: int, guild_id: int, ending: int, number: int,
                              locale: str) -> None: ...


class Gatekeeper(Protocol):
    """What the cogs ask of the guard (``cogs.guard.Guard``)."""

    async def run(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...

    def typing_allowed(self, user_id: int) -> bool: ...

    def repost_wait(self, channel_id: int) -> float: ...


class RummyClient(Protocol):
    """The bot as the cogs see it (``bot.client.RummyBot`` is one)."""

    settings: Settings
    stopping: bool
    item_patterns: list[re.Pattern[str]]

    @property
    def service(self) -> GameService: ...

    @property
    def announcer(self) -> Publisher: ...

    @property
    def guard(self) -> Gatekeeper: ...


def client_of(interaction: discord.Interaction) -> RummyClient:
    """The bot that received ``interaction``, as the cogs see it."""
    return cast(RummyClient, interaction.client)


async def channel_game(interaction: discord.Interaction) -> GameRow:
    """The lobby or game of the channel the command was typed in; ``Refusal("no_game")`` if none."""
    row = await client_of(interaction).service.in_channel(interaction.channel_id or 0)
    if row is None or row.guild_id != interaction.guild_id:
        raise Refusal("no_game")
    return row


# What the bot needs in a channel to run a game there: see it, post the lobby, the table and the
# turn calls, and attach their pictures (README, "Invite").
CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "attach_files")


def missing_permission(interaction: discord.Interaction) -> None:
    """``Refusal("bot_permission")`` naming the first permission the bot lacks in this channel
    (``interaction.app_permissions``), in the user's language, so no game starts that nobody sees."""
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
    """The server's Discord language (public messages are in it unless the server chose one)."""
    return locale_of(str(interaction.guild_locale.value) if interaction.guild_locale else None)


async def public_locale(interaction: discord.Interaction) -> str:
    """The language of public messages: the one the server's managers chose
    (``/rummy-admin settings language:``), else the server's Discord language."""
    if interaction.guild_id is None:
        return guild_locale(interaction)
    chosen = (await client_of(interaction).service.server_config(interaction.guild_id)).language
    return chosen or guild_locale(interaction)
