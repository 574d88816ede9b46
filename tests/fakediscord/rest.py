"""The fake Discord REST API (aiohttp handlers under /api/v10) and its request middleware.

What this is: the routes discord.py 2.7 uses for a slash-command bot — login (/users/@me,
/oauth2/applications/@me), /gateway/bot (the fake's recommended `shards` and a
`session_start_limit` with its `max_concurrency`), application commands (global and guild, bulk
overwrite),
application emojis,
channel messages (JSON or multipart with payload_json + files[n]), DMs, interaction callbacks
(`?with_response=1`, answering an InteractionCallbackResponse), followups and
`@original`/`{id}` webhook messages — enforcing Discord's rules through limits.py and answering
broken ones the way Discord does (400 50035, 400 40060, 404 10062, 401 50027, …) while recording
a violation. The middleware records every request, applies `fail_next` faults and turns unknown
routes into 404s with a violation.

Threads: starting one from a message (Create Public Threads, else 403 50013), posting in one (Send
Messages in Threads, else 403 50013; an archived one is unarchived by the post), archiving one the bot
made (Modify Channel; another's needs Manage Threads), no edits of messages in an archived one.

Embed Links: Discord drops the embeds of a message whose author may not embed links where it is
posted; the message itself is posted (an embed-only one shows empty). The fake drops the embeds
of the bot's channel posts and edits where the bot lacks Embed Links (its guild permissions), and,
strict where the docs are silent, of interaction responses, follow-ups and their edits where the
interaction's `app_permissions` lack it (they include it in DMs and group DMs). Each drop is
listed in `FakeDiscord.suppressed_embeds`, not a violation: it is what Discord does.

Places the bot is not in (group DMs, DMs between users, servers that never added it; issue 24):
every bot-token route on their channels or guild answers 403 50001 Missing Access, recorded as a
refusal (`FakeDiscord.refused_requests`), not a violation, while the interaction routes keep
working there. A user-install-only interaction takes at most 5 follow-ups (the 6th: 400 40094);
tokens last `FakeDiscord.token_lifetime` (then 401 50027); a member without Use External Apps in a
server without the bot gets every reply of their interactions ephemeral.

Rate limits: the middleware asks budget.py to classify each request (bot or interaction token,
route) and to keep Discord's global and per-route limits (X-RateLimit headers, 429s).

What this is not: reactions,
thread members, pins, bans, roles or channel editing, webhooks other than interaction tokens, or
permission checks beyond Manage Server on members (and the bot's own: threads, Embed Links).
"""

from __future__ import annotations

