"""What the processes of one bot agree on through the database: whose turn it is to IDENTIFY, and
which process syncs the slash commands of a deploy.

What it is: small transactions over the ``meta`` table, each behind a named lock, so that several
shard processes (or one process's several shards) take turns the way Discord requires.
What it is not: no Discord and no timing policy. The spacing, the lease and the clock come in as
parameters from ``bot.client``, which knows what Discord documents.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from .base import Transaction
from .repo import get_meta, set_meta


def _identify_key(bucket: int) -> str:
    return f"identify:{bucket}"


def _read_turn(value: str | None, spacing: float) -> tuple[float, str]:
    """The stored turn as (earliest time the next IDENTIFY may leave, owner of the open claim).
    A bare number is an older deploy's "last claim at": its turn ends ``spacing`` after it."""
    if value is None:
        return 0.0, ""
    data = json.loads(value)
    if isinstance(data, (int, float)):
        return float(data) + spacing, ""
    return float(data["next"]), str(data.get("owner", ""))


async def claim_identify(tx: Transaction, bucket: int, owner: str, clock: Callable[[], float], *,
                         lease: float, spacing: float) -> float:
    """Take the next IDENTIFY turn of rate-limit ``bucket`` for ``owner``. Returns 0 when the caller
    may identify now, else how long the current turn still runs (the caller waits and asks again).

    Discord allows one IDENTIFY per 5 s in each ``shard_id % max_concurrency`` bucket, counted when
    it reaches Discord and across every process of the bot. A claim therefore holds the bucket for
    ``lease`` seconds, until ``identify_counted`` shortens the turn to ``spacing`` after the READY
    that proves Discord counted it; a claimer that dies before READY only holds it for the lease.
    The time is read after the lock is held, so a caller that waited for the lock never records a
    stale time."""
    key = _identify_key(bucket)
    await tx.lock_name(key)
    now = clock()
    next_at, _ = _read_turn(await get_meta(tx, key), spacing)
    wait = next_at - now
    if 0 < wait <= lease + spacing:  # a turn further away than any claim sets is a clock that jumped back
        return wait
    await set_meta(tx, key, json.dumps({"next": now + lease, "owner": owner}))
    return 0.0


async def identify_counted(tx: Transaction, bucket: int, owner: str, clock: Callable[[], float], *,
                           spacing: float) -> bool:
    """``owner``'s IDENTIFY was answered with READY, so Discord counted it before now: the bucket's
    next IDENTIFY may leave ``spacing`` from now. Only the open claim's owner shortens its lease
    (a READY that comes after the lease ran out, when another process may already hold the turn,
    changes nothing). Returns whether the turn was shortened."""
    key = _identify_key(bucket)
    await tx.lock_name(key)
    next_at, holder = _read_turn(await get_meta(tx, key), spacing)
    if holder != owner:
        return False
    await set_meta(tx, key, json.dumps({"next": min(next_at, clock() + spacing), "owner": ""}))
    return True


async def claim_command_sync(tx: Transaction, key: str, digest: str, *, force: bool) -> str | None:
    """Claim the one slash-command sync of a deploy: the first process that finds a new command tree
    stores its hash and syncs; the others find the hash already there. Returns the hash it replaced
    (to put back if the sync fails), or None when there is nothing to sync."""
    await tx.lock_name(f"commands:{key}")
    old = await get_meta(tx, key)
    if old == digest and not force:
        return None
    await set_meta(tx, key, digest)
    return old or ""
