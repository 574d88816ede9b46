"""The IDENTIFY turns a cluster takes through the database (``bot.store.cluster``), on both
backends: Discord refuses a second IDENTIFY of a rate-limit bucket within 5 s of the first one's
arrival, so a claim holds the bucket until its READY shows Discord counted it, and only then does
the spacing start. The whole cluster on a fake Discord is ``tests/e2e/test_cluster.py``.
"""

from __future__ import annotations

import asyncio
import json

from bot.store import open_database, repo
from bot.store.cluster import claim_identify, identify_counted
from tests.bot.helpers import Clock

LEASE, SPACING = 15.0, 5.5


async def claim(db, owner: str, clock: Clock, bucket: int = 0) -> float:
    async with db.transaction() as tx:
        return await claim_identify(tx, bucket, owner, clock, lease=LEASE, spacing=SPACING)


async def counted(db, owner: str, clock: Clock, bucket: int = 0) -> bool:
    async with db.transaction() as tx:
        return await identify_counted(tx, bucket, owner, clock, spacing=SPACING)


async def test_a_claim_holds_the_bucket_until_its_ready_then_the_spacing_runs(env) -> None:
    clock = Clock(1000.0)
    assert await claim(env.db, "a", clock) == 0
    # Before READY the turn is held, however slow the IDENTIFY is to reach Discord.
    clock.t = 1008.0
    assert await claim(env.db, "b", clock) == LEASE - 8.0
    # Another bucket is not held.
    assert await claim(env.db, "c", clock, bucket=1) == 0
    # READY at 1009: Discord counted "a" before then, so "b" may go 5.5 s later, not earlier.
    clock.t = 1009.0
    assert await counted(env.db, "a", clock) is True
    clock.t = 1014.0
    assert await claim(env.db, "b", clock) == 0.5
    clock.t = 1014.5
    assert await claim(env.db, "b", clock) == 0


async def test_a_ready_after_the_lease_ran_out_does_not_shorten_the_next_claim(env) -> None:
    clock = Clock(2000.0)
    assert await claim(env.db, "a", clock) == 0
    clock.t = 2000.0 + LEASE  # "a" never answered in time: the lease frees the bucket
    assert await claim(env.db, "b", clock) == 0
    clock.t += 1
    assert await counted(env.db, "a", clock) is False  # "a"'s late READY is not "b"'s
    clock.t += 1
    assert await claim(env.db, "c", clock) == LEASE - 2


async def test_an_older_deploys_last_claim_time_is_honoured(env) -> None:
    async with env.db.transaction() as tx:
        await repo.set_meta(tx, "identify:0", repr(3000.0))
    assert await claim(env.db, "a", Clock(3002.0)) == SPACING - 2
    assert await claim(env.db, "a", Clock(3000.0 + SPACING)) == 0
    stored = json.loads(await repo.get_meta(env.db, "identify:0") or "")
    assert stored == {"next": 3000.0 + SPACING + LEASE, "owner": "a"}


async def test_a_clock_far_behind_the_stored_turn_does_not_wait_forever(env) -> None:
    assert await claim(env.db, "a", Clock(5000.0)) == 0
    assert await claim(env.db, "b", Clock(100.0)) == 0


async def test_processes_claiming_together_get_one_turn(pg_url) -> None:
    dbs = await asyncio.gather(*(open_database(pg_url) for _ in range(4)))
    try:
        clock = Clock(4000.0)
        waits = await asyncio.gather(*(claim(db, f"p{i}", clock, bucket=7) for i, db in enumerate(dbs)))
        assert sorted(waits) == [0.0, LEASE, LEASE, LEASE]
    finally:
        for db in dbs:
            await db.close()
