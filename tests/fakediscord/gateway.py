"""The fake Discord gateway: one aiohttp websocket route speaking Discord's gateway protocol (v10, JSON).

What this is: HELLO → IDENTIFY (token, privileged intents and shard checked) → READY (the session's
guilds, unavailable, and the `shard` pair it identified with) → one GUILD_CREATE per guild of its
shard; heartbeats answered with op 11; sessions with sequence numbers and an event log, so RESUME
(op 6) replays every missed dispatch and then sends RESUMED; events sent while a session has no
socket wait in its log. A client that closes with 1000 or 1001 ends its session (Discord:
"your session will be invalidated"). Dispatches respect intents (MESSAGE_* needs GUILD_MESSAGES,
member events need GUILD_MEMBERS, …). Test hooks: `disconnect()` (close a socket so the client
resumes), `send_reconnect()` (op 7), `invalidate()` (op 9), each for the latest session or for
every live session of one shard; GUILD_MEMBERS_CHUNK for op 8.

Sharding, as Discord documents it (developers/events/gateway.mdx, "Sharding", "Identifying";
opcodes-and-status-codes "Gateway Close Event Codes"):
- GET /gateway/bot recommends `FakeDiscord.shard_count` shards (default 1) with a
  `session_start_limit` carrying `max_concurrency` (default 1).
- A session that identified with `shard: [shard_id, num_shards]` gets the events of guilds with
  `(guild_id >> 22) % num_shards == shard_id` and nothing else; DMs go only to shard 0. A session
  without `shard` is shard [0, 1]: it gets everything.
- Refusals: a malformed pair, `shard_id` outside `0..num_shards-1` or `num_shards < 1` closes with
  4010 "Invalid shard". Fewer shards than the fake's `shard_count` (no `shard` at all included,
  when `shard_count > 1`) closes with 4011 "Sharding required": the fake's `shard_count` stands
  for the count below which one session would hold more than Discord's 2,500 guilds. More
  shards than recommended are accepted and routed by the session's own `num_shards` ("You can
  establish … sessions with different `num_shards` values"), unless `large_bot_sharding` is on:
  then `num_shards` must be a multiple of `shard_count`, else 4010 (Discord's large-bot rule).
- A second IDENTIFY for a shard that already has a live session is accepted, and from then on
  every session of that shard gets that shard's events, interactions included. Discord documents
  exactly this ("You can establish multiple sessions with the same `[shard_id, num_shards]`",
  used for zero-downtime hand-offs); it is why both copies of a bot started twice get every
  command, and the slower answer gets 40060 "Interaction has already been acknowledged" (e.g.
  HuyaneMatsu/hata#80, Rapptz/discord.py#8039). Tests that need "who owns shard k" use
  `live_sessions(shard=k)`.
- Identify pacing: Discord allows one IDENTIFY per rate-limit bucket (`shard_id %
  max_concurrency`) per 5 seconds, and "If they exceed this limit, Discord will respond with a
  Opcode 9 Invalid Session" (not a close code: 4009 is "Session timed out"). The fake records every
  IDENTIFY (`identifies`, with its fake time, shard, bucket and `too_fast`) so a test can assert
  that a cluster never broke the limit (`FakeDiscord.identify_breaches()`); it answers a too-fast
  IDENTIFY with op 9 (d=false) only when `enforce_identify_pacing` is on, because the
  single-process tests restart bots faster than 5 s apart and Discord's answer would only slow
  them down by discord.py's 5 s re-identify pause.

Guilds the bot is not in (`add_guild(bot_member=False)`, or after `remove_bot`) are left out of
READY and GUILD_CREATE, and none of their events is sent, except INTERACTION_CREATE (user
installs reach them; routed by the guild's shard) and the GUILD_DELETE of a removal. Group DMs
and DMs between users send the bot nothing but their interactions (on shard 0).

What this is not: compression (frames are plain text: discord.py decodes text frames even when it
asked for zlib-stream), ETF encoding, presences, voice, or the gateway's own send rate limit (120
events per 60 s).

Where the fake's sharding still differs from Discord's:
- 4011 comes from the configured `shard_count`, never from counting guilds (Discord: more than
  2,500 guilds on one session); there is no automatic re-shard recommendation as guilds are added.
- Identify pacing is only recorded unless `enforce_identify_pacing` is on; only accepted IDENTIFYs
  occupy a bucket; the order of buckets ("start them by bucket in order") is not checked.
- The daily limit of 1000 IDENTIFYs is counted in `session_start_limit.remaining` but never
  enforced (no session termination, no token reset); `reset_after` is a constant.
- A session without a socket never times out (Discord drops it after a few minutes): it keeps
  collecting its shard's events until it resumes, closes with 1000/1001 or is invalidated.
- Every guild of a shard arrives in GUILD_CREATE right after READY (Discord may send them later,
  or as unavailable during an outage); a guild leaves the bot only by `FakeDiscord.remove_bot`.
- Every session gets the same `resume_gateway_url` (the fake's one gateway).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads, places
from .records import IdentifyRecord, shard_for

if TYPE_CHECKING:
    from .server import FakeDiscord

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

IDENTIFY_WINDOW = 5.0  # seconds per rate-limit bucket (session_start_limit.max_concurrency)

EventData = dict[str, Any] | Callable[["GatewaySession"], dict[str, Any]]


@dataclass(eq=False)
class GatewaySession:
    """One gateway session: what it identified with, its event log and its current socket (if any)."""

    session_id: str
    number: int  # the n-th accepted IDENTIFY
    intents: int
    shard: list[int] | None
    identified_at: float  # fake monotonic seconds
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    ready: bool = False
    invalid: bool = False
    resumes: int = 0
    guild_ids: list[int] = field(default_factory=list)  # the guilds its READY announced
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    @property
    def live(self) -> bool:
        """Connected, past READY and not invalidated: the session a bot process is using now."""
        return self.connected and self.ready and not self.invalid

    @property
    def shard_id(self) -> int:
        return 0 if self.shard is None else self.shard[0]

    @property
    def shard_count(self) -> int:
        return 1 if self.shard is None else self.shard[1]

    def routes(self, guild_id: int | None) -> bool:
        """True when this session gets the events of `guild_id` (None: a DM, which only shard 0 gets)."""
        return shard_for(guild_id, self.shard_count) == self.shard_id

    def event_names(self) -> list[str]:
        return [name for _, name, _ in self.events]

    def __repr__(self) -> str:
        state = "live" if self.live else "invalid" if self.invalid else "connected" if self.connected else "no socket"
        return f"GatewaySession(#{self.number}, shard={self.shard}, {state}, seq={self.seq})"


class Gateway:
    """Owns the gateway sessions; `FakeDiscord` forwards its gateway calls here."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.active: GatewaySession | None = None  # the latest session to IDENTIFY or RESUME
        self.connections: set[web.WebSocketResponse] = set()
        self.identify_count = 0
        self.ready_count = 0
        self.resume_count = 0
        self.identifies: list[IdentifyRecord] = []
        self._bucket_last: dict[int, float] = {}
        self.log: list[tuple[float, str, Any, Any]] = []  # (time, "in"/"out", op, event name)

    # ---- routing -------------------------------------------------------------------------------

    def targets(self, guild_id: int | None, intent: int | None = None) -> list[GatewaySession]:
        """Every session (with or without a socket, not invalidated) that gets `guild_id`'s events.

        A session still sending its READY is included: its lock makes the event follow READY.
        """
        return [
            s
            for s in self.sessions.values()
            if not s.invalid and s.routes(guild_id) and (intent is None or s.intents & intent)
        ]

    def live_sessions(self, shard: int | None = None) -> list[GatewaySession]:
        """Connected sessions past READY, oldest first; only those identified as `shard` if given."""
        return [s for s in self.sessions.values() if s.live and (shard is None or s.shard_id == shard)]

    # ---- sending -------------------------------------------------------------------------------

    async def _send(self, ws: web.WebSocketResponse, packet: dict[str, Any]) -> None:
        self.log.append((time.monotonic(), "out", packet.get("op"), packet.get("t")))
        await ws.send_str(json.dumps(packet, separators=(",", ":")))

    async def _dispatch_locked(self, session: GatewaySession, event: str, data: dict[str, Any]) -> int:
        session.seq += 1
        seq = session.seq
        session.events.append((seq, event, data))
        if session.connected:
            assert session.ws is not None
            try:
                await self._send(session.ws, {"op": 0, "t": event, "s": seq, "d": data})
            except (ConnectionResetError, RuntimeError):
                session.ws = None
        return seq

    async def dispatch_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> int:
        async with session.lock:
            return await self._dispatch_locked(session, event, data)

    async def dispatch(
        self, event: str, data: EventData, *, guild_id: int | None, intent: int | None = None
    ) -> list[GatewaySession]:
        """Send to every session whose shard gets `guild_id` (None: a DM, shard 0 only) and that
        asked for `intent`; buffered for sessions between sockets. Returns who got it (empty: nobody).

        `data` may be a function of the session, for payloads that depend on its intents.
        Events of a guild the bot is not in are not sent (nobody gets them), except
        INTERACTION_CREATE (user installs reach servers without the bot) and the GUILD_DELETE that
        tells it it left.
        """
        if (
            guild_id is not None
            and event not in ("INTERACTION_CREATE", "GUILD_DELETE")
            and not places.bot_in_guild(self.fake, guild_id)
        ):
            return []
        targets = self.targets(guild_id, intent)
        for session in targets:
            await self.dispatch_to(session, event, data(session) if callable(data) else data)
        return targets

    # ---- the websocket route -----------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(timeout=2.0, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        self.connections.add(ws)
        version, encoding = request.query.get("v"), request.query.get("encoding", "json")
        if version != "10" or encoding != "json":
            self.fake._violate(f"gateway connect with v={version!r} encoding={encoding!r} (expected v=10, json)")
        session: GatewaySession | None = None
        client_close: int | None = None  # the code of a close frame the client sent
        try:
            hello = {"heartbeat_interval": self.fake.heartbeat_interval_ms, "_trace": ['["fake-gateway",{}]']}
            await self._send(ws, {"op": 10, "d": hello, "s": None, "t": None})
            while True:
                msg = await ws.receive()
                if msg.type is WSMsgType.CLOSE:
                    client_close = msg.data
                    break
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                try:
                    packet = json.loads(msg.data)
                    op = packet["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                data = packet.get("d")
                self.log.append((time.monotonic(), "in", op, None))
                if op == 1:
                    await self._send(ws, {"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    if session is not None:
                        await ws.close(code=4005, message=b"Already authenticated.")
                        break
                    session = await self._identify(ws, data or {})
                    if ws.closed:
                        break
                elif op == 6:
                    if session is not None:
                        await ws.close(code=4005, message=b"Already authenticated.")
                        break
                    session = await self._resume(ws, data or {})
                elif session is None:
                    if op in (3, 4, 8):
                        await ws.close(code=4003, message=b"Not authenticated.")
                        break
                elif op == 8:
                    await self._members_chunk(session, data or {})
                elif op in (3, 4):
                    pass
                else:
                    await ws.close(code=4001, message=b"Unknown opcode.")
                    break
        finally:
            self.connections.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if client_close in (1000, 1001):
                    session.invalid = True  # the client closed normally: Discord ends the session
            self.fake._notify()
        return ws

    def _check_shard(self, raw: Any) -> tuple[tuple[int, int] | None, int, str]:
        """(shard pair or None, close code or 0, reason) for an IDENTIFY's `shard` field."""
        wanted = self.fake.shard_count
        if raw is None:
            if wanted > 1:
                return None, 4011, "Sharding required."
            return None, 0, ""
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
        ):
            return None, 4010, "Invalid shard."
        shard_id, count = raw
        if count < 1 or not 0 <= shard_id < count:
            return (shard_id, count), 4010, "Invalid shard."
        if self.fake.large_bot_sharding and count % wanted:
            return (shard_id, count), 4010, "Invalid shard."
        if count < wanted:
            return (shard_id, count), 4011, "Sharding required."
        return (shard_id, count), 0, ""

    def _record(self, pair: tuple[int, int] | None, outcome: str, session_id: str | None = None) -> IdentifyRecord:
        now = self.fake.now()
        bucket = (0 if pair is None else pair[0]) % max(1, self.fake.max_concurrency)
        last = self._bucket_last.get(bucket)
        record = IdentifyRecord(
            at=now,
            shard=pair,
            outcome=outcome,
            session_id=session_id,
            bucket=bucket,
            too_fast=last is not None and now - last < IDENTIFY_WINDOW,
        )
        self.identifies.append(record)
        return record

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        if d.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        pair, code, reason = self._check_shard(d.get("shard"))
        if code:
            self._record(pair, str(code))
            await ws.close(code=code, message=reason.encode())
            self.fake._notify()
            return None
        intents = d.get("intents")
        if not isinstance(intents, int):
            self._record(pair, "4013")
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents:
            self._record(pair, "4014")
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        if self.fake.hold_identify is not None:  # a test holds READY back (FakeDiscord.hold_identify)
            await self.fake.hold_identify.wait()
        record = self._record(pair, "ready")
        if record.too_fast and self.fake.enforce_identify_pacing:
            record.outcome = "rate_limited"
            await self._send(ws, {"op": 9, "d": False, "s": None, "t": None})
            self.fake._notify()
            return None
        self._bucket_last[record.bucket] = record.at
        self.identify_count += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            number=self.identify_count,
            intents=intents,
            shard=None if pair is None else list(pair),
            identified_at=record.at,
        )
        record.session_id = session.session_id
        fake = self.fake
        guilds = [g for g in fake.guilds.values() if session.routes(g.id) and places.bot_in_guild(fake, g)]
        session.guild_ids = [g.id for g in guilds]
        self.sessions[session.session_id] = session
        async with session.lock:
            session.ws = ws
            self.active = session
            ready: dict[str, Any] = {
                "v": 10,
                "user_settings": {},
                "user": payloads.bot_user_json(self.fake, full=True),
                "session_type": "normal",
                "session_id": session.session_id,
                "resume_gateway_url": self.fake.gateway_url,
                "relationships": [],
                "private_channels": [],
                "presences": [],
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["madrid", "milan"],
                "auth": {},
                "application": {"id": str(self.fake.application_id), "flags": self.fake.application_flags},
                "_trace": ['["fake-gateway",{}]'],
            }
            if session.shard is not None:
                ready["shard"] = list(session.shard)
            await self._dispatch_locked(session, "READY", ready)
            for guild in guilds:
                await self._dispatch_locked(session, "GUILD_CREATE", payloads.guild_json(self.fake, guild))
            session.ready = True
            self.ready_count += 1
        self.fake._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        if d.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or session.invalid:
            await self._send(ws, {"op": 9, "d": False, "s": None, "t": None})
            return None
        old = session.ws
        if old is not None and old is not ws and not old.closed:
            asyncio.get_running_loop().create_task(old.close(code=4000, message=b"Resumed elsewhere."))
        last = d.get("seq") or 0
        async with session.lock:
            session.ws = ws
            for seq, event, data in list(session.events):
                if seq > last:
                    await self._send(ws, {"op": 0, "t": event, "s": seq, "d": data})
            await self._dispatch_locked(session, "RESUMED", {"_trace": ['["fake-gateway",{}]']})
        session.resumes += 1
        self.resume_count += 1
        self.active = session
        self.fake._notify()
        return session

    async def _members_chunk(self, session: GatewaySession, d: dict[str, Any]) -> None:
        try:
            guild = self.fake.guilds[int(d.get("guild_id") or 0)]
        except (TypeError, ValueError, KeyError):
            return
        if not places.bot_in_guild(self.fake, guild):
            return
        members = [payloads.bot_member_json(self.fake, guild)]
        members += [payloads.member_json(self.fake, u, guild=guild) for u in self.fake.members(guild)]
        wanted = d.get("user_ids")
        if wanted:
            wanted_ids = {str(x) for x in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m["user"]["id"] in wanted_ids]
        query = d.get("query")
        if query:
            members = [m for m in members if m["user"]["username"].startswith(str(query).lower())]
        limit = d.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        if d.get("presences"):
            chunk["presences"] = []
        await self.dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    # ---- test hooks ----------------------------------------------------------------------------

    def _chosen(self, shard: int | None) -> list[GatewaySession]:
        if shard is None:
            return [] if self.active is None else [self.active]
        return [s for s in self.sessions.values() if not s.invalid and s.connected and s.shard_id == shard]

    async def disconnect(self, code: int = 4000, *, shard: int | None = None) -> bool:
        """Close the socket of the latest session, or of every connected session identified as
        `shard` (the clients should RESUME). False if none was open."""
        closed = False
        for session in self._chosen(shard):
            if not session.connected:
                continue
            assert session.ws is not None
            ws, session.ws = session.ws, None
            await ws.close(code=code, message=b"Fake disconnect.")
            closed = True
        self.fake._notify()
        return closed

    async def send_reconnect(self, *, shard: int | None = None) -> bool:
        sent = False
        for session in self._chosen(shard):
            if session.connected:
                assert session.ws is not None
                await self._send(session.ws, {"op": 7, "d": None, "s": None, "t": None})
                sent = True
        return sent

    async def invalidate(self, *, shard: int | None = None) -> bool:
        """op 9 with d=false: the client must IDENTIFY again (a new session)."""
        chosen = self._chosen(shard)
        for session in chosen:
            session.invalid = True
            if session.connected:
                assert session.ws is not None
                await self._send(session.ws, {"op": 9, "d": False, "s": None, "t": None})
        return bool(chosen)

    async def close_all(self) -> None:
        for ws in list(self.connections):
            if not ws.closed:
                with contextlib.suppress(TimeoutError, ConnectionResetError, RuntimeError):
                    await asyncio.wait_for(ws.close(code=1001, message=b"Fake shutting down."), 2.0)
