"""FakeDiscord: a test double of Discord's REST API and gateway for a real discord.py bot process.

What this is: the state (guilds with roles, text channels and members — one to start with,
`add_guild` for more; application commands; every message with its visibility and edit history;
every interaction with its responses) and the driver API tests use — start the server on
127.0.0.1:<random port>, add guilds, users and channels, send slash commands, autocomplete, button
clicks, select choices and modal submits as complete INTERACTION_CREATE payloads over the gateway
(to the sessions of the channel's guild's shard), read back what the bot did, move the fake clock,
inject faults and read `violations` (every Discord rule the bot broke). Protocol details live in
rest.py (HTTP) and gateway.py (websocket, sharding); rule checks in limits.py; JSON shapes in
payloads.py.

Sharding hooks (see gateway.py for the rules): `FakeDiscord(shard_count=2, max_concurrency=1,
enforce_identify_pacing=False, large_bot_sharding=False, guild_shard=None)`;
`add_guild(name, shard=k)` and `guild_id_on_shard(k)` put a guild on a chosen shard;
`shard_of(guild)`; `live_sessions(shard=None)` and `sessions_by_shard()` say who holds which
shard now; `disconnect(shard=k)`, `send_reconnect(shard=k)`, `invalidate_session(shard=k)` act on
one shard's sessions; `identifies` and `identify_breaches()` record IDENTIFY pacing;
`wait_shards_ready(shards, after=n)` waits for a process's shards.

Request budget and rate limits (budget.py): `request_counts(start=0)` → {(token kind, route):
n} and `request_totals(start=0)` → {"bot": n, "interaction": n, "none": n} over
`requests[start:]`; Discord's global (50/s per bot token, interaction routes exempt) and
per-route limits are kept unless `FakeDiscord(rate_limits=None)` (or changed with a
`budget.RateLimits`); every 429 they give is in `rate_limited`, and ignoring one is a violation.

Places that go away: `delete_channel` (CHANNEL_DELETE or THREAD_DELETE; then 404 Unknown
Channel), `remove_bot(guild)` (GUILD_DELETE; then 403 Missing Access), `add_thread`.

User installs (issue 24; the rules are in places.py): `install_for_user(user)` /
`uninstall_for_user(user)` / `has_installed(user)`; places where the bot is not —
`add_guild(name, bot_member=False)` (no GUILD_CREATE, no events; `invite_bot(guild)` adds it
later), `add_group_dm(owner, *users, name="") -> channel id` (type 3), `add_user_dm(a, b) ->
channel id` (type 1 between users) — and `bot_dm(user) -> channel id` (context 1). `slash`,
`autocomplete`, `click`, `select` and `submit_modal` work in all of them, carrying `context`,
`authorizing_integration_owners` (`InteractionRecord.context` / `.owners`), `app_permissions`,
`user` or `member`; a command the client would not show there raises `CommandNotShown`.
Bot-token requests where the bot is not answer 403 50001 and are listed in `refused_requests`
(with 40094 on a 6th follow-up of a user-install interaction and 50027 on an expired token;
those two are also violations). `FakeDiscord(token_lifetime=...)` shortens tokens;
`set_use_external_apps(guild, user, False)` forces that member's replies ephemeral in a server
without the bot (`InteractionRecord.forced_ephemeral`); `bot_in_guild`, `bot_in_channel` say
where the bot is.

Activities (activity.py, activity_proxy.py): `enable_activities()`, `client_secret`,
`launch_activity(user, channel)`, `map_activity_url(url)`, `activity_proxy` (its `url`, `http_log`,
`ws_log`), `activity_frame_url(instance, user)`.

What this is not: a general Discord. Threads as channels that can be made (`add_thread`, or the
bot's Start Thread from Message), archived and deleted (no members), no reactions, voice, presences,
permissions overwrites (Use External Apps aside), several bots, or messages users write in group
DMs being seen by anyone. It only listens on 127.0.0.1 and never reaches the network.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from . import payloads, places
from .activity import Activities, ActivityInstance
from .activity_proxy import ActivityProxy
from .budget import DISCORD_LIMITS, Budget, RateLimitRecord, RateLimits, counts_of, totals
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILDS,
    MESSAGE_CONTENT,
    Gateway,
    GatewaySession,
)
from .limits import SELECT_TYPES
from .places import CommandNotShown as CommandNotShown  # re-exported for tests
from .records import (
    ACK_DEADLINE,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    TOKEN_LIFETIME,
    AttachmentRecord,
    EditRecord,
    FakeChannel,
    FakeClock,
    FakeGuild,
    FakeRole,
    FakeUser,
    IdentifyRecord,
    InteractionRecord,
    MessageRecord,
    ModalRecord,
    RequestRecord,
    Snowflakes,
    shard_for,
)
from .rest import RestApi, error, json_response

_log = logging.getLogger("fakediscord")
T = TypeVar("T")

ERROR_MESSAGES = {
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50035: "Invalid Form Body",
}


@dataclass(eq=False)
class Fault:
    """An error answer queued by `FakeDiscord.fail_next` for the next matching request(s)."""

    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    retry_after: float
    times: int

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and self.method in ("*", method) and bool(self.pattern.fullmatch(path))

    def response(self) -> web.Response:
        if self.status == 429:
            body = {"message": self.message, "retry_after": self.retry_after, "global": False, "code": self.code}
            headers = {
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(self.retry_after),
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",
            }
            return json_response(body, status=429, headers=headers)
        return error(self.status, self.code, self.message)


class FakeDiscord:
    """A fake Discord for one bot in one guild or more (and places it is not in: servers without
    it, group DMs, DMs between users). Use `await start()` (or `async with`), then drive it.

    `shard_count` is what GET /gateway/bot recommends and the fewest shards the gateway accepts;
    `max_concurrency` its `session_start_limit.max_concurrency`; `enforce_identify_pacing` answers
    an IDENTIFY that breaks that limit with op 9 as Discord does (otherwise it is only recorded);
    `large_bot_sharding` refuses shard counts that are not a multiple of `shard_count` (4010);
    `guild_shard` puts the first guild on that shard of `shard_count`; `token_lifetime` is how
    many fake seconds an interaction token lasts (Discord: 900) before webhook calls answer 401
    50027. `rate_limits`: Discord's limits as budget.py models them; None turns them off.
    """

    def __init__(
        self,
        *,
        bot_name: str = "RummyBot",
        guild_name: str = "Rummy Test Server",
        guild_locale: str = "es-ES",
        channel_name: str = "rummy",
        heartbeat_interval_ms: int = 41250,
        privileged_intents: int = GUILD_MEMBERS | MESSAGE_CONTENT | (1 << 8),
        quiet_period: float = 0.3,
        shard_count: int = 1,
        max_concurrency: int = 1,
        enforce_identify_pacing: bool = False,
        large_bot_sharding: bool = False,
        guild_shard: int | None = None,
        token_lifetime: float = TOKEN_LIFETIME,
        rate_limits: RateLimits | None = DISCORD_LIMITS,
    ) -> None:
        if shard_count < 1 or max_concurrency < 1:
            raise ValueError("shard_count and max_concurrency must be at least 1")
        self.clock = FakeClock()
        self.snowflakes = Snowflakes(self.clock)
        self.bot_name = bot_name
        self.shard_count = shard_count
        self.max_concurrency = max_concurrency
        self.enforce_identify_pacing = enforce_identify_pacing
        # An Event to hold every IDENTIFY before its READY until set (a readiness probe's test); None: no hold.
        self.hold_identify: asyncio.Event | None = None
        self.large_bot_sharding = large_bot_sharding
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.quiet_period = quiet_period
        self.application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        self.token_lifetime = token_lifetime  # fake seconds an interaction token works (Discord: 15 min)
        self.user_installs: set[int] = set()  # users who installed the app on their account

        self.bot_user_id = self.snowflakes.next()
        self.application_id = self.bot_user_id
        encoded = base64.urlsafe_b64encode(str(self.bot_user_id).encode()).decode().rstrip("=")
        self.token = f"{encoded}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.guild = self._new_guild(guild_name, guild_locale, guild_shard, None)
        self.channel_id = self._new_channel(self.guild, channel_name)
        self.guild.system_channel_id = self.channel_id
        self.owner = self._new_user("Owner", self.guild, locale=guild_locale, manage_guild=True)
        self.owner.is_owner = True
        self.guild.owner_id = self.owner.id
        self.app_owner_id = self.owner.id

        self.messages: list[MessageRecord] = []
        self._messages_by_id: dict[int, MessageRecord] = {}
        self.interactions: list[InteractionRecord] = []
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.modals: list[ModalRecord] = []
        self.requests: list[RequestRecord] = []
        self._violations: list[str] = []
        # Where Discord dropped the bot's embeds, as it does without Embed Links (rest.py).
        self.suppressed_embeds: list[str] = []
        self.internal_errors: list[str] = []
        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[Any, ...], int] = {}
        self.sync_log: list[tuple[int | None, list[str], float]] = []
        self.app_emojis: list[dict[str, Any]] = []
        self._faults: list[Fault] = []
        self.left_guilds: set[int] = set()  # guilds the bot was removed from (`remove_bot`)
        self._channel_writes: list[float] = []
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._unanswered_flagged: set[int] = set()
        self._loose_attachments: list[AttachmentRecord] = []  # files passed as slash options

        self.gateway = Gateway(self)
        self.activities = Activities(self)  # activity.py, activity_proxy.py
        self.rest = RestApi(self)
        self.budget = Budget(self, rate_limits)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        self._changed = asyncio.Event()
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024 * 1024)
        self.rest.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        await self.activities.proxy.start()
        return self

    async def stop(self) -> None:
        await self.activities.proxy.stop()
        await self.gateway.close_all()
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What the bot sets `discord.http.Route.BASE` to."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ---- the first guild (the names tests used before there could be more) ---------------------

    @property
    def guild_id(self) -> int:
        return self.guild.id

    @property
    def guild_name(self) -> str:
        return self.guild.name

    @guild_name.setter
    def guild_name(self, value: str) -> None:
        self.guild.name = value

    @property
    def guild_locale(self) -> str:
        return self.guild.locale

    @guild_locale.setter
    def guild_locale(self, value: str) -> None:
        self.guild.locale = value

    @property
    def roles(self) -> dict[int, FakeRole]:
        return self.guild.roles

    @property
    def mod_role_id(self) -> int:
        return self.guild.mod_role_id

    @property
    def bot_role_id(self) -> int:
        return self.guild.bot_role_id

    @property
    def bot_joined_at(self) -> str:
        return self.guild.bot_joined_at

    # ---- clock ---------------------------------------------------------------------------------

    def now(self) -> float:
        """Fake monotonic seconds: real time plus every `advance()`."""
        return self.clock.monotonic()

    @property
    def clock_offset(self) -> float:
        return self.clock.offset

    def advance(self, seconds: float) -> None:
        """Move the fake clock forward: ack deadlines, token ages and message ages all see it."""
        if seconds < 0:
            raise ValueError("the fake clock only moves forward")
        self.clock.offset += seconds
        self._notify()

    # ---- guild setup ---------------------------------------------------------------------------

    def _new_guild(self, name: str, locale: str, shard: int | None, shard_count: int | None) -> FakeGuild:
        count = self.shard_count if shard_count is None else shard_count
        gid = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(shard, count)
        joined_at = self.clock.iso()
        mod_role_id, bot_role_id = self.snowflakes.next(), self.snowflakes.next()
        roles = {
            gid: FakeRole(gid, "@everyone", payloads.DEFAULT_EVERYONE, position=0),
            mod_role_id: FakeRole(mod_role_id, "Mods", payloads.DEFAULT_EVERYONE | payloads.MANAGE_GUILD, position=1),
            bot_role_id: FakeRole(
                bot_role_id,
                self.bot_name,
                payloads.BOT_ROLE_PERMISSIONS,
                position=2,
                managed=True,
                tags={"bot_id": str(self.bot_user_id)},
            ),
        }
        guild = FakeGuild(gid, name, locale, roles, mod_role_id, bot_role_id, joined_at)
        self.guilds[gid] = guild
        return guild

    def _new_channel(self, guild: FakeGuild, name: str, *, type: int = 0, topic: str | None = None) -> int:
        cid = self.snowflakes.next()
        position = sum(1 for c in self.channels.values() if c.guild_id == guild.id)
        self.channels[cid] = FakeChannel(cid, name, type=type, guild_id=guild.id, position=position, topic=topic)
        return cid

    def _new_user(
        self, name: str, guild: FakeGuild, *, locale: str, manage_guild: bool, global_name: str | None = None
    ) -> FakeUser:
        user = FakeUser(
            id=self.snowflakes.next(),
            name=name,
            locale=locale,
            manage_guild=manage_guild,
            global_name=global_name,
            role_ids=[guild.mod_role_id] if manage_guild else [],
            joined_at=self.clock.iso(),
        )
        self.users[user.id] = user
        guild.member_ids.add(user.id)
        return user

    def _guild(self, guild: FakeGuild | int | None) -> FakeGuild:
        if guild is None:
            return self.guild
        gid = guild.id if isinstance(guild, FakeGuild) else int(guild)
        if gid not in self.guilds:
            raise ValueError(f"unknown guild {gid}")
        return self.guilds[gid]

    def add_guild(
        self,
        name: str = "Second Server",
        *,
        shard: int | None = None,
        shard_count: int | None = None,
        locale: str = "es-ES",
        channel_name: str = "rummy",
        owner_name: str = "Owner",
        bot_member: bool = True,
    ) -> FakeGuild:
        """Another guild the bot is in, with a text channel, the three roles and an owner (Manage Server).

        ``shard``: give it an id on that shard of ``shard_count`` (default: the fake's). Sessions of
        its shard that are already identified get its GUILD_CREATE, as when a bot joins a guild.
        ``bot_member=False``: a server that never added the bot. The bot gets no GUILD_CREATE and no
        event of it (members, channels, messages), bot-token requests to it answer 403 Missing
        Access, and only users who installed the app (`install_for_user`) can use its global
        commands there; `invite_bot` adds the bot later.
        """
        guild = self._new_guild(name, locale, shard, shard_count)
        guild.bot_member = bot_member
        guild.system_channel_id = self._new_channel(guild, channel_name)
        owner = self._new_user(owner_name, guild, locale=locale, manage_guild=True)
        owner.is_owner = True
        guild.owner_id = owner.id
        if bot_member:
            self._announce_guild(guild)
        return guild

    def _announce_guild(self, guild: FakeGuild) -> None:
        for session in self.gateway.targets(guild.id, GUILDS):
            session.guild_ids.append(guild.id)
        data = payloads.guild_json(self, guild)
        self._spawn(self.gateway.dispatch("GUILD_CREATE", data, guild_id=guild.id, intent=GUILDS))

    def invite_bot(self, guild: FakeGuild | int) -> None:
        """An admin adds the bot to a server it was not in (``add_guild(bot_member=False)``, or
        `remove_bot` before): its sessions get GUILD_CREATE and the server's install takes over."""
        target = self._guild(guild)
        if places.bot_in_guild(self, target):
            raise ValueError(f"the bot is already in {target!r}")
        target.bot_member = True
        self.left_guilds.discard(target.id)
        target.bot_joined_at = self.clock.iso()
        self._announce_guild(target)

    def bot_in_guild(self, guild: FakeGuild | int) -> bool:
        """The bot is a member of ``guild`` now (added, not removed)."""
        return places.bot_in_guild(self, guild)

    def bot_in_channel(self, channel: int | FakeChannel) -> bool:
        """The bot can use ``channel`` with its token: not a group DM, a DM between users or a
        channel of a server without the bot."""
        return places.bot_in_channel(self, self.channels[self._channel_id(channel)])

    # ---- user installs and private channels ----------------------------------------------------

    def install_for_user(self, user: FakeUser) -> None:
        """``user`` installs the app on their account: its global commands that declare USER_INSTALL
        follow them into group DMs, DMs and servers without the bot (where they declare the context)."""
        self.user_installs.add(user.id)

    def uninstall_for_user(self, user: FakeUser) -> None:
        self.user_installs.discard(user.id)

    def has_installed(self, user: FakeUser) -> bool:
        return user.id in self.user_installs

    def add_group_dm(self, owner: FakeUser, *users: FakeUser, name: str = "") -> int:
        """A group DM (channel type 3, no guild) of ``owner`` and ``users``; the bot is never in it
        (no gateway events, 403 Missing Access on its channel routes). Returns the channel id."""
        members = [owner, *users]
        if len({u.id for u in members}) != len(members):
            raise ValueError("a group DM lists each user once")
        if not 2 <= len(members) <= 10:
            raise ValueError(f"a group DM has 2 to 10 members, not {len(members)}")
        cid = self.snowflakes.next()
        self.channels[cid] = FakeChannel(
            cid, name, type=3, guild_id=None, owner_id=owner.id, recipient_ids=[u.id for u in members]
        )
        return cid

    def add_user_dm(self, user: FakeUser, other: FakeUser) -> int:
        """A DM between two users (type 1, the bot not in it): interactions there have context 2."""
        if user.id == other.id:
            raise ValueError("a DM needs two different users")
        cid = self.snowflakes.next()
        self.channels[cid] = FakeChannel(cid, "", type=1, guild_id=None, recipient_ids=[user.id, other.id])
        return cid

    def bot_dm(self, user: FakeUser) -> int:
        """The bot's DM channel with ``user`` (made on first use): interactions there have context 1."""
        return self._dm_channel(user.id).id

    def set_use_external_apps(self, guild: FakeGuild | int, user: FakeUser, allowed: bool) -> None:
        """Give or take ``user``'s Use External Apps in ``guild``. Without it, in a server without
        the bot, Discord makes every reply of the user's interactions ephemeral (to them only)."""
        target = self._guild(guild)
        if allowed:
            target.external_apps_denied.discard(user.id)
        else:
            target.external_apps_denied.add(user.id)

    @property
    def refused_requests(self) -> list[RequestRecord]:
        """Requests Discord refused for a reason a bot must expect and handle, oldest first: 403
        50001 on a channel or server the bot is not in, 400 40094 on a 6th follow-up, 401 50027 on
        an expired token (`RequestRecord.refused` says why, `.code` the JSON code)."""
        return [r for r in self.requests if r.refused]

    def request_counts(self, start: int = 0) -> dict[tuple[str, str], int]:
        """{(token kind, route): requests} over `requests[start:]` (budget.py: "bot",
        "interaction" or "none", and a route such as "POST /channels/{channel_id}/messages")."""
        return counts_of(self.requests, start)

    def request_totals(self, start: int = 0) -> dict[str, int]:
        """Requests per token kind over `requests[start:]`: {"bot": n, "interaction": n, "none": n}."""
        return totals(self.request_counts(start))

    @property
    def rate_limited(self) -> list[RateLimitRecord]:
        """Every 429 the fake's rate limits gave, oldest first (not `fail_next` faults)."""
        return self.budget.rate_limited

    def add_channel(
        self, name: str, *, type: int = 0, topic: str | None = None, guild: FakeGuild | int | None = None
    ) -> int:
        """A channel in ``guild`` (default: the first guild); its shard's sessions get CHANNEL_CREATE."""
        target = self._guild(guild)
        cid = self._new_channel(target, name, type=type, topic=topic)
        data = payloads.channel_json(self, self.channels[cid])
        self._spawn(self.gateway.dispatch("CHANNEL_CREATE", data, guild_id=target.id, intent=GUILDS))
        return cid

    def add_thread(self, parent: int, name: str = "partida") -> int:
        """A public thread of channel ``parent``; its shard's sessions get THREAD_CREATE."""
        chan = self.channels[parent]
        target = self._guild(chan.guild_id)
        cid = self._new_channel(target, name, type=11)
        self.channels[cid].parent_id = parent
        data = {**payloads.channel_json(self, self.channels[cid]), "newly_created": True}
        self._spawn(self.gateway.dispatch("THREAD_CREATE", data, guild_id=target.id, intent=GUILDS))
        return cid

    def delete_channel(self, channel: int) -> None:
        """A manager deletes a channel or thread: it is gone (REST answers 404 Unknown Channel) and
        its shard's sessions get CHANNEL_DELETE (THREAD_DELETE for a thread)."""
        chan = self.channels.pop(channel)
        if chan.type in payloads.THREAD_TYPES:
            event = "THREAD_DELETE"
            data: dict[str, Any] = {"id": str(chan.id), "guild_id": str(chan.guild_id), "type": chan.type,
                                    "parent_id": str(chan.parent_id)}
        else:
            event, data = "CHANNEL_DELETE", payloads.channel_json(self, chan)
        self._spawn(self.gateway.dispatch(event, data, guild_id=chan.guild_id, intent=GUILDS))

    def remove_bot(self, guild: FakeGuild | int) -> None:
        """The bot is kicked from ``guild`` (or leaves it): its sessions get GUILD_DELETE (not
        unavailable), and from then on the guild's channels answer 403 Missing Access."""
        target = self._guild(guild)
        self.left_guilds.add(target.id)
        self._spawn(self.gateway.dispatch("GUILD_DELETE", {"id": str(target.id)}, guild_id=target.id,
                                          intent=GUILDS))

    def add_user(
        self,
        name: str,
        *,
        locale: str = "es-ES",
        manage_guild: bool = False,
        global_name: str | None = None,
        guild: FakeGuild | int | None = None,
    ) -> FakeUser:
        """A new member of ``guild`` (default: the first guild); `add_member` puts them in more guilds."""
        target = self._guild(guild)
        user = self._new_user(name, target, locale=locale, manage_guild=manage_guild, global_name=global_name)
        self._announce_member(user, target)
        return user

    def add_member(self, user: FakeUser, guild: FakeGuild | int, *, manage_guild: bool = False) -> FakeUser:
        """Make an existing user a member of another guild too (with its Manage Server role if asked)."""
        target = self._guild(guild)
        if user.id in target.member_ids:
            raise ValueError(f"{user!r} is already a member of {target!r}")
        target.member_ids.add(user.id)
        if manage_guild:
            user.role_ids.append(target.mod_role_id)
        self._announce_member(user, target)
        return user

    def _announce_member(self, user: FakeUser, guild: FakeGuild) -> None:
        data = {**payloads.member_json(self, user, guild=guild), "guild_id": str(guild.id)}
        self._spawn(self.gateway.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=GUILD_MEMBERS))

    def members(self, guild: FakeGuild | int | None = None) -> list[FakeUser]:
        """The users in ``guild`` (default: the first guild), oldest first; the bot is not among them."""
        target = self._guild(guild)
        return [u for u in self.users.values() if u.id in target.member_ids]

    def channel_guild(self, channel: int | FakeChannel) -> FakeGuild | None:
        """The guild a channel belongs to (None for DMs and unknown channels)."""
        cid = channel.id if isinstance(channel, FakeChannel) else int(channel)
        chan = self.channels.get(cid)
        return None if chan is None or chan.guild_id is None else self.guilds.get(chan.guild_id)

    # ---- Activities (activity.py) ----------------------------------------------------------------

    @property
    def client_secret(self) -> str:
        return self.activities.client_secret

    def enable_activities(self) -> None:
        self.activities.enable()

    def launch_activity(
        self, user: FakeUser, channel: int | FakeChannel | None = None, custom_id: str | None = None,
        platform: str = "mobile",
    ) -> ActivityInstance:
        return self.activities.launch(user, self._channel_id(channel), custom_id=custom_id, platform=platform)

    def map_activity_url(self, url: str) -> None:
        self.activities.proxy.target = url

    @property
    def activity_proxy(self) -> ActivityProxy:
        return self.activities.proxy

    def activity_frame_url(self, instance: ActivityInstance, user: FakeUser, platform: str | None = None) -> str:
        return self.activities.proxy.frame_url(instance, user, platform)

    def set_app_owner(self, user: FakeUser) -> None:
        self.app_owner_id = user.id

    def _dm_channel(self, user_id: int) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient_id == user_id:
                return channel
        cid = self.snowflakes.next()
        self.channels[cid] = FakeChannel(cid, "", type=1, guild_id=None, recipient_id=user_id)
        return self.channels[cid]

    def _channel_id(self, channel: int | FakeChannel | None) -> int:
        if channel is None:
            return self.channel_id
        cid = channel.id if isinstance(channel, FakeChannel) else int(channel)
        if cid not in self.channels:
            raise ValueError(f"unknown channel {cid}")
        return cid

    # ---- sharding ------------------------------------------------------------------------------

    def shard_of(self, guild: FakeGuild | int | None, shard_count: int | None = None) -> int:
        """The shard that gets ``guild``'s events: `(guild_id >> 22) % shard_count`; None (DMs) is 0."""
        count = self.shard_count if shard_count is None else shard_count
        if guild is None:
            return 0
        return shard_for(guild.id if isinstance(guild, FakeGuild) else int(guild), count)

    def guild_id_on_shard(self, shard_id: int, shard_count: int | None = None) -> int:
        """A fresh snowflake whose `(id >> 22) % shard_count == shard_id` (default: the fake's count)."""
        return self.snowflakes.next_on_shard(shard_id, self.shard_count if shard_count is None else shard_count)

    def live_sessions(self, shard: int | None = None) -> list[GatewaySession]:
        """Connected sessions past READY, oldest first (only those identified as ``shard`` if given)."""
        return self.gateway.live_sessions(shard)

    def sessions_by_shard(self) -> dict[int, list[GatewaySession]]:
        """Live sessions grouped by the shard id they identified with (unsharded ones under 0)."""
        out: dict[int, list[GatewaySession]] = {}
        for session in self.gateway.live_sessions():
            out.setdefault(session.shard_id, []).append(session)
        return dict(sorted(out.items()))

    @property
    def identifies(self) -> list[IdentifyRecord]:
        """Every IDENTIFY with a valid token, in order: fake time, shard, bucket, outcome, `too_fast`."""
        return self.gateway.identifies

    def identify_breaches(self) -> list[IdentifyRecord]:
        """The IDENTIFYs that came less than 5 s after the previous accepted one of their rate-limit
        bucket (`shard_id % max_concurrency`): empty when a cluster kept Discord's identify limit."""
        return [r for r in self.gateway.identifies if r.too_fast]

    async def wait_shards_ready(
        self, shards: Iterable[int], timeout: float = 30.0, *, after: int = 0
    ) -> dict[int, GatewaySession]:
        """Until each of ``shards`` has a live session from an IDENTIFY numbered above ``after``
        (pass `identify_count` from before starting a process); returns the newest per shard."""
        wanted = sorted(set(shards))

        def found() -> dict[int, GatewaySession] | None:
            newest: dict[int, GatewaySession] = {}
            for session in self.gateway.live_sessions():
                if session.number > after and session.shard_id in wanted:
                    newest[session.shard_id] = session
            return newest if len(newest) == len(wanted) else None

        return await self._wait_until(found, timeout, f"live sessions on shards {wanted}")

    # ---- gateway pass-throughs -----------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.gateway.active is not None and self.gateway.active.connected

    @property
    def identify_count(self) -> int:
        return self.gateway.identify_count

    @property
    def ready_count(self) -> int:
        return self.gateway.ready_count

    @property
    def resume_count(self) -> int:
        return self.gateway.resume_count

    async def wait_ready(self, timeout: float = 30.0, *, after: int = 0) -> None:
        """Until a bot identified and got its GUILD_CREATE (the `after`+1-th time overall).

        discord.py fires on_ready about 2 s later (it waits for more GUILD_CREATEs), but it already
        handles interactions in between.
        """
        await self._wait_until(lambda: self.gateway.ready_count > after, timeout, "a bot to identify")

    async def wait_resumed(self, timeout: float = 15.0, *, after: int | None = None) -> None:
        base = self.gateway.resume_count - 1 if after is None else after
        await self._wait_until(lambda: self.gateway.resume_count > base and self.connected, timeout, "a RESUME")

    async def wait_connected(self, timeout: float = 15.0) -> None:
        await self._wait_until(lambda: self.connected, timeout, "a connected gateway session")

    async def disconnect(self, code: int = 4000, *, shard: int | None = None) -> bool:
        """Close the bot's gateway socket (the latest session's, or every live socket of ``shard``);
        discord.py reconnects and RESUMEs (missed events are replayed)."""
        return await self.gateway.disconnect(code, shard=shard)

    async def send_reconnect(self, *, shard: int | None = None) -> bool:
        """op 7 to the latest session, or to every live session of ``shard``: the client resumes."""
        return await self.gateway.send_reconnect(shard=shard)

    async def invalidate_session(self, *, shard: int | None = None) -> bool:
        """op 9 (not resumable) to the latest session or those of ``shard``: discord.py IDENTIFYs
        again, after its own 5 s pause for re-identifies."""
        return await self.gateway.invalidate(shard=shard)

    # ---- commands ------------------------------------------------------------------------------

    def commands(self, guild: int | None = None) -> list[dict[str, Any]]:
        """Registered commands: global ones (guild=None) or one guild's, as Discord stores them."""
        return list(self._commands.get(guild, []))

    @property
    def sync_count(self) -> int:
        """How many bulk overwrites (PUT …/commands) happened, global and guild together."""
        return len(self.sync_log)

    def _find_command(
        self, name: str, kind: int = 1, guild_id: int | None = None, *, anywhere_guild: bool = True
    ) -> dict[str, Any] | None:
        """A stored command by name: the guild's own, else a global one. ``anywhere_guild=False``
        (interactions outside servers) looks at global commands only."""
        scopes: tuple[int | None, ...] = (guild_id or self.guild_id, None) if anywhere_guild else (None,)
        for scope in scopes:
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == kind:
                    return cmd
        return None

    # ---- interactions --------------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: int | FakeChannel | None = None,
        overridden: bool = False,
    ) -> InteractionRecord:
        """Run a slash command: "cmd", "cmd sub" or "cmd group sub", options by name.

        Option types come from the registered command (values are checked against its choices,
        ranges and required flags, as Discord's client would). Unknown commands fall back to types
        guessed from the Python values (only in servers the bot is in). Pass FakeUser for user
        options. ``overridden``: the server's Integrations settings let this member use a command
        its default permissions hide.

        ``channel`` may be a server channel, the bot's DM (`bot_dm`), a group DM (`add_group_dm`) or
        a DM between users (`add_user_dm`). The command must declare that context and an install
        type the app has there (the server's, when the bot is in it; the user's own,
        `install_for_user`), else `CommandNotShown` (a PermissionError) is raised and nothing is sent.
        """
        chan, owners = self._command_place(user, command, channel)
        guild = self.channel_guild(chan)
        if not overridden and guild is not None and "0" in owners:
            self._check_command_permissions(user, command, guild)
        data = self._command_data(command, dict(options or {}), focused=None, guild=guild)
        return await self._interact(APPLICATION_COMMAND, "slash", user, data, channel=chan.id, owners=owners)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        channel: int | FakeChannel | None = None,
        timeout: float = 5.0,
        overridden: bool = False,
    ) -> list[dict[str, Any]]:
        """Type into an option with autocomplete; returns the choices the bot answered.
        ``overridden`` as for `slash`."""
        chan, owners = self._command_place(user, command, channel)
        guild = self.channel_guild(chan)
        if not overridden and guild is not None and "0" in owners:
            self._check_command_permissions(user, command, guild)
        data = self._command_data(command, dict(options), focused=focused, guild=guild)
        rec = await self._interact(AUTOCOMPLETE, "autocomplete", user, data, channel=chan.id, owners=owners)
        await self._wait_until(lambda: bool(rec.responses), timeout, f"autocomplete choices for /{command}")
        return list((rec.responses[-1].data or {}).get("choices") or [])

    async def click(self, user: FakeUser, message: MessageRecord | int, custom_id: str) -> InteractionRecord:
        """Click the button `custom_id` on `message` (which the user must be able to see)."""
        msg = self._usable_message(user, message)
        comp = self._component(msg, custom_id)
        if comp.get("type") != 2:
            raise ValueError(f"{custom_id!r} is a component of type {comp.get('type')}, not a button: use select()")
        if comp.get("style") == 5:
            raise ValueError(f"{custom_id!r} is a link button: clicking it sends no interaction")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._interact(MESSAGE_COMPONENT, "component", user, data, channel=msg.channel_id, message=msg)

    async def forged_click(
        self, user: FakeUser, message: MessageRecord, custom_id: str, *, component_type: int = 2,
        values: list[str] | None = None,
    ) -> InteractionRecord:
        """A component interaction Discord's own client would never send: any custom_id (and select
        values) on ``message``, as a modified client or a replayed payload could (reliability R7)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 3:
            data["values"] = list(values or [])
        return await self._interact(MESSAGE_COMPONENT, "component", user, data, channel=message.channel_id,
                                    message=message)

    async def select(
        self, user: FakeUser, message: MessageRecord | int, custom_id: str, values: list[Any]
    ) -> InteractionRecord:
        """Choose `values` in the select menu `custom_id` (option values, or users/roles/channels)."""
        msg = self._usable_message(user, message)
        comp = self._component(msg, custom_id)
        kind = comp.get("type")
        if kind not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is a component of type {kind}, not a select menu: use click()")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}-{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if "id" in comp:
            data["id"] = comp["id"]
        if kind == 3:
            allowed = [o.get("value") for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no option(s) {bad}; options are {allowed}")
            data["values"] = [str(v) for v in values]
        else:
            resolved: dict[str, Any] = {}
            guild = self.channel_guild(msg.channel_id)
            data["values"] = [self._resolve_entity(v, resolved, guild) for v in values]
            data["resolved"] = resolved
        return await self._interact(MESSAGE_COMPONENT, "component", user, data, channel=msg.channel_id, message=msg)

    async def submit_modal(
        self,
        user: FakeUser,
        custom_id: str,
        values: Mapping[str, Any],
        *,
        message: MessageRecord | int | None = None,
    ) -> InteractionRecord:
        """Submit the latest modal `custom_id` the bot showed this user. Unset fields keep their pre-filled value.

        The payload carries the message of the component that opened the modal, if any (or `message`).
        """
        modal = next((m for m in reversed(self.modals) if m.custom_id == custom_id and m.user_id == user.id), None)
        if modal is None:
            shown = [m.custom_id for m in self.modals if m.user_id == user.id]
            raise LookupError(f"the bot never showed {user.name} a modal {custom_id!r} (shown: {shown})")
        unknown = set(values) - set(modal.fields)
        if unknown:
            raise ValueError(f"modal {custom_id!r} has no field(s) {sorted(unknown)}; fields: {sorted(modal.fields)}")
        components: list[dict[str, Any]] = []
        for top in modal.components:
            kind = top.get("type")
            if kind == 1:
                inner = [self._submitted(c, values) for c in top.get("components") or []]
                components.append(_drop_none({"type": 1, "id": top.get("id"), "components": inner}))
            elif kind == 18:
                inner_one = self._submitted(top["component"], values)
                components.append(_drop_none({"type": 18, "id": top.get("id"), "component": inner_one}))
            elif kind == 10:
                components.append(_drop_none({"type": 10, "id": top.get("id")}))
        origin = modal.interaction
        msg: MessageRecord | None
        if message is not None:
            msg = self.message(message) if isinstance(message, int) else message
        else:
            msg = origin.source_message if origin.kind == "component" else None
        data = {"custom_id": custom_id, "components": components}
        return await self._interact(
            MODAL_SUBMIT, "modal", user, data, channel=origin.channel_id, message=msg, origin=origin
        )

    def _submitted(self, comp: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        cid = comp.get("custom_id")
        if comp.get("type") == 4:
            value = str(values.get(cid, comp.get("value") or "")) if cid in values else (comp.get("value") or "")
            if comp.get("required", True) and not value:
                raise ValueError(f"modal field {cid!r} is required")
            lo, hi = comp.get("min_length"), comp.get("max_length")
            if value and lo is not None and len(value) < lo:
                raise ValueError(f"modal field {cid!r} needs at least {lo} characters")
            if hi is not None and len(value) > hi:
                raise ValueError(f"modal field {cid!r} takes at most {hi} characters")
            return _drop_none({"type": 4, "id": comp.get("id"), "custom_id": cid, "value": value})
        if comp.get("type") in SELECT_TYPES:
            chosen = values.get(cid)
            if chosen is None:
                chosen = [o["value"] for o in comp.get("options") or [] if o.get("default")]
            return _drop_none(
                {"type": comp["type"], "id": comp.get("id"), "custom_id": cid, "values": [str(v) for v in chosen]}
            )
        return _drop_none({"type": comp.get("type"), "id": comp.get("id")})

    def _command_place(
        self, user: FakeUser, command: str, channel: int | FakeChannel | None
    ) -> tuple[FakeChannel, dict[str, str]]:
        """The channel of a command and its authorizing owners, or CommandNotShown."""
        chan = self.channels[self._channel_id(channel)]
        places.check_presence(self, user, chan)
        name = command.strip().lstrip("/").split()[0] if command.strip().lstrip("/") else ""
        guild = self.channel_guild(chan)
        cmd = self._find_command(name, guild_id=chan.guild_id, anywhere_guild=guild is not None)
        return chan, places.command_owners(self, user, chan, name, cmd)

    def _check_command_permissions(self, user: FakeUser, command: str, guild: FakeGuild) -> None:
        """Discord's client hides commands whose default_member_permissions the user lacks."""
        cmd = self._find_command(command.strip().lstrip("/").split()[0], guild_id=guild.id)
        required = None if cmd is None else cmd.get("default_member_permissions")
        if required is None:
            return
        have = payloads.permissions_for(self, user, guild)
        need = int(required)
        if (need == 0 and have != payloads.ALL_PERMISSIONS) or need & ~have:
            raise PermissionError(f"{user.name} cannot use /{command}: it needs permissions {need}, they have {have}")

    def _usable_message(self, user: FakeUser, message: MessageRecord | int) -> MessageRecord:
        msg = self.message(message) if isinstance(message, int) else message
        if msg.deleted:
            raise ValueError(f"{msg} was deleted")
        if not msg.visible_for(user):
            raise PermissionError(f"{user.name} cannot see {msg} (visible to {msg.visible_to})")
        return msg

    def _component(self, msg: MessageRecord, custom_id: str) -> dict[str, Any]:
        comp = msg.component(custom_id)
        if comp is None:
            raise ValueError(f"no component {custom_id!r} on {msg}; it has {msg.custom_ids}")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} on {msg} is disabled: a user cannot use it")
        return comp

    def _resolve_entity(self, value: Any, resolved: dict[str, Any], guild: FakeGuild | None) -> str:
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = payloads.user_json(value)
            if guild is not None and value.id in guild.member_ids:
                member = payloads.member_json(self, value, permissions=True, guild=guild)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        ident = value.id if isinstance(value, FakeChannel) else int(value)
        if ident in self.users:
            return self._resolve_entity(self.users[ident], resolved, guild)
        if guild is not None and ident in guild.roles:
            resolved.setdefault("roles", {})[str(ident)] = payloads.role_json(guild.roles[ident])
            return str(ident)
        if ident in self.channels:
            chan = payloads.channel_json(self, self.channels[ident], permissions=payloads.ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(ident)] = chan
            return str(ident)
        raise ValueError(f"{value!r} is no known user, role or channel")

    def _command_data(
        self, command: str, options: dict[str, Any], *, focused: str | None, guild: FakeGuild | None
    ) -> dict[str, Any]:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command")
        name = parts[0]
        cmd = self._find_command(name, guild_id=None if guild is None else guild.id, anywhere_guild=guild is not None)
        chain: list[dict[str, Any]] = []
        defs: dict[str, dict[str, Any]] | None = None
        if cmd is not None:
            level = cmd.get("options") or []
            for part in parts[1:]:
                sub = next((o for o in level if o.get("name") == part and o.get("type") in (1, 2)), None)
                if sub is None:
                    subs = [o["name"] for o in level if o.get("type") in (1, 2)]
                    raise ValueError(f"/{name} has no subcommand or group {part!r} here (has {subs})")
                chain.append(sub)
                level = sub.get("options") or []
            if any(o.get("type") in (1, 2) for o in level):
                raise ValueError(f"/{command} needs a subcommand: {[o['name'] for o in level]}")
            defs = {o["name"]: o for o in level}
        else:
            kinds = {1: [], 2: [1], 3: [2, 1]}.get(len(parts))
            if kinds is None:
                raise ValueError(f"/{command}: at most a group and a subcommand")
            chain = [{"name": p, "type": k} for p, k in zip(parts[1:], kinds, strict=True)]
        resolved: dict[str, Any] = {}
        built: list[dict[str, Any]] = []
        for key, value in options.items():
            if defs is not None and key not in defs:
                raise ValueError(f"/{command} has no option {key!r} (has {sorted(defs)})")
            definition = defs[key] if defs is not None else None
            kind = definition["type"] if definition else _guess_type(value)
            built.append(
                self._option(command, key, kind, value, definition, resolved, guild=guild, focused=key == focused)
            )
        if defs is not None:
            if focused is None:
                missing = [n for n, d in defs.items() if d.get("required") and n not in options]
                if missing:
                    raise ValueError(f"/{command} is missing required option(s) {missing}")
            elif focused not in defs or not defs[focused].get("autocomplete"):
                raise ValueError(f"/{command} option {focused!r} has no autocomplete")
        elif focused is not None and focused not in options:
            raise ValueError(f"focused option {focused!r} must be among the options")
        inner = built
        for sub in reversed(chain):
            inner = [{"name": sub["name"], "type": sub["type"], "options": inner}]
        data: dict[str, Any] = {"id": cmd["id"] if cmd else str(self.snowflakes.next()), "name": name, "type": 1}
        if inner:
            data["options"] = inner
        if cmd is not None and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        command: str,
        name: str,
        kind: int,
        value: Any,
        definition: dict[str, Any] | None,
        resolved: dict[str, Any],
        *,
        guild: FakeGuild | None,
        focused: bool,
    ) -> dict[str, Any]:
        where = f"/{command} option {name!r}"
        if focused:
            return {"name": name, "type": kind, "value": str(value), "focused": True}
        d = definition or {}
        out: Any
        if kind == 3:
            out = str(value)
            if d.get("min_length") is not None and len(out) < d["min_length"]:
                raise ValueError(f"{where} needs at least {d['min_length']} characters")
            if d.get("max_length") is not None and len(out) > d["max_length"]:
                raise ValueError(f"{where} takes at most {d['max_length']} characters")
        elif kind in (4, 10):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{where} needs a number, got {value!r}")
            if kind == 4 and value != int(value):
                raise ValueError(f"{where} needs an integer, got {value!r}")
            out = int(value) if kind == 4 else value
            if d.get("min_value") is not None and out < d["min_value"]:
                raise ValueError(f"{where} must be ≥ {d['min_value']}")
            if d.get("max_value") is not None and out > d["max_value"]:
                raise ValueError(f"{where} must be ≤ {d['max_value']}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise ValueError(f"{where} needs a bool, got {value!r}")
            out = value
        elif kind in (6, 7, 8, 9):
            out = self._resolve_entity(value, resolved, guild)
        elif kind == 11:
            filename, blob = value
            att = AttachmentRecord(self.snowflakes.next(), filename, bytes(blob), "application/octet-stream")
            att.url = f"{self.base_url}/attachments/{self.channel_id}/{att.id}/{filename}"
            self._loose_attachments.append(att)
            resolved.setdefault("attachments", {})[str(att.id)] = payloads.attachment_json(att)
            out = str(att.id)
        else:
            raise ValueError(f"{where}: unsupported option type {kind}")
        choices = d.get("choices")
        if choices and out not in [c.get("value") for c in choices]:
            raise ValueError(f"{where} must be one of {[c.get('value') for c in choices]}, got {out!r}")
        return {"name": name, "type": kind, "value": out}

    async def _interact(
        self,
        itype: int,
        kind: str,
        user: FakeUser,
        data: dict[str, Any],
        *,
        channel: int | FakeChannel | None = None,
        message: MessageRecord | None = None,
        origin: InteractionRecord | None = None,
        owners: dict[str, str] | None = None,
    ) -> InteractionRecord:
        """Send one INTERACTION_CREATE. ``owners``: the authorizing integration owners of a command
        (`_command_place`); components take those of the message's interaction, modal submits
        those of the interaction that opened the modal."""
        cid = self._channel_id(channel)
        chan = self.channels[cid]
        places.check_presence(self, user, chan)
        guild = self.channel_guild(cid)
        if owners is None:
            if origin is not None:
                owners = dict(origin.owners)
            elif message is not None:
                owners = places.message_owners(self, message)
            elif guild is not None:
                owners = {"0": str(guild.id)}  # forged or test-made interactions in a server
            else:
                owners = {"0": "0"} if places.is_bot_dm(chan) else {"1": str(user.id)}
        await self._flush_spawned()  # CHANNEL_CREATE, GUILD_MEMBER_ADD, … go out first
        iid = self.snowflakes.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
        context = places.context_of(chan)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(cid),
            "token": token,
            "version": 1,
            "app_permissions": str(places.app_permissions(self, user, chan)),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": owners,
            "context": context,
            "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member_permissions = payloads.permissions_for(self, user, guild)
            payload.update({
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "guild_id": str(guild.id),
                "channel": payloads.channel_json(self, chan, permissions=member_permissions),
                "member": payloads.member_json(self, user, permissions=True, guild=guild),
                "guild_locale": guild.locale,
            })  # fmt: skip
        else:  # DMs and group DMs: `user` instead of `member`, no guild
            payload.update({"channel": payloads.channel_json(self, chan), "user": payloads.user_json(user)})
        if message is not None:
            payload["message"] = payloads.message_json(self, message)
        rec = InteractionRecord(
            id=iid,
            token=token,
            type=itype,
            kind=kind,
            user=user,
            channel_id=cid,
            payload=payload,
            dispatched_at=self.now(),
            fake=self,
            source_message=message,
            origin=origin,
            guild_id=0 if guild is None else guild.id,
            context=context,
            owners=owners,
            forced_ephemeral=places.forced_ephemeral(self, user, chan),
        )
        self.interactions.append(rec)
        self._interactions_by_id[iid] = rec
        self._interactions_by_token[token] = rec
        gid = None if guild is None else guild.id
        rec.delivered_to = await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=gid)
        rec.delivered = bool(rec.delivered_to)
        if not rec.delivered:
            rec.notes.append(f"no bot session on shard {self.shard_of(gid)}: nobody received this interaction")
        rec.touch()
        self._notify()
        return rec

    def _focused_option_type(self, rec: InteractionRecord) -> int | None:
        def walk(options: list[dict[str, Any]]) -> int | None:
            for option in options:
                if option.get("focused"):
                    return option.get("type")
                found = walk(option.get("options") or [])
                if found is not None:
                    return found
            return None

        return walk(rec.data.get("options") or [])

    # ---- messages ------------------------------------------------------------------------------

    def message(self, message_id: int) -> MessageRecord:
        try:
            return self._messages_by_id[int(message_id)]
        except KeyError:
            raise KeyError(f"no message {message_id}") from None

    def public_messages(self, channel: int | FakeChannel | None = None) -> list[MessageRecord]:
        """Messages everyone in a channel sees (guild channels, group DMs, DMs between users; not
        deleted), oldest first; all channels if None."""
        cid = None if channel is None else self._channel_id(channel)
        return [m for m in self.messages if m.public and not m.deleted and (cid is None or m.channel_id == cid)]

    def ephemeral_messages(self, user: FakeUser) -> list[MessageRecord]:
        """Ephemeral messages only `user` sees (not deleted), oldest first."""
        return [m for m in self.messages if m.ephemeral and m.visible_to == user.id and not m.deleted]

    def dm_messages(self, user: FakeUser) -> list[MessageRecord]:
        return [m for m in self.messages if m.dm and m.visible_to == user.id and not m.deleted]

    def latest_public(
        self,
        channel: int | FakeChannel | None = None,
        predicate: Callable[[MessageRecord], bool] | None = None,
    ) -> MessageRecord | None:
        for msg in reversed(self.public_messages(channel)):
            if predicate is None or predicate(msg):
                return msg
        return None

    async def wait_for_message(
        self, predicate: Callable[[MessageRecord], bool], timeout: float = 5.0, *, existing: bool = True
    ) -> MessageRecord:
        """The first live message (created or edited) matching `predicate`.

        With existing=False only messages created or edited after this call count.
        """
        since = self.now()

        def find() -> MessageRecord | None:
            for msg in self.messages:
                if msg.deleted:
                    continue
                if not existing and msg.created_at < since and not (msg.edits and msg.edits[-1].at >= since):
                    continue
                if predicate(msg):
                    return msg
            return None

        return await self._wait_until(find, timeout, "a matching message")

    async def post_user_message(
        self, user: FakeUser, content: str, *, channel: int | FakeChannel | None = None
    ) -> MessageRecord:
        """A user writes in a channel (MESSAGE_CREATE; content hidden without the message content intent)."""
        cid = self._channel_id(channel)
        chan = self.channels[cid]
        if chan.guild_id is not None or chan.recipient_ids:
            places.check_presence(self, user, chan)
        await self._flush_spawned()
        msg = self._new_message(channel_id=cid, body={"content": content}, attachments=[], source="user", author=user)
        await self._gateway_message("MESSAGE_CREATE", msg)
        return msg

    async def delete_by_moderator(self, message: MessageRecord | int) -> None:
        """A member with Manage Messages deletes a message in a server (MESSAGE_DELETE follows;
        later edits of it are answered 404 Unknown Message, as Discord does)."""
        msg = self.message(message) if isinstance(message, int) else message
        await self._delete_message(msg)

    def _new_message(
        self,
        *,
        channel_id: int,
        body: dict[str, Any],
        attachments: list[AttachmentRecord],
        source: str,
        rec: InteractionRecord | None = None,
        ephemeral: bool = False,
        author: FakeUser | None = None,
    ) -> MessageRecord:
        channel = self.channels[channel_id]
        flags = body.get("flags") or 0
        flags = flags | EPHEMERAL if ephemeral else flags & ~EPHEMERAL
        dm = places.is_bot_dm(channel)  # a DM between users or a group DM is public to its members
        visible_to = rec.user.id if ephemeral and rec else (channel.recipient_id if dm else None)
        msg = MessageRecord(
            id=self.snowflakes.next(),
            channel_id=channel_id,
            author_id=author.id if author else self.bot_user_id,
            content=body.get("content") or "",
            embeds=payloads.normalize_embeds(body.get("embeds") or []),
            components=payloads.normalize_components(body.get("components") or []),
            attachments=attachments,
            flags=flags,
            ephemeral=ephemeral,
            visible_to=visible_to,
            source=source,
            interaction=rec,
            created_at=self.now(),
            timestamp=self.clock.iso(),
            type=20 if rec is not None and rec.type == APPLICATION_COMMAND else 0,
            tts=bool(body.get("tts")),
            dm=dm,
            webhook_id=self.application_id if rec is not None else None,
            application_id=self.application_id if rec is not None else None,
            allowed_mentions=body.get("allowed_mentions"),
        )
        self.messages.append(msg)
        self._messages_by_id[msg.id] = msg
        self._notify()
        return msg

    def _record_edit(self, msg: MessageRecord, *, via: str, rec: InteractionRecord | None) -> None:
        msg.edits.append(EditRecord(at=self.now(), via=via, before=msg.snapshot(), interaction_id=rec and rec.id))
        msg.edited_timestamp = self.clock.iso()

    async def _delete_message(self, msg: MessageRecord) -> None:
        msg.deleted = True
        msg.deleted_at = self.now()
        self._notify()
        chan = self.channels.get(msg.channel_id)
        if not msg.ephemeral and (chan is None or places.bot_in_channel(self, chan)):
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            guild = self.channel_guild(msg.channel_id)
            if guild is not None:
                data["guild_id"] = str(guild.id)
            await self.gateway.dispatch(
                "MESSAGE_DELETE",
                data,
                guild_id=None if guild is None else guild.id,
                intent=DIRECT_MESSAGES if msg.dm else GUILD_MESSAGES,
            )

    async def _gateway_message(self, event: str, msg: MessageRecord) -> None:
        chan = self.channels.get(msg.channel_id)
        if msg.ephemeral or chan is None or not places.bot_in_channel(self, chan):
            return  # the bot gets no events of channels it is not in, even of its own replies
        data = payloads.message_json(self, msg, gateway=True)
        hidden = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        content_hidden = msg.author_id != self.bot_user_id and f"<@{self.bot_user_id}>" not in msg.content

        def for_session(session: GatewaySession) -> dict[str, Any]:
            return hidden if content_hidden and not session.intents & MESSAGE_CONTENT else data

        guild = self.channel_guild(msg.channel_id)
        await self.gateway.dispatch(
            event,
            for_session,
            guild_id=None if guild is None else guild.id,
            intent=DIRECT_MESSAGES if msg.dm else GUILD_MESSAGES,
        )

    def _note_channel_write(self, msg: MessageRecord) -> None:
        """A channel-route write: attribute it to interactions still open, then note its time."""
        for rec in self.interactions[-20:]:
            if time.monotonic() - rec.dispatched_real < 60 and not rec.is_settled(self.quiet_period):
                rec.add_message(msg)
        self._channel_writes.append(time.monotonic())

    def _last_channel_write_after(self, t: float) -> float:
        if self._channel_writes and self._channel_writes[-1] >= t:
            return self._channel_writes[-1]
        return 0.0

    # ---- violations, faults, waiting -----------------------------------------------------------

    @property
    def violations(self) -> list[str]:
        """Every Discord rule the bot broke so far (also: interactions left unanswered past 3 s)."""
        now = self.now()
        for rec in self.interactions:
            if rec.id in self._unanswered_flagged or rec.responses or now - rec.dispatched_at <= ACK_DEADLINE:
                continue
            self._unanswered_flagged.add(rec.id)
            why = "" if rec.delivered else " (no bot session was connected)"
            self._violations.append(
                f"{rec.kind} interaction {rec.id} ({_what(rec)}) got no initial response within 3 s{why}"
            )
        return self._violations

    def clear_violations(self) -> list[str]:
        found = list(self.violations)
        self._violations.clear()
        return found

    def _violate(self, text: str) -> None:
        _log.warning("Discord rule broken: %s", text)
        self._violations.append(text)
        self._notify()

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        code: int = 0,
        *,
        message: str | None = None,
        retry_after: float = 1.0,
        times: int = 1,
    ) -> Fault:
        """Answer the next `times` requests matching method ("*" = any) and path with an error.

        `path_regex` is matched (re.fullmatch) against the path after the API base, e.g.
        r"/channels/\\d+/messages" or r"/interactions/.*/callback". 429s carry retry_after.
        """
        if message is None:
            message = "You are being rate limited." if status == 429 else ERROR_MESSAGES.get(code, f"{status}: Error")
        fault = Fault(method.upper(), re.compile(path_regex), status, code, message, retry_after, times)
        self._faults.append(fault)
        return fault

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for fault in self._faults:
            if fault.matches(method, path):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait_until(self, condition: Callable[[], T], timeout: float, what: str) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.05))

    async def _flush_spawned(self) -> None:
        """Let events queued by the synchronous setup calls go out before what comes next."""
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _guess_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, FakeUser):
        return 6
    return 3


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _what(rec: InteractionRecord) -> str:
    if rec.kind in ("slash", "autocomplete"):
        return "/" + str(rec.data.get("name"))
    return str(rec.data.get("custom_id"))
