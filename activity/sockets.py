"""One WebSocket per page: its frames and their answers (docs/activity.md, "The page's protocol").

What it is: ``Sockets`` (the handler of ``GET ws``, shared by every page of one server) and
``PageSocket`` (one page: who it is, the game it shows, the last version it was sent). The first
frame is ``hello`` with the session (``activity.login``), answered ``welcome`` and ``state``; then
``choose``, ``check``, ``move``, ``next_deal``, ``lobby`` and ``hint``. This is the edge where a
move typed as text becomes a ``Move`` (``Move.parse``): a move is always for the socket's own
user, at the place and channel its session names, and goes through the service's one way to act
(``GameService.acting.act``), which checks the place, the status, the seat and the version;
``next_deal`` and the lobby's actions call the service methods the chat's buttons call. A change
is committed before it is announced: the pages of its game are woken, the mover is told ``done``,
then the chat's announcer says it. A refusal (the engine's ``IllegalMove``, the service's
``Refusal`` or ``Stale``) is a ``refused`` frame in the viewer's language and changes nothing. A
user's frames beyond the flood limit are refused with ``slow_down`` before any work is done.
What it is not: no HTTP routes (``activity.server``), no frames' contents (``activity.tables``),
no rules and no checks of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import WSMsgType, web

from bot.engine import Game, IllegalMove, Move, Verb
from bot.ops.ratelimit import FloodGate
from bot.service import Change, GameRow, GameService, GameStatus, Refusal, Stale
from bot.service.activity_reads import ActivityReads
from bot.words.i18n import DEFAULT_LOCALE, catalog, translate
from bot.words.refusals import refusal_text

from .hub import Hub
from .login import Login, SessionRefused, Who
from .tables import none_frame, state_frame

log = logging.getLogger(__name__)

Announce = Callable[[Change], Awaitable[None]]
# The lead's "Open the table" button launches with ``rummy:activity:<game>``; a bare id is taken too.
CUSTOM_ID = re.compile(r"(?:rummy:activity:)?(?P<game>[0-9]{1,12})")
LOBBY_ACTIONS = ("join", "leave", "start", "bot")
MAX_FRAME = 16 * 1024  # bytes: the longest move (a whole table) is far shorter
MAX_MOVE = 2000  # characters of a move's text
HELLO_SECONDS = 15.0  # a socket that says nothing is closed
CLOSE_SESSION = 4001  # the socket's close code after an ``error`` frame: log in again


class BadFrame(Exception):
    """A frame the protocol does not know or whose fields are missing or of the wrong kind."""


def page_words(locale: str) -> dict[str, str]:
    """The page's own words in ``locale`` (a Discord locale or a language: ``fr``, ``es-419``): every
    ``activity.page.*`` message of the catalogs, untranslated ones in Spanish; the page fills their
    placeholders and chooses their ICU plural branches by the viewer's locale."""
    return {k: translate(k, locale) for k in catalog(DEFAULT_LOCALE) if k.startswith("activity.page.")}


def reason_of(exc: Exception, locale: str, names: Mapping[str, str] | None = None) -> str:
    """What a refusal says, as the chat's guard says it (``cogs.guard.refusal_for``): the engine's
    reason by its code and params, the service's ``refusal.<code>``; the Activity's own codes
    (``bad_frame``, ``not_a_choice``) are ``activity.refusal.<code>``."""
    if isinstance(exc, IllegalMove):
        return refusal_text(exc, locale, names)
    if isinstance(exc, Refusal):
        if exc.code in ("bad_frame", "not_a_choice"):
            return translate(f"activity.refusal.{exc.code}", locale)
        return translate(f"refusal.{exc.code}", locale, **exc.params)
    return translate("refusal.error", locale)


def _int(frame: Mapping[str, Any], name: str) -> int:
    value = frame.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFrame(name)
    return value


def _text(frame: Mapping[str, Any], name: str, limit: int = MAX_MOVE) -> str:
    value = frame.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadFrame(name)
    return value


def _frame_id(frame: Mapping[str, Any]) -> str | int | None:
    """The page's own id of a frame, echoed in its answer (a short string or a number)."""
    value = frame.get("id")
    if isinstance(value, str) and len(value) <= 64:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


