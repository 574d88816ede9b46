"""The fake Discord's Activities: OAuth2 code exchange, Bearer tokens, activity instances,
LAUNCH_ACTIVITY, the Entry Point command, and (activity_proxy.py) the `<app>.discordsays.com` proxy
with the client frame that answers the Embedded App SDK.

What this is (the contract is ../../../shared/activity.md; FakeDiscord.activities holds it all):

- `fake.enable_activities()`: the application has Activities; Discord then holds one global
  PRIMARY_ENTRY_POINT command (type 4, "launch", handler 2 DISCORD_LAUNCH_ACTIVITY) and refuses a
  bulk overwrite of the global commands that leaves it out (400 50240; a violation too).
- `fake.client_secret`: the OAuth2 client secret. `POST /oauth2/token` (with or without /api/v10),
  form-encoded `client_id`, `client_secret`, `grant_type=authorization_code`, `code`: one use per
  code (400 invalid_grant), the right secret (401 invalid_client), no unregistered `redirect_uri`
  (400 invalid_grant; codes from the SDK's authorize carry none), never JSON (400
  unsupported_grant_type... as a form error). Codes come from the client frame's AUTHORIZE
  (`activities.issue_code(user)` for tests that skip the frame).
- `GET /users/@me` with `Authorization: Bearer <access token>`: that user (401 otherwise).
- `GET /applications/{app}/activity-instances/{instance}` (bot token): the instance, 404 unknown
  or ended. `fake.launch_activity(user, channel, custom_id=None, platform="mobile")` or a
  LAUNCH_ACTIVITY callback (type 12) from a command, button or modal (400 50035 without
  Activities or from another interaction) starts one or joins it; `instance.join(user)`,
  `instance.leave(user)`; the last to leave ends it.

Every refusal here is in `fake.refused_requests` (`RequestRecord.refused`); the ones only a broken
bot meets (wrong secret, JSON body, redirect_uri, bulk overwrite without the Entry Point, a
launch without Activities) are violations too. A code used twice, an unknown instance and a bad
Bearer token are refusals only (a page can retry, an instance can end).

What this is not: refresh tokens that work (one is issued, the token endpoint takes only
authorization_code), scopes beyond identify, rpc.* scopes, voice, participant events over the SDK.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from aiohttp import web

from . import payloads
from .records import APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT, FakeUser, InitialResponse, InteractionRecord

if TYPE_CHECKING:
    from collections.abc import Callable

    from .activity_proxy import ActivityProxy
    from .rest import RestApi
    from .server import FakeDiscord

LAUNCH_ACTIVITY = 12
PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
TOKEN_LIFETIME = 604800
ENTRY_POINT_CODE = 50240
ENTRY_POINT_MESSAGE = (
    "You cannot remove this app's Entry Point command in a bulk update operation. "
    "Please include the Entry Point command in your update request or delete it separately."
)
LAUNCH_SOURCES = (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT)


@dataclass(eq=False)
class ActivityInstance:
    """One running Activity in one channel (`users`: ids in the order they joined)."""

    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int | None
    custom_id: str | None
    platform: str
    activities: Activities
    users: list[int] = field(default_factory=list)
    ended: bool = False
    custom_ids: dict[int, str | None] = field(default_factory=dict)  # each user's launch custom_id

    @property
    def kind(self) -> str:
        return "gc" if self.guild_id is not None else "pc"

    @property
    def location_id(self) -> str:
        return f"gc-{self.guild_id}-{self.channel_id}" if self.guild_id is not None else f"pc-{self.channel_id}"

    def join(self, user: FakeUser, custom_id: str | None = None) -> ActivityInstance:
        if self.ended:
            raise ValueError(f"instance {self.instance_id} has ended")
        if user.id not in self.users:
            self.users.append(user.id)
        self.custom_ids[user.id] = custom_id if custom_id is not None else self.custom_ids.get(user.id, self.custom_id)
        return self

    def leave(self, user: FakeUser) -> None:
        if user.id in self.users:
            self.users.remove(user.id)
        if not self.users and not self.ended:
            self.ended = True
            self.activities.instances.pop(self.instance_id, None)

    def json(self) -> dict[str, Any]:
        location: dict[str, Any] = {"id": self.location_id, "kind": self.kind, "channel_id": str(self.channel_id)}
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(self.activities.fake.application_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": location,
            "users": [str(u) for u in self.users],
        }


@dataclass(eq=False)
class Grant:
    code: str
    user_id: int
    scopes: list[str]
    redirect_uri: str | None = None
    used: bool = False


@dataclass(eq=False)
class AccessToken:
    token: str
    user_id: int
    scopes: list[str]
    expires_at: float
    refresh_token: str


class Activities:
    """The Activities side of one FakeDiscord (`fake.activities`)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.enabled = False
        self.client_secret = secrets.token_urlsafe(24)
        self.redirect_uris: list[str] = []  # registered in the portal (a code's redirect_uri must be one)
        self.grants: dict[str, Grant] = {}
        self.tokens: dict[str, AccessToken] = {}
        self.instances: dict[str, ActivityInstance] = {}
        self.ended: list[ActivityInstance] = []  # every instance ever launched, in order
        self.launches: list[tuple[InteractionRecord | None, ActivityInstance]] = []
        self.rest: RestApi | None = None
        from .activity_proxy import ActivityProxy

        self.proxy: ActivityProxy = ActivityProxy(self)

    # ---- state the tests drive -------------------------------------------------------------------

    def enable(self) -> None:
        """Activities on: Discord creates the Entry Point command (global, type 4, "launch")."""
        self.enabled = True
        fake = self.fake
        glob = fake._commands.setdefault(None, [])
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in glob):
            cmd = {"type": PRIMARY_ENTRY_POINT, "name": "launch", "description": "", "integration_types": [0, 1],
                   "contexts": [0, 1, 2]}  # fmt: skip
            stored = fake.rest.store_command(None, cmd)
            stored["handler"] = DISCORD_LAUNCH_ACTIVITY
            glob.append(stored)

    def issue_code(self, user: FakeUser, scopes: list[str] | None = None, redirect_uri: str | None = None) -> str:
        code = secrets.token_urlsafe(22)
        self.grants[code] = Grant(code, user.id, list(scopes or ["identify"]), redirect_uri)
        return code

    def issue_token(self, user: FakeUser, scopes: list[str] | None = None) -> str:
        """An access token for `user` as if the code exchange had been done (tests that skip it)."""
        return self._token(user.id, list(scopes or ["identify"])).token

    def _token(self, user_id: int, scopes: list[str]) -> AccessToken:
        tok = AccessToken(secrets.token_urlsafe(22), user_id, scopes, self.fake.now() + TOKEN_LIFETIME,
                          secrets.token_urlsafe(22))  # fmt: skip
        self.tokens[tok.token] = tok
        return tok

    def bearer_user(self, authorization: str | None) -> tuple[FakeUser | None, AccessToken | None]:
        if not authorization or not authorization.startswith("Bearer "):
            return None, None
        tok = self.tokens.get(authorization[len("Bearer ") :].strip())
        if tok is None or tok.expires_at <= self.fake.now():
            return None, None
        return self.fake.users.get(tok.user_id), tok

    def token_user(self, access_token: str) -> tuple[FakeUser | None, AccessToken | None]:
        return self.bearer_user(f"Bearer {access_token}")

    def launch(
        self, user: FakeUser, channel: int | None = None, custom_id: str | None = None, platform: str = "mobile",
        rec: InteractionRecord | None = None,
    ) -> ActivityInstance:
        """`user` opens the Activity in `channel` (the first guild's channel by default): joins the
        channel's running instance, or starts one."""
        fake = self.fake
        cid = fake._channel_id(channel)
        for inst in self.instances.values():
            if inst.channel_id == cid:
                inst.join(user, custom_id)
                self.launches.append((rec, inst))
                return inst
        guild = fake.channel_guild(cid)
        gid = None if guild is None else guild.id
        kind = "gc" if gid is not None else "pc"
        iid = f"i-{fake.snowflakes.next()}-{kind}-{'' if gid is None else gid}-{cid}"
        inst = ActivityInstance(iid, str(fake.snowflakes.next()), cid, gid, custom_id, platform, self)
        inst.join(user, custom_id)
        self.instances[iid] = inst
        self.ended.append(inst)
        self.launches.append((rec, inst))
        return inst

    def instance(self, instance_id: str) -> ActivityInstance | None:
        return self.instances.get(instance_id)

    # ---- REST ------------------------------------------------------------------------------------

    def add_routes(self, rest: RestApi, app: web.Application, prefix: str) -> None:
        self.rest = rest
        r = app.router
        for base in (prefix, ""):
            r.add_post(f"{base}/oauth2/token", self.token_endpoint)
        r.add_get(f"{prefix}/applications/{{app}}/activity-instances/{{instance}}", self.get_instance)

    def _oauth_error(self, rest: RestApi, request: web.Request, status: int, err: str, why: str,
                     *, violation: bool) -> web.Response:  # fmt: skip
        from .rest import RECORD, json_response

        record = request[RECORD]
        record.refused, record.code = f"POST /oauth2/token: {why}", status
        if violation:
            self.fake._violate(f"POST /oauth2/token: {why}")
        return json_response({"error": err, "error_description": why}, status=status)

    async def token_endpoint(self, request: web.Request) -> web.StreamResponse:
        rest = self.rest
        from .rest import BODY, json_response

        raw = (await request.read()).decode("utf-8", "replace")
        if request.content_type != "application/x-www-form-urlencoded":
            request[BODY] = raw
            return self._oauth_error(rest, request, 400, "unsupported_grant_type",
                                     f"body is {request.content_type or 'untyped'}, not form-encoded",
                                     violation=True)  # fmt: skip
        form = dict(parse_qsl(raw, keep_blank_values=True))
        request[BODY] = {k: ("<secret>" if k == "client_secret" else v) for k, v in form.items()}
        if form.get("client_id") != str(self.fake.application_id) or form.get("client_secret") != self.client_secret:
            return self._oauth_error(rest, request, 401, "invalid_client", "wrong client_id or client_secret",
                                     violation=True)  # fmt: skip
        if form.get("grant_type") != "authorization_code":
            return self._oauth_error(rest, request, 400, "unsupported_grant_type",
                                     f"grant_type {form.get('grant_type')!r}", violation=True)  # fmt: skip
        grant = self.grants.get(form.get("code", ""))
        if grant is None or grant.used:
            return self._oauth_error(rest, request, 400, "invalid_grant",
                                     'Invalid "code" in request.' if grant is None else "code already used",
                                     violation=False)  # fmt: skip
        redirect = form.get("redirect_uri")
        if redirect is not None and (redirect not in self.redirect_uris or redirect != grant.redirect_uri):
            return self._oauth_error(rest, request, 400, "invalid_grant",
                                     f'Invalid "redirect_uri" in request: {redirect!r}', violation=True)  # fmt: skip
        grant.used = True
        tok = self._token(grant.user_id, grant.scopes)
        return json_response({"access_token": tok.token, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
                              "refresh_token": tok.refresh_token, "scope": " ".join(tok.scopes)})  # fmt: skip

    def users_me(self, rest: RestApi, request: web.Request) -> web.Response:
        """`GET /users/@me` with a Bearer token (rest.users_me sends those here)."""
        from .rest import json_response

        user, _tok = self.bearer_user(request.headers.get("Authorization"))
        if user is None:
            return rest.refuse(request, 401, 0, "401: Unauthorized", "GET /users/@me: unknown or expired Bearer token")
        return json_response({**payloads.user_json(user), "locale": user.locale, "mfa_enabled": False})

    async def get_instance(self, request: web.Request) -> web.StreamResponse:
        rest = self.rest
        from .rest import json_response

        if (bad := rest.unauthorized(request)) is not None:
            return bad
        app = request.match_info["app"]
        if app != str(self.fake.application_id):
            return rest.reject(403, 50001, "Missing Access", f"{request.path}: application id {app} is not ours")
        inst = self.instances.get(request.match_info["instance"])
        if inst is None:
            unknown = request.match_info["instance"]
            return rest.refuse(request, 404, 0, "404: Not Found", f"GET activity-instances/{unknown}: unknown or ended")
        return json_response(inst.json())

    # ---- hooks in rest.py ------------------------------------------------------------------------

    def launch_callback(
        self, rec: InteractionRecord, attempt: InitialResponse, refuse: Callable[..., Any], where: str
    ) -> web.Response:
        """A LAUNCH_ACTIVITY (type 12) initial response: accepted for a command, button or modal of
        an app with Activities; the instance's page gets the button's (or modal's) custom_id."""
        from .rest import json_response

        if not self.enabled:
            return refuse(400, 50035, "Invalid Form Body",  # type: ignore[no-any-return]
                          f"{where}: LAUNCH_ACTIVITY but the application has no Activities enabled",
                          ["type: this application cannot launch activities"])  # fmt: skip
        if rec.type not in LAUNCH_SOURCES:
            return refuse(400, 50035, "Invalid Form Body",  # type: ignore[no-any-return]
                          f"{where}: LAUNCH_ACTIVITY is not valid for this interaction type {rec.type}")  # fmt: skip
        custom_id = rec.data.get("custom_id") if rec.type != APPLICATION_COMMAND else None
        rec.response = attempt
        inst = self.launch(rec.user, rec.channel_id, custom_id=custom_id, rec=rec)
        return json_response({
            "interaction": {"id": str(rec.id), "type": rec.type, "activity_instance_id": inst.instance_id},
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": inst.instance_id}},
        })  # fmt: skip

    def check_bulk(self, rest: RestApi, request: web.Request, scope: int | None, cmds: Any) -> web.Response | None:
        """A global bulk overwrite that would drop the Entry Point command: Discord's 400 50240."""
        if scope is not None or not isinstance(cmds, list):
            return None
        had = any(c.get("type") == PRIMARY_ENTRY_POINT for c in self.fake._commands.get(None, []))
        keeps = any(isinstance(c, dict) and c.get("type") == PRIMARY_ENTRY_POINT for c in cmds)
        if had and not keeps:
            self.fake._violate("global command bulk overwrite left out the Entry Point command (400 50240)")
            return rest.refuse(request, 400, ENTRY_POINT_CODE, ENTRY_POINT_MESSAGE,
                               "PUT global commands without the Entry Point command")  # fmt: skip
        return None

    @staticmethod
    def for_limits(cmds: Any) -> Any:
        """The commands limits.py checks: an Entry Point command may carry a description (as a slash
        command's); it is checked here instead."""
        if not isinstance(cmds, list):
            return cmds
        out = []
        for c in cmds:
            if isinstance(c, dict) and c.get("type") == PRIMARY_ENTRY_POINT:
                c = {k: v for k, v in c.items() if k not in ("description", "description_localizations", "handler")}
            out.append(c)
        return out

    def keep_handlers(self, stored: list[dict[str, Any]], cmds: list[dict[str, Any]]) -> None:
        """Entry Point commands keep their `handler` (and description) through a bulk overwrite."""
        old = {c["id"]: c for c in self.fake._commands.get(None, []) if c.get("type") == PRIMARY_ENTRY_POINT}
        for s, c in zip(stored, cmds, strict=False):
            if s.get("type") == PRIMARY_ENTRY_POINT:
                s["handler"] = c.get("handler", old.get(s["id"], {}).get("handler", DISCORD_LAUNCH_ACTIVITY))


def frame_json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))
