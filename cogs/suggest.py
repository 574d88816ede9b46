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

from bot.service import GameRow, GameService, Refusal
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
    if len(rows) != 1:
        return []
    try:
        seated = client.service.acting.seat_in(rows[0], interaction.user.id)  # being played, and seated in it
    except Refusal:
        return []
    # Worked out once per version, off the event loop (every keystroke asks again).
    legal = await client.service.reading.legal_moves(seated.row, seated.seat.seat)
    if not legal:
        return []
    loc = user_locale(interaction)
    out = []
    texts: list[str] = list(legal)  # a Move is its RGN text: what a choice's value carries
    for m in rank_moves(texts, current, limit=CHOICES):
        value = m if len(m) <= VALUE_LENGTH else f"#{seated.row.version}:{texts.index(m)}"
        out.append(Choice(name=describe_move(m, loc)[:VALUE_LENGTH], value=value))
    return out


async def resolve_token(service: GameService, row: GameRow, user_id: int, text: str) -> str:
    """A suggestion too long for Discord's 100 characters comes back as ``#<version>:<index>``:
    the index-th legal move of the user's seat in ``row`` (the game of this place), while the game
    is at that version (``stale_suggestion`` after; the service checks the seat and the version)."""
    if not text.startswith("#"):
        return text
    version, _, index = text[1:].partition(":")
    if not version.isdigit() or not index.isdigit():
        raise Refusal("bad_suggestion")
    seated = service.acting.seat_in(row, user_id, version=int(version), stale="stale_suggestion")
    legal = await service.reading.legal_moves(seated.row, seated.seat.seat)
    if int(index) >= len(legal):
        raise Refusal("bad_suggestion")
    return legal[int(index)]
