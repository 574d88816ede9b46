"""Driving the real bot (``python -m bot``) through the fake Discord like players would.

What it is: a ``Table`` that opens a lobby with slash commands, seats players with the Join
button, starts the game, plays turns through ``/rummy play`` (autocomplete suggestions) or the
buttons, and reads the database file (read-only) to check what was committed; plus the leak scan
every test runs at the end.
What it is not: a fake of the bot. Nothing here imports the bot's code except the engine, used
only to read the committed record.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import Phase, load_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

CARD_LIST = re.compile(r"`(?:(?:[2-9TJQKA][SHDC]|JK) ?){3,}`")  # a hand as codes, as the hand message shows it
PUBLIC_FILES = re.compile(r"^(lobby|table|deal|replay|standings|ladder|tournament|bracket)\.(png|gif|webp)$")

# Moves that end deals sooner, tried first when a test plays "well enough" (the bot does not care).
PREFERRED = ("knock", "meld", "layoff", "auto", "done")


def answers(rec: Any) -> list[Any]:
    """The messages that answer an interaction: not channel posts that happened meanwhile, nor a
    game's news that the bot sent as a public follow-up of it once it had answered (a turn call,
    which mentions the player, or the table: issue 37, outside the bot token's budget)."""
    return [m for m in rec.messages if m.source != "channel" and not is_news(m)]


def is_news(message: Any) -> bool:
    """A game's public news carried by an interaction's token: the turn call or the table."""
    if message.source != "followup" or not message.public:
        return False
    return message.content.startswith("<@") or any(c.startswith("rummy:hand:") for c in custom_ids(message))


def components(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [])]


def custom_ids(message: Any) -> list[str]:
    return [c.get("custom_id", "") for c in components(message)]


async def shown_hand(fake: FakeDiscord, rec: Any, user: Any, hands: dict[int, int], game_id: int, version: int,
                     timeout: float = 20) -> Any:
    """The hand a move from the table answered with, once it shows ``version``: a new private
    message, or (issue 36) the player's live hand, edited in place through its own token
    (``hands``: each user's hand message, kept by the caller). Never assumes an edit has landed."""
    def shows(message: Any) -> bool:
        return any(c.startswith("rummy:s") and f":{game_id}:{version}:" in c for c in custom_ids(message))

    shown = [m for m in answers(rec) if m.ephemeral and m.visible_to == user.id and m.attachments]
    if shown:
        hands[user.id] = shown[-1].id
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        if user.id in hands and shows(fake.message(hands[user.id])):
            return fake.message(hands[user.id])
        if user.id not in hands:  # a hand shown by a command meanwhile: the newest is the live one
            mine = [m for m in fake.ephemeral_messages(user) if shows(m) and not m.deleted]
            if mine:
                hands[user.id] = max(mine, key=lambda m: m.id).id
                return fake.message(hands[user.id])
        if loop.time() > end:
            raise TimeoutError(f"the hand of {user.name} never showed version {version}")
        await asyncio.sleep(0.05)


def table_turn_current(ids: list[str], game_id: int, version: int, hand_over: bool) -> bool:
    """A table's custom_ids show the committed position: its turn buttons (draw, take, pass: only
    those the phase accepts, none once the turn's first move is made) carry ``version``, and an
    ended deal shows none."""
    turn = [c for c in ids if re.fullmatch(rf"rummy:(draw|take|pass):{game_id}:[0-9]+", c)]
    if hand_over:
        return not turn
    return all(c.endswith(f":{version}") for c in turn)


async def new_lobby(fake: FakeDiscord, user: Any, args: dict[str, Any], channel: int | None = None,
                    timeout: float = 15) -> Any:
    """``/rummy new`` as ``user``: the host is answered privately, and the lobby itself is posted in
    the channel (issue 15, hole 6). Returns the public lobby message. (``bench/load.py`` opens many
    at once and waits longer.)"""
    known = {m.id for m in fake.public_messages(channel)}
    rec = await (await fake.slash(user, "rummy new", args, channel=channel)).settled(timeout=timeout)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == user.id, reply.content
    return await fake.wait_for_message(
        lambda m: m.id not in known and not m.ephemeral and any(c.startswith("rummy:join:") for c in custom_ids(m))
        and (channel is None or m.channel_id == channel), timeout=timeout)


