"""The one seam between the announcer and Discord: how a message reaches the place it is for.

What it is: ``Delivery``, the Protocol of what the announcer (``cogs.announcer``) asks of Discord:
post this, edit that, delete that, reply privately to an interaction, and give a game a thread of
its own and archive it (issue 12); ``Parts``, what a message is made of (a picture, buttons, an
embed, the users it may notify); and ``ChannelDelivery``, today's delivery: channel and thread
messages sent with the bot's token (``client.get_partial_messageable``). A place is the id of the
channel or thread a game is played in (``GameRow.place``, ``GameRow.channel_id``); a message is
named by its id, which the service stores (``set_messages``). The next delivery, through
interaction tokens (group DMs, servers that never added the bot: the interaction's response,
its follow-ups, edits of the original response), is one more class with these methods: nothing
else changes.
What it is not: no layout (``cogs.lobby``, ``cogs.table``, ``cogs.standings``, ``cogs.ledger``
write the messages) and no decision about what to post or what a refusal means
(``cogs.announcer``): Discord's errors (``discord.HTTPException``) pass through unchanged, except
in ``reply_privately``, whose failure is only logged (nothing waits on it).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final, Protocol, TypedDict, Unpack

import aiohttp
import discord

from cogs.ui import file_of
from renderers import Rendered

log = logging.getLogger(__name__)

LONGEST_ARCHIVE: Final = 10080  # minutes: a thread's longest auto-archive (a week)
THREAD_ALREADY_MADE: Final = 160004  # Discord: "A thread has already been created for this message"
ADOPT_LOOKBACK: Final = 50  # the channel's latest messages looked through for a post to adopt


class Parts(TypedDict, total=False):
    """What a message carries besides its text. A part left out is left as it is: on a post it is
    not there, on an edit the message keeps it."""

    image: Rendered  # the picture, attached (an edit replaces the attachments with it)
    view: discord.ui.View | None  # the buttons; None on an edit takes them away
    embed: discord.Embed
    ping: Sequence[int]  # post only: the users the message may notify; without it, nobody
    once: str  # post only, in channels: a key (25 characters at most) with which a repeated post
    # of the same message returns the first one instead of making a second, as long as Discord
    # remembers the key (its ``enforce_nonce``: "the past few minutes"); interaction tokens ignore it
    news: bool  # post only: a game's own news (the table, the turn call, a timeout), which a living
    # token of a player's interaction in that place may carry instead of the bot's token, outside
    # the bot's global request budget (issue 37, ``cogs.anywhere.RoutedDelivery``)
    adopt_after: float  # post only, in channels: a repeat after a stop that may have outlasted Discord's
    # memory of ``once``; our own message posted since this time (Unix seconds) with the very same
    # text, among the channel's latest ``ADOPT_LOOKBACK``, is taken as the post instead of a second one


class Edit(Parts, total=False):
    content: str  # the new text; left out, the text stays


class Delivery(Protocol):
    """How the announcer's messages reach Discord (``ChannelDelivery`` today)."""

    async def post(self, place: int, content: str, **parts: Unpack[Parts]) -> int:
        """Post a new message in ``place``; its id."""
        ...

    async def edit(self, place: int, message_id: int, **parts: Unpack[Edit]) -> None:
        """Edit a message posted earlier in ``place``."""
        ...

    async def delete(self, place: int, message_id: int) -> None:
        """Delete a message posted earlier in ``place``."""
        ...

    async def renews(self, place: int, message_id: int) -> bool:
        """Whether that message is better posted afresh than edited (an edit would spend the
        bot's request budget where a post would not; issue 37)."""
        ...

    async def reply_privately(self, interaction: discord.Interaction, content: str) -> None:
        """Answer ``interaction`` with a message only its user sees."""
        ...

    async def start_thread(self, place: int, message_id: int, name: str, *, guild_id: int | None) -> int:
        """Make a public thread from a message posted in ``place`` (a channel of server
        ``guild_id``); the thread's id, the game's new place. ``ValueError`` or
        ``discord.HTTPException`` when no thread can be made there."""
        ...

    async def archive_thread(self, thread_id: int) -> None:
        """Archive a thread made by ``start_thread``."""
        ...


def mentions(users: Sequence[int] | None) -> discord.AllowedMentions:
    """Only these users may be notified, never roles or everyone; nobody when None."""
    if users is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in users])


