"""The announcer: everything the bot posts in public about a game, after the service committed it.

What it is: ``Announcer``, owned by the client (``bot.client``, made in ``setup_hook``) and
called by the clock and the cogs. It composes the messages the cog modules lay out
(``cogs.lobby``, ``cogs.table``, ``cogs.standings``, ``cogs.ledger``) and sends every one of them
through its delivery (``cogs.delivery``: post, edit, delete, threads), the one place that would
change for another way to reach Discord. ``announce(change)`` says what a committed ``Change`` did: the
lobby closed, the table changed, whose turn it is now (a short new message that mentions them,
the previous one deleted), a turn that timed out, the end of a deal and of the game. The public
table is edited through one coalescing task per channel (``request_table``), and posted afresh
when asked, when it is old (Discord caps edits of old messages) or when enough messages buried
it (``count_message``, the client's ``on_message`` listener). A game with a thread of its own
(issue 12) is posted in that thread (``GameRow.place``): the thread is made from the lobby
message (``post_lobby``), the end is said in one line in the channel too, and the clock has the
thread archived a while after the end (``archive_thread``). It also posts lobbies, season
standings and managers' notices, renders pictures off the event loop through ``cogs.render_pool``
(a bounded number at once; replays in a slot of their own, drawn once per deal) and, for a
graceful stop, waits for the table edits still pending (``drain``).
What it is not: no decisions and no writes but message ids (``GameService``), no private
answers (those are the cogs'), no message layout (the cog modules above), no Discord call of its
own (``cogs.delivery``).
Discord errors are logged, never undone: the change is committed and the next refresh shows it.
What became of its posts is reported to the service as an ``Outcome`` (``outcome_of`` reads a
Discord error), and the service decides: an ending said is marked, a channel gone or refusing
the bot for good has its games abandoned (``GameService.endings.delivered``, ``delivery_failed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, Unpack

import aiohttp
import discord

from bot.engine import EventKind, Game, Phase
from bot.service import Change, ChangeKind, GameRow, GameService, GameStatus, Refusal, ResultRow
from bot.service.deadlines import bot_actors
from bot.service.endings import CLOSING, Outcome
from bot.service.reading import replay_steps, since_last_turn
from bot.words.i18n import format_number, translate
from cogs.delivery import ChannelDelivery, Delivery, Edit, Parts
from cogs.hand_refresh import refresh_hands
from cogs.ledger import ledger_embed
from cogs.lobby import lobby_info, lobby_message
from cogs.render_pool import Renders
from cogs.standings import scores_message, standings_info
from cogs.table import deal_end_message, final_message, final_places, table_message
from cogs.ui import clock_text, nm, variant_name
from renderers import Rendered, render_lobby, render_replay, render_result, render_table
from renderers.standings import render_standings

log = logging.getLogger(__name__)

T = TypeVar("T")

TABLE_MAX_AGE = 45 * 60  # re-post instead of editing well before Discord's one-hour edit cap
BURIED_AFTER = 8  # re-post when this many messages arrived under the table
COALESCE = 0.25  # seconds: edits of one channel's table within this window become one
# Computer players moving one after another, each within BOT_RUN_GAP seconds of the change before
# (RUMMY_BOT_DELAY under it), are a run: the table is edited once at its end, when a person is to
# act or the deal ends, and at least every BOT_RUN_MAX seconds while it lasts. With a longer pause
# (the default 2 s) each computer player's move is shown, so people can follow it.
BOT_RUN_GAP = 0.5
BOT_RUN_MAX = 5.0
SEATING = (ChangeKind.JOIN, ChangeKind.LEAVE)  # the lobby message shows these; nothing else to say
TABLED = (GameStatus.PLAYING, GameStatus.FINISHED)  # the statuses that have a table to show
# The changes after which an ended deal gets its end-of-deal message: a move (or a computer
# player's), a timeout, a closed window, or a resignation (between deals too: the message comes
# again with a Next deal button of the new version).
UNKNOWN_CHANNEL = 10003  # Discord's JSON error code: the channel (or thread) no longer exists
NO_ACCESS = (50001, 50013)  # Missing Access, Missing Permissions
DEAL_ENDING = (ChangeKind.MOVE, ChangeKind.TIMEOUT, ChangeKind.WINDOW, ChangeKind.RESIGN, ChangeKind.BOT)


def has_deal_result(game: Game) -> bool:
    """Whether the deal that ended has a result to show. A game ended by resignations (a player's,
    three timeouts', a manager's kick) before its deal was scored has none: its end is the final
    message alone, and the table shows the position as it stands."""
    return game.public_view().result is not None


def bots_play_on(row: GameRow, game: Game) -> bool:
    """Whether a computer player is to move next, within ``BOT_RUN_GAP`` seconds (its pause)."""
    return (not game.hand_over and row.turn_deadline is not None and row.turn_deadline - time.time() < BOT_RUN_GAP
            and bool(bot_actors(row, game)))


def outcome_of(exc: BaseException) -> Outcome:
    """A failed post as the service hears of it: the channel gone, access refused, or a passing
    error that says nothing of the channel."""
    if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
        return Outcome.GONE
    if isinstance(exc, discord.Forbidden) and exc.code in NO_ACCESS:
        return Outcome.NO_ACCESS
    return Outcome.FAILED


def draw_replay(row: GameRow, deal: int) -> Rendered:
    """A deal's replay: its steps from the service (the engine re-plays the record), drawn by the renderer."""
    return render_replay(replay_steps(row, deal), locale=row.locale, names=row.names)


