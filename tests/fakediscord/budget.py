"""Discord's request budget in the fake: who paid for each REST request, and the rate limits.

What this is: three things the REST middleware (rest.py) asks of `FakeDiscord.budget` for every
request.

1. Classification. Each request under /api/v10 gets `RequestRecord.token_kind` and `.route`:
   ``interaction`` for the routes that carry an interaction's token (``POST
   /interactions/{interaction_id}/{token}/callback`` and everything under
   ``/webhooks/{application_id}/{token}``: follow-ups, ``@original`` and follow-up messages,
   whatever Authorization header they also carry), ``bot`` for the rest sent with
   ``Authorization: Bot <token>``, ``none`` otherwise; the route is the method and the path with
   its ids replaced by Discord-style placeholders (``PATCH
   /channels/{channel_id}/messages/{message_id}``). `FakeDiscord.request_counts()` and
   `request_totals()` read them back from `FakeDiscord.requests`.

2. Rate limits, on by default (`FakeDiscord(rate_limits=None)` turns them off, a `RateLimits`
   changes them), as https://discord.com/developers/docs/topics/rate-limits describes them:

   - The global limit: 50 requests per second per bot token, over every process the fake
     serves; "Interaction endpoints are not bound to the bot's Global Rate Limit", so
     ``interaction`` requests are not counted in it. Beyond it: 429 with ``X-RateLimit-Global:
     true``, ``X-RateLimit-Scope: global`` and ``{"message": "You are being rate limited.",
     "retry_after": s, "global": true}``.
   - Per-route buckets keyed by the route's bucket and its top-level resource (``channel_id``,
     ``guild_id``, or ``webhook_id + webhook_token``: here the application id and the
     interaction token). Every answer on a limited route carries ``X-RateLimit-Limit``,
     ``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket``; beyond the limit a 429 with
     ``X-RateLimit-Scope: user`` and ``"global": false``. Every 429 carries ``Via: 1.1 google``
     and ``Retry-After`` (whole seconds, rounded up), as Discord's do: discord.py takes a 429
     without ``Via`` for a Cloudflare ban and raises instead of waiting.

   A bucket is a window that opens with its first request and holds ``limit`` requests for
   ``period`` seconds, then refills at once. That is what the headers tell a client
   (Remaining, and Reset-After until the whole bucket is back) and what discord.py's
   ``Ratelimit`` and twilight's ``GLOBAL_LIMIT_PERIOD`` ("from the first globally limited
   request until the remaining count resets") assume; the global limit is the same kind of
   window, per token. A request that is answered 429 spends nothing.

   The figures (`DISCORD_ROUTES`). Discord documents none per route ("should not be hard coded",
   read the headers); where it is silent the fake takes the strictest figure we found, so a bot
   that works here keeps working if Discord is strict:

   - ``POST /channels/{channel_id}/messages``: 5 per 5 s per channel, the figure issue 37 and
     every observed report give ("about 5 messages every 5 seconds" per channel).
   - ``PATCH`` and ``DELETE /channels/{channel_id}/messages/{message_id}``: 5 per 5 s per
     channel each, in buckets of their own. Discord's own announcement of the message limit put
     "message creation and editing" under one 5/5 s limit (discord/discord-api-docs#20, 2016,
     then per server); today's buckets may "include the HTTP method", and we found no current
     source that makes creates and edits share one, so each method has its own bucket at the
     creation figure (the old docs' 5 deletes a second per channel is looser than 5 per 5 s).
   - Interaction webhooks "share the same rate limit properties as normal webhooks"
     (receiving-and-responding.mdx), whose figures are not documented: posting a follow-up,
     editing a message of the token (``@original`` and follow-ups share one bucket) and deleting
     one each hold 5 per 5 s per token — stricter than the 5 per 2 s bots observe on webhooks.
   - The interaction callback: no bucket and no headers. Nothing documents a limit on it beyond
     one answer per interaction, which rest.py already enforces (a second callback: 400 40060).
   - Any other ``/api/v10`` route: a bucket of its own of 50 per second (`RateLimits.default`),
     so it has headers but only the global limit ever binds it.

3. Violations. A client that ignores a 429 — sends again into the same exhausted bucket (or, for
   the global limit, sends anything with that token) before that 429's ``retry_after`` has
   passed — breaks Discord's rule ("not making requests on exhausted buckets until after they
   have reset") and is listed in `FakeDiscord.violations`. A 429 is charged to the TCP connection
   it was answered on: aiohttp does not pipeline, so a client has read the answer before it
   sends its next request on that connection. Every 429 the fake gives, ignored or not, is in
   `FakeDiscord.rate_limited`.

What this is not: Discord's real, changing per-route figures or its bucket hashes; shared
("resource") limits, emoji routes' per-guild limits, the 2-per-10-minutes channel rename limit,
the 30046 limit on editing old messages, or the invalid-request (Cloudflare) limit; and it does
not catch a client that spreads its ignored retries over other connections or processes, nor one
that keeps sending after ``X-RateLimit-Remaining: 0`` without ever getting a 429. Faults queued
with `FakeDiscord.fail_next` come first and spend nothing. The fake's CDN (/attachments) and its
own /_fake endpoints are not Discord API requests: they are neither limited nor counted.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from .records import RequestRecord
from .rest import json_response

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
BOT, INTERACTION, NONE = "bot", "interaction", "none"
KINDS = (BOT, INTERACTION, NONE)
RATE_LIMITED = "You are being rate limited."
TOLERANCE = 0.005  # seconds of clock noise forgiven when judging whether a client waited

# A path segment after one of these words is that word's id (`{channel_id}`, ...).
_ID_NAMES = {
    "applications": "application_id",
    "channels": "channel_id",
    "commands": "command_id",
    "emojis": "emoji_id",
    "guilds": "guild_id",
    "interactions": "interaction_id",
    "members": "user_id",
    "messages": "message_id",
    "roles": "role_id",
    "users": "user_id",
    "webhooks": "application_id",
}
_INTERACTION_ROUTE = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/.*)?")
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


@dataclass(frozen=True)
class Bucket:
    """A per-route limit: `limit` requests per `period` seconds for each top-level resource.
    Routes that name the same bucket share its count (and its X-RateLimit-Bucket)."""

    name: str
    limit: int
    period: float


@dataclass(frozen=True)
class RateLimits:
    """The limits a `FakeDiscord` keeps (`FakeDiscord(rate_limits=RateLimits(...))`).

    `global_limit` requests per `global_period` per bot token (None: no global limit);
    `routes` maps route templates to their bucket; `default` is the bucket of any other API
    route (its name left empty: a bucket of its own per route), None for no bucket there;
    `exempt` routes have neither a bucket nor a place in the global limit's count.
    """

    global_limit: int | None = 50
    global_period: float = 1.0
    routes: Mapping[str, Bucket] = field(default_factory=lambda: dict(DISCORD_ROUTES))
    default: Bucket | None = field(default_factory=lambda: Bucket("", 50, 1.0))
    exempt: frozenset[str] = frozenset({CALLBACK})

    def bucket(self, route: str) -> Bucket | None:
        if route in self.exempt:
            return None
        found = self.routes.get(route)
        if found is not None:
            return found
        if self.default is None:
            return None
        return Bucket(self.default.name or route, self.default.limit, self.default.period)


_HOOK = "/webhooks/{application_id}/{token}"
DISCORD_ROUTES: dict[str, Bucket] = {
    "POST /channels/{channel_id}/messages": Bucket("channel message create", 5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": Bucket("channel message edit", 5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": Bucket("channel message delete", 5, 5.0),
    f"POST {_HOOK}": Bucket("webhook execute", 5, 5.0),
    f"PATCH {_HOOK}/messages/@original": Bucket("webhook message edit", 5, 5.0),
    f"PATCH {_HOOK}/messages/{{message_id}}": Bucket("webhook message edit", 5, 5.0),
    f"DELETE {_HOOK}/messages/@original": Bucket("webhook message delete", 5, 5.0),
    f"DELETE {_HOOK}/messages/{{message_id}}": Bucket("webhook message delete", 5, 5.0),
}


DISCORD_LIMITS = RateLimits()  # what `FakeDiscord` keeps unless told otherwise


@dataclass(eq=False)
class RateLimitRecord:
    """One 429 the fake's limits gave (`FakeDiscord.rate_limited`): when (fake seconds), to what,
    whether it was the global limit, the bucket and resource, how long the client was told to
    wait, the TCP peer it went to, and whether that client had ignored an earlier one."""

    at: float
    method: str
    path: str
    route: str
    kind: str
    is_global: bool
    bucket: str
    major: str
    retry_after: float
    peer: str
    ignored_earlier: bool = False

    def __repr__(self) -> str:
        scope = "global" if self.is_global else self.bucket
        return f"<429 {self.route} ({scope}) retry_after={self.retry_after}>"


@dataclass
class _Window:
    reset: float  # fake monotonic seconds when it refills
    count: int = 0


def route_of(method: str, path: str) -> str:
    """`method` and the API path (after /api/v10) with ids as placeholders:
    ``PATCH /webhooks/{application_id}/{token}/messages/@original``."""
    parts = path.split("/")
    out: list[str] = []
    for i, part in enumerate(parts):
        before = parts[i - 1] if i else ""
        if part.isdigit():
            out.append("{" + _ID_NAMES.get(before, "id") + "}")
        elif i >= 2 and parts[i - 2] in ("interactions", "webhooks") and before.isdigit():
            out.append("{token}")
        else:
            out.append(part)
    return f"{method} {'/'.join(out)}"


def major_of(path: str) -> str:
    """The top-level resource a per-route limit is counted for: ``channel:<id>``, ``guild:<id>``
    or ``webhook:<id>/<token>`` ('' when the route has none)."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        nxt = parts[i + 1]
        if part == "channels" and nxt.isdigit():
            return f"channel:{nxt}"
        if part == "guilds" and nxt.isdigit():
            return f"guild:{nxt}"
        if part == "webhooks" and nxt.isdigit() and i + 2 < len(parts):
            return f"webhook:{nxt}/{parts[i + 2]}"
    return ""


