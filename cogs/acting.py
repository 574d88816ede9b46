"""The one way a handler acts on a game, and the one way it opens a game only to show something.

What it is: ``act``, what every handler that plays a move calls (the hand's buttons, selects and
rearrange modal, ``/rummy play`` and ``/rummy resign``, a hint's Play button, the builder's Play
it, the table's Draw and Take, the game picker's resign): the service's ``act`` for this place
and this user, then the handler's ``answer`` (the hand redrawn, or the words it says) and the
announcement of the committed change; ``next_deal`` (the table's Next deal button), the same for
the next deal; ``seat_here``, the opener of a handler that only shows something (the hand, its
sort and selection, a hint, the table's My hand) and ``place_game``, of a lobby or game at all
(the lobby's handlers, the table's buttons, a re-post). An engine refusal names seats by the
game's seat names (``interaction.extras["names"]``, which the guard reads), bound here and only
here.
What it is not: no checks: the place, the status, the seat and the version are the service's, in
one place (``bot.service.acting``), answered with a typed ``Refusal`` or ``Stale`` that the guard
translates; no drawing (the handlers' ``answer``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from bot.engine import IllegalMove, Move
from bot.service import Change, GameRow
from bot.service.changes import Seated
from cogs.anywhere import place_key
from cogs.base import client_of

T = TypeVar("T")
Answer = Callable[[Change], Awaitable[None]]
"""What a handler says once its move is committed (before the public messages are updated)."""


async def _naming_seats(interaction: discord.Interaction, game_id: int, work: Awaitable[T]) -> T:
    """``work``'s answer; an engine refusal (``IllegalMove``, which names seats: "it is p2's
    turn") leaves the game's seat names for the guard to say them with. Only a game of this place
    gets as far as the engine, so only its names are ever used."""
    try:
        return await work
    except IllegalMove:
        row = await client_of(interaction).service.core.get(game_id)
        if row is not None:
            interaction.extras["names"] = row.names
        raise


async def act(interaction: discord.Interaction, game_id: int, move: Move, *, answer: Answer,
              version: int | None = None) -> Change:
    """Play ``move`` for the user's own seat in game ``game_id`` of this place (``version``: of
    the message it came from), then ``answer`` and announce. Everything is checked by the
    service (``GameService.acting.act``)."""
    client = client_of(interaction)
    change = await _naming_seats(interaction, game_id, client.service.acting.act(
        place_key(interaction), interaction.user.id, game_id, move, version=version, interaction_id=interaction.id))
    await answer(change)
    await client.announcer.announce(change)
    return change


async def next_deal(interaction: discord.Interaction, game_id: int, *, version: int | None) -> Change:
    """The next deal, dealt now by a seated player of this place (``GameService.acting.next_deal_at``),
    announced."""
    client = client_of(interaction)
    change = await _naming_seats(interaction, game_id, client.service.acting.next_deal_at(
        place_key(interaction), interaction.user.id, game_id, version=version))
    await client.announcer.announce(change)
    return change


async def seat_here(interaction: discord.Interaction, game_id: int, *, version: int | None = None,
                    stale: str | None = None, seat: str | None = None) -> Seated:
    """The user's own seat in game ``game_id`` of this place, checked as ``act`` checks
    (``GameService.acting.seat_at``: ``version`` and ``stale``, the message's version and what a message
    of another one is told; ``seat``, the seat a private message was made for). Nothing is written."""
    return await client_of(interaction).service.acting.seat_at(place_key(interaction), interaction.user.id, game_id,
                                                               version=version, stale=stale, seat=seat)


async def place_game(interaction: discord.Interaction, game_id: int) -> GameRow:
    """The lobby or game ``game_id`` if it is one of this place (``GameService.acting.game_at``), else
    ``no_game``."""
    return await client_of(interaction).service.acting.game_at(place_key(interaction), game_id)