class Announcer:
    """Posts and edits a client's public game messages."""

    def __init__(self, client: discord.Client, service: GameService, delivery: Delivery | None = None) -> None:
        self.client = client  # read only to know the bot's own messages (``count_message``)
        self.activity = False  # the bot serves the Activity (RUMMY_ACTIVITY_PORT): Open the table is offered
        # Told the id of every game whose committed change is announced, before Discord hears of it
        # (the Activity's pages of this process: docs/activity.md, "Changes reach every page").
        self.watchers: list[Callable[[int], None]] = []
        self.service = service
        self.delivery: Delivery = delivery or ChannelDelivery(client)
        self.renders = Renders()
        self._dirty: dict[int, int] = {}
        self._bot_run: set[int] = set()  # channels whose computer players are moving in a run
        # Turn messages deleted lately: a person's move and the computer player's after it are
        # announced at the same moment, and both would delete the same last call.
        self._deleted: deque[int] = deque(maxlen=256)
        self._refreshers: dict[int, asyncio.Task[None]] = {}
        self._under_table: dict[int, int] = {}

    async def render(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A picture a player waits for, off the event loop in a render slot (``cogs.render_pool``)."""
        return await self.renders.render(fn, *args, **kwargs)

    async def replay_picture(self, row: GameRow, deal: int, stamp: int) -> Rendered:
        """The replay of a finished deal of ``row``: drawn once, in the replay slot, then cached
        (``stamp``: the game's version while the deal is its last one, else 0; ``cogs.render_pool``)."""
        return await self.renders.replay((row.id, deal, stamp), draw_replay, row, deal)

    # ------------------------------------------------------------------ committed changes
    async def announce(self, change: Change) -> None:
        """Say on Discord what a committed change did. Discord errors are logged, never undone.
        What became of it is reported to the service, which records the end of a game or a
        quarantine notice once said; what a crash left unposted is posted on the next start
        (``GameService.endings.owed_announcements``)."""
        row = change.game
        for watch in self.watchers:
            watch(row.id)
        outcome = Outcome.OK
        try:
            await self._announce(change)
        except (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError) as exc:
            # The move is committed; the next refresh (or /rummy table) shows it.
            log.warning("announcing %s of game %s failed: %r", change.kind, row.id, exc)
            outcome = outcome_of(exc)
        if await self.service.endings.delivered(change, outcome):
            self._given_up(row.place)
        try:  # each seated person's live hand shows the change too (issue 36)
            await refresh_hands(self.client, change)
        except Exception:
            log.exception("refreshing the hands of game %s failed", row.id)

    # ------------------------------------------------------------------ channels out of reach
    async def unreachable(self, channel_id: int, exc: discord.HTTPException) -> None:
        """A post in this channel failed: the service hears why, and may give the channel up
        (issue 15, hole 2), when nothing more is to be posted there."""
        if await self.service.endings.delivery_failed(channel_id, outcome_of(exc)):
            self._given_up(channel_id)

    def _given_up(self, channel_id: int) -> None:
        """The service gave this channel up: no table edit is waited for there any more."""
        self._dirty.pop(channel_id, None)
        self._bot_run.discard(channel_id)

    async def _announce(self, change: Change) -> None:
        row = change.game
        loc = row.locale
        if change.kind in SEATING or change.kind == ChangeKind.ABANDON:  # nothing more is posted there
            return
        if change.kind == ChangeKind.QUARANTINE:  # the record would not load: said once, in its channel
            await self.delivery.post(row.place, translate("game.quarantined", loc, game=row.id))
            return
        if change.kind in (ChangeKind.IDLE_WARNING, ChangeKind.IDLE):
            await self._idle(change)
            return
        if change.kind == ChangeKind.RESUME:
            # After a restart: the table is posted afresh with a note. The old one stays: its
            # buttons still answer (My hand always; a turn button there says it is out of date).
            await self.post_table(row.id, repost=True, note=translate("table.restarted", loc))
            return
        if change.kind in CLOSING:
            if change.kind == ChangeKind.EXPIRE and row.lobby_message_id:
                content, _ = lobby_message(row, loc, closed=translate("lobby.expired", loc))
                image = await self.lobby_picture(row)
                await self._edit(row.channel_id, row.lobby_message_id, content=content, view=None, image=image)
            await self._delete_turn_message(row)
            if row.table_message_id:
                await self._edit(row.place, row.table_message_id, content=translate("game.cancelled", loc),
                                 view=None)
            return
        game = change.engine or self.service.core.engine(row)
        if change.kind == ChangeKind.REMIND:
            seat = row.by_seat(change.seat or "")
            if seat is not None:
                await self._post_turn(row, seat.user_id, translate("turn.reminder", loc, user=f"<@{seat.user_id}>")
                                      + clock_text(row, game, loc))
            return
        if change.kind == ChangeKind.START:
            await self.post_table(row.id, repost=True)
        else:
            self.request_table(row, bot_run=bots_play_on(row, game))
        if change.kind == ChangeKind.TIMEOUT:
            await self._timed_out(row, change)
        if change.deal_over and change.kind in DEAL_ENDING and has_deal_result(game):
            try:
                await self._post_deal_end(row, game)
            except Exception:  # the game's end below is posted all the same (issue 15, hole 7)
                log.exception("posting the end of a deal of game %s failed", row.id)
        if change.game_over:
            await self._delete_turn_message(row)
            results = await self.service.reading.results(row.id)
            content, view = final_message(row, game, results, loc)
            await self.delivery.post(row.place, content, view=view)
            if row.thread_id:  # the channel the game was started in hears how it ended, and where
                await self._result_line(row, results)
            return
        if change.turn_changed and not game.hand_over:
            await self._announce_turn(row, game)

    async def _idle(self, change: Change) -> None:
        """A game with no turn timer nobody moves in: the warning with when it ends, or its end
        (the table keeps the position as it stood, without buttons)."""
        row, loc = change.game, change.game.locale
        days = format_number(self.service.core.idle_seconds / 86400, loc)
        if change.kind == ChangeKind.IDLE_WARNING:
            ends = row.updated_at + self.service.core.idle_seconds
            await self.delivery.post(row.place, translate("game.idle_warning", loc, days=days,
                                                          when=f"<t:{int(ends)}:R>"))
            return
        await self._delete_turn_message(row)
        if row.table_message_id:
            await self._edit(row.place, row.table_message_id, view=None)
        await self.delivery.post(row.place, translate("game.idle_ended", loc, days=days))

    async def _timed_out(self, row: GameRow, change: Change) -> None:
        """Who ran out of time, from the engine's events; the third timeout in a row also resigned
        the seat (the service adds that resignation to the same change)."""
        out = {e.seat for e in change.events if e.kind == EventKind.RESIGNED}
        for event in change.events:
            seat = row.by_seat(event.seat or "") if event.kind == EventKind.TIMED_OUT else None
            if seat is not None:
                key = "turn.resigned_timeouts" if seat.seat in out else "turn.timed_out"
                await self.delivery.post(row.place, translate(key, row.locale, name=nm(seat.name)), news=True)

    async def _announce_turn(self, row: GameRow, game: Game) -> None:
        loc = row.locale
        actors = list(game.actors)
        if not actors:
            return
        users = [s.user_id for a in actors if (s := row.by_seat(a)) is not None and not s.is_bot]
        if not users:  # only computer players to act: nobody to call, and the last call is over
            await self._delete_turn_message(row)
            return
        if game.phase == Phase.WINDOW:
            text = translate("turn.window", loc, users=" ".join(f"<@{u}>" for u in users))
        else:
            text = translate("turn.yours", loc, user=f"<@{users[0]}>", variant=variant_name(row.variant, loc))
        await self._post_turn(row, users, text + clock_text(row, game, loc))

    async def _post_turn(self, row: GameRow, users: int | list[int], text: str) -> None:
        """A new short message that mentions whose turn it is (an edit would not notify); the
        previous one is deleted. Only these users can be pinged, never roles or everyone."""
        message_id = await self.delivery.post(row.place, text, ping=[users] if isinstance(users, int) else users,
                                              news=True)
        old = row.turn_message_id
        await self.service.games.set_messages(row.id, turn_message_id=message_id)
        if old:
            await self._delete_once(row.place, old)

    async def _delete_turn_message(self, row: GameRow) -> None:
        if row.turn_message_id:
            await self._delete_once(row.place, row.turn_message_id)
            await self.service.games.set_messages(row.id, turn_message_id=None)

    async def _delete_once(self, place: int, message_id: int) -> None:
        if message_id in self._deleted:
            return
        self._deleted.append(message_id)
        with contextlib.suppress(discord.HTTPException):
            await self.delivery.delete(place, message_id)

    async def _post_deal_end(self, row: GameRow, game: Game) -> None:
        # The picture itemises every seat's points (the engine's ledger), so the ledger is seen
        # wherever the bot may attach files, which it checks before a game starts (``cogs.base``).
        image = await self.render(render_result, game.public_view(), locale=row.locale, names=row.names,
                                  ledger=game.ledger, final_scores=game.final_scores)
        content, view = deal_end_message(row, game, row.locale, self.service.core.deal_pause)
        parts: Parts = {"image": image, "view": view}
        # Rami and Tradicional: the same lines as text, for screen readers and search, where the
        # bot may embed links; without Embed Links Discord drops the embed and the picture remains.
        embed = ledger_embed(row, game, row.locale)
        if embed is not None:
            parts["embed"] = embed
        await self.delivery.post(row.place, content, **parts)

    # ------------------------------------------------------------------ the public table
    def request_table(self, row: GameRow, *, bot_run: bool = False) -> None:
        """Coalesce: several changes within ``COALESCE`` seconds become one edit of the table, and
        a run of computer players' moves (``bot_run``: a computer player moves next, at once) one
        edit at its end."""
        self._dirty[row.place] = row.id
        if bot_run:
            self._bot_run.add(row.place)
        else:
            self._bot_run.discard(row.place)
        task = self._refreshers.get(row.place)
        if task is None or task.done():
            self._refreshers[row.place] = asyncio.create_task(self._refresh(row.place))

    async def _refresh(self, channel_id: int) -> None:
        await asyncio.sleep(COALESCE)
        while channel_id in self._dirty:
            held = COALESCE
            while channel_id in self._bot_run and held < BOT_RUN_MAX:
                await asyncio.sleep(COALESCE)
                held += COALESCE
            if channel_id not in self._dirty:  # the channel went out of reach meanwhile
                break
            game_id = self._dirty.pop(channel_id)
            try:
                await self.post_table(game_id)
            except discord.HTTPException as exc:
                log.warning("refreshing the table of game %s failed: %r", game_id, exc)
                await self.unreachable(channel_id, exc)
            except Exception:
                log.exception("refreshing the table of game %s failed", game_id)

    async def post_table(self, game_id: int, *, repost: bool = False, note: str | None = None) -> None:
        """Edit the table message in place, or post it afresh when asked, when it is old (Discord
        caps edits of old messages) or buried under other messages; an edit that fails re-posts once."""
        row = await self.service.core.get(game_id)
        if row is None or row.status not in TABLED or not row.record:
            return
        game = self.service.core.engine(row)
        image = await self.render(render_table, game.public_view(), locale=row.locale, names=row.names,
                                  recent=since_last_turn(game))  # this deal's moves since the acting seat's last turn
        content, view = table_message(row, game, row.locale, note=note, activity=self.activity)
        fresh = (row.table_message_id and row.table_posted_at and time.time() - row.table_posted_at < TABLE_MAX_AGE
                 and self._under_table.get(row.place, 0) < BURIED_AFTER)
        # Its maker's token gone, a player's living token posts it anew, for free (issue 37).
        # (A game's first table in its new thread is the bot's: no token lives there yet.)
        renewed = bool(not repost and fresh and row.table_message_id
                       and await self.delivery.renews(row.place, row.table_message_id))
        if not repost and fresh and row.table_message_id and not renewed:
            try:
                await self.delivery.edit(row.place, row.table_message_id, content=content, image=image, view=view)
                self.service.endings.channel_reached(row.place)
                return
            except discord.HTTPException:
                log.info("table message of game %s could not be edited; posting it again", game_id)
        # The old table is left as it is, not edited (it may be past the edit cap) nor deleted:
        # its buttons keep answering, a turn button there says "out of date".
        message_id = await self.delivery.post(row.place, content, image=image, view=view, news=True)
        self.service.endings.channel_reached(row.place)
        self._under_table[row.place] = 0
        await self.service.games.set_messages(row.id, table_message_id=message_id, table_posted_at=time.time())
        if renewed and row.table_message_id:  # the same table, one message: the old one goes
            await self._delete_once(row.place, row.table_message_id)

    async def count_message(self, message: discord.Message) -> None:
        """The ``on_message`` listener: one more message under the table of that channel."""
        if message.author.id != getattr(self.client.user, "id", None):
            self._under_table[message.channel.id] = self._under_table.get(message.channel.id, 0) + 1

    async def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for the pending table edits; the number still unfinished."""
        self._bot_run.clear()  # no run is waited for: the tables are edited now
        pending = [t for t in self._refreshers.values() if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=max(0.0, timeout))
        return sum(not t.done() for t in self._refreshers.values())

    # ------------------------------------------------------------------ lobbies, seasons, notices
    async def lobby_picture(self, row: GameRow) -> Rendered:
        return await self.render(render_lobby, lobby_info(row), locale=row.locale)

    async def post_lobby(self, row: GameRow) -> str | None:
        """A new lobby (a rematch) posted in its channel, its message id remembered, and (a game to
        be played in a thread of its own, issue 12) its thread made from the lobby message. Returns
        None, or the key of the sentence that says the game is played in the channel itself after
        all (Discord refused the thread; then, as before threads, one game per channel: a second
        one there is ``Refusal("channel_busy")``)."""
        bots = (await self.service.settings.server_config(row.guild_id)).bots
        content, view = lobby_message(row, row.locale, bots=bots, activity=self.activity)
        image = await self.lobby_picture(row)
        # The rematch's invitations ping the invited, and nobody else (issue 15 hole 3).
        message_id = await self.delivery.post(row.channel_id, content, view=view, image=image,
                                              ping=[s.user_id for s in row.invited])
        await self.service.games.set_messages(row.id, lobby_message_id=message_id)
        if row.thread_id != 0:
            return None
        name = translate("thread.name", row.locale, variant=variant_name(row.variant, row.locale), game=row.id)
        try:
            thread_id = await self.delivery.start_thread(row.channel_id, message_id, name, guild_id=row.guild_id)
        except (discord.HTTPException, ValueError) as exc:
            log.info("no thread for game %s (%r): it is played in its channel", row.id, exc)
            try:
                await self.service.threads.set_thread(row.id, None)
            except Refusal:  # the channel has its one game already: this lobby goes (the cog cancels it)
                with contextlib.suppress(discord.HTTPException):
                    await self.delivery.delete(row.channel_id, message_id)
                raise
            return "thread.failed"
        await self.service.threads.set_thread(row.id, thread_id)
        return None

    async def archive_thread(self, row: GameRow) -> None:
        """Archive the thread of a game that ended a while ago (the clock: ``threads_to_archive``).
        A thread gone, or out of reach, is left alone from then on; Discord's passing errors
        (5xx, rate limits) leave it for the next pass."""
        if not row.thread_id:
            return
        try:
            await self.delivery.archive_thread(row.thread_id)
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                log.warning("archiving the thread of game %s failed for now: %r", row.id, exc)
                return
            log.info("the thread of game %s was not archived: %r", row.id, exc)
        await self.service.threads.thread_archived(row.id)

    async def _result_line(self, row: GameRow, results: list[ResultRow]) -> None:
        """The end of a game played in its own thread, said in the channel it was started in: who
        won, everybody's place and score, and a link to the thread (where the final message, with
        its Rematch button, is)."""
        loc = row.locale
        names = {s.user_id: s.name for s in row.seats}
        winners = ", ".join(nm(names.get(r.user_id, "?")) for r in results if r.place == 1)
        text = translate("thread.result" if winners else "thread.ended", loc, variant=variant_name(row.variant, loc),
                         game=row.id, winners=winners, thread=f"<#{row.thread_id}>")
        text = "\n".join([text, *final_places(row, results, loc)])[:2000]
        try:
            await self.delivery.post(row.channel_id, text)  # it pings nobody
        except discord.HTTPException as exc:  # the final message is in the thread: that is what counts
            log.warning("the result line of game %s was not posted: %r", row.id, exc)

    async def update_lobby_message(self, row: GameRow, content: str | None = None,
                                   view: discord.ui.View | None = None, image: Rendered | None = None) -> None:
        """Edit the public lobby message in place (after a change made from elsewhere)."""
        if not row.lobby_message_id:
            return
        if content is None:
            bots = (await self.service.settings.server_config(row.guild_id)).bots
            content, view = lobby_message(row, row.locale, bots=bots, activity=self.activity)
            image = await self.lobby_picture(row)
        assert image is not None
        await self._edit(row.channel_id, row.lobby_message_id, content=content, view=view, image=image)

    async def announce_season(self, channel_id: int, guild_id: int, ending: int, number: int, locale: str) -> None:
        """The closing standings of the season that ended, for everybody, in the server's language."""
        view = await self.service.history.season_view(guild_id, ending)  # as stored when it closed
        old, table, games = view.season, view.table, view.games
        text = translate("season.announce", locale, number=number, ended=ending) + "\n\n" + scores_message(
            old, table, games, locale, adjustments=view.adjustments)
        image = await self.render(render_standings, standings_info(old, table, games), locale=locale)
        await self.delivery.post(channel_id, text[:2000], image=image)

    async def send(self, channel_id: int, content: str, **parts: Unpack[Parts]) -> None:
        """A plain public notice in a channel (e.g. a manager voided a game played there)."""
        await self.delivery.post(channel_id, content, **parts)

    # ------------------------------------------------------------------ small helpers
    async def _edit(self, channel_id: int, message_id: int, **parts: Unpack[Edit]) -> None:
        """Edit a message we posted; a message deleted meanwhile is no error (its game goes on)."""
        try:
            await self.delivery.edit(channel_id, message_id, **parts)
        except discord.HTTPException as exc:
            await self.unreachable(channel_id, exc)