import json
import mimetypes
import re
import struct
import traceback
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits, payloads, places
from .activity import LAUNCH_ACTIVITY
from .gateway import GUILDS
from .records import (
    ACK_DEADLINE,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    SUPPRESS_EMBEDS,
    UPDATE_MESSAGE,
    USER_INSTALL_FOLLOWUP_LIMIT,
    AttachmentRecord,
    FakeChannel,
    FakeGuild,
    InitialResponse,
    InteractionRecord,
    MessageRecord,
    ModalRecord,
    RequestRecord,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
RECORD = web.RequestKey("fd_record", RequestRecord)
BODY = web.RequestKey("fd_body", object)
FILES = web.RequestKey("fd_files", list)
INTERACTION = web.RequestKey("fd_interaction", InteractionRecord)
Files = dict[int, tuple[str, bytes]]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly `Content-Type: application/json`: discord.py only parses that (no charset suffix)."""
    out = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=out)


def error(status: int, code: int, message: str, problems: list[str] | None = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if problems:
        body["errors"] = {"fake": {"_errors": [{"code": "FAKE_DISCORD_RULE", "message": p} for p in problems]}}
    return json_response(body, status=status)


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    return None


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    # ---- plumbing ------------------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        a = API_PREFIX
        r = app.router
        r.add_get(f"{a}/users/@me", self.users_me)
        r.add_post(f"{a}/users/@me/channels", self.create_dm)
        r.add_get(f"{a}/users/{{user_id:\\d+}}", self.get_user)
        r.add_get(f"{a}/gateway", self.gateway)
        r.add_get(f"{a}/gateway/bot", self.gateway_bot)
        r.add_get(f"{a}/oauth2/applications/@me", self.application)
        r.add_get(f"{a}/applications/@me", self.application)
        for base in (f"{a}/applications/{{app}}/commands", f"{a}/applications/{{app}}/guilds/{{guild}}/commands"):
            r.add_get(base, self.list_commands)
            r.add_put(base, self.put_commands)
            r.add_post(base, self.post_command)
            r.add_get(base + "/{cmd}", self.get_command)
            r.add_patch(base + "/{cmd}", self.patch_command)
            r.add_delete(base + "/{cmd}", self.delete_command)
        r.add_get(f"{a}/applications/{{app}}/emojis", self.list_emojis)
        r.add_post(f"{a}/applications/{{app}}/emojis", self.create_emoji)
        r.add_delete(f"{a}/applications/{{app}}/emojis/{{emoji}}", self.delete_emoji)
        r.add_get(f"{a}/guilds/{{guild}}", self.get_guild)
        r.add_get(f"{a}/guilds/{{guild}}/channels", self.guild_channels)
        r.add_get(f"{a}/guilds/{{guild}}/roles", self.guild_roles)
        r.add_get(f"{a}/guilds/{{guild}}/members/{{user}}", self.guild_member)
        r.add_get(f"{a}/channels/{{channel}}", self.get_channel)
        r.add_patch(f"{a}/channels/{{channel}}", self.edit_thread)
        r.add_post(f"{a}/channels/{{channel}}/messages/{{message:\\d+}}/threads", self.start_thread)
        r.add_post(f"{a}/channels/{{channel}}/typing", self.typing)
        r.add_get(f"{a}/channels/{{channel}}/messages", self.channel_history)
        r.add_post(f"{a}/channels/{{channel}}/messages", self.channel_post)
        r.add_get(f"{a}/channels/{{channel}}/messages/{{message:\\d+}}", self.channel_get)
        r.add_patch(f"{a}/channels/{{channel}}/messages/{{message:\\d+}}", self.channel_patch)
        r.add_delete(f"{a}/channels/{{channel}}/messages/{{message:\\d+}}", self.channel_delete)
        r.add_post(f"{a}/interactions/{{iid}}/{{token}}/callback", self.callback)
        r.add_post(f"{a}/webhooks/{{app}}/{{token}}", self.followup)
        r.add_get(f"{a}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_get)
        r.add_patch(f"{a}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_patch)
        r.add_delete(f"{a}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_delete)
        r.add_get("/attachments/{channel}/{att}/{filename}", self.attachment)
        r.add_post("/_fake/guard", self.guard_report)
        r.add_get("/gateway", self.fake.gateway.handle)
        self.fake.activities.add_routes(self, app, a)  # activity.py: /oauth2/token, activity-instances
        r.add_route("*", "/{tail:.*}", self.unknown)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        fake = self.fake
        path = request.path
        rel = path[len(API_PREFIX) :] if path.startswith(API_PREFIX) else path
        record = RequestRecord(method=request.method, path=rel, query=dict(request.query), at=fake.now())
        if path != "/gateway":
            fake.requests.append(record)
        request[RECORD] = record
        fault = fake._take_fault(request.method, rel)
        limited = fake.budget.admit(request, record, fault=fault is not None)  # budget.py
        try:
            if fault is not None:
                record.fault = True
                response: web.StreamResponse = fault.response()
            elif limited is not None:
                response = limited
            else:
                response = await handler(request)
        except web.HTTPException as exc:
            response = exc
        except Exception as exc:
            fake.internal_errors.append(traceback.format_exc())
            fake._violate(f"fake discord internal error on {request.method} {rel}: {exc!r}")
            response = error(500, 0, "500: Internal Server Error")
        fake.budget.stamp(request, response)
        record.status = response.status
        record.body = request.get(BODY)
        record.files = request.get(FILES, [])
        rec = request.get(INTERACTION)
        if rec is not None:
            record.interaction_id = rec.id
            rec.requests.append(record)
            rec.touch()
        fake._notify()
        return response

    def reject(
        self, status: int, code: int, message: str, violation: str, problems: list[str] | None = None
    ) -> web.Response:
        self.fake._violate(violation)
        return error(status, code, message, problems)

    def refuse(self, request: web.Request, status: int, code: int, message: str, why: str) -> web.Response:
        """Discord's answer to a request a bot must expect and handle (not a violation): recorded on
        the request (`FakeDiscord.refused_requests`)."""
        record = request[RECORD]
        record.refused, record.code = why, code
        return error(status, code, message)

    def missing_access(self, request: web.Request, why: str) -> web.Response:
        return self.refuse(request, 403, 50001, "Missing Access", f"{request.method} {request.path}: {why}")

    def unauthorized(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            return error(401, 0, "401: Unauthorized")
        return None

    async def body(self, request: web.Request) -> tuple[dict[str, Any] | None, Files]:
        """(payload, files) from a JSON body or multipart payload_json + files[n]; payload None = bad JSON."""
        files: Files = {}
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    try:
                        payload = json.loads(await part.text())  # type: ignore[union-attr]
                    except ValueError:
                        payload = None
                    continue
                m = re.fullmatch(r"files?\[(\d+)\]", name)
                index = int(m.group(1)) if m else len(files)
                data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                files[index] = (getattr(part, "filename", None) or f"file{index}", data)
            request[BODY] = payload
            request[FILES] = [f[0] for f in files.values()]
            return (payload if isinstance(payload, dict) else None), files
        raw = await request.read()
        if not raw:
            request[BODY] = None
            return {}, files
        try:
            payload = json.loads(raw)
        except ValueError:
            return None, files
        request[BODY] = payload
        return (payload if isinstance(payload, dict) else {"__list__": payload}), files

    async def json_list(self, request: web.Request) -> Any:
        raw = await request.read()
        try:
            value = json.loads(raw) if raw else None
        except ValueError:
            return None
        request[BODY] = value
        return value

    def attachments(
        self, body: dict[str, Any], files: Files, existing: list[AttachmentRecord], channel_id: int, *, editing: bool
    ) -> tuple[list[AttachmentRecord] | None, list[str]]:
        """The attachment list a create/edit leaves, and problems. None = leave as is."""
        fake = self.fake
        problems: list[str] = []
        for index, (filename, data) in files.items():
            if len(data) > payloads.ATTACHMENT_SIZE_LIMIT:
                problems.append(f"file {filename!r} is {len(data)} bytes (limit {payloads.ATTACHMENT_SIZE_LIMIT})")
            if index >= 10:
                problems.append("more than 10 files in one message")
        if problems:
            return None, problems

        def new(index: int, entry: dict[str, Any] | None) -> AttachmentRecord:
            filename, data = files[index]
            if entry and entry.get("filename"):
                filename = str(entry["filename"])
            ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            att = AttachmentRecord(
                id=fake.snowflakes.next(),
                filename=filename,
                data=data,
                content_type=ctype,
                description=(entry or {}).get("description"),
            )
            att.url = f"{fake.base_url}/attachments/{channel_id}/{att.id}/{filename}"
            size = png_size(data)
            if size:
                att.width, att.height = size
            return att

        listed = body.get("attachments")
        if listed is None:
            if not files:
                return None, []
            return list(existing) + [new(i, None) for i in sorted(files)], []
        if not isinstance(listed, list):
            return None, ["attachments must be a list"]
        out: list[AttachmentRecord] = []
        used: set[int] = set()
        by_id = {a.id: a for a in existing}
        for k, entry in enumerate(listed):
            try:
                ident = int(entry.get("id"))
            except (TypeError, ValueError, AttributeError):
                problems.append(f"attachments[{k}] has no valid id")
                continue
            if ident in files and ident not in used:
                used.add(ident)
                out.append(new(ident, entry))
            elif ident in by_id:
                out.append(by_id[ident])
            else:
                problems.append(f"attachments[{k}].id {ident} is neither an uploaded file nor an existing attachment")
        unused = set(files) - used
        if unused:
            problems.append(f"uploaded files {sorted(unused)} are not listed in attachments")
        if not editing and any(a in existing for a in out):
            problems.append("a new message cannot keep attachments by id")
        return out, problems

    # ---- login, gateway, application -----------------------------------------------------------

    async def users_me(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return self.fake.activities.users_me(self, request)  # an OAuth2 user's token (activity.py)
        return self.unauthorized(request) or json_response(payloads.bot_user_json(self.fake, full=True))

    async def get_user(self, request: web.Request) -> web.StreamResponse:
        if (bad := self.unauthorized(request)) is not None:
            return bad
        uid = int(request.match_info["user_id"])
        if uid == self.fake.bot_user_id:
            return json_response(payloads.bot_user_json(self.fake))
        user = self.fake.users.get(uid)
        if user is None:
            return self.reject(404, 10013, "Unknown User", f"GET /users/{uid}: unknown user")
        return json_response(payloads.user_json(user))

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.fake.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.StreamResponse:
        if (bad := self.unauthorized(request)) is not None:
            return bad
        fake = self.fake
        limit = {
            "total": 1000,
            "remaining": max(0, 1000 - fake.gateway.identify_count),
            "reset_after": 14400000,
            "max_concurrency": fake.max_concurrency,
        }
        return json_response({"url": fake.gateway_url, "shards": fake.shard_count, "session_start_limit": limit})

    async def application(self, request: web.Request) -> web.StreamResponse:
        return self.unauthorized(request) or json_response(payloads.application_json(self.fake))

    # ---- application commands ------------------------------------------------------------------

    def command_scope(self, request: web.Request) -> tuple[int | None, web.Response | None]:
        if (bad := self.unauthorized(request)) is not None:
            return None, bad
        app = request.match_info["app"]
        if app != str(self.fake.application_id):
            return None, self.reject(403, 50001, "Missing Access", f"{request.path}: application id {app} is not ours")
        guild = request.match_info.get("guild")
        if guild is None:
            return None, None
        if not guild.isdigit() or int(guild) not in self.fake.guilds:
            return None, self.reject(403, 50001, "Missing Access", f"{request.path}: the bot is not in guild {guild}")
        if not places.bot_in_guild(self.fake, int(guild)):
            return None, self.missing_access(request, f"the bot is not a member of guild {guild}")
        return int(guild), None

    def store_command(self, scope: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        fake = self.fake
        kind = cmd.get("type", 1)
        key = (scope, kind, cmd.get("name"))
        ident = fake._command_ids.setdefault(key, fake.snowflakes.next())
        stored = {
            "id": str(ident),
            "application_id": str(fake.application_id),
            "version": str(fake.snowflakes.next()),
            "default_member_permissions": cmd.get("default_member_permissions"),
            "type": kind,
            "name": cmd.get("name"),
            "name_localizations": cmd.get("name_localizations"),
            "description": cmd.get("description", ""),
            "description_localizations": cmd.get("description_localizations"),
            "options": cmd.get("options") or [],
            "nsfw": cmd.get("nsfw", False),
            "contexts": cmd.get("contexts"),
            "integration_types": cmd.get("integration_types") or [0],
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        else:
            stored["dm_permission"] = cmd.get("dm_permission", True)
        return stored

    async def list_commands(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        return bad or json_response(self.fake._commands.get(scope, []))

    async def put_commands(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        if bad:
            return bad
        cmds = await self.json_list(request)
        if (entry := self.fake.activities.check_bulk(self, request, scope, cmds)) is not None:
            return entry  # the Entry Point command left out (activity.py)
        problems = limits.check_commands(self.fake.activities.for_limits(cmds))
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"command sync rejected: {problems}", problems)
        stored = [self.store_command(scope, c) for c in cmds]
        self.fake.activities.keep_handlers(stored, cmds)
        self.fake._commands[scope] = stored
        self.fake.sync_log.append((scope, [c["name"] for c in stored], self.fake.now()))
        return json_response(stored)

    async def post_command(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        if bad:
            return bad
        cmd = await self.json_list(request)
        problems = limits.check_command(cmd)
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"command upsert rejected: {problems}", problems)
        stored = self.store_command(scope, cmd)
        current = [c for c in self.fake._commands.get(scope, []) if c["id"] != stored["id"]]
        self.fake._commands[scope] = [*current, stored]
        return json_response(stored, status=201)

    def find_command(self, scope: int | None, cmd_id: str) -> dict[str, Any] | None:
        return next((c for c in self.fake._commands.get(scope, []) if c["id"] == cmd_id), None)

    async def get_command(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        if bad:
            return bad
        cmd = self.find_command(scope, request.match_info["cmd"])
        if cmd is None:
            return self.reject(404, 10063, "Unknown application command", f"{request.path}: unknown command")
        return json_response(cmd)

    async def patch_command(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        if bad:
            return bad
        cmd = self.find_command(scope, request.match_info["cmd"])
        if cmd is None:
            return self.reject(404, 10063, "Unknown application command", f"{request.path}: unknown command")
        change = await self.json_list(request) or {}
        merged = {**cmd, **change}
        problems = limits.check_command(merged)
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"command edit rejected: {problems}", problems)
        cmd.update(change)
        return json_response(cmd)

    async def delete_command(self, request: web.Request) -> web.StreamResponse:
        scope, bad = self.command_scope(request)
        if bad:
            return bad
        cmd = self.find_command(scope, request.match_info["cmd"])
        if cmd is None:
            return self.reject(404, 10063, "Unknown application command", f"{request.path}: unknown command")
        self.fake._commands[scope].remove(cmd)
        return web.Response(status=204)

    # ---- application emojis --------------------------------------------------------------------

    async def list_emojis(self, request: web.Request) -> web.StreamResponse:
        _, bad = self.command_scope(request)
        return bad or json_response({"items": self.fake.app_emojis})

    async def create_emoji(self, request: web.Request) -> web.StreamResponse:
        _, bad = self.command_scope(request)
        if bad:
            return bad
        body = await self.json_list(request) or {}
        name, image = body.get("name"), body.get("image")
        problems = []
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            problems.append(f"emoji name {name!r} must be 2-32 letters, digits or underscores")
        if any(e["name"] == name for e in self.fake.app_emojis):
            problems.append(f"an application emoji named {name!r} exists already")
        if not isinstance(image, str) or not image.startswith("data:image/"):
            problems.append("emoji image must be a data:image/… URI")
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"application emoji rejected: {problems}", problems)
        emoji = {
            "id": str(self.fake.snowflakes.next()),
            "name": name,
            "roles": [],
            "user": payloads.bot_user_json(self.fake),
            "require_colons": True,
            "managed": False,
            "animated": str(image).startswith("data:image/gif"),
            "available": True,
        }
        self.fake.app_emojis.append(emoji)
        return json_response(emoji, status=201)

    async def delete_emoji(self, request: web.Request) -> web.StreamResponse:
        _, bad = self.command_scope(request)
        if bad:
            return bad
        emoji = next((e for e in self.fake.app_emojis if e["id"] == request.match_info["emoji"]), None)
        if emoji is None:
            return self.reject(404, 10014, "Unknown Emoji", f"{request.path}: unknown application emoji")
        self.fake.app_emojis.remove(emoji)
        return web.Response(status=204)

    # ---- guild and channels --------------------------------------------------------------------

    def guild_or_error(self, request: web.Request) -> tuple[FakeGuild | None, web.Response | None]:
        if (bad := self.unauthorized(request)) is not None:
            return None, bad
        raw = request.match_info["guild"]
        guild = self.fake.guilds.get(int(raw)) if raw.isdigit() else None
        if guild is None:
            return None, self.reject(404, 10004, "Unknown Guild", f"{request.path}: unknown guild")
        if not places.bot_in_guild(self.fake, guild):
            return None, self.missing_access(request, f"the bot is not a member of guild {guild.id}")
        return guild, None

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        guild, bad = self.guild_or_error(request)
        return bad or json_response(payloads.guild_json(self.fake, guild, gateway=False))

    async def guild_channels(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        guild, bad = self.guild_or_error(request)
        if bad:
            return bad
        assert guild is not None
        return json_response([payloads.channel_json(fake, c) for c in fake.channels.values() if c.guild_id == guild.id])

    async def guild_roles(self, request: web.Request) -> web.StreamResponse:
        guild, bad = self.guild_or_error(request)
        if bad:
            return bad
        assert guild is not None
        return json_response([payloads.role_json(r) for r in guild.roles.values()])

    async def guild_member(self, request: web.Request) -> web.StreamResponse:
        guild, bad = self.guild_or_error(request)
        if bad:
            return bad
        assert guild is not None
        uid = int(request.match_info["user"])
        if uid == self.fake.bot_user_id:
            return json_response(payloads.bot_member_json(self.fake, guild))
        user = self.fake.users.get(uid)
        if user is None or uid not in guild.member_ids:
            return self.reject(404, 10007, "Unknown Member", f"{request.path}: unknown member")
        return json_response(payloads.member_json(self.fake, user, guild=guild))

    def channel_or_error(self, request: web.Request) -> tuple[int, web.Response | None]:
        if (bad := self.unauthorized(request)) is not None:
            return 0, bad
        try:
            cid = int(request.match_info["channel"])
        except ValueError:
            cid = -1
        if cid not in self.fake.channels:
            return cid, self.reject(404, 10003, "Unknown Channel", f"{request.method} {request.path}: unknown channel")
        chan = self.fake.channels[cid]
        if chan.guild_id in self.fake.left_guilds:
            return cid, self.reject(403, 50001, "Missing Access", f"{request.method} {request.path}: not in that guild")
        if not places.bot_in_channel(self.fake, chan):
            kind = {3: "a group DM", 1: "a DM between users"}.get(chan.type, "a channel of a server without the bot")
            return cid, self.missing_access(request, f"channel {cid} is {kind}: the bot is not in it")
        return cid, None

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        cid, bad = self.channel_or_error(request)
        return bad or json_response(payloads.channel_json(self.fake, self.fake.channels[cid]))

    async def start_thread(self, request: web.Request) -> web.StreamResponse:
        """Start Thread from Message: a public thread (an announcement thread in an announcement
        channel) whose id is the message's; 403 50013 without Create Public Threads, 400 on a
        channel type that has none, a message that already has one or a bad name/duration."""
        fake = self.fake
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        msg, bad = self.channel_message(request, cid)
        if bad:
            return bad
        assert msg is not None
        chan = fake.channels[cid]
        guild = fake.guilds.get(chan.guild_id or 0)
        if not payloads.permissions_for(fake, None, guild) & payloads.CREATE_PUBLIC_THREADS:
            return error(403, 50013, "Missing Permissions")
        if chan.type not in (0, 5):
            return error(400, 50024, "Cannot execute action on this channel type")
        if msg.id in fake.channels:
            return error(400, 160004, "A thread has already been created for this message")
        body, _ = await self.body(request)
        name = str((body or {}).get("name") or "")
        duration = (body or {}).get("auto_archive_duration", 1440)
        where = f"POST /channels/{cid}/messages/{msg.id}/threads"
        if not 1 <= len(name) <= 100 or duration not in payloads.THREAD_ARCHIVE_DURATIONS:
            return self.reject(400, 50035, "Invalid Form Body", f"{where}: name {name!r}, duration {duration!r}")
        assert guild is not None
        fake.channels[msg.id] = thread = FakeChannel(
            msg.id, name, type=10 if chan.type == 5 else 11, guild_id=guild.id, parent_id=cid,
            owner_id=fake.bot_user_id, auto_archive_duration=int(duration), archive_timestamp=fake.clock.iso())
        data = payloads.channel_json(fake, thread)
        await fake.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True}, guild_id=guild.id, intent=GUILDS)
        return json_response(data, status=201)

    async def edit_thread(self, request: web.Request) -> web.StreamResponse:
        """Modify Channel, for threads only: its creator may change ``name``, ``archived`` and
        ``auto_archive_duration``; anything else, or another's thread, needs Manage Threads (403 50013)."""
        fake = self.fake
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        chan = fake.channels[cid]
        where = f"PATCH /channels/{cid}"
        if chan.type not in payloads.THREAD_TYPES:
            return self.reject(403, 50013, "Missing Permissions", f"{where}: the fake edits threads only")
        body, _ = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"{where}: bad JSON")
        guild = fake.guilds.get(chan.guild_id or 0)
        creator_may = {"name", "archived", "auto_archive_duration"}
        own = (chan.owner_id or fake.bot_user_id) == fake.bot_user_id
        manage = bool(payloads.permissions_for(fake, None, guild) & payloads.MANAGE_THREADS)
        if not manage and (not own or set(body) - creator_may):
            return error(403, 50013, "Missing Permissions")
        if chan.archived and body.get("archived") is not False and set(body) - {"archived", "locked"}:
            return error(400, 50083, "Thread is archived")
        if "name" in body:
            chan.name = str(body["name"])
        if "auto_archive_duration" in body:
            chan.auto_archive_duration = int(body["auto_archive_duration"])
        if "locked" in body:
            chan.locked = bool(body["locked"])
        if "archived" in body and bool(body["archived"]) != chan.archived:
            chan.archived = bool(body["archived"])
            chan.archive_timestamp = fake.clock.iso()
        data = payloads.channel_json(fake, chan)
        await fake.gateway.dispatch("THREAD_UPDATE", data, guild_id=chan.guild_id, intent=GUILDS)
        return json_response(data)

    async def typing(self, request: web.Request) -> web.StreamResponse:
        _, bad = self.channel_or_error(request)
        return bad or web.Response(status=204)

    async def create_dm(self, request: web.Request) -> web.StreamResponse:
        if (bad := self.unauthorized(request)) is not None:
            return bad
        body, _ = await self.body(request)
        try:
            uid = int((body or {}).get("recipient_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            uid = -1
        if uid not in self.fake.users:
            return self.reject(400, 50007, "Cannot send messages to this user", f"DM to unknown user {uid}")
        return json_response(payloads.channel_json(self.fake, self.fake._dm_channel(uid)))

    # ---- channel messages ----------------------------------------------------------------------

    def message_problems(self, body: dict[str, Any], old_flags: int = 0) -> list[str]:
        return limits.check_message(body, old_flags=old_flags)

    def embeds_shown(self, cid: int, rec: InteractionRecord | None) -> bool:
        """Whether Discord keeps the embeds of the bot's message in channel `cid`: a channel
        message needs the bot's Embed Links there; an interaction's answer (`rec`), the
        interaction's `app_permissions` (strict: the docs do not say they are exempt). In a DM the
        bot, and `app_permissions`, always have it."""
        fake = self.fake
        chan = fake.channels[cid]
        if rec is not None:
            return bool(places.app_permissions(fake, rec.user, chan) & places.EMBED_LINKS)
        guild = fake.guilds.get(chan.guild_id or 0)
        return guild is None or bool(payloads.permissions_for(fake, None, guild) & places.EMBED_LINKS)

    def without_embeds(self, body: dict[str, Any], cid: int, rec: InteractionRecord | None,
                       where: str) -> dict[str, Any]:
        """`body` as Discord posts it: without its embeds where they are not shown (`embeds_shown`)."""
        if not body.get("embeds") or self.embeds_shown(cid, rec):
            return body
        self.fake.suppressed_embeds.append(where)
        return {**body, "embeds": []}

    async def channel_post(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        body, files = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"POST {request.path}: bad JSON")
        where = f"POST /channels/{cid}/messages"
        chan = fake.channels[cid]
        if chan.type in payloads.THREAD_TYPES:
            guild = fake.guilds.get(chan.guild_id or 0)
            if not payloads.permissions_for(fake, None, guild) & payloads.SEND_MESSAGES_IN_THREADS:
                return error(403, 50013, "Missing Permissions")  # Discord's answer; the bot was told by app_permissions
            if chan.archived and not chan.locked:  # a message in an archived thread unarchives it
                chan.archived = False
                chan.archive_timestamp = fake.clock.iso()
        problems = self.message_problems(body) + limits.nonce_problems(body)
        atts, att_problems = self.attachments(body, files, [], cid, editing=False)
        problems += att_problems
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"{where}: {'; '.join(problems)}", problems)
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: the nonce is checked for uniqueness "in the past few minutes"; a message
            # the same author created with it is returned and no new one is made.
            first = next((m for m in reversed(fake.messages) if m.nonce == nonce and m.author_id == fake.bot_user_id
                          and not m.deleted and fake.now() - m.created_at <= limits.NONCE_WINDOW), None)
            if first is not None:
                return json_response(payloads.message_json(fake, first))
        flags = body.get("flags") or 0
        if flags & EPHEMERAL:
            fake._violate(f"{where}: EPHEMERAL flag on a channel message (channel messages are never ephemeral)")
            flags &= ~EPHEMERAL
        if not _has_body(body, atts):
            return self.reject(400, 50006, "Cannot send an empty message", f"{where}: empty message")
        body = self.without_embeds(body, cid, None, where)
        for p in limits.mention_problems(body.get("content"), body.get("allowed_mentions")):
            fake._violate(f"{where}: {p}")
        msg = fake._new_message(
            channel_id=cid, body={**body, "flags": flags}, attachments=atts or [], source="channel", author=None
        )
        msg.nonce = nonce
        fake._note_channel_write(msg)
        await fake._gateway_message("MESSAGE_CREATE", msg)
        return json_response(payloads.message_json(fake, msg))

    def channel_message(self, request: web.Request, cid: int) -> tuple[MessageRecord | None, web.Response | None]:
        fake = self.fake
        mid = int(request.match_info["message"])
        msg = fake._messages_by_id.get(mid)
        where = f"{request.method} /channels/{cid}/messages/{mid}"
        if msg is None or msg.channel_id != cid:
            return None, self.reject(404, 10008, "Unknown Message", f"{where}: unknown message")
        if msg.ephemeral:
            return None, self.reject(
                404, 10008, "Unknown Message", f"{where}: ephemeral messages are not reachable through channel routes"
            )
        if msg.deleted:
            return None, self.reject(404, 10008, "Unknown Message", f"{where}: message was deleted")
        return msg, None

    async def channel_get(self, request: web.Request) -> web.StreamResponse:
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        msg, bad = self.channel_message(request, cid)
        return bad or json_response(payloads.message_json(self.fake, msg))  # type: ignore[arg-type]

    async def channel_history(self, request: web.Request) -> web.StreamResponse:
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        q = request.query
        limit = min(int(q.get("limit", 50)), 100)
        msgs = [m for m in self.fake.messages if m.channel_id == cid and not m.ephemeral and not m.deleted]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([payloads.message_json(self.fake, m) for m in msgs])

    async def channel_patch(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        msg, bad = self.channel_message(request, cid)
        if bad:
            return bad
        assert msg is not None
        where = f"PATCH /channels/{cid}/messages/{msg.id}"
        if fake.channels[cid].archived:
            return self.reject(400, 50083, "Thread is archived", f"{where}: edited a message of an archived thread")
        if msg.author_id != fake.bot_user_id:
            return self.reject(403, 50005, "Cannot edit a message authored by another user", f"{where}: not ours")
        body, files = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"{where}: bad JSON")
        result = await self.apply_edit(msg, body, files, where=where, via="channel", rec=None)
        if isinstance(result, web.Response):
            return result
        age = fake.now() - msg.created_at
        if age > 3600:
            fake._violate(f"{where}: edited a channel message created {age / 60:.0f} minutes ago (over 1 hour)")
        fake._note_channel_write(msg)
        return json_response(payloads.message_json(fake, msg))

    async def channel_delete(self, request: web.Request) -> web.StreamResponse:
        cid, bad = self.channel_or_error(request)
        if bad:
            return bad
        msg, bad = self.channel_message(request, cid)
        if bad:
            return bad
        assert msg is not None
        await self.fake._delete_message(msg)
        self.fake._note_channel_write(msg)
        return web.Response(status=204)

    async def apply_edit(
        self,
        msg: MessageRecord,
        body: dict[str, Any],
        files: Files,
        *,
        where: str,
        via: str,
        rec: InteractionRecord | None,
    ) -> web.Response | MessageRecord:
        """Validate and apply an edit; a Response means it was rejected."""
        fake = self.fake
        problems = self.message_problems(body, old_flags=msg.flags)
        atts, att_problems = self.attachments(body, files, msg.attachments, msg.channel_id, editing=True)
        problems += att_problems
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"{where}: {'; '.join(problems)}", problems)
        content = msg.content if "content" not in body else (body.get("content") or "")
        embeds = msg.embeds if "embeds" not in body else payloads.normalize_embeds(body.get("embeds") or [])
        components = (
            msg.components if "components" not in body else payloads.normalize_components(body.get("components") or [])
        )
        attachments = msg.attachments if atts is None else atts
        if not (content or embeds or components or attachments):
            return self.reject(400, 50006, "Cannot send an empty message", f"{where}: edit leaves the message empty")
        if "embeds" in body and embeds and not self.embeds_shown(msg.channel_id, rec):
            self.fake.suppressed_embeds.append(where)
            embeds = []
        if body.get("flags") is not None and body["flags"] & IS_COMPONENTS_V2 == 0 and msg.flags & IS_COMPONENTS_V2:
            return self.reject(400, 50035, "Invalid Form Body", f"{where}: cannot remove IS_COMPONENTS_V2")
        for p in limits.mention_problems(body.get("content"), body.get("allowed_mentions")):
            fake._violate(f"{where}: {p}")
        fake._record_edit(msg, via=via, rec=rec)
        msg.content, msg.embeds, msg.components, msg.attachments = content, embeds, components, attachments
        if body.get("flags") is not None:
            keep = EPHEMERAL | LOADING
            msg.flags = (msg.flags & keep) | (body["flags"] & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        msg.flags &= ~LOADING
        if "allowed_mentions" in body:
            msg.allowed_mentions = body.get("allowed_mentions")
        if rec is not None:
            rec.add_message(msg)
            if rec.original is msg:
                rec.thinking = False
        await fake._gateway_message("MESSAGE_UPDATE", msg)
        return msg

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        try:
            att_id = int(request.match_info["att"])
        except ValueError:
            att_id = -1
        pools = [m.attachments for m in self.fake.messages] + [self.fake._loose_attachments]
        for pool in pools:
            for att in pool:
                if att.id == att_id:
                    return web.Response(body=att.data, content_type=att.content_type)
        return error(404, 0, "404: Not Found")

    # ---- interactions --------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        try:
            iid = int(request.match_info["iid"])
        except ValueError:
            iid = -1
        rec = fake._interactions_by_id.get(iid)
        where = f"interaction {iid} callback"
        if rec is None or rec.token != request.match_info["token"]:
            return self.reject(404, 10062, "Unknown interaction", f"{where}: unknown interaction or token")
        request[INTERACTION] = rec
        rec.touch()
        body, files = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"{where}: bad JSON")
        rtype = body.get("type")
        data = body.get("data")
        elapsed = fake.now() - rec.dispatched_at
        attempt = InitialResponse(type=rtype, data=data, elapsed=elapsed, at=fake.now())  # type: ignore[arg-type]
        rec.responses.append(attempt)
        where = f"{rec.kind} interaction {iid} ({_describe(rec)})"

        def refuse(status: int, code: int, message: str, violation: str, problems: list[str] | None = None) -> Any:
            attempt.accepted, attempt.status = False, status
            return self.reject(status, code, message, violation, problems)

        if request.query.get("with_response") not in ("1", "true", "True"):
            rec.notes.append("callback without with_response")
        if rec.response is not None:
            return refuse(
                400,
                40060,
                "Interaction has already been acknowledged.",
                f"{where}: second initial response (type {rtype}) after type {rec.response.type}",
            )
        if rec.dead or elapsed > ACK_DEADLINE:
            rec.dead = True
            return refuse(
                404,
                10062,
                "Unknown interaction",
                f"{where}: initial response {elapsed:.2f}s after dispatch (limit 3 s)",
            )
        if rtype == LAUNCH_ACTIVITY:
            return fake.activities.launch_callback(rec, attempt, refuse, where)  # activity.py
        if rtype not in ALLOWED_CALLBACKS.get(rec.type, set()):
            return refuse(
                400, 50035, "Invalid Form Body", f"{where}: callback type {rtype!r} is not valid for this interaction"
            )
        if rtype == UPDATE_MESSAGE and rec.source_message is None:
            return refuse(
                400, 50035, "Invalid Form Body", f"{where}: type 7 needs a message (modal not from a component)"
            )
        data = data if isinstance(data, dict) else {}
        problems: list[str] = []
        if rtype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            old = rec.source_message.flags if rtype == UPDATE_MESSAGE and rec.source_message else 0
            problems += self.message_problems(data, old_flags=old)
        elif rtype == AUTOCOMPLETE_RESULT:
            problems += limits.check_choices(data, fake._focused_option_type(rec))
        elif rtype == MODAL:
            problems += limits.check_modal(data)
        if problems:
            return refuse(400, 50035, "Invalid Form Body", f"{where}: {'; '.join(problems)}", problems)

        result: dict[str, Any] = {"interaction": {"id": str(rec.id), "type": rec.type}}
        # Every check above and below runs before the first await, and rec.response is claimed
        # before any await, so two concurrent callbacks cannot both be accepted.
        if rtype == CHANNEL_MESSAGE:
            atts, att_problems = self.attachments(data, files, [], rec.channel_id, editing=False)
            if att_problems:
                return refuse(400, 50035, "Invalid Form Body", f"{where}: {'; '.join(att_problems)}", att_problems)
            if not _has_body(data, atts):
                return refuse(400, 50006, "Cannot send an empty message", f"{where}: empty type 4 response")
            data = self.without_embeds(data, rec.channel_id, rec, where)
            for p in limits.mention_problems(data.get("content"), data.get("allowed_mentions")):
                fake._violate(f"{where}: {p}")
            rec.response = attempt
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL) or rec.forced_ephemeral
            msg = fake._new_message(
                channel_id=rec.channel_id, body=data, attachments=atts or [], source="response", rec=rec,
                ephemeral=ephemeral,
            )  # fmt: skip
            rec.original = msg
            rec.add_message(msg)
            await fake._gateway_message("MESSAGE_CREATE", msg)
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            rec.response = attempt
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL) or rec.forced_ephemeral
            msg = fake._new_message(
                channel_id=rec.channel_id, body={"content": "", "flags": LOADING}, attachments=[], source="deferred",
                rec=rec, ephemeral=ephemeral,
            )  # fmt: skip
            rec.original = msg
            rec.thinking = True
            rec.add_message(msg)
            await fake._gateway_message("MESSAGE_CREATE", msg)
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            rec.original = rec.source_message
        elif rtype == UPDATE_MESSAGE:
            assert rec.source_message is not None
            rec.response = attempt  # apply_edit validates before its first await
            edited = await self.apply_edit(rec.source_message, data, files, where=where, via="update", rec=rec)
            if isinstance(edited, web.Response):
                rec.response = None
                attempt.accepted, attempt.status = False, edited.status
                return edited
            rec.original = rec.source_message
        elif rtype == AUTOCOMPLETE_RESULT:
            rec.choices = list(data.get("choices") or [])
        elif rtype == MODAL:
            rec.modal = ModalRecord(
                custom_id=data["custom_id"], title=data["title"], components=data.get("components") or [],
                user_id=rec.user.id, interaction=rec,
            )  # fmt: skip
            fake.modals.append(rec.modal)
        rec.response = attempt
        msg = rec.original
        if msg is not None and rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            result["interaction"].update(
                {
                    "response_message_id": str(msg.id),
                    "response_message_loading": msg.loading,
                    "response_message_ephemeral": msg.ephemeral,
                }
            )
            result["resource"] = {"type": rtype, "message": payloads.message_json(fake, msg)}
        elif rtype == MODAL:
            result["resource"] = {"type": rtype}
        return json_response(result)

    def token_interaction(
        self, request: web.Request, *, what: str
    ) -> tuple[InteractionRecord | None, web.Response | None]:
        fake = self.fake
        app, token = request.match_info["app"], request.match_info["token"]
        rec = fake._interactions_by_token.get(token)
        if app != str(fake.application_id) or rec is None:
            return None, self.reject(404, 10015, "Unknown Webhook", f"{what}: unknown webhook/interaction token")
        request[INTERACTION] = rec
        rec.touch()
        where = f"{what} for {rec.kind} interaction {rec.id} ({_describe(rec)})"
        age = fake.now() - rec.dispatched_at
        if age > fake.token_lifetime:
            why = f"{where}: interaction token is {age / 60:.1f} minutes old (max {fake.token_lifetime / 60:g})"
            fake._violate(why)
            return None, self.refuse(request, 401, 50027, "Invalid Webhook Token", why)
        if rec.response is None:
            return None, self.reject(404, 10015, "Unknown Webhook", f"{where}: before any accepted initial response")
        if rec.response.type in (AUTOCOMPLETE_RESULT, MODAL):
            return None, self.reject(
                404, 10015, "Unknown Webhook", f"{where}: after a type {rec.response.type} response there is no message"
            )
        return rec, None

    async def followup(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        rec, bad = self.token_interaction(request, what="followup")
        if bad:
            return bad
        assert rec is not None
        where = f"followup for {rec.kind} interaction {rec.id} ({_describe(rec)})"
        body, files = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"{where}: bad JSON")
        if rec.user_install_only and rec.followup_posts >= USER_INSTALL_FOLLOWUP_LIMIT:
            # Create Followup Message: "Apps are limited to 5 followup messages per interaction if it
            # was initiated from a user-installed app and isn't installed in the server"; JSON
            # error code 40094 (opcodes-and-status-codes.mdx).
            why = f"{where}: follow-up {rec.followup_posts + 1} of a user-install interaction (limit 5)"
            fake._violate(why)
            return self.refuse(request, 400, 40094,
                               "This interaction has hit the maximum number of follow up messages", why)
        if rec.thinking and rec.original is not None and not rec.original.deleted:
            # Discord: the first followup after a type 5 defer fills the "thinking" message and keeps
            # the defer's visibility, whatever flags the followup carries.
            original = rec.original
            edited = await self.apply_edit(original, body, files, where=where, via="followup", rec=rec)
            if isinstance(edited, web.Response):
                return edited
            rec.followup_posts += 1
            rec.followups.append(original)
            return self.message_reply(request, original)
        problems = self.message_problems(body)
        atts, att_problems = self.attachments(body, files, [], rec.channel_id, editing=False)
        problems += att_problems
        if problems:
            return self.reject(400, 50035, "Invalid Form Body", f"{where}: {'; '.join(problems)}", problems)
        if not _has_body(body, atts):
            return self.reject(400, 50006, "Cannot send an empty message", f"{where}: empty followup")
        body = self.without_embeds(body, rec.channel_id, rec, where)
        for p in limits.mention_problems(body.get("content"), body.get("allowed_mentions")):
            fake._violate(f"{where}: {p}")
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL) or rec.forced_ephemeral
        rec.followup_posts += 1
        msg = fake._new_message(
            channel_id=rec.channel_id,
            body=body,
            attachments=atts or [],
            source="followup",
            rec=rec,
            ephemeral=ephemeral,
        )
        rec.followups.append(msg)
        rec.add_message(msg)
        await fake._gateway_message("MESSAGE_CREATE", msg)
        return self.message_reply(request, msg)

    def message_reply(self, request: web.Request, msg: MessageRecord) -> web.Response:
        if request.query.get("wait") in ("0", "false", "False"):
            return web.Response(status=204)
        return json_response(payloads.message_json(self.fake, msg))

    def webhook_target(
        self, request: web.Request, rec: InteractionRecord, what: str
    ) -> tuple[MessageRecord | None, web.Response | None]:
        mid = request.match_info["message"]
        where = f"{what} /messages/{mid} for {rec.kind} interaction {rec.id} ({_describe(rec)})"
        if mid == "@original":
            msg = rec.original
            if msg is None:
                return None, self.reject(404, 10008, "Unknown Message", f"{where}: the interaction has no original")
        else:
            try:
                msg = self.fake._messages_by_id.get(int(mid))
            except ValueError:
                msg = None
            if msg is None or (msg is not rec.original and msg not in rec.followups):
                return None, self.reject(404, 10008, "Unknown Message", f"{where}: not a message of this interaction")
        if msg.deleted:
            return None, self.reject(404, 10008, "Unknown Message", f"{where}: message was deleted")
        return msg, None

    async def webhook_get(self, request: web.Request) -> web.StreamResponse:
        rec, bad = self.token_interaction(request, what="GET")
        if bad:
            return bad
        assert rec is not None
        msg, bad = self.webhook_target(request, rec, "GET")
        return bad or json_response(payloads.message_json(self.fake, msg))  # type: ignore[arg-type]

    async def webhook_patch(self, request: web.Request) -> web.StreamResponse:
        rec, bad = self.token_interaction(request, what="PATCH")
        if bad:
            return bad
        assert rec is not None
        msg, bad = self.webhook_target(request, rec, "PATCH")
        if bad:
            return bad
        assert msg is not None
        where = f"PATCH /messages/{request.match_info['message']} for {rec.kind} interaction {rec.id}"
        body, files = await self.body(request)
        if body is None:
            return self.reject(400, 50109, "The request body contains invalid JSON.", f"{where}: bad JSON")
        result = await self.apply_edit(msg, body, files, where=where, via="webhook", rec=rec)
        if isinstance(result, web.Response):
            return result
        return json_response(payloads.message_json(self.fake, msg))

    async def webhook_delete(self, request: web.Request) -> web.StreamResponse:
        rec, bad = self.token_interaction(request, what="DELETE")
        if bad:
            return bad
        assert rec is not None
        msg, bad = self.webhook_target(request, rec, "DELETE")
        if bad:
            return bad
        assert msg is not None
        await self.fake._delete_message(msg)
        if rec.original is msg:
            rec.thinking = False
        rec.add_message(msg)
        return web.Response(status=204)

    # ---- misc ----------------------------------------------------------------------------------

    async def guard_report(self, request: web.Request) -> web.StreamResponse:
        text = (await request.text())[:500]
        self.fake._violate(f"bot process tried to reach the network: {text}")
        return web.Response(status=204)

    async def unknown(self, request: web.Request) -> web.StreamResponse:
        rel = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        return self.reject(404, 0, "404: Not Found", f"unknown route {request.method} {rel}")


def _has_body(body: dict[str, Any], atts: list[AttachmentRecord] | None) -> bool:
    return bool(
        body.get("content") or body.get("embeds") or body.get("components") or atts or body.get("sticker_ids")
    ) or bool(body.get("poll"))


def _describe(rec: InteractionRecord) -> str:
    data = rec.data
    if rec.kind in ("slash", "autocomplete"):
        return "/" + " ".join([data.get("name", "?"), *_sub_path(data.get("options") or [])])
    return str(data.get("custom_id"))


def _sub_path(options: list[dict[str, Any]]) -> list[str]:
    for option in options:
        if option.get("type") in (1, 2):
            return [option["name"], *_sub_path(option.get("options") or [])]
    return []
