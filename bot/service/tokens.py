"""Interaction tokens kept while they live (issue 24, docs/anywhere.md).

What it is: ``Tokens``, the ``tokens`` part of ``GameService`` (no state of its own): the service's
door to ``bot.store.tokens`` for the Discord wing's token delivery (``cogs.anywhere``): keep a token
that made a message, and the message; read back the living tokens of a place and the token of a
message, so that a restart or another process edits a message with the token that made it. Every
write deletes the tokens that expired.
What it is not: no choice of token (``cogs.anywhere.TokenBook``), no Discord, no game state.
"""

from __future__ import annotations

from bot.store import tokens as store
from bot.store.tokens import TokenRow

from .core import Core

__all__ = ["TokenRow", "Tokens"]


class Tokens:
    """Living interaction tokens and the messages they made."""


    def __init__(self, core: Core) -> None:
        self.core = core

    async def keep_token(self, row: TokenRow, message_id: int | None = None) -> None:
        """Keep ``row`` (its count of follow-ups too) and, if given, that it made ``message_id``."""
        async with self.core.db.transaction() as tx:
            await store.keep_token(tx, row, self.core.now())
            if message_id is not None:
                await store.keep_message(tx, message_id, row.interaction_id, row.expires_at)

    async def live_tokens(self, place: int) -> list[TokenRow]:
        return await store.live_tokens(self.core.db, place, self.core.now())

    async def message_token(self, message_id: int) -> TokenRow | None:
        return await store.message_token(self.core.db, message_id, self.core.now())
