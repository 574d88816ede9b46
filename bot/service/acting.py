"""One way to act on a game (issue 35): the place, the status, the seat and the version are checked
once, in one place, and then the move is played.

What it is: ``Acting``, the part of ``GameService`` (``service.acting``) every handler that acts on
a game goes through; it keeps no state of its own (the game's lock, row and engine are the
core's). ``act`` checks and plays one move; ``next_deal_at`` deals the next deal for a seated
player; ``seat_at`` is the same check for a handler that only shows something (a hand, its sort
and selection, a hint) and ``seat_in`` the same on a row the caller already loaded (a move's
suggestions); ``game_at`` and ``ended_game_at`` find a lobby or game of a place at all. ``play``
and ``next_deal`` are the inner paths, for callers that act from inside for a seat they know (the
clock's kicks, tournaments, ``cancel``, the tests): the same checks without the place. The checks
themselves are ``being_played``, ``player_seat`` (the status, the seat) and ``same_version``, and
nothing else checks a seat or a version: the drafts (``bot.service.drafts``) use them too.

A game of another place is answered as if it did not exist (``Refusal("no_game")``): a custom_id
carries a game id that anyone can write. ``place`` is what ``cogs.anywhere.place_key`` says: the
server's id, or minus the channel's where the bot is not a member (docs/anywhere.md).
What it is not: no Discord, no rules (the engine judges the move: ``Game.play``), no lobbies
(``bot.service.games``).
"""

from __future__ import annotations

from bot.engine import IllegalMove, Move, Verb
from bot.store import repo
from bot.store.rows import AuditAction, GameRow, GameStatus, SeatRow

from .changes import Change, ChangeKind, Refusal, Seated, Stale
from .core import Core, played

RESIGN = Move(Verb.RESIGN)  # notation.md "Resigning": played out of turn too, and by a manager's kick
# Games that can end with a record, which ``/rummy replay`` and ``/rummy record`` look back at.
LOOKED_BACK = (GameStatus.FINISHED, GameStatus.CANCELLED, GameStatus.ABANDONED)


def being_played(row: GameRow) -> None:
    """Moves are for a game being played: a lobby, or a game over, is ``not_playing``."""
    if row.status != GameStatus.PLAYING:
        raise Refusal("not_playing")


def player_seat(row: GameRow, user_id: int, *, seat: str | None = None) -> SeatRow:
    """The caller's seat in a game being played (``not_playing``, ``not_seated`` otherwise).
    ``seat``: the seat a private message was made for (a hint's): another one is ``not_offered``,
    since such a message reached someone else only forged."""
    being_played(row)
    found = row.seat_of(user_id)
    if found is None:
        raise Refusal("not_seated")
    if seat is not None and found.seat != seat:
        raise Refusal("not_offered")
    return found


def same_version(row: GameRow, version: int | None, stale: str | None = None) -> None:
    """A message of ``version`` (None: a command, which has no version) acts on the game only while
    that is the game's version. Else ``Stale`` (the player gets a fresh table) or, ``stale``, the
    refusal of a message that is not the table: the hand's ``hand_changed``, a hint's
    ``hint_changed``, the builder's ``builder_stale``, a long suggestion's ``stale_suggestion``."""
    if version is None or version == row.version:
        return
    raise Stale(row) if stale is None else Refusal(stale)


