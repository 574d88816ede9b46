"""What the Activity (docs/activity.md) reads of the games, beyond what the chat reads.

What it is: ``ActivityReads``, built by the Activity's server over the service's parts (the core,
``acting`` and ``reading``): the games an instance's channel shows (``channel_games``), the stored
versions of the games its pages watch, in one query (``versions``, the 250 ms poll), whether the
engine would take a move now without playing it (``check``) and the hint for a seat (``hint``).
Every question about a game of a place goes through ``acting``'s one check (the place, the status,
the seat), as a chat handler's does.
What it is not: no writes (moves, deals and lobbies are ``acting``'s and ``games``'), no web, no
SQL (``bot.store.activity``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import IllegalMove, Move, Verb
from bot.store import activity as store
from bot.store.rows import GameRow

from .acting import Acting
from .changes import Refusal
from .core import Core
from .hints import Hint, check_hint, fresh_game, hint
from .reading import Reading, in_worker


def _hint_of(row: GameRow, seat: str) -> Hint:
    """In the engine's worker: the hint on a game of its own, loaded from the record (the cached
    engine is changed on the event loop and must not be shared)."""
    return hint(fresh_game(row), seat)


class ActivityReads:
    """The Activity's reads: a channel's games, the watched games' versions, a move checked, a hint."""

    def __init__(self, core: Core, acting: Acting, reading: Reading) -> None:
        self.core = core
        self.acting = acting
        self.reading = reading

    async def channel_games(self, place: int | None, channel_id: int) -> list[GameRow]:
        """The lobbies and games of ``place`` in ``channel_id`` or in threads of their own made in
        it (or whose thread it is), oldest first. A place of nobody (None) has none."""
        if place is None:
            return []
        return await store.place_channel_games(self.core.db, place, channel_id)

    async def versions(self, game_ids: Iterable[int]) -> dict[int, int]:
        """Game id -> stored version, for the ids that exist: one query (per 500 ids)."""
        return await store.versions(self.core.db, game_ids)

    async def check(self, place: int | None, user_id: int, game_id: int, move: Move) -> IllegalMove | None:
        """Would the engine take ``move`` for ``user_id``'s seat now? None when it would, else the
        engine's reason; the service's own refusals (not this place's game, not playing, not seated,
        not their turn, a clock's verb) are raised as ``Refusal``, as ``act`` raises them. Nothing
        is played: the engine tries it on a copy (``Game.refused``)."""
        seated = await self.acting.seat_at(place, user_id, game_id)
        if move.verb.clock_only:
            raise Refusal("not_a_player_move", verb=str(move.verb))
        game = await self.reading.load(seated.row)
        # The same turn rule as ``act``: only the seats that may act now, but a resignation.
        if seated.seat.seat not in game.actors and move.verb is not Verb.RESIGN:
            raise Refusal("not_your_turn")
        return game.refused(seated.seat.seat, move)

    async def hint(self, place: int | None, user_id: int, game_id: int) -> Hint:
        """The hint for ``user_id``'s seat in game ``game_id`` of ``place`` (``Refusal`` where the
        game gives none: rated, turned off, not their turn), worked out off the event loop."""
        seated = await self.acting.seat_at(place, user_id, game_id)
        seat = check_hint(seated.row, user_id)
        return await in_worker(_hint_of, seated.row, seat.seat)