class Sockets:
    """The WebSocket handler, and what every page of one server shares: the service, the hub,
    the login, the announcer and the flood limit."""

    def __init__(self, service: GameService, reads: ActivityReads, hub: Hub, login: Login, announce: Announce,
                 flood: FloodGate | None) -> None:
        self.service = service
        self.reads = reads
        self.hub = hub
        self.login = login
        self.announce = announce
        self.flood = flood
        self.open: set[PageSocket] = set()
        self.stopping = False  # the bot is stopping: frames are refused with ``restarting``
        self.busy = 0  # frames being handled now (a move with its announcement)
        self._idle = asyncio.Event()
        self._idle.set()

    async def drain(self, timeout: float) -> int:
        """The bot is stopping: refuse new frames, and wait up to ``timeout`` s for the frames in
        hand (a move committed and being announced in chat, while Discord is still reachable);
        the number still unfinished."""
        self.stopping = True
        if self.busy:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), max(0.0, timeout))
        return self.busy

    async def frame(self, page: PageSocket, text: str) -> None:
        """One frame of ``page``, counted as work in flight."""
        self.busy += 1
        self._idle.clear()
        try:
            await page.receive(text)
        finally:
            self.busy -= 1
            if not self.busy:
                self._idle.set()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """``GET ws``: one page's socket, until it closes."""
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        page = PageSocket(self, ws)
        self.open.add(page)
        try:
            first = await ws.receive(timeout=HELLO_SECONDS)
            if first.type == WSMsgType.TEXT:
                await self.frame(page, first.data)
                async for msg in ws:
                    if msg.type == WSMsgType.TEXT:
                        await self.frame(page, msg.data)
                    elif msg.type == WSMsgType.BINARY:
                        await page.refuse(None, Refusal("bad_frame"))
        except TimeoutError:
            await ws.close(code=CLOSE_SESSION)
        finally:
            self.open.discard(page)
            self.hub.forget(page)
        return ws

    async def close_all(self) -> None:
        for page in list(self.open):
            await page.ws.close(code=1001)  # going away: the page reconnects to the next process

    async def announce_safely(self, change: Change) -> None:
        """The chat hears of a committed change; its failure (Discord down) is logged, not the page's."""
        try:
            await self.announce(change)
        except Exception:
            log.exception("announcing the Activity's change of game %s failed", change.game.id)


