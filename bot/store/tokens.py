"""The queries of interaction tokens (issue 24: places the bot is not a member of).

What it is: keeping a token while it lives (``keep_token``, with the follow-ups it sent), which
token made which message (``keep_message``), reading them back (``live_tokens``,
``message_token``) and deleting every one past its end (``forget_expired``, run with every write).
Rows leave as ``TokenRow``.
What it is not: no decisions (``cogs.anywhere`` chooses a token) and no Discord. The token is a
secret: nothing here logs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import Store, Transaction


@dataclass(frozen=True)
class TokenRow:
    interaction_id: int
    place: int
    application_id: int
    token: str = field(repr=False)
    expires_at: float
    sent: int
    public: bool


def _row(r: Any) -> TokenRow:
    return TokenRow(int(r["interaction_id"]), int(r["place"]), int(r["application_id"]), str(r["token"]),
                    float(r["expires_at"]), int(r["sent"]), bool(r["public"]))


async def forget_expired(tx: Transaction, now: float) -> None:
    await tx.execute("DELETE FROM interaction_tokens WHERE expires_at <= ?", (now,))
    await tx.execute("DELETE FROM token_messages WHERE expires_at <= ?", (now,))


async def keep_token(tx: Transaction, row: TokenRow, now: float) -> None:
    """Write ``row`` (or its new count of follow-ups), and drop what expired."""
    await forget_expired(tx, now)
    await tx.execute(
        "INSERT INTO interaction_tokens (interaction_id, place, application_id, token, expires_at, sent, public) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (interaction_id) DO UPDATE SET sent = excluded.sent",
        (row.interaction_id, row.place, row.application_id, row.token, row.expires_at, row.sent, int(row.public)))


async def keep_message(tx: Transaction, message_id: int, interaction_id: int, expires_at: float) -> None:
    await tx.execute(
        "INSERT INTO token_messages (message_id, interaction_id, expires_at) VALUES (?, ?, ?) "
        "ON CONFLICT (message_id) DO NOTHING", (message_id, interaction_id, expires_at))


async def live_tokens(db: Store | Transaction, place: int, now: float) -> list[TokenRow]:
    """The tokens of ``place`` still living at ``now``, oldest first."""
    rows = await db.fetchall(
        "SELECT * FROM interaction_tokens WHERE place = ? AND expires_at > ? ORDER BY expires_at", (place, now))
    return [_row(r) for r in rows]


async def message_token(db: Store | Transaction, message_id: int, now: float) -> TokenRow | None:
    """The living token that made ``message_id``, if any."""
    r = await db.fetchone(
        "SELECT t.* FROM token_messages m JOIN interaction_tokens t ON t.interaction_id = m.interaction_id "
        "WHERE m.message_id = ? AND t.expires_at > ?", (message_id, now))
    return None if r is None else _row(r)
