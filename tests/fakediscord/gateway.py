"""The fake Discord gateway: one aiohttp websocket route speaking Discord's gateway protocol (v10, JSON).

What this is: HELLO → IDENTIFY (token and privileged intents checked) → READY (guild unavailable)
→ GUILD_CREATE (full guild); heartbeats answered with op 11; sessions with sequence numbers and an
event log, so RESUME (op 6) replays every missed dispatch and then sends RESUMED; events sent
while a session has no socket wait in its log. Test hooks: `disconnect()` (close the socket so the
client resumes), `send_reconnect()` (op 7), `invalidate()` (op 9), GUILD_MEMBERS_CHUNK for op 8.
Dispatches respect intents (MESSAGE_* needs GUILD_MESSAGES, member events need GUILD_MEMBERS, …).

What this is not: compression (frames are plain text: discord.py decodes text frames even when it
asked for zlib-stream), ETF encoding, sharding beyond echoing the `shard` pair, presences, voice,
or the gateway's own send rate limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads

if TYPE_CHECKING:
    from .server import FakeDiscord

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


@dataclass(eq=False)
class GatewaySession:
    session_id: str
    number: int
    intents: int
    shard: list[int] | None
    identified_at: float
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    ready: bool = False
    invalid: bool = False
    resumes: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed


class Gateway:
    """Owns the gateway sessions; `FakeDiscord` forwards its gateway calls here."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.active: GatewaySession | None = None
        self.connections: set[web.WebSocketResponse] = set()
        self.identify_count = 0
        self.ready_count = 0
        self.resume_count = 0
        self.log: list[tuple[float, str, Any, Any]] = []  # (time, "in"/"out", op, event name)

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

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> bool:
        """Send to the active session (buffered if it is between sockets). False if none wants it."""
        session = self.active
        if session is None or session.invalid:
            return False
        if intent is not None and not session.intents & intent:
            return False
        await self.dispatch_to(session, event, data)
        return True

    def wants(self, intent: int) -> bool:
        return self.active is not None and bool(self.active.intents & intent)

    # ---- the websocket route -----------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(timeout=2.0, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        self.connections.add(ws)
        version, encoding = request.query.get("v"), request.query.get("encoding", "json")
        if version != "10" or encoding != "json":
            self.fake._violate(f"gateway connect with v={version!r} encoding={encoding!r} (expected v=10, json)")
        session: GatewaySession | None = None
        try:
            hello = {"heartbeat_interval": self.fake.heartbeat_interval_ms, "_trace": ['["fake-gateway",{}]']}
            await self._send(ws, {"op": 10, "d": hello, "s": None, "t": None})
            async for msg in ws:
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
                    if session is None:
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
            self.fake._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        if d.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = d.get("intents")
        if not isinstance(intents, int):
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        self.identify_count += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            number=self.identify_count,
            intents=intents,
            shard=d.get("shard"),
            identified_at=time.monotonic(),
        )
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
                "guilds": [{"id": str(self.fake.guild_id), "unavailable": True}],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["madrid", "milan"],
                "auth": {},
                "application": {"id": str(self.fake.application_id), "flags": self.fake.application_flags},
                "_trace": ['["fake-gateway",{}]'],
            }
            if session.shard is not None:
                ready["shard"] = session.shard
            await self._dispatch_locked(session, "READY", ready)
            await self._dispatch_locked(session, "GUILD_CREATE", payloads.guild_json(self.fake))
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
        members = [payloads.bot_member_json(self.fake)]
        members += [payloads.member_json(self.fake, u) for u in self.fake.users.values()]
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
            "guild_id": str(self.fake.guild_id),
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

    async def disconnect(self, code: int = 4000) -> bool:
        """Close the active session's socket (the client should RESUME). False if none was open."""
        session = self.active
        if session is None or not session.connected:
            return False
        assert session.ws is not None
        ws, session.ws = session.ws, None
        await ws.close(code=code, message=b"Fake disconnect.")
        return True

    async def send_reconnect(self) -> bool:
        session = self.active
        if session is None or not session.connected:
            return False
        assert session.ws is not None
        await self._send(session.ws, {"op": 7, "d": None, "s": None, "t": None})
        return True

    async def invalidate(self) -> bool:
        """op 9 with d=false: the client must IDENTIFY again (a new session)."""
        session = self.active
        if session is None:
            return False
        session.invalid = True
        if session.connected:
            assert session.ws is not None
            await self._send(session.ws, {"op": 9, "d": False, "s": None, "t": None})
        return True

    async def close_all(self) -> None:
        for ws in list(self.connections):
            if not ws.closed:
                with contextlib.suppress(TimeoutError, ConnectionResetError, RuntimeError):
                    await asyncio.wait_for(ws.close(code=1001, message=b"Fake shutting down."), 2.0)