class Acting:
    """Acting on a game: every check once, then the move under the game's lock."""

    def __init__(self, core: Core) -> None:
        self.core = core

    # ------------------------------------------------------------------ finding the game
    async def game_at(self, place: int | None, game_id: int) -> GameRow:
        """The lobby or game ``game_id`` if it is one of ``place``; any other is ``no_game``."""
        row = await self.core.get(game_id)
        if row is None or row.guild_id != place:
            raise Refusal("no_game")
        return row

    async def ended_game_at(self, place: int | None, game_id: int) -> GameRow:
        """A game of ``place`` that is over and has a record (``LOOKED_BACK``); any other is
        ``Refusal("no_past_game")``, naming the number asked for."""
        row = await self.core.get(game_id)
        if row is None or row.guild_id != place or row.status not in LOOKED_BACK or not row.record:
            raise Refusal("no_past_game", game=game_id)
        return row

    # ------------------------------------------------------------------ the one check
    def seat_in(self, row: GameRow, user_id: int, *, version: int | None = None, stale: str | None = None,
                seat: str | None = None) -> Seated:
        """``user_id``'s seat in ``row`` (a game of the caller's place, loaded already), checked:
        being played, seated, (``seat``) the seat a message was for, (``version``) current."""
        found = player_seat(row, user_id, seat=seat)
        same_version(row, version, stale)
        return Seated(row, found)

    async def seat_at(self, place: int | None, user_id: int, game_id: int, *, version: int | None = None,
                      stale: str | None = None, seat: str | None = None) -> Seated:
        """The opener of a handler that only shows something: the game of ``place``, with
        ``user_id``'s seat, checked as ``act`` checks (``seat_in``). Nothing is written."""
        return self.seat_in(await self.game_at(place, game_id), user_id, version=version, stale=stale, seat=seat)

    async def _checked(self, row: GameRow, user_id: int, *, version: int | None = None,
                       interaction_id: int | None = None) -> SeatRow:
        """Under the game's lock: the mover's seat, checked (status, seat, then a click delivered
        twice, then the version: the second delivery of a played click is ``already_done``, not
        ``stale``)."""
        seat = player_seat(row, user_id)
        if interaction_id is not None and await repo.seen_interaction(self.core.db, interaction_id):
            raise Refusal("already_done")  # the same click delivered twice: say so, not "illegal"
        same_version(row, version)
        return seat

    # ------------------------------------------------------------------ moves
    async def act(self, place: int | None, user_id: int, game_id: int, move: Move, *,
                  version: int | None = None, interaction_id: int | None = None) -> Change:
        """The one way a player acts on a game: ``move`` for ``user_id``'s seat in game ``game_id``
        of ``place``, checked once (place, status, seat, a repeated click, ``version`` when the
        move comes from a message of one) and played."""
        async with self.core.lock(game_id):
            row = await self.game_at(place, game_id)
            return await self._play(row, user_id, move, version=version, interaction_id=interaction_id)

    async def play(
        self, game_id: int, user_id: int, move: str | Move, *, interaction_id: int | None = None,
        version: int | None = None, kicked_by: int | None = None,
    ) -> Change:
        """``act`` from inside, for a game the caller knows (no place): a ``Move`` for the seat of
        ``user_id`` (RGN text, as the tests write moves, is read as the game reads it at its door:
        ``Move.read``). ``kicked_by``: a server manager resigns ``user_id``'s seat for them
        (audited in the same transaction)."""
        async with self.core.lock(game_id):
            row = await self.core.row(game_id)
            return await self._play(row, user_id, move, version=version, interaction_id=interaction_id,
                                    kicked_by=kicked_by)

    async def _play(self, row: GameRow, user_id: int, move: str | Move, *, version: int | None,
                    interaction_id: int | None, kicked_by: int | None = None) -> Change:
        """Under the game's lock: check, apply, commit. Refusals change nothing."""
        seat = await self._checked(row, user_id, version=version, interaction_id=interaction_id)
        try:
            verb: Verb | None = move.verb if isinstance(move, Move) else Move.read(move).verb
        except IllegalMove:
            verb = None  # no move at all (an unknown verb): the engine refuses it below, after the turn
        if kicked_by is not None and verb is not Verb.RESIGN:
            raise ValueError("a manager can only resign a seat for its player")
        if verb is not None and verb.clock_only:
            raise Refusal("not_a_player_move", verb=str(verb))
        game = self.core.working_game(row)
        before = (game.current_seat, None)
        try:
            if seat.seat not in game.actors and verb is not Verb.RESIGN:
                raise Refusal("not_your_turn")
            logged = len(game.log)
            events = game.play(seat.seat, move)
        except (Refusal, IllegalMove):
            self.core.cache[row.id] = (row.version, game)  # a refused move left the game unchanged
            raise
        audit = None if kicked_by is None else (kicked_by, AuditAction.KICK, str(user_id))
        kind = ChangeKind.RESIGN if verb is Verb.RESIGN else ChangeKind.MOVE
        return await self.core.commit(row, game, kind, user_id, seat.seat, played(game, logged, move), events,
                                      interaction_id, before, reset_timeouts=True, audit=audit)

    # ------------------------------------------------------------------ the next deal
    async def next_deal_at(self, place: int | None, user_id: int, game_id: int, *,
                           version: int | None = None) -> Change:
        """A seated player deals the next deal now (the table's Next deal button, of ``version``)
        instead of waiting for the pause; checked as ``act`` checks."""
        async with self.core.lock(game_id):
            return await self._next_deal(await self.game_at(place, game_id), user_id, version)

    async def next_deal(self, game_id: int, user_id: int | None, *, version: int | None = None) -> Change:
        """``next_deal_at`` from inside (no place; ``user_id`` None: nobody asked, as a bench deals)."""
        async with self.core.lock(game_id):
            return await self._next_deal(await self.core.row(game_id), user_id, version)

    async def _next_deal(self, row: GameRow, user_id: int | None, version: int | None) -> Change:
        if user_id is None:
            being_played(row)
            same_version(row, version)
        else:
            await self._checked(row, user_id, version=version)
        game = self.core.engine(row)
        if not game.hand_over or game.game_over:
            raise Refusal("deal_not_over")
        game = self.core.working_game(row)
        events = game.next_deal()
        return await self.core.commit(row, game, ChangeKind.DEAL, user_id, None, None, events, None, (None, None))