def post_arguments(parts: Parts) -> dict[str, Any]:
    """discord.py's keyword arguments for a new message with these parts (every implementation
    of the seam posts the same message: the picture as a file, the buttons, the embed, who may be
    notified)."""
    kwargs: dict[str, Any] = {"allowed_mentions": mentions(parts.get("ping"))}
    if "image" in parts:
        kwargs["file"] = file_of(parts["image"])
    if parts.get("view") is not None:
        kwargs["view"] = parts["view"]
    if "embed" in parts:
        kwargs["embed"] = parts["embed"]
    return kwargs


def edit_arguments(parts: Edit) -> dict[str, Any]:
    """discord.py's keyword arguments for an edit: only the parts given change (``view=None``
    takes the buttons away; a new picture replaces the attachments)."""
    kwargs: dict[str, Any] = {}
    if "content" in parts:
        kwargs["content"] = parts["content"]
    if "image" in parts:
        kwargs["attachments"] = [file_of(parts["image"])]
    if "view" in parts:
        kwargs["view"] = parts["view"]
    if "embed" in parts:
        kwargs["embed"] = parts["embed"]
    return kwargs


async def reply_privately(interaction: discord.Interaction, content: str) -> None:
    """Answer once, privately: the initial response if none was sent yet, else a follow-up. A
    failure is logged (the answer is all that was at stake: nothing is committed after it)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content[:2000], ephemeral=True)
        else:
            await interaction.response.send_message(content[:2000], ephemeral=True)
    except (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError) as exc:
        log.warning("could not answer interaction %s: %r", interaction.id, exc)


class ChannelDelivery:
    """Messages in channels and threads, sent with the bot's token through ``client``."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _channel(self, place: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(place)

    async def post(self, place: int, content: str, **parts: Unpack[Parts]) -> int:
        if "adopt_after" in parts:
            found = await self._own_post(place, content, parts["adopt_after"])
            if found is not None:
                return found
        kwargs = post_arguments(parts)
        if "once" in parts:
            kwargs["nonce"] = parts["once"]  # discord.py sends it with enforce_nonce
        message = await self._channel(place).send(content, **kwargs)
        return int(message.id)

    async def _own_post(self, place: int, content: str, since: float) -> int | None:
        """Our newest message in ``place`` posted after ``since`` with exactly ``content``. Without
        Read Message History Discord lists no messages, and without access it refuses: then none."""
        me = self.client.user
        if me is None:
            return None
        after = datetime.fromtimestamp(since, UTC)
        try:
            async for message in self._channel(place).history(limit=ADOPT_LOOKBACK, after=after, oldest_first=False):
                if message.author.id == me.id and message.content == content:
                    return int(message.id)
        except (discord.Forbidden, discord.NotFound):
            return None
        return None

    async def edit(self, place: int, message_id: int, **parts: Unpack[Edit]) -> None:
        await self._channel(place).get_partial_message(message_id).edit(**edit_arguments(parts))

    async def delete(self, place: int, message_id: int) -> None:
        await self._channel(place).get_partial_message(message_id).delete()

    async def renews(self, place: int, message_id: int) -> bool:
        return False  # the bot's token both ways: an edit is as cheap as a post

    async def reply_privately(self, interaction: discord.Interaction, content: str) -> None:
        await reply_privately(interaction, content)

    async def start_thread(self, place: int, message_id: int, name: str, *, guild_id: int | None) -> int:
        # The longest auto-archive: a slow game's thread stays open; the clock archives it after
        # the game ends (``archive_thread``). A message knows its server only through its channel.
        channel = self.client.get_partial_messageable(place, guild_id=guild_id)
        message = channel.get_partial_message(message_id)
        try:
            thread = await message.create_thread(name=name[:100], auto_archive_duration=LONGEST_ARCHIVE)
        except discord.HTTPException as exc:
            if exc.code == THREAD_ALREADY_MADE:
                return message_id  # made by an earlier try: a message's thread has the message's id
            raise
        return int(thread.id)

    async def archive_thread(self, thread_id: int) -> None:
        # The bot made the thread, and a thread's creator may archive it without Manage Threads.
        thread = self.client.get_channel(thread_id) or await self.client.fetch_channel(thread_id)
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=True)