class PageSocket:
    """One page: its session, the game it shows, and the frames it sends."""

    def __init__(self, owner: Sockets, ws: web.WebSocketResponse) -> None:
        self.owner = owner
        self.ws = ws
        self.who: Who | None = None
        self.game_id: int | None = None
        self.version_sent = -1
        self.choices: list[int] | None = None  # the channel's games last offered (no game shown)
        self._send = asyncio.Lock()

    # ------------------------------------------------------------------ sending
    async def send(self, frame: Mapping[str, Any]) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

    @property
    def locale(self) -> str:
        return "es" if self.who is None else self.who.locale

    async def show(self, row: GameRow, game: Game | None) -> None:
        """Send this page's state of ``row``, unless it shows another game now or was already
        sent a newer version (a refresh that read the row earlier finished later)."""
        who = self.who
        if who is None or row.id != self.game_id:
            return
        verbs = []
        seat = row.seat_of(who.user_id)
        if (game is not None and seat is not None and row.status == GameStatus.PLAYING and not game.hand_over
                and seat.seat in game.actors):
            verbs = [m.verb for m in await self.owner.service.reading.legal_moves(row, seat.seat, game)]
            if verbs and Verb.TABLE not in verbs and game.can_rearrange(seat.seat):
                # The engine lists no table moves (too many): the draft table is offered where the
                # variant allows a rearrangement, as the chat's hand offers its Rearrange button.
                verbs.append(Verb.TABLE)
        frame = state_frame(row, game, who.user_id, who.locale, verbs)
        async with self._send:
            if row.id != self.game_id or row.version < self.version_sent:
                return
            self.version_sent = row.version
            await self.send(frame)

    async def show_game(self, row: GameRow) -> None:
        """Show ``row``'s game from now on: the hub wakes this page with its changes."""
        self.game_id, self.choices, self.version_sent = row.id, None, -1
        self.owner.hub.watch(self, row.id, row.version)
        game = await self.owner.service.reading.load(row) if row.record else None
        await self.show(row, game)

    async def refresh(self) -> None:
        """This page's state again, read now."""
        if self.game_id is None:
            return
        row = await self.owner.service.core.get(self.game_id)
        if row is not None:
            await self.show(row, await self.owner.service.reading.load(row) if row.record else None)

    async def show_none(self, rows: list[GameRow]) -> None:
        self.game_id, self.choices = None, [r.id for r in rows]
        self.owner.hub.watch(self, None)
        await self.send(none_frame(rows, self.locale))

    async def channel_games(self) -> list[GameRow]:
        who = self.who
        if who is None:
            return []
        return await self.owner.reads.channel_games(who.place, who.channel_id)

    async def look_again(self) -> None:
        """Showing no game: the channel's games, if they changed (a lobby opened, one ended)."""
        rows = await self.channel_games()
        if [r.id for r in rows] == self.choices:
            return
        if len(rows) == 1:
            await self.show_game(rows[0])
        else:
            await self.show_none(rows)

    async def pick_game(self, custom_id: object) -> None:
        """The game the launch names (``custom_id``), if it is one of this place; else the one of
        the instance's channel or its threads; several: a choice; none: nothing to show."""
        who = self.who
        assert who is not None
        found = CUSTOM_ID.fullmatch(custom_id) if isinstance(custom_id, str) else None
        if found is not None:
            try:
                row = await self.owner.service.acting.game_at(who.place, int(found["game"]))
            except Refusal:
                row = None  # another place's game, or none: as if the launch named nothing
            if row is not None:
                await self.show_game(row)
                return
        rows = await self.channel_games()
        if len(rows) == 1:
            await self.show_game(rows[0])
        else:
            await self.show_none(rows)

    async def refuse(self, frame_id: str | int | None, exc: Exception, version: int | None = None) -> None:
        """A ``refused`` frame: the reason in the viewer's language, the game's current version."""
        names = None
        if isinstance(exc, IllegalMove) and self.game_id is not None:
            row = await self.owner.service.core.get(self.game_id)
            names = None if row is None else row.names  # the engine names seats: say their names
        if version is None and self.game_id is not None and not (isinstance(exc, Refusal) and exc.code == "slow_down"):
            version = (await self.owner.reads.versions([self.game_id])).get(self.game_id)
        if version is None and self.version_sent >= 0:
            version = self.version_sent
        await self.send({"op": "refused", "id": frame_id, "code": getattr(exc, "code", "error"),
                         "reason": reason_of(exc, self.locale, names), "version": version})

    # ------------------------------------------------------------------ receiving
    async def receive(self, text: str) -> None:
        """One frame from the page."""
        try:
            frame = json.loads(text)
        except ValueError:
            frame = None
        if not isinstance(frame, dict) or not isinstance(frame.get("op"), str):
            if self.who is None:
                await self.error("no_session")
            else:
                await self.refuse(None, Refusal("bad_frame"))
            return
        op, frame_id = frame["op"], _frame_id(frame)
        if self.who is None:
            if op != "hello":
                await self.error("no_session")
                return
            await self.hello(frame)
            return
        if self.owner.stopping:  # as the chat's guard answers a click while the bot stops
            await self.refuse(frame_id, Refusal("restarting"), self.version_sent if self.version_sent >= 0 else None)
            return
        flood = self.owner.flood
        if flood is not None and not flood.allow(self.who.user_id):
            # Beyond the flood limit: answered at once, nothing read, nothing changed.
            wait = max(1, round(flood.retry_after(self.who.user_id)))
            await self.send({"op": "refused", "id": frame_id, "code": "slow_down",
                             "reason": translate("refusal.slow_down", self.locale, seconds=wait),
                             "version": self.version_sent if self.version_sent >= 0 else None})
            return
        try:
            await self.dispatch(op, frame_id, frame)
        except BadFrame:
            await self.refuse(frame_id, Refusal("bad_frame"))
        except Stale as exc:
            await self.refuse(frame_id, exc, exc.game.version)
            await self.refresh()  # the page was behind: it gets the table as it is
        except (Refusal, IllegalMove) as exc:
            await self.refuse(frame_id, exc)
        except Exception as exc:
            log.exception("an Activity frame %r failed", op)
            await self.refuse(frame_id, exc)

    async def error(self, code: str) -> None:
        """The session is refused: say why, and close (the page logs in again)."""
        await self.send({"op": "error", "code": code, "reason": translate(f"activity.error.{code}", self.locale)})
        await self.ws.close(code=CLOSE_SESSION)

    async def hello(self, frame: Mapping[str, Any]) -> None:
        try:
            self.who = who = self.owner.login.open(frame.get("session"))
        except SessionRefused as exc:
            await self.error(exc.code)
            return
        await self.send({"op": "welcome", "user": {"id": str(who.user_id), "name": who.name},
                         "locale": who.locale, "words": page_words(who.locale)})
        await self.pick_game(frame.get("custom_id"))

    async def dispatch(self, op: str, frame_id: str | int | None, frame: Mapping[str, Any]) -> None:
        if op == "choose":
            await self.choose(_int(frame, "game"))
        elif op == "check":
            await self.check(frame_id, _text(frame, "move"))
        elif op == "move":
            await self.move(frame_id, _text(frame, "move"), _int(frame, "version"))
        elif op == "next_deal":
            await self.next_deal(frame_id, _int(frame, "version"))
        elif op == "lobby":
            action = frame.get("action")
            if action not in LOBBY_ACTIONS:
                raise BadFrame("action")
            await self.lobby(frame_id, str(action))
        elif op == "hint":
            await self.hint(frame_id)
        else:
            raise BadFrame(op)

    def _game(self) -> int:
        if self.game_id is None:
            raise Refusal("no_game")
        return self.game_id

    async def choose(self, game_id: int) -> None:
        """Show one of the channel's games (it must be one of them)."""
        rows = {r.id: r for r in await self.channel_games()}
        if game_id not in rows:
            raise Refusal("not_a_choice")
        await self.show_game(rows[game_id])

    async def check(self, frame_id: str | int | None, text: str) -> None:
        """Would the engine take this move now? Nothing is played."""
        who, game_id = self.who, self._game()
        assert who is not None
        found: IllegalMove | Refusal | None
        try:
            found = await self.owner.reads.check(who.place, who.user_id, game_id, Move.parse(text))
        except (Refusal, IllegalMove) as exc:
            found = exc
        names = None
        if isinstance(found, IllegalMove):
            row = await self.owner.service.core.get(game_id)
            names = None if row is None else row.names
        await self.send({"op": "checked", "id": frame_id, "ok": found is None,
                         "reason": None if found is None else reason_of(found, self.locale, names)})

    async def move(self, frame_id: str | int | None, text: str, version: int) -> None:
        """Play the move for the socket's own user's seat, at the version the page showed."""
        who, game_id = self.who, self._game()
        assert who is not None
        move = Move.parse(text)  # the typed edge: text becomes a Move here, or is refused (IllegalMove)
        change = await self.owner.service.acting.act(who.place, who.user_id, game_id, move, version=version)
        await self.committed(frame_id, change)

    async def next_deal(self, frame_id: str | int | None, version: int) -> None:
        who, game_id = self.who, self._game()
        assert who is not None
        change = await self.owner.service.acting.next_deal_at(who.place, who.user_id, game_id, version=version)
        await self.committed(frame_id, change)

    async def lobby(self, frame_id: str | int | None, action: str) -> None:
        """The lobby's buttons, as the chat's (``cogs.lobby.lobby_action``): join, leave, start,
        and a computer player of the normal level."""
        who, game_id = self.who, self._game()
        assert who is not None
        games = self.owner.service.games
        await self.owner.service.acting.game_at(who.place, game_id)  # a lobby of this place, or no_game
        if action == "join":
            change = await games.join(game_id, who.user_id, who.name)
        elif action == "leave":
            change = await games.leave(game_id, who.user_id)
        elif action == "bot":
            change = await games.add_bot(game_id, who.user_id, level="normal")
        else:
            change = await games.start(game_id, who.user_id)
        await self.committed(frame_id, change)

    async def committed(self, frame_id: str | int | None, change: Change) -> None:
        """A change is committed: every page of its game wakes, the mover hears ``done``, then
        the chat's announcer says it (commit, then announce)."""
        self.owner.hub.wake(change.game.id)
        await self.send({"op": "done", "id": frame_id, "version": change.game.version})
        await self.owner.announce_safely(change)

    async def hint(self, frame_id: str | int | None) -> None:
        who, game_id = self.who, self._game()
        assert who is not None
        found = await self.owner.reads.hint(who.place, who.user_id, game_id)
        await self.send({"op": "hint", "id": frame_id, "move": str(found.move), "text": found.text(self.locale)})
