"""Play anywhere (issue 24): games where the bot is not a member, shown through interaction tokens.

What it is: how the Discord wing tells such a place from a server that added the bot
(``is_anywhere``: no server, or a server the bot is not in — never ``is_user_integration()``
alone, which reads False for a friend clicking the installer's table), the key its standings are
kept under (``place_key``: the negative channel id, which can never equal a guild id, since
snowflakes are positive), the refusals that belong to it (``check_new_game``, ``check_admin``),
and the second implementation of the delivery seam (``cogs.delivery.Delivery``):

- ``TokenBook`` holds the interaction tokens of such places while they live (15 minutes, used
  only for ``TOKEN_MARGIN``), counts the follow-ups each one sent (Discord allows 5 per
  interaction there; the delivery spends at most ``FOLLOWUP_BUDGET``, leaving the rest to the
  handler's private answers) and remembers which token made which message, so a message is
  edited or deleted only with the token that made it (documented), never with another one.
- ``TokenDelivery`` posts as a public follow-up of the newest live token with follow-ups left,
  fills the public "thinking" reply of ``/rummy new`` with the lobby, and edits or deletes
  messages with their own token. With no usable token it raises ``NoLiveToken`` (a
  ``discord.HTTPException``, so the announcer logs it and goes on: the change is committed) and
  notes the place as owed: the guard shows the current table with the next interaction there.
- ``RoutedDelivery`` chooses per place: such places through tokens, every other one through
  ``ChannelDelivery`` (bot-token channel messages, as before).

Tokens are secrets: they are kept (in memory, and in the database for restarts and other
processes, ``bot.service.tokens``) only as long as they are used, and never written to the log
(``__repr__`` hides them). A token that made no message is not written at all.
What it is not: no layout and no decision about what to post (``cogs.announcer``), no game
state (``bot.service``).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, Unpack

import discord

from bot.service import Refusal, TokenRow
from cogs.delivery import ChannelDelivery, Edit, Parts, edit_arguments, post_arguments, reply_privately

log = logging.getLogger(__name__)

TOKEN_LIFETIME: Final = 15 * 60.0  # Discord: an interaction token is valid for 15 minutes
TOKEN_MARGIN: Final = 13 * 60.0  # used only while this young: a request in flight never meets the end
_R = discord.InteractionResponseType
# The initial responses after which a token may send follow-ups (not a modal, not autocomplete).
MESSAGE_RESPONSES: Final = (_R.channel_message, _R.deferred_channel_message, _R.deferred_message_update,
                            _R.message_update)
FOLLOWUP_LIMIT: Final = 5  # follow-ups per interaction where the app is user-installed only
FOLLOWUP_BUDGET: Final = 3  # what the delivery may spend of them; the handler keeps 2 for its own answers
# In a server that added the bot Discord sets no follow-up limit; the token's 15 minutes bound it.
# Spent generously, but not without end: a burst in one channel still falls back to the bot token.
SERVER_FOLLOWUP_BUDGET: Final = 60
SWEEP_EVERY: Final = 1.0  # seconds between sweeps of expired tokens (``alive`` is checked on use anyway)


# Where ``/rummy`` may be installed and used: private channels are declared explicitly, as
# Discord leaves group DMs out otherwise. ``/rummy-admin``: a server's install, in servers only.
EVERYWHERE: Final = discord.app_commands.AppInstallationType(guild=True, user=True)
ANY_CHANNEL: Final = discord.app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
SERVER_INSTALL: Final = discord.app_commands.AppInstallationType(guild=True, user=False)
SERVERS_ONLY: Final = discord.app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def is_anywhere(interaction: discord.Interaction) -> bool:
    """Whether this interaction comes from a place the bot is not a member of: a DM, a group DM,
    or a server that never added it (it receives no GUILD_CREATE for those, and the server's
    install is not among the interaction's authorising owners)."""
    if interaction.guild_id is None:
        return True
    if interaction.client.get_guild(interaction.guild_id) is not None:
        return False
    # Not (yet) in the cache: a server whose own install authorised this is still the bot's.
    return not interaction.is_guild_integration()


def place_key(interaction: discord.Interaction) -> int | None:
    """The key a game's standings, ratings and settings are kept under: the server's id where the
    bot is a member, else minus the channel's id (a place of its own, never equal to a guild id)."""
    if not is_anywhere(interaction):
        return interaction.guild_id
    return -int(interaction.channel_id or 0) or None


def is_place_of_anywhere(key: int | None) -> bool:
    """Whether a game's ``guild_id`` is a ``place_key`` of a place the bot is not in."""
    return key is not None and key < 0


def forced_private(interaction: discord.Interaction) -> bool:
    """A member of a server without the bot who lacks Use External Apps: Discord makes every
    answer to them private, so nothing they start could be seen by the others."""
    if interaction.guild_id is None or not is_anywhere(interaction):
        return False
    return not interaction.permissions.use_external_apps


def check_new_game(interaction: discord.Interaction) -> None:
    """Refuse a game nobody else could see (``Refusal("external_apps")``)."""
    if forced_private(interaction):
        raise Refusal("external_apps")


def check_admin(interaction: discord.Interaction) -> None:
    """``/rummy-admin`` serves only servers that added the bot (``Refusal("admin_outside")``)."""
    if is_anywhere(interaction):
        raise Refusal("admin_outside")


class NoLiveToken(discord.HTTPException):
    """No token of this place may send this now (none lives, none has follow-ups left, or the
    message's own token is past its margin). Nothing was sent."""

    def __init__(self, text: str) -> None:
        Exception.__init__(self, text)
        self.status = 0
        self.code = 0
        self.text = text
        self.response = None  # type: ignore[assignment]


@dataclass
class Token:
    """One interaction's token in a place the bot is not in."""

    secret: str = field(repr=False)
    application_id: int
    place: int
    interaction_id: int
    created: float  # when it arrived (``TokenBook.clock``)
    margin: float  # used only while younger than this (``TokenBook.margin``)
    public: bool  # its follow-ups may be public (not a member whose answers are forced private)
    reply_free: bool = False  # a public "thinking" reply the next post fills
    settled: bool = False  # its handler has answered (a private "thinking" reply is filled)
    sent: int = 0  # follow-ups the delivery sent with it
    source: discord.Interaction | None = field(default=None, repr=False)
    limited: bool = True  # Discord's 5 follow-ups (a place the bot is not in); else a server's token

    def alive(self, now: float) -> bool:
        return now - self.created < self.margin

    def may_post(self, now: float) -> bool:
        budget = FOLLOWUP_BUDGET if self.limited else SERVER_FOLLOWUP_BUDGET
        if not self.public or not self.alive(now) or self.sent >= budget:
            return False
        if not self.limited:
            # A server's token carries news once its own handler has answered: the player's
            # answers stay the interaction's, and the news is not mistaken for one of them.
            return self.settled
        if self.reply_free or self.settled or self.source is None:
            return True
        # While its handler runs, a private "thinking" reply would swallow the first follow-up.
        kind = self.source.response.type
        return kind in MESSAGE_RESPONSES and kind != discord.InteractionResponseType.deferred_channel_message


class TokenKeeper(Protocol):
    """Where tokens are kept while they live, for restarts and other processes (``bot.service.tokens``)."""

    async def keep_token(self, row: TokenRow, message_id: int | None = None) -> None: ...

    async def live_tokens(self, place: int) -> list[TokenRow]: ...

    async def message_token(self, message_id: int) -> TokenRow | None: ...


class TokenBook:
    """The live tokens of places the bot is not in, and which token made which message. Also, in
    memory only, the tokens of servers that added the bot: there a game's news may ride on a
    player's interaction instead of the bot's token (issue 37); those are never written down."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME, clock: Any = time.time, *, servers: bool = False) -> None:
        self.clock = clock
        self.servers = servers  # also hold the tokens of servers that added the bot (RUMMY_NEWS_BY_TOKEN)
        self.keeper: TokenKeeper | None = None  # the database (set by the client once it is open)
        # Used only for 13 of Discord's 15 minutes (tests shorten the lifetime: the same share).
        self.margin = lifetime * TOKEN_MARGIN / TOKEN_LIFETIME
        self.places: set[int] = set()  # channels whose games go through tokens
        self._tokens: dict[int, list[Token]] = {}
        self._made_by: dict[int, Token] = {}  # message id: the token that made it
        self._owed: set[int] = set()  # places whose last change could not be shown
        self._swept_at = -math.inf  # when forget_expired last ran

    def hold(self, interaction: discord.Interaction, *, reply_free: bool = False) -> Token | None:
        """Keep ``interaction``'s token while it lives (the guard calls this first)."""
        if interaction.channel_id is None:
            return None
        anywhere = is_anywhere(interaction)
        if not anywhere and not self.servers:
            return None
        place = int(interaction.channel_id)
        if anywhere:
            self.places.add(place)
        self.forget_expired()
        for token in self._tokens.get(place, []):
            if token.interaction_id == interaction.id:
                token.reply_free = token.reply_free or reply_free
                return token
        token = Token(interaction.token, int(interaction.application_id), place, int(interaction.id),
                      self.clock(), self.margin, not forced_private(interaction), reply_free,
                      source=interaction, limited=anywhere)
        self._tokens.setdefault(place, []).append(token)
        return token

    def settle(self, interaction: discord.Interaction) -> None:
        """Its private reply (if any) is filled (its handler is done, or said so): from now on
        a follow-up of its token is a message of its own."""
        for token in self._tokens.get(int(interaction.channel_id or 0), []):
            if token.interaction_id == interaction.id:
                if interaction.response.type not in MESSAGE_RESPONSES:
                    token.public = False  # a modal (or no answer) leaves the token no message to follow
                token.settled = True
                token.reply_free = False
                token.source = None

    def forget_expired(self) -> None:
        """Drop every token past its margin, and what it made (a sweep a second at most: with a
        server's tokens held too, the book may hold thousands, and every interaction calls this)."""
        now = self.clock()
        if now - self._swept_at < SWEEP_EVERY:
            return
        self._swept_at = now
        for place, tokens in list(self._tokens.items()):
            kept = [t for t in tokens if t.alive(now)]
            if kept:
                self._tokens[place] = kept
            else:
                del self._tokens[place]
        for mid, token in list(self._made_by.items()):
            if not token.alive(now):
                del self._made_by[mid]

    async def for_post(self, place: int) -> Token | None:
        """The newest token of ``place`` that may post a public follow-up now (from the database
        when this process holds none: a restart, or another process's interaction)."""
        now = self.clock()
        for token in reversed(self._tokens.get(place, [])):
            if token.may_post(now):
                return token
        if place not in self.places:  # a server's tokens live in this process's memory only
            return None
        for row in reversed(await self._kept(place)):
            token = self._adopt(row)
            if token.may_post(now):
                return token
        return None

    async def for_message(self, message_id: int, place: int | None = None) -> Token | None:
        """The living token that made ``message_id``, if any (the database is asked only for a
        place the bot is not in)."""
        token = self._made_by.get(message_id)
        if token is None and self.keeper is not None and (place is None or place in self.places):
            try:
                row = await self.keeper.message_token(message_id)
            except Exception as exc:  # the database is only a second memory: go on without it
                log.warning("reading a kept token failed: %r", exc)
                row = None
            if row is not None:
                token = self._made_by[message_id] = self._adopt(row)
        return token if token is not None and token.alive(self.clock()) else None

    async def _kept(self, place: int) -> list[TokenRow]:
        if self.keeper is None:
            return []
        try:
            return await self.keeper.live_tokens(place)
        except Exception as exc:
            log.warning("reading the kept tokens of a place failed: %r", exc)
            return []

    def _adopt(self, row: TokenRow) -> Token:
        """A token kept by the database, in this process's memory (its handler is long done)."""
        for token in self._tokens.get(row.place, []):
            if token.interaction_id == row.interaction_id:
                return token
        token = Token(row.token, row.application_id, row.place, row.interaction_id, row.expires_at - self.margin,
                      self.margin, row.public, settled=True, sent=row.sent)
        self._tokens.setdefault(row.place, []).append(token)
        self._tokens[row.place].sort(key=lambda t: t.created)
        return token

    async def keep(self, token: Token, message_id: int) -> None:
        """Write ``token`` (and that it made ``message_id``) to the database while it lives (only
        where the bot is not in: elsewhere the bot's own token is the way back)."""
        if self.keeper is None or not token.limited:
            return
        row = TokenRow(token.interaction_id, token.place, token.application_id, token.secret,
                       token.created + token.margin, token.sent, token.public)
        try:
            await self.keeper.keep_token(row, message_id)
        except Exception as exc:
            log.warning("keeping a token failed: %r", exc)

    def made(self, message_id: int, token: Token) -> None:
        self._made_by[message_id] = token

    def owe(self, place: int) -> None:
        self._owed.add(place)

    def take_owed(self, place: int) -> bool:
        """Whether ``place`` has a change nobody saw yet (cleared by asking)."""
        if place in self._owed:
            self._owed.discard(place)
            return True
        return False


class TokenDelivery:
    """Messages of places the bot is not in, sent with interaction tokens (``TokenBook``)."""

    def __init__(self, client: discord.Client, book: TokenBook) -> None:
        self.client = client
        self.book = book

    def webhook(self, token: Token) -> discord.Webhook:
        # The application's webhook of this token (what ``Interaction.followup`` calls), with the
        # client's state so that persistent buttons may be attached.
        return discord.Webhook.partial(token.application_id, token.secret, client=self.client)

    async def post(self, place: int, content: str, **parts: Unpack[Parts]) -> int:
        token = await self.book.for_post(place)
        if token is None:
            self.book.owe(place)
            raise NoLiveToken(f"no live token with follow-ups left in place {place}")
        return await self.send(token, place, content, **parts)

    async def send(self, token: Token, place: int, content: str, **parts: Unpack[Parts]) -> int:
        """A public follow-up of ``token``: a new message in ``place``."""
        kwargs = post_arguments(parts) | {"wait": True}
        token.reply_free = False  # a public "thinking" reply is filled by the first follow-up
        token.sent += 1  # Discord counts that one too
        message = await self.webhook(token).send(content, **kwargs)
        self.book.made(int(message.id), token)
        await self.book.keep(token, int(message.id))
        self.book.take_owed(place)  # what follows is shown: the table is the one posted or edited next
        return int(message.id)

    async def edit(self, place: int, message_id: int, **parts: Unpack[Edit]) -> None:
        token = await self.book.for_message(message_id, place)
        if token is None:
            self.book.owe(place)
            raise NoLiveToken(f"the token of message {message_id} no longer lives")
        await self.webhook(token).edit_message(message_id, **edit_arguments(parts))

    async def delete(self, place: int, message_id: int) -> None:
        token = await self.book.for_message(message_id, place)
        if token is None:
            raise NoLiveToken(f"the token of message {message_id} no longer lives")
        await self.webhook(token).delete_message(message_id)

    async def renews(self, place: int, message_id: int) -> bool:
        return False

    async def reply_privately(self, interaction: discord.Interaction, content: str) -> None:
        await reply_privately(interaction, content)

    async def start_thread(self, place: int, message_id: int, name: str, *, guild_id: int | None) -> int:
        raise ValueError("no threads where the bot is not a member")

    async def archive_thread(self, thread_id: int) -> None:
        return None


class RoutedDelivery:
    """The delivery of one client: each place through tokens or through the bot's channels.

    In a server that added the bot, a game's news (``Parts["news"]``: the table, the turn call)
    rides on the newest living token of an interaction in that place, a player's own click, and
    is edited or deleted with the token that made it: Discord counts none of that in the bot's
    global budget of 50 requests a second (issue 37). With no such token, or when Discord refuses
    the token before making anything (401, 404), the bot's token does it, as before. Posts that
    must not be repeated (``once``, ``adopt_after``) always go with the bot's token, whose nonce
    guards them; so do lobbies, threads, tournaments and notices."""

    def __init__(self, client: discord.Client, book: TokenBook, *, news_by_token: bool = True) -> None:
        self.book = book
        self.channels = ChannelDelivery(client)
        self.tokens = TokenDelivery(client, book)
        self.news_by_token = news_by_token  # RUMMY_NEWS_BY_TOKEN

    def _for(self, place: int) -> ChannelDelivery | TokenDelivery:
        return self.tokens if place in self.book.places else self.channels

    async def post(self, place: int, content: str, **parts: Unpack[Parts]) -> int:
        if place in self.book.places or not self.news_by_token or not parts.get("news") \
                or "once" in parts or "adopt_after" in parts:
            return await self._for(place).post(place, content, **parts)
        token = await self.book.for_post(place)
        if token is not None:
            try:
                return await self.tokens.send(token, place, content, **parts)
            except discord.HTTPException as exc:
                if not refused_unmade(exc):
                    raise
                log.info("a follow-up in place %s was refused (%s); posting with the bot's token", place, exc.status)
        return await self.channels.post(place, content, **parts)

    async def edit(self, place: int, message_id: int, **parts: Unpack[Edit]) -> None:
        if place not in self.book.places:
            token = await self.book.for_message(message_id, place)
            if token is not None:
                try:
                    await self.tokens.webhook(token).edit_message(message_id, **edit_arguments(parts))
                    return
                except discord.HTTPException as exc:
                    if not refused_unmade(exc):
                        raise
        await self._for(place).edit(place, message_id, **parts)

    async def delete(self, place: int, message_id: int) -> None:
        if place not in self.book.places:
            token = await self.book.for_message(message_id, place)
            if token is not None:
                try:
                    await self.tokens.webhook(token).delete_message(message_id)
                    return
                except discord.HTTPException as exc:
                    if not refused_unmade(exc):
                        raise
        await self._for(place).delete(place, message_id)

    async def renews(self, place: int, message_id: int) -> bool:
        """Whether a message of ``place`` is better posted afresh than edited: in a server its
        maker's token no longer lives (an edit would cost the bot's token) while a player's token
        could post it for free. Never where the bot is not in (there it is always a token)."""
        if place in self.book.places or not self.news_by_token:
            return False
        return await self.book.for_message(message_id, place) is None and await self.book.for_post(place) is not None

    async def reply_privately(self, interaction: discord.Interaction, content: str) -> None:
        await reply_privately(interaction, content)

    async def start_thread(self, place: int, message_id: int, name: str, *, guild_id: int | None) -> int:
        return await self._for(place).start_thread(place, message_id, name, guild_id=guild_id)

    async def archive_thread(self, thread_id: int) -> None:
        await self._for(thread_id).archive_thread(thread_id)


INVALID_WEBHOOK_TOKEN: Final = 50027
UNKNOWN_WEBHOOK: Final = 10015


def refused_unmade(exc: discord.HTTPException) -> bool:
    """Discord refused the token itself (401 Invalid Webhook Token, 404 Unknown Webhook) or what
    it may do (403): nothing was made or changed, so the bot's token may do it instead. A message
    that is gone (10008), a 5xx or a lost answer is not retried another way: the last may have
    made it, and the announcer knows what to do with the others."""
    if exc.status == 404:
        return exc.code == UNKNOWN_WEBHOOK
    return exc.status in (401, 403) or exc.code == INVALID_WEBHOOK_TOKEN