class PgReader:
    """Synchronous reads of a PostgreSQL database for the tests' predicates (asyncpg on a thread of
    its own, so ``Table.query`` reads the same whichever backend the bot uses)."""

    def __init__(self, url: str) -> None:
        import asyncpg

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._run(asyncpg.connect(url))

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        from bot.store.postgres import placeholders

        return list(self._run(self._conn.fetch(placeholders(sql), *params)))

    def close(self) -> None:
        self._run(self._conn.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


@dataclass
class Table:
    fake: FakeDiscord
    bot: BotProcess
    db_path: Path
    users: list[Any]
    game_id: int = 0
    lobby: Any = None
    moves: int = 0
    refusals: list[str] = field(default_factory=list)
    channel: int | None = None  # where the game is played (default: the first guild's channel)
    pg: PgReader | None = None  # the database is PostgreSQL, not the SQLite file ``db_path``

    # ------------------------------------------------------------------ the database, read-only
    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        if self.pg is not None:
            return self.pg.query(sql, params)
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            return list(conn.execute(sql, params))
        finally:
            conn.close()

    def row(self) -> sqlite3.Row:
        return self.query("SELECT * FROM games WHERE id = ?", (self.game_id,))[0]

    def game(self) -> Any:
        return load_game(self.row()["record"])

    @property
    def place(self) -> int | None:
        """Where commands about the game are typed: its own thread (issue 12), else its channel."""
        if self.game_id:
            rows = self.query("SELECT thread_id FROM games WHERE id = ?", (self.game_id,))
            if rows and rows[0]["thread_id"]:
                return int(rows[0]["thread_id"])
        return self.channel

    def seats(self) -> int:
        return self.query("SELECT COUNT(*) FROM seats WHERE game_id = ?", (self.game_id,))[0][0]

    def seat_of(self, user: Any) -> str:
        return self.query("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (self.game_id, user.id))[0][0]

    def user_of(self, seat: str) -> Any:
        uid = self.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (self.game_id, seat))[0][0]
        return next(u for u in self.users if u.id == uid)

    # ------------------------------------------------------------------ lobby
    async def open(self, variant: str, options: str = "", timer: int = 0) -> None:
        args: dict[str, Any] = {"variant": variant, "timer": timer}
        if options:
            args["options"] = options
        self.lobby = await new_lobby(self.fake, self.users[0], args, self.channel)
        self.game_id = int(custom_ids(self.lobby)[0].split(":")[2])
        for n, user in enumerate(self.users[1:], start=2):
            rec = await (await self.fake.click(user, self.lobby, f"rummy:join:{self.game_id}")).settled(timeout=15)
            assert rec.response_type == 6, rec.responses
            # The click is acknowledged before the seat is written: wait for the seat, not for quiet.
            await self.wait_until(lambda n=n: self.seats() == n)
        rec = await (await self.fake.click(self.users[0], self.lobby, f"rummy:start:{self.game_id}")).settled(
            timeout=15)
        await self.wait_until(lambda: self.row()["status"] == "playing")
        await self.wait_table()

    async def wait_table(self) -> Any:
        return await self.fake.wait_for_message(lambda m: self.is_table(m) and not m.deleted, timeout=15)

    def is_table(self, message: Any) -> bool:
        # Exactly this game's id: game 1's prefix is also game 10's.
        mine = f"rummy:hand:{self.game_id}"
        return any(cid == mine or cid.startswith(f"{mine}:") for cid in custom_ids(message))

    def table_message(self) -> Any:
        tables = [m for m in self.fake.public_messages() if self.is_table(m) and not m.deleted]
        assert tables, "no table message"
        return tables[-1]

    # ------------------------------------------------------------------ playing
    async def suggestions(self, user: Any, typed: str = "") -> list[dict[str, Any]]:
        rec = await self.fake.autocomplete(user, "rummy play", {"move": typed}, focused="move", channel=self.place)
        return rec if isinstance(rec, list) else list(rec.choices or [])

    async def play(self, user: Any, move: str) -> Any:
        # Settled once the private answer is filled; the table edit may land later (it is coalesced).
        rec = await (await self.fake.slash(user, "rummy play", {"move": move}, channel=self.place)).settled(
            timeout=20, quiet=0.05)
        self.moves += 1
        return rec

    def pick(self, choices: list[dict[str, Any]], rnd: Any) -> dict[str, Any]:
        for verb in PREFERRED:
            good = [c for c in choices if c["value"].split()[0] == verb]
            if good:
                return good[0]
        return rnd.choice(choices[:3])

    async def play_until_over(self, rnd: Any, max_moves: int = 2000) -> None:
        """Every turn through autocomplete + /rummy play; the next deal through its button."""
        while self.row()["status"] == "playing" and self.moves < max_moves:
            game = self.game()
            if game.hand_over:
                await self.press_next_deal()
                continue
            actor = game.actors[0]
            user = self.user_of(actor)
            choices = await self.suggestions(user)
            assert choices, f"{actor} is to act but got no suggestion"
            choice = self.pick(choices, rnd)
            rec = await self.play(user, choice["value"])
            hand = answers(rec)
            assert hand and hand[-1].ephemeral and hand[-1].visible_to == user.id, rec.messages
        assert self.row()["status"] == "finished", f"not finished after {self.moves} moves"

    async def press_next_deal(self) -> None:
        version = self.row()["version"]
        cid = f"rummy:next:{self.game_id}:{version}"
        message = await self.fake.wait_for_message(lambda m: cid in custom_ids(m), timeout=15)
        await (await self.fake.click(self.users[0], message, cid)).settled(timeout=15)
        await self.wait_until(lambda: self.row()["version"] > version)

    def check_action_log(self) -> None:
        """reliability.md R10 for every game in the database (see ``replay_action_log``)."""
        replay_action_log(self.query)

    async def wait_until(self, predicate: Any, timeout: float = 15.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            if loop.time() > end:
                raise TimeoutError("condition not reached")
            await asyncio.sleep(0.05)


MAX_TIMEOUTS = 3  # bot.service.clock: three timeouts in a row and the seat resigns (not imported: the bot's code)
NO_ENGINE_CHANGE = {"new", "join", "leave", "cancel", "expire", "abandon", "resume", "hints", "options", "practice"}


def replay_action_log(query: Any) -> None:
    """reliability.md R10: the stored action log, replayed from scratch, is the stored game record.

    For every game (``query`` reads the database: ``Table.query``): one action per version, in
    order (the lobby's opening is version 1, and every later change bumped the version once and
    logged once); the record reads back to itself; and its first position (the header alone: the
    seed, seats and options as dealt at the start) with the logged actions applied the way the
    service applied them (a player's or computer's move, a resignation, a deal, a closed window, a
    timeout and the resignation that a third timeout in a row brings) gives that same record."""
    for game in query("SELECT id, version, status, record FROM games ORDER BY id"):
        actions = query("SELECT version, user_id, kind, move FROM actions WHERE game_id = ? ORDER BY id", (game["id"],))
        assert [a["version"] for a in actions] == list(range(1, game["version"] + 1)), (game["id"], game["version"])
        assert actions[0]["kind"] == "new"
        record = game["record"]
        if not record:
            assert "start" not in [a["kind"] for a in actions], game["id"]
            continue
        stored = load_game(record)
        assert stored.record() == record, game["id"]
        seats = {r["user_id"]: r["seat"] for r in query("SELECT user_id, seat FROM seats WHERE game_id = ?",
                                                         (game["id"],))}
        replayed = load_game("\n".join(stored.header) + "\n")
        started = False
        timeouts: dict[str, int] = {}
        for a in actions:
            kind, move = a["kind"], a["move"]
            try:
                started = _replay(replayed, a, seats, timeouts, started)
            except Exception as exc:  # the log does not replay: say where
                raise AssertionError(f"game {game['id']}, version {a['version']}: {kind} {move!r}: {exc!r}") from exc
        assert started, game["id"]
        assert replayed.record() == record, (game["id"], replayed.record(), record)


def _replay(game: Any, action: Any, seats: dict[int, str], timeouts: dict[str, int], started: bool) -> bool:
    """Apply one logged action to ``game`` as the service did (``replay_action_log``); whether the
    game has started after it."""
    kind, move = action["kind"], action["move"]
    if kind in NO_ENGINE_CHANGE or (kind == "bot" and not started):
        return started
    if kind == "start":
        assert not started and game.log == [], "started twice, or moves before the start"
        return True
    assert started, "a change to the game before its start"
    if kind in ("move", "resign", "bot"):
        seat = seats[action["user_id"]]
        game.play(seat, move)
        if kind != "bot":
            timeouts[seat] = 0  # a player's own move resets their timeouts in a row
    elif kind == "deal":
        game.next_deal()
    elif kind == "window":
        for seat in list(game.actors):
            if game.phase != Phase.WINDOW:
                break
            if seat in game.actors and "pass" in game.legal_moves(seat):
                game.play(seat, "pass")
    elif kind == "timeout":
        seat = game.current_seat
        assert seat is not None, "a timeout with nobody to move"
        game.timeout(seat)
        timeouts[seat] = timeouts.get(seat, 0) + 1
        if timeouts[seat] >= MAX_TIMEOUTS and seat not in game.resigned:
            game.play(seat, "resign")
    else:
        raise AssertionError(f"an action of unknown kind {kind!r}")
    return True


def scan_for_leaks(fake: FakeDiscord, users: list[Any]) -> None:
    """No hand, nor anything derived from one, outside its owner's ephemeral messages: public
    messages carry no card list, no select menu, no card-bearing custom_id, only table/deal/replay
    pictures; every message that shows a hand is ephemeral and visible to one user only.

    Pictures too (reliability.md R12): no public message, deleted ones and every earlier state of
    an edited one included, ever carried a hand picture, whether by its name (``hand.*``, what
    ``renderers.render_hand`` names it) or by its bytes (the same picture sent under another name)."""
    hands = {a.data for m in fake.messages if m.ephemeral for a in m.attachments if a.filename.startswith("hand.")}
    for m in fake.messages:
        if not m.public:
            continue
        names = [a.filename for a in m.attachments] + [n for e in m.edits for n in e.before.get("attachments", [])]
        for name in names:
            assert name.split(".")[0] != "hand", f"a hand picture in public message {m.id}: {m.content!r}"
            assert PUBLIC_FILES.match(name), f"unexpected public file {name} in message {m.id}"
        for a in m.attachments:
            assert a.data not in hands, f"a hand picture as {a.filename} in public message {m.id}"
        for text in [m.content] + [e.before.get("content") or "" for e in m.edits]:
            assert not CARD_LIST.search(text or ""), f"card list in a public message: {text!r}"
    for m in fake.public_messages():
        texts = [m.content] + [c.get("label", "") or "" for c in components(m)]
        for text in texts:
            assert not CARD_LIST.search(text or ""), f"card list in a public message: {text!r}"
        for c in components(m):
            assert c.get("type") != 3, f"a select menu in a public message: {c}"
            assert not re.match(r"rummy:(h:|s\d:)", c.get("custom_id", "")), c  # hand controls stay private
        for a in m.attachments:
            assert PUBLIC_FILES.match(a.filename), f"unexpected public file {a.filename}"
        assert not m.ephemeral
    for user in users:
        for m in fake.ephemeral_messages(user):
            assert m.visible_to == user.id
    for m in fake.messages:
        if any(a.filename.startswith("hand.") for a in m.attachments):
            assert m.ephemeral and m.visible_to is not None, f"a hand picture seen by more than one: {m.id}"
