"""The queries of the rearrange builder's drafts (issue 13): one stored draft per game and seat.

What it is: small functions over ``Store``/``Transaction`` like ``repo``'s; a draft leaves as a
``StoredDraft`` (its JSON is ``bot.service.builder.Draft``'s, read by the service).
What it is not: no decisions (when a draft is out of date is ``bot.service.drafts``'s call).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Store, Transaction


@dataclass(frozen=True)
class StoredDraft:
    game_id: int
    seat: str
    user_id: int
    version: int
    base: str  # digest of the record the draft started from
    state: str  # the draft's JSON
    updated_at: float


async def get(db: Store | Transaction, game_id: int, seat: str) -> StoredDraft | None:
    r = await db.fetchone("SELECT * FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
    if r is None:
        return None
    return StoredDraft(int(r["game_id"]), str(r["seat"]), int(r["user_id"]), int(r["version"]), str(r["base"]),
                       str(r["state"]), float(r["updated_at"]))


async def put(tx: Transaction, draft: StoredDraft) -> None:
    await tx.execute(
        "INSERT INTO drafts (game_id, seat, user_id, version, base, state, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, version = excluded.version, "
        "base = excluded.base, state = excluded.state, updated_at = excluded.updated_at",
        (draft.game_id, draft.seat, draft.user_id, draft.version, draft.base, draft.state, draft.updated_at))


async def discard(tx: Transaction, game_id: int, seat: str | None = None) -> int:
    """Forget a seat's draft (or, ``seat`` None, every draft of the game)."""
    if seat is None:
        return await tx.update("DELETE FROM drafts WHERE game_id = ?", (game_id,))
    return await tx.update("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))


async def count(db: Store | Transaction, game_id: int) -> int:
    r = await db.fetchone("SELECT COUNT(*) AS n FROM drafts WHERE game_id = ?", (game_id,))
    return int(r["n"]) if r is not None else 0
