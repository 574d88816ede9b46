"""Plain records kept by the fake Discord, and its clock.

What this is: the data the driver API hands to tests (guilds, users, channels, messages with their
edit history and visibility, interactions with their responses, HTTP requests, gateway IDENTIFYs),
the fake clock that `FakeDiscord.advance()` moves, snowflake ids made from that clock, and
Discord's sharding formula (`shard_for`, and `Snowflakes.next_on_shard` for ids that land on a
chosen shard).

What this is not: protocol code (see rest.py and gateway.py), rule checking (limits.py) or JSON
payload building (payloads.py). Records never talk to the network.
"""

from __future__ import annotations

import copy
import datetime
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .gateway import GatewaySession
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000

# Message flags (https://discord.com/developers/docs/resources/message#message-object-message-flags).
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

ACK_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60.0

# Interaction context types and application integration (install) types
# (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types).
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
# "Apps are limited to 5 followup messages per interaction if it was initiated from a user-installed
# app and isn't installed in the server" (Create Followup Message); the 6th answers 40094.
USER_INSTALL_FOLLOWUP_LIMIT = 5


class FakeClock:
    """Real time plus an offset that tests can only move forward (`FakeDiscord.advance`)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def wall(self) -> float:
        return time.time() + self.offset

    def iso(self, wall: float | None = None) -> str:
        value = self.wall() if wall is None else wall
        return datetime.datetime.fromtimestamp(value, datetime.UTC).isoformat()


def shard_for(guild_id: int | None, shard_count: int) -> int:
    """Discord's sharding formula: the shard that gets a guild's events; DMs (None) go to shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


