"""Who a page is, and where: the OAuth2 code exchange, Discord's word on the user and the instance,
and the session the page carries from then on (docs/activity.md, "The page's protocol").

What it is: ``Login``. ``exchange(code, instance_id)`` swaps the page's code for an access token at
Discord's token endpoint (form-encoded, with the client secret, no ``redirect_uri``), asks
``/users/@me`` with that token who it belongs to and ``/applications/{id}/activity-instances/{id}``
with the bot token where the instance is and who is in it (the user must be), and works out the
place as the chat does (``cogs.anywhere.place_key``): the server where the bot is a member, else
minus the channel. ``seal`` and ``open`` write and read the session: an HMAC-SHA256, keyed from the
client secret and the bot token (so every process of a cluster, and a restarted bot, accept it),
over the user's id, name and language, the place, the instance's channel and an expiry.
What it is not: no games and no sockets; nothing the page says about itself is believed. The
tokens and the secret are never logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.words.i18n import locale_of

log = logging.getLogger(__name__)

SESSION_SECONDS = 3600.0  # docs/activity.md: one hour, then the page logs in again through the SDK
MEMBER_SECONDS = 60.0  # how long "is the bot a member of this server" is remembered
TIMEOUT = aiohttp.ClientTimeout(total=10)


class LoginRefused(Exception):
    """The login is refused: ``status`` is the HTTP answer to the page, ``code`` its ``error``
    (``bad_request``, ``refused``, ``no_instance``, ``not_in_instance``, ``discord``)."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code


class SessionRefused(Exception):
    """A session that is not ours (``forged``) or no longer good (``expired``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Who:
    """What a session vouches for: the user Discord named, the place and the instance's channel."""

    user_id: int
    name: str
    locale: str
    place: int | None
    channel_id: int
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Login:
    """The code exchange against Discord, and the sessions it hands out."""

    def __init__(self, *, api_base: str, application_id: int, client_secret: str, bot_token: str,
                 clock: Callable[[], float] = time.time, lifetime: float = SESSION_SECONDS) -> None:
        self.api_base = api_base.rstrip("/")
        self.application_id = application_id
        self._secret = client_secret
        self._bot = bot_token
        # The key is derived, never either secret itself: a session names neither.
        self._key = hmac.new(b"rummy activity session", f"{client_secret}\n{bot_token}".encode(),
                             hashlib.sha256).digest()
        self.clock = clock
        self.lifetime = lifetime
        self._http: aiohttp.ClientSession | None = None
        self._members: dict[int, tuple[bool, float]] = {}  # guild id -> (bot is a member, until)

    async def start(self) -> None:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    @property
    def http(self) -> aiohttp.ClientSession:
        if self._http is None:
            raise RuntimeError("Login.start() was not called")
        return self._http

    # ------------------------------------------------------------------ sessions
    def seal(self, who: Who) -> str:
        """The session the page carries: its contents and their HMAC."""
        body = json.dumps({"u": str(who.user_id), "n": who.name, "l": who.locale,
                           "p": None if who.place is None else str(who.place), "c": str(who.channel_id),
                           "e": who.expires}, separators=(",", ":")).encode()
        mac = hmac.new(self._key, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(mac)}"

    def open(self, session: object) -> Who:
        """What ``session`` vouches for; ``SessionRefused`` when it is not ours or has expired."""
        if not isinstance(session, str) or session.count(".") != 1 or len(session) > 2048:
            raise SessionRefused("forged")
        body_text, mac_text = session.split(".")
        try:
            body, mac = _unb64(body_text), _unb64(mac_text)
        except ValueError as exc:
            raise SessionRefused("forged") from exc
        if not hmac.compare_digest(mac, hmac.new(self._key, body, hashlib.sha256).digest()):
            raise SessionRefused("forged")
        try:
            data = json.loads(body)
            who = Who(int(data["u"]), str(data["n"]), locale_of(str(data["l"])),
                      None if data["p"] is None else int(data["p"]), int(data["c"]), float(data["e"]))
        except (ValueError, KeyError, TypeError) as exc:  # signed by us, so never: but never trusted either
            raise SessionRefused("forged") from exc
        if who.expires <= self.clock():
            raise SessionRefused("expired")
        return who

    # ------------------------------------------------------------------ the exchange
    async def exchange(self, code: object, instance_id: object) -> tuple[str, Who]:
        """The page's ``code`` and ``instance_id`` as an access token (for the SDK's
        ``authenticate``) and what its session vouches for."""
        if not isinstance(code, str) or not code or not isinstance(instance_id, str) or not instance_id:
            raise LoginRefused(400, "bad_request")
        form = {"client_id": str(self.application_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        status, token = await self._call("POST", "/oauth2/token", data=form)
        if status != 200 or not isinstance(token.get("access_token"), str):
            raise LoginRefused(401, "refused")
        access = token["access_token"]
        status, me = await self._call("GET", "/users/@me", auth=f"Bearer {access}")
        if status != 200 or "id" not in me:
            raise LoginRefused(401, "refused")
        user_id = int(me["id"])
        if "/" in instance_id or "?" in instance_id or len(instance_id) > 200:
            raise LoginRefused(404, "no_instance")
        status, inst = await self._call(
            "GET", f"/applications/{self.application_id}/activity-instances/{instance_id}", auth=f"Bot {self._bot}")
        if status == 404:
            raise LoginRefused(404, "no_instance")
        if status != 200:
            raise LoginRefused(502, "discord")
        if str(user_id) not in [str(u) for u in inst.get("users", [])]:
            raise LoginRefused(403, "not_in_instance")
        location = inst.get("location") or {}
        channel_id = int(location["channel_id"])
        guild = location.get("guild_id")
        # The place as the chat keys it (cogs.anywhere.place_key): a server that added the bot,
        # else the channel itself, negated (a DM, a group DM, a server without the bot).
        place = int(guild) if guild is not None and await self._bot_in(int(guild)) else -channel_id
        name = str(me.get("global_name") or me.get("username") or user_id)
        who = Who(user_id, name, locale_of(me.get("locale")), place, channel_id, self.clock() + self.lifetime)
        return access, who

    async def _bot_in(self, guild_id: int) -> bool:
        """Whether the bot is a member of the server (``GET /guilds/{id}`` with its token: 200, else
        403 Missing Access or 404), remembered for a minute."""
        now = self.clock()
        known = self._members.get(guild_id)
        if known is not None and known[1] > now:
            return known[0]
        status, _ = await self._call("GET", f"/guilds/{guild_id}", auth=f"Bot {self._bot}")
        if status not in (200, 403, 404):
            raise LoginRefused(502, "discord")
        member = status == 200
        if len(self._members) > 10_000:
            self._members.clear()
        self._members[guild_id] = (member, now + MEMBER_SECONDS)
        return member

    async def _call(self, method: str, path: str, *, auth: str | None = None,
                    data: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": auth} if auth else {}
        try:
            async with self.http.request(method, self.api_base + path, headers=headers, data=data) as r:
                try:
                    body = await r.json(content_type=None)
                except (ValueError, aiohttp.ContentTypeError):
                    body = {}
                return r.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("Discord could not be reached for the Activity's login (%s %s): %r",
                        method, path.split("?")[0], exc)
            raise LoginRefused(502, "discord") from exc
