"""Lobbies, kicks and resignations: the changes people ask for around a game, one game at a time.

What it is: ``Games`` (``service.games``): opening, joining, leaving and cancelling lobbies,
computer players, starting, a rematch, resigning, a manager's kick, and the message ids the
Discord layer keeps for a game. Each change to a game runs under that game's lock, is checked (who
may do it), applied and committed before it is announced. It keeps no state of its own; the moves
it makes (a resignation, a kick in a game) are ``acting``'s.
What it is not: no moves and their checks (``bot.service.acting``: ``act``, ``play``, the next
deal), no timers (``bot.service.clock``), no seasons or history (``records``), no rules (the
engine decides what is legal), no Discord.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from bot.engine import PLAYERS, new_game
from bot.robot import LEVELS
from bot.store import Store, Transaction, repo
from bot.store import threads as store_threads
from bot.store.rows import ACTIVE, ENDED, ActionKind, AuditAction, GameRow, GameStatus
from bot.words.i18n import translate

from .acting import RESIGN, Acting
from .changes import Change, ChangeKind, Refusal
from .core import Core
from .options import clean_name, lobby_options, split_options
from .settings import check_bots, check_host, check_player, config_of

# What ``set_messages`` may write: the ids of the messages that show a game, never the game itself.
MESSAGE_COLUMNS = frozenset({"lobby_message_id", "table_message_id", "turn_message_id", "table_posted_at"})
__all__ = ["MESSAGE_COLUMNS", "Games"]


class Games:
    """Lobbies, kicks and message ids; a move (a resignation, the host's cancel of a game under
    way, a manager's kick) is played through ``acting``."""

    def __init__(self, core: Core, acting: Acting) -> None:
        self.core = core
        self.acting = acting

    # ------------------------------------------------------------------ lobbies
    async def check_lobby(
        self, *, guild_id: int, channel_id: int, host_id: int, variant: str, options: str = "",
        timer_minutes: float = 5, threaded: bool = False,
    ) -> None:
        """Refuse a lobby before anything is written (the cog answers privately, then acknowledges).
        ``threaded``: the game will have a thread of its own, so the channel may hold others;
        else it is played in the channel (or thread) itself, one game there at a time."""
        lobby_options(variant, options, timer_minutes)
        if not threaded:
            db = self.core.db
            thread_game = await store_threads.game_in_thread(db, channel_id)  # typed in a game's thread
            in_thread = thread_game is not None and thread_game.status in ACTIVE
            if await repo.active_in_channel(db, channel_id) is not None or in_thread:
                raise Refusal("channel_busy")
        await _one_lobby_per_host(self.core.db, guild_id, host_id)
        await self.core.check_caps_early(self.core.db, host_id, guild_id)

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, host_id: int, host_name: str, variant: str, options: str = "",
        timer_minutes: float = 5, locale: str = "es", rematch_of: int | None = None, threaded: bool = False,
    ) -> Change:
        """A new lobby; ``threaded``: its thread is to be made from the lobby message (``thread_id``
        0 until ``set_thread`` says where it is played)."""
        options_text = lobby_options(variant, options, timer_minutes)
        now = self.core.now()
        # A duplicate is the one-active-game-per-channel index: another lobby got there first.
        async with self.core.transaction(duplicate="channel_busy") as tx:
            await tx.lock_name(f"lobby-host:{guild_id}:{host_id}")  # other processes' /new wait here
            await _one_lobby_per_host(tx, guild_id, host_id)  # again inside the write: two /new at once
            check_host(await config_of(tx, guild_id), host_id, variant)  # a barred host, a closed variant
            await self.core.check_caps(tx, host_id, guild_id)
            game_id = await repo.insert_game(
                tx, guild_id=guild_id, channel_id=channel_id, host_id=host_id, variant=variant,
                options=options_text, timer_minutes=timer_minutes, locale=locale, status=GameStatus.LOBBY,
                version=1, created_at=now, updated_at=now, lobby_expires_at=now + self.core.lobby_ttl,
                rematch_of=rematch_of, thread_id=0 if threaded else None,
            )
            await repo.insert_seat(tx, game_id, 0, host_id, "p1", clean_name(host_name))
            await repo.log_action(tx, game_id, 1, host_id, ActionKind.NEW, variant, None, now)
        row = await self.core.get(game_id)
        assert row is not None
        return Change(ChangeKind.LOBBY, row)

    async def hosted_lobby(self, place: int | None, user_id: int, game_id: int) -> GameRow:
        """The open lobby ``game_id`` of ``place`` when ``user_id`` hosts it (its options form,
        its Remove a player list); else the refusal they read. Nothing is written."""
        row = await self.acting.game_at(place, game_id)
        _hosts_lobby(row, user_id)
        return row

    async def join(self, game_id: int, user_id: int, name: str, *, robot_level: str | None = None) -> Change:
        """Take a seat in a lobby (``robot_level``: a rematch seats its computer players again)."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            if row.status != GameStatus.LOBBY:
                raise Refusal("not_a_lobby")
            if row.seat_of(user_id):
                raise Refusal("already_seated")
            _room_for_one_more(row)
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                if user_id > 0:  # a person (computer players have negative ids): not one the server barred
                    check_player(await config_of(tx, row.guild_id), user_id)
                await self.core.check_caps(tx, user_id)
                n = len(row.seats)
                await repo.insert_seat(tx, game_id, n, user_id, f"p{n + 1}", clean_name(name), robot_level)
                version = await repo.bump(tx, row, now)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.JOIN, None, None, now)
            return Change(ChangeKind.JOIN, await self.core.row(game_id))

    async def leave(self, game_id: int, user_id: int, *, kicked_by: int | None = None,
                    by_host: int | None = None) -> Change:
        """Leave a lobby; ``kicked_by``: a server manager removed ``user_id`` (audited);
        ``by_host``: the lobby's host removed them (checked here, under the lock: the host is the
        one stored now, and never removes themselves: leaving hands the lobby on, cancelling ends it)."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            if by_host is not None:
                _hosts_lobby(row, by_host)
                if user_id == by_host:
                    raise Refusal("remove_self")
            if row.status != GameStatus.LOBBY:
                raise Refusal("not_a_lobby")
            if not row.seat_of(user_id):
                raise Refusal("not_seated_other" if by_host is not None else "not_seated")
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                await repo.delete_seat(tx, game_id, user_id)
                await repo.renumber_seats(tx, game_id)
                people = [s for s in row.seats if s.user_id != user_id and not s.is_bot]
                values: dict[str, Any] = {}
                if not people:
                    values["status"] = GameStatus.CANCELLED  # computer players alone do not keep a lobby
                elif user_id == row.host_id:
                    values["host_id"] = people[0].user_id  # the next seated person hosts
                version = await repo.bump(tx, row, now, **values)
                # A removal is logged as the removed player's leaving, with who removed them.
                await repo.log_action(tx, game_id, version, user_id, ActionKind.LEAVE,
                                      None if by_host is None else f"by {by_host}", None, now)
                if kicked_by is not None:
                    await repo.add_audit(tx, row.guild_id, kicked_by, AuditAction.KICK, now, game_id=game_id,
                                         detail=str(user_id))
            return Change(ChangeKind.LEAVE, await self.core.row(game_id))

    async def remove_player(self, game_id: int, host_id: int, user_id: int) -> Change:
        """The host of an open lobby takes ``user_id`` (a person or a computer player) out of it."""
        return await self.leave(game_id, user_id, by_host=host_id)

    async def add_bot(self, game_id: int, user_id: int, *, level: str = "normal") -> Change:
        """The host seats a computer player (``bot.robot``) of strength ``level`` (easy, normal,
        strong); its name says the level in the server's language. Games with one are not rated."""
        if level not in LEVELS:
            raise Refusal("bad_level")
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            _hosts_lobby(row, user_id)
            _room_for_one_more(row)
            bots = [s for s in row.seats if s.is_bot]
            bot_id = min([s.user_id for s in bots], default=0) - 1
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                check_bots(await config_of(tx, row.guild_id))  # the server turned computer players off
                n = len(row.seats)
                name = f"🤖 Bot {-bot_id} ({translate(f'robot.level.{level}', row.locale)})"
                await repo.insert_seat(tx, game_id, n, bot_id, f"p{n + 1}", name, level)
                version = await repo.bump(tx, row, now)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.BOT, str(bot_id), None, now)
            return Change(ChangeKind.JOIN, await self.core.row(game_id))

    async def set_hints(self, game_id: int, user_id: int, *, off: bool) -> Change:
        """The host turns the lobby's hints off (or on again). Hints are only ever given in unrated
        games (``bot.service.hints``); this is the host's say over an unrated one."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            _hosts_lobby(row, user_id)
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, hints_off=int(off))
                await repo.log_action(tx, game_id, version, user_id, ActionKind.HINTS, "off" if off else "on",
                                      None, now)
            return Change(ChangeKind.JOIN, await self.core.row(game_id))

    async def set_options(self, game_id: int, user_id: int, options: str) -> Change:
        """The host changes an open lobby's options (checked as ``/rummy new``'s are; a refusal
        changes nothing). Those who already sat down see the lobby change before the start."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            _hosts_lobby(row, user_id)
            text = lobby_options(row.variant, options, row.timer_minutes)
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, options=text)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.OPTIONS, text, None, now)
            return Change(ChangeKind.JOIN, await self.core.row(game_id))

    async def set_practice(self, game_id: int, user_id: int, *, on: bool) -> Change:
        """The host makes the lobby a practice game (never rated, hints on: ``bot.service.hints``) or a
        normal one again. Turning practice on turns hints back on too: they are what practice is for."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            _hosts_lobby(row, user_id)
            now = self.core.now()
            values = {"practice": int(on), **({"hints_off": 0} if on else {})}
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, **values)
                await repo.log_action(tx, game_id, version, user_id, ActionKind.PRACTICE, "on" if on else "off",
                                      None, now)
            return Change(ChangeKind.JOIN, await self.core.row(game_id))

    async def remove_bot(self, game_id: int, user_id: int) -> Change:
        """The host takes the last computer player out of the lobby."""
        row = await self.core.row(game_id)
        if user_id != row.host_id:
            raise Refusal("host_only")
        bots = [s for s in row.seats if s.is_bot]
        if not bots:
            raise Refusal("no_bot")
        return await self.leave(game_id, bots[-1].user_id)

    async def cancel(self, game_id: int, user_id: int, *, is_admin: bool = False) -> Change:
        """Cancel a lobby or a game, unscored: the host, or a server manager (audited when it is
        not their own game). Issue 15 hole 3: once a rated game is under way (two seats have moved),
        cancelling is a manager's power only (audited, the host's too): the host's own cancel is
        then their resignation (a ``RESIGN`` change), so a losing host cannot wipe the game out."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            if row.status not in ACTIVE:
                raise Refusal("nothing_to_cancel")
            if user_id != row.host_id and not is_admin:
                raise Refusal("host_only")
            under_way = await self._under_way(row)
            if not under_way or is_admin:
                now = self.core.now()
                async with self.core.transaction(row) as tx:
                    version = await repo.bump(tx, row, now, status=GameStatus.CANCELLED, turn_deadline=None,
                                              window_deadline=None, next_deal_at=None, finished_at=now)
                    await repo.log_action(tx, game_id, version, user_id, ActionKind.CANCEL, None, None, now)
                    if user_id != row.host_id or under_way:  # a manager used their power over a game
                        await repo.add_audit(tx, row.guild_id, user_id, AuditAction.CANCEL, now, game_id=game_id)
                self.core.cache.pop(game_id, None)
                return Change(ChangeKind.CANCEL, await self.core.row(game_id))
            seat = row.seat_of(user_id)
            if seat is None or seat.resigned:
                raise Refusal("cancel_under_way")  # already out of it: the others play on
        # The host resigns (out of the lock: ``play`` takes it; a resignation is legal at any time).
        return await self.acting.play(game_id, user_id, RESIGN)

    async def _under_way(self, row: GameRow) -> bool:
        """A rated game (no computer player, not practice) in which two seats have made a move."""
        if row.status != GameStatus.PLAYING or row.practice or any(s.is_bot for s in row.seats):
            return False
        return len(await repo.movers(self.core.db, row.id) & {s.user_id for s in row.seats}) >= 2

    async def start(self, game_id: int, user_id: int, *, seed: str | None = None) -> Change:
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            _hosts_lobby(row, user_id)
            lo, hi = PLAYERS[row.variant]
            if not lo <= len(row.seats) <= hi:
                raise Refusal("player_count", min=lo, max=hi, count=len(row.seats))
            engine_text, _ = split_options(row.options)
            game = new_game(row.variant, [s.seat for s in row.seats], seed=seed or secrets.token_hex(8),
                            options=engine_text)
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                version = await repo.bump(tx, row, now, status=GameStatus.PLAYING, record=game.record(),
                                          lobby_expires_at=None, **self.core.deadlines(row, None, game, now))
                await repo.log_action(tx, game_id, version, user_id, ActionKind.START, None, None, now)
            self.core.cache[game_id] = (version, game)
            return Change(ChangeKind.START, await self.core.row(game_id), game, turn_changed=True)

    async def rematch(self, game_id: int, user_id: int, user_name: str) -> Change:
        """A new lobby in the same channel with the same options, hosted by the presser (a
        ``LOBBY`` change). Issue 15 hole 3: the previous game's people are invited, not seated;
        each takes their seat by pressing Join (or Rematch: a ``JOIN`` change into the rematch
        already open), and Start counts only those seats. Computer players are seated again."""
        row = await self.core.row(game_id)
        if row.status not in ENDED:
            raise Refusal("not_finished")
        if not row.seat_of(user_id):
            raise Refusal("not_seated")
        current = await store_threads.open_rematch(self.core.db, game_id)
        if current is not None:
            return await self.join(current.id, user_id, user_name)
        # A game that had a thread of its own: its rematch gets one too (made from its lobby).
        change = await self.open_lobby(
            guild_id=row.guild_id, channel_id=row.channel_id, host_id=user_id, host_name=user_name,
            variant=row.variant, options=row.options, timer_minutes=row.timer_minutes, locale=row.locale,
            rematch_of=game_id, threaded=row.thread_id is not None,
        )
        new_id = change.game.id
        bots_allowed = (await config_of(self.core.db, row.guild_id)).bots
        if row.practice:  # a rematch of a practice game is practice too
            await self.set_practice(new_id, user_id, on=True)
        for s in row.seats:
            if s.is_bot and bots_allowed:
                with contextlib.suppress(Refusal):
                    await self.join(new_id, s.user_id, s.name, robot_level=s.robot_level)
        return Change(ChangeKind.LOBBY, await self.core.row(new_id))

    # ------------------------------------------------------------------ resigning (the moves: ``acting``)
    async def resign(self, game_id: int, user_id: int) -> Change:
        return await self.acting.play(game_id, user_id, RESIGN)

    async def kick(self, game_id: int, manager_id: int, user_id: int) -> Change:
        """A server manager takes ``user_id`` out of a lobby, or resigns their seat in a game."""
        row = await self.core.row(game_id)
        if row.seat_of(user_id) is None:
            raise Refusal("not_seated_other")
        if row.status == GameStatus.LOBBY:
            if user_id == row.host_id:
                raise Refusal("kick_host")  # cancelling says what it does; a kick would hand the lobby on
            return await self.leave(game_id, user_id, kicked_by=manager_id)
        return await self.acting.play(game_id, user_id, RESIGN, kicked_by=manager_id)

    # ------------------------------------------------------------------ messages we keep track of
    async def set_messages(self, game_id: int, **ids: int | float | None) -> None:
        """Remember the ids of the table / turn / lobby messages and when the table was posted
        (``MESSAGE_COLUMNS``; views only: no version bump). Anything else is a ``TypeError``."""
        unknown = set(ids) - MESSAGE_COLUMNS
        if unknown:
            raise TypeError(f"set_messages sets only {sorted(MESSAGE_COLUMNS)}, not {sorted(unknown)}")
        async with self.core.transaction() as tx:
            await repo.update_game(tx, game_id, **ids)


async def _one_lobby_per_host(tx: Transaction | Store, guild_id: int, host_id: int) -> None:
    # One open lobby per host and server (reliability.md R20): lobbies cannot be spammed over channels.
    channel = await repo.lobby_hosted_by(tx, guild_id, host_id)
    if channel is not None:
        raise Refusal("host_has_lobby", channel=f"<#{channel}>")


def _hosts_lobby(row: GameRow, user_id: int) -> None:
    """Only an open lobby's host may start it or seat a computer player."""
    if row.status != GameStatus.LOBBY:
        raise Refusal("not_a_lobby")
    if user_id != row.host_id:
        raise Refusal("host_only")


def _room_for_one_more(row: GameRow) -> None:
    hi = PLAYERS[row.variant][1]
    if len(row.seats) >= hi:
        raise Refusal("lobby_full", max=hi)