class Snowflakes:
    """Strictly increasing snowflake ids whose timestamp part is the fake wall clock."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self._last = 0
        self._increment = itertools.count()

    def next(self) -> int:
        ms = int(self._clock.wall() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (1 << 12) | (next(self._increment) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose shard is `shard_id` of `shard_count`: `(id >> 22) % shard_count == shard_id`.

        The timestamp part is moved forward by less than `shard_count` milliseconds, so later ids
        stay larger.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        value = self.next()
        ms = value >> 22
        ms += (shard_id - ms) % shard_count
        value = (ms << 22) | (value & ((1 << 22) - 1))
        self._last = max(self._last, value)
        return value


@dataclass(eq=False)
class FakeUser:
    """A user a test can act as, a member of the guilds it was added to (`FakeDiscord.add_user`,
    `add_member`). `manage_guild` gives them each guild's role with Manage Server; `role_ids` holds
    the roles of every guild they are in (a guild shows only its own). `is_owner`: owns a guild."""

    id: int
    name: str
    locale: str = "es-ES"
    manage_guild: bool = False
    global_name: str | None = None
    bot: bool = False
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = ""
    is_owner: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"FakeUser(id={self.id}, name={self.name!r}, locale={self.locale!r}, manage_guild={self.manage_guild})"


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    tags: dict[str, Any] | None = None
    color: int = 0


@dataclass(eq=False)
class FakeGuild:
    """One guild: its roles (the @everyone role's id is the guild id), members, owner; the bot is in
    it unless `bot_member` is False (or `FakeDiscord.remove_bot` took it out).

    `FakeDiscord.guild` is the first one (`guild_id`, `channel_id`, `roles`, … name it);
    `FakeDiscord.add_guild` makes more, on a chosen shard if asked.
    """

    id: int
    name: str
    locale: str
    roles: dict[int, FakeRole]
    mod_role_id: int
    bot_role_id: int
    bot_joined_at: str
    owner_id: int = 0
    system_channel_id: int | None = None
    member_ids: set[int] = field(default_factory=set)
    # False: a server that never added the bot (`add_guild(bot_member=False)`): only user installs
    # reach it, the bot gets none of its events and its channels answer 403 Missing Access.
    bot_member: bool = True
    # Members whose Use External Apps permission was taken away (`set_use_external_apps`).
    external_apps_denied: set[int] = field(default_factory=set)

    def shard(self, shard_count: int) -> int:
        """The shard that gets this guild's events when the bot runs `shard_count` shards."""
        return shard_for(self.id, shard_count)

    def __repr__(self) -> str:
        return f"FakeGuild(id={self.id}, name={self.name!r}, members={len(self.member_ids)})"


@dataclass(eq=False)
class IdentifyRecord:
    """One IDENTIFY (op 2) with a valid token, and what the fake did with it.

    `at` is fake monotonic seconds; `shard` the `[shard_id, shard_count]` it carried (None when it
    carried none); `outcome` one of "ready", "4010" (invalid shard), "4011" (sharding required),
    "4013"/"4014" (intents), "rate_limited" (answered with op 9 because `enforce_identify_pacing`
    was on). `too_fast` is set on every IDENTIFY that came less than 5 s after the previous accepted
    IDENTIFY of the same rate-limit bucket (`shard_id % max_concurrency`), whatever the outcome.
    """

    at: float
    shard: tuple[int, int] | None
    outcome: str
    session_id: str | None = None
    bucket: int = 0
    too_fast: bool = False

    @property
    def shard_id(self) -> int:
        return 0 if self.shard is None else self.shard[0]


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    recipient_id: int | None = None  # the bot's DM channels only: the user it talks with
    # Group DMs (type 3) and DMs between two users (type 1 without the bot): who is in it. The
    # bot is never one of them; a group DM's `owner_id` is the user who made it.
    recipient_ids: list[int] = field(default_factory=list)
    # Threads only: who made it (None: a user, as `add_thread` does), its thread_metadata.
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str | None = None


@dataclass(eq=False)
class AttachmentRecord:
    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None
    url: str = ""
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(eq=False)
class EditRecord:
    """One change to a message: when, through which route, and what it looked like before."""

    at: float
    via: str  # "channel", "webhook", "update" (callback type 7), "followup" (resolves a defer)
    before: dict[str, Any]
    interaction_id: int | None = None


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        for key in ("components", "items"):
            inner = component.get(key)
            if isinstance(inner, list):
                yield from _walk(inner)
        for key in ("accessory", "component"):
            inner = component.get(key)
            if isinstance(inner, dict):
                yield from _walk([inner])


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones included, in document order."""
    return list(_walk(components or []))


@dataclass(eq=False)
class MessageRecord:
    """Every message the fake ever held, with who can see it and how it came to be.

    `source` is how it was created: "channel" (POST /channels/{id}/messages), "response"
    (callback type 4), "deferred" (callback type 5, later filled by an edit or the first
    followup), "followup" (POST /webhooks/{app}/{token}) or "user" (a test's user message).
    `visible_to` is None when everyone in the channel sees it, else the one user id.
    """

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    flags: int = 0
    ephemeral: bool = False
    visible_to: int | None = None
    source: str = "channel"
    interaction: InteractionRecord | None = None
    created_at: float = 0.0  # fake monotonic seconds
    timestamp: str = ""
    edited_timestamp: str | None = None
    edits: list[EditRecord] = field(default_factory=list)
    deleted: bool = False
    deleted_at: float | None = None
    type: int = 0
    tts: bool = False
    dm: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    allowed_mentions: dict[str, Any] | None = None
    nonce: str | None = None  # as sent with Create Message (a string here, as Discord echoes it)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking…" message nobody has filled yet."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return bool(self.edits)

    @property
    def public(self) -> bool:
        return not self.ephemeral and not self.dm

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
            parts.append((embed.get("author") or {}).get("name") or "")
        for component in walk_components(self.components):
            if component.get("type") == 10:
                parts.append(component.get("content") or "")
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict[str, Any]]:
        return walk_components(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def visible_for(self, user: FakeUser | int) -> bool:
        uid = user if isinstance(user, int) else user.id
        return self.visible_to is None or self.visible_to == uid

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def __repr__(self) -> str:
        vis = "public" if self.visible_to is None else f"visible_to={self.visible_to}"
        state = " deleted" if self.deleted else ""
        return (
            f"MessageRecord(id={self.id}, channel={self.channel_id}, source={self.source}, {vis}{state},"
            f" content={self.content[:60]!r}, custom_ids={self.custom_ids[:6]})"
        )


@dataclass(eq=False)
class InitialResponse:
    """One POST /interactions/{id}/{token}/callback attempt (accepted or not)."""

    type: int
    data: dict[str, Any] | None
    elapsed: float  # fake seconds from dispatch to arrival
    at: float
    status: int = 200
    accepted: bool = True


@dataclass(eq=False)
class ModalRecord:
    """A modal the bot opened (callback type 9), ready to be submitted by `FakeDiscord.submit_modal`."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user_id: int
    interaction: InteractionRecord

    @property
    def inputs(self) -> list[dict[str, Any]]:
        """Text inputs and selects, each with the label it is shown under."""
        found: list[dict[str, Any]] = []
        for top in self.components:
            if top.get("type") == 1:
                for child in top.get("components") or []:
                    found.append({**child, "shown_label": child.get("label")})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                found.append({**top["component"], "shown_label": top.get("label")})
        return found

    @property
    def fields(self) -> dict[str, Any]:
        """custom_id → pre-filled value (text inputs) or default values (selects)."""
        out: dict[str, Any] = {}
        for item in self.inputs:
            if item.get("type") == 4:
                out[item["custom_id"]] = item.get("value") or ""
            elif "custom_id" in item:
                out[item["custom_id"]] = [o["value"] for o in item.get("options") or [] if o.get("default")]
        return out


@dataclass(eq=False)
class RequestRecord:
    method: str
    path: str  # relative to the API base for API routes, else the raw path
    query: dict[str, str]
    at: float
    status: int = 0
    body: Any = None
    files: list[str] = field(default_factory=list)
    interaction_id: int | None = None
    fault: bool = False
    # Why Discord refused it, for refusals a bot is expected to meet and handle (403 Missing Access
    # on a channel the bot is not in, 40094 on a 6th follow-up, 50027 on an expired token):
    # `FakeDiscord.refused_requests` lists them.
    refused: str | None = None
    code: int | None = None
    # Who paid for it and on which route (budget.py): "bot", "interaction" or "none", and the
    # route's template ("POST /channels/{channel_id}/messages"); "" for paths outside the API.
    token_kind: str = "none"
    route: str = ""

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status}>"


@dataclass(eq=False)
class InteractionRecord:
    """An interaction a test sent, and everything the bot did with its token.

    `response` is the accepted initial response (type, data, `elapsed` fake seconds since
    dispatch); `responses` holds every callback attempt, refused ones included. `original` is
    what `@original` points at (the new message for types 4/5, the clicked message for types
    6/7). `followups` are the messages followup POSTs returned — the first followup after a type 5
    defer returns (and fills) the deferred original. `messages` lists every message created or edited through this
    interaction's token, plus channel messages the bot wrote while the interaction was open
    (dispatched and not yet settled), which is a best guess. `delivered_to` are the gateway sessions
    that got its INTERACTION_CREATE: those of its guild's shard, connected or buffering it for a
    RESUME (empty: no bot session was there).
    """

    id: int
    token: str
    type: int
    kind: str  # "slash", "autocomplete", "component", "modal"
    user: FakeUser
    channel_id: int
    payload: dict[str, Any]
    dispatched_at: float
    fake: FakeDiscord
    source_message: MessageRecord | None = None  # the message a component is on
    origin: InteractionRecord | None = None  # for modal submits: the interaction that opened it
    guild_id: int = 0  # 0 outside servers
    # Where it came from (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL) and `authorizing_integration_owners`
    # ({"0": guild id or "0"} for the guild install, {"1": user id} for a user install).
    context: int = 0
    owners: dict[str, str] = field(default_factory=dict)
    forced_ephemeral: bool = False  # a server without the bot, member without Use External Apps
    followup_posts: int = 0  # accepted POST /webhooks/{app}/{token}
    delivered: bool = True
    delivered_to: list[GatewaySession] = field(default_factory=list)
    response: InitialResponse | None = None
    responses: list[InitialResponse] = field(default_factory=list)
    original: MessageRecord | None = None
    followups: list[MessageRecord] = field(default_factory=list)
    messages: list[MessageRecord] = field(default_factory=list)
    requests: list[RequestRecord] = field(default_factory=list)
    modal: ModalRecord | None = None
    choices: list[dict[str, Any]] | None = None
    thinking: bool = False  # a type 5 defer whose message was not filled yet
    dead: bool = False  # the ack deadline passed: Discord forgot this interaction
    last_activity: float = field(default_factory=time.monotonic)
    dispatched_real: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)

    @property
    def user_install_only(self) -> bool:
        """True when only a user install authorized it: the 5 follow-up limit applies."""
        return set(self.owners) == {str(USER_INSTALL)}

    @property
    def response_type(self) -> int | None:
        return None if self.response is None else self.response.type

    @property
    def data(self) -> dict[str, Any]:
        return self.payload.get("data") or {}

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def add_message(self, message: MessageRecord) -> None:
        if message not in self.messages:
            self.messages.append(message)

    def is_settled(self, quiet: float) -> bool:
        if not self.responses:
            return False
        if self.thinking:
            return False
        last = max(self.last_activity, self.fake._last_channel_write_after(self.dispatched_real))
        return time.monotonic() - last >= quiet

    async def settled(
        self,
        timeout: float = 10.0,
        quiet: float | None = None,
        *,
        until: Callable[[InteractionRecord], bool] | None = None,
    ) -> InteractionRecord:
        """Wait until a callback came (and a type 5 defer was filled) and then nothing for `quiet` s.

        `until` adds a condition of your own (e.g. `lambda r: r.original.edited` after a type 6
        defer whose edit comes later than the quiet period).
        """
        q = self.fake.quiet_period if quiet is None else quiet

        def done() -> bool:
            return self.is_settled(q) and (until is None or until(self))

        try:
            await self.fake._wait_until(done, timeout, f"interaction {self.kind} {self.id} to settle")
        except TimeoutError as exc:
            state = "no callback at all" if not self.responses else "a type 5 defer never filled"
            if self.responses and not self.thinking:
                state = "the bot kept writing"
            raise TimeoutError(f"{exc} ({state}; requests={self.requests})") from None
        return self

    def __repr__(self) -> str:
        return (
            f"InteractionRecord(id={self.id}, kind={self.kind}, user={self.user.name!r},"
            f" response_type={self.response_type}, followups={len(self.followups)})"
        )