def kind_of(path: str, authorization: str | None) -> str:
    """Who pays for a request to an API path: an interaction's token, the bot's, or nobody."""
    if _INTERACTION_ROUTE.fullmatch(path):
        return INTERACTION
    if authorization and authorization.startswith("Bot "):
        return BOT
    return NONE


def counts_of(requests: list[RequestRecord], start: int = 0) -> dict[tuple[str, str], int]:
    """{(token kind, route): requests} over `requests[start:]`, API requests only (429s included:
    Discord counts those too)."""
    return dict(Counter((r.token_kind, r.route) for r in requests[start:] if r.route))


def totals(counts: Mapping[tuple[str, str], int]) -> dict[str, int]:
    """Requests per token kind ("bot", "interaction", "none": each present, 0 if unused)."""
    out = dict.fromkeys(KINDS, 0)
    for (kind, _route), n in counts.items():
        out[kind] = out.get(kind, 0) + n
    return out


def summary(counts: Mapping[tuple[str, str], int]) -> str:
    """A few lines for a test's output: the totals per kind, then each route, most used first."""
    head = ", ".join(f"{kind} {n}" for kind, n in totals(counts).items())
    lines = [f"{n:5d}  {kind:<11} {route}" for (kind, route), n in
             sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    return "\n".join([head, *lines])


def _ceil_ms(seconds: float) -> float:
    return max(0.001, math.ceil(seconds * 1000 - 1e-6) / 1000)


def _bucket_hash(name: str) -> str:
    return hashlib.sha1(name.encode()).hexdigest()[:32]


_HEADERS = web.RequestKey("fd_ratelimit_headers", dict)


class Budget:
    """The fake's classification and rate limits (`FakeDiscord.budget`); see the module docstring."""

    def __init__(self, fake: FakeDiscord, limits: RateLimits | None) -> None:
        self.fake = fake
        self.limits = limits
        self.rate_limited: list[RateLimitRecord] = []
        self._windows: dict[tuple[str, str], _Window] = {}
        self._blocked: dict[tuple[str, str, str], float] = {}  # (bucket, major, peer) -> until

    def admit(self, request: web.Request, record: RequestRecord, *, fault: bool = False) -> web.Response | None:
        """Classify `record`; then (unless a fault answers it) spend the request from its bucket
        and the global limit, or return the 429 that refuses it."""
        path = request.path
        if not path.startswith(API_PREFIX + "/"):
            return None
        rel = path[len(API_PREFIX) :]
        record.route = route_of(request.method, rel)
        record.token_kind = kind_of(rel, request.headers.get("Authorization"))
        if fault or self.limits is None:
            return None
        limits, now = self.limits, self.fake.now()
        bucket = limits.bucket(record.route)
        major = major_of(rel)
        window = self._active((bucket.name, major), now) if bucket is not None else None
        if bucket is not None and window is not None and window.count >= bucket.limit:
            return self._refuse(request, record, (bucket.name, major), window.reset - now, bucket, window)
        token = request.headers.get("Authorization", "")
        counted = record.token_kind == BOT and limits.global_limit is not None and record.route not in limits.exempt
        if counted:
            glob = self._active(("global", token), now)
            if glob is not None and glob.count >= (limits.global_limit or 0):
                return self._refuse(request, record, ("global", token), glob.reset - now, None, None)
            if glob is None:
                glob = self._windows[("global", token)] = _Window(reset=now + limits.global_period)
            glob.count += 1
        if bucket is not None:
            if window is None:
                window = self._windows[(bucket.name, major)] = _Window(reset=now + bucket.period)
            window.count += 1
            request[_HEADERS] = self._headers(bucket, window, now)
        return None

    def stamp(self, request: web.Request, response: web.StreamResponse) -> None:
        """Put the bucket's X-RateLimit headers on an answer the route's handler gave."""
        headers = request.get(_HEADERS)
        if headers and not response.prepared:
            response.headers.update(headers)

    def _active(self, key: tuple[str, str], now: float) -> _Window | None:
        """The bucket's window if one is open now (a window opens with the first request it holds)."""
        window = self._windows.get(key)
        return window if window is not None and now < window.reset else None

    def _headers(self, bucket: Bucket, window: _Window, now: float) -> dict[str, str]:
        after = _ceil_ms(window.reset - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - window.count)),
            "X-RateLimit-Reset": f"{self.fake.clock.wall() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": _bucket_hash(bucket.name),
        }

    def _refuse(
        self,
        request: web.Request,
        record: RequestRecord,
        key: tuple[str, str],
        wait: float,
        bucket: Bucket | None,
        window: _Window | None,
    ) -> web.Response:
        now = self.fake.now()
        retry_after = _ceil_ms(wait)
        peer = _peer(request)
        blocked = (*key, peer)
        ignored = blocked in self._blocked and now < self._blocked[blocked] - TOLERANCE
        self._blocked[blocked] = now + retry_after
        is_global = bucket is None
        name, major = key
        limited = RateLimitRecord(
            at=now, method=request.method, path=record.path, route=record.route, kind=record.token_kind,
            is_global=is_global, bucket=name, major="" if is_global else major, retry_after=retry_after,
            peer=peer, ignored_earlier=ignored,
        )
        self.rate_limited.append(limited)
        if ignored:
            scope = "the global rate limit" if is_global else f"bucket {name!r} ({major})"
            self.fake._violate(
                f"{record.route} sent into {scope} before the retry_after of the 429 it was given "
                "had passed (a client must wait retry_after after a 429)"
            )
        headers = {"Retry-After": str(math.ceil(retry_after)), "Via": "1.1 google"}
        if is_global:
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        elif bucket is not None and window is not None:
            headers |= self._headers(bucket, window, now) | {"X-RateLimit-Scope": "user"}
        body = {"message": RATE_LIMITED, "retry_after": retry_after, "global": is_global}
        return json_response(body, status=429, headers=headers)


def _peer(request: web.Request) -> str:
    transport = request.transport
    name = transport.get_extra_info("peername") if transport is not None else None
    if isinstance(name, tuple) and len(name) >= 2:
        return f"{name[0]}:{name[1]}"
    return str(request.remote)
