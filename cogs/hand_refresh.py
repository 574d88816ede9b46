"""After every committed change, each seated person's live hand is edited to show it (issue 36).

What it is: ``refresh_hands(client, change)``, which the announcer calls once a change is
committed: for every player of the game with a live hand message (``cogs.live.BOOK``: its token
younger than ``LIVE_FOR``), the hand of the game as it is now is drawn again and, when
what it shows changed (its ``signature``: the turn, the cards, the moves offered), edited
through that message's own token. Interaction webhooks are rate limited per token, not in the
bot's global budget; a hand whose content is the same is left alone. A failure is logged and the
hand forgotten: the table's My hand button is the way back.
What it is not: no decision (the service committed the change) and no layout (``cogs.hand``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from bot.service import Change, GameStatus
from cogs.base import user_locale
from cogs.hand import HandState, hand_parts
from cogs.live import BOOK, default_sort
from cogs.ui import file_of

log = logging.getLogger(__name__)
_locks: dict[int, asyncio.Lock] = {}


async def refresh_hands(client: Any, change: Change) -> None:
    """Edit the live hands of ``change``'s game whose content changed."""
    if not BOOK.players(change.game.id):
        return
    async with _locks.setdefault(change.game.id, asyncio.Lock()):  # one refresh of a game at a time
        await _refresh(client, change.game.id)
        if not BOOK.players(change.game.id):
            _locks.pop(change.game.id, None)


async def _refresh(client: Any, game_id: int) -> None:
    # The game as it is now, not as this change left it: a later change may have been shown already.
    row = await client.service.core.get(game_id)
    if row is None or row.status not in (GameStatus.PLAYING, GameStatus.FINISHED) or not row.record:
        return
    game = await client.service.reading.load(row)
    for user in BOOK.players(row.id):
        seat = next((s for s in row.seats if s.user_id == user and not s.is_bot), None)
        live = BOOK.live(row.id, user)
        if seat is None or live is None:
            continue
        try:
            locale = user_locale(live.interaction)
            state = HandState(row.id, row.version, 0, BOOK.sort(row.id, user, default_sort(row)))
            content, view, signature, picture = await hand_parts(client, row, game, seat.seat, state, locale)
            if signature == live.signature:
                continue
            image = await picture()
            await live.interaction.followup.edit_message(live.message_id, content=content,
                                                         attachments=[file_of(image)], view=view)
            BOOK.edited(row.id, user, signature)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.info("the live hand of game %s could not be edited: %r", row.id, exc)
            BOOK.forget(row.id, user)
