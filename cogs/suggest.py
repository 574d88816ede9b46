"""The move suggestions of ``/rummy play``: the caller's legal moves as autocomplete choices, and
the token a suggestion too long for Discord comes back as.

What it is: ``move_choices`` (what the autocomplete offers, most useful first, in the caller's
language) and ``resolve_token`` (``#<version>:<index>`` back to the move it stood for). Legal
moves come from the service's cache, worked out off the event loop (issue 15, hole 8).
What it is not: no move is played here (``cogs.rummy``), no rules (``bot.engine``).
"""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from bot.service import GameRow, GameService, GameStatus, Refusal
from bot.words.moves import describe_move, rank_moves
from cogs.base import RummyClient, place_games, user_locale

CHOICES = 25  # Discord's limit on autocomplete choices
VALUE_LENGTH = 100  # Discord's limit on a choice's value


async def move_choices(client: RummyClient, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The caller's legal moves right now, most useful first; none when it is not their turn.
    Cannot be deferred: answered from the service's cache of legal moves."""
    if not client.guard.typing_allowed(interaction.user.id):
        return []
    rows = await place_games(interaction, "play", client.service)  # the thread's game, or the member's (issue 12)
    row = rows[0] if len(rows) == 1 else None
    if row is None or row.status != GameStatus.PLAYING:
        return []
    seat = row.seat_of(interaction.user.id)
    if seat is None:
        return []
    # Worked out once per version, off the event loop (every keystroke asks again).
    legal = await client.service.legal_moves(row, seat.seat)
    if not legal:
        return []
    loc = user_locale(interaction)
    out = []
    for m in rank_moves(legal, current, limit=CHOICES):
        value = m if len(m) <= VALUE_LENGTH else f"#{row.version}:{legal.index(m)}"
        out.append(Choice(name=describe_move(m, loc)[:VALUE_LENGTH], value=value))
    return out


async def resolve_token(service: GameService, row: GameRow, user_id: int, text: str) -> str:
    """A suggestion too long for Discord's 100 characters comes back as ``#<version>:<index>``."""
    if not text.startswith("#"):
        return text
    version, _, index = text[1:].partition(":")
    seat = row.seat_of(user_id)
    if seat is None or not version.isdigit() or not index.isdigit():
        raise Refusal("bad_suggestion")
    if int(version) != row.version:
        raise Refusal("stale_suggestion")
    legal = await service.legal_moves(row, seat.seat)
    if int(index) >= len(legal):
        raise Refusal("bad_suggestion")
    return legal[int(index)]
