"""Two real bot processes, shards 0 and 1 of 2, on one real PostgreSQL and one fake Discord that has
a guild on each shard (issue 16, "End to end").

Each process serves only its own shard's guild: its interactions, its deadlines, its restarts.
One process is killed with SIGKILL mid-game and started again: its game resumes and its old
buttons work, while the other process's game goes on without noticing; a turn timer that runs out
fires exactly once across the cluster.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from bot.store import SCHEMA_VERSION
from tests.e2e.helpers import PgReader, Table, answers, scan_for_leaks
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

pytestmark = pytest.mark.e2e


def shard_process(fake: FakeDiscord, url: str, shard: int, log: Path) -> BotProcess:
    env = {"RUMMY_DATABASE_URL": url, "RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": str(shard),
           "RUMMY_DEV_GUILD": "", "RUMMY_FLOOD": "off"}
    return BotProcess(fake, db_path=log.with_suffix(".unused.sqlite3"), log_path=log, patch_gateway=False,
                      env=env)


async def play_some(table: Table, rnd: random.Random, moves: int) -> None:
    for _ in range(moves):
        game = table.game()
        if game.hand_over or table.row()["status"] != "playing":
            return
        user = table.user_of(game.actors[0])
        choices = await table.suggestions(user)
        assert choices, "the player to move got no suggestion"
        rec = await table.play(user, table.pick(choices, rnd)["value"])
        assert answers(rec)[-1].ephemeral


def delivered_to_shards(fake: FakeDiscord, guild_id: int) -> set[Any]:
    return {s.shard_id for rec in fake.interactions if rec.guild_id == guild_id for s in rec.delivered_to}


async def test_two_shard_processes_share_one_postgresql(tmp_path: Path, pg_url: str) -> None:
    fake = FakeDiscord(shard_count=2, guild_shard=0)
    await fake.start()
    pg = PgReader(pg_url)
    processes: list[BotProcess] = []
    try:
        second = fake.add_guild("Segundo", shard=1)
        one = [fake.add_user(n, locale="es-ES") for n in ("Ana", "Bea")]
        two = [fake.add_user(n, locale="en-US", guild=second) for n in ("Carlos", "Dani")]
        p0 = shard_process(fake, pg_url, 0, tmp_path / "shard0.log")
        p1 = shard_process(fake, pg_url, 1, tmp_path / "shard1.log")
        processes += [p0, p1]
        # Started together on an empty database: one migrates, one syncs the commands, and they
        # take turns to IDENTIFY.
        await asyncio.gather(p0.start(ready_timeout=60, shards=[0]), p1.start(ready_timeout=60, shards=[1]))
        assert fake.sync_count == 1
        assert fake.identify_breaches() == []
        assert [r["version"] for r in pg.query("SELECT version FROM schema_version")] == [SCHEMA_VERSION]

        t0 = Table(fake, p0, tmp_path / "unused", one, pg=pg)
        t1 = Table(fake, p1, tmp_path / "unused", two, channel=second.system_channel_id, pg=pg)
        await t0.open("gin", options="target=1", timer=1)
        await t1.open("gin", options="target=1", timer=1)
        rnd = random.Random(3)
        await play_some(t0, rnd, 3)
        await play_some(t1, rnd, 3)
        # Each guild's interactions reached only its own shard's process.
        assert delivered_to_shards(fake, fake.guild_id) == {0}
        assert delivered_to_shards(fake, second.id) == {1}

        # SIGKILL the process of shard 1 mid-game. While it is down, the other game goes on, and
        # its turn timer runs out: only its own process fires it, once.
        version1 = t1.row()["version"]
        old_table = t1.table_message()
        await p1.kill()
        await play_some(t0, rnd, 2)
        if t0.row()["status"] == "playing" and not t0.game().hand_over:
            pg.query("UPDATE games SET turn_deadline = ? WHERE id = ? RETURNING id", (time.time() + 1, t0.game_id))
            await t0.wait_until(lambda: any(r["kind"] == "timeout" for r in t0.query(
                "SELECT kind FROM actions WHERE game_id = ?", (t0.game_id,))), timeout=20)
        # Shard 1's own turn ran out during the outage.
        pg.query("UPDATE games SET turn_deadline = ? WHERE id = ? RETURNING id", (time.time() - 60, t1.game_id))

        p1 = shard_process(fake, pg_url, 1, tmp_path / "shard1b.log")
        processes.append(p1)
        await p1.start(ready_timeout=60, shards=[1])
        t1.bot = p1
        # Its game resumed: nothing committed was lost, the player to move got a whole turn, and
        # the table was posted again with the restart note.
        after = t1.row()
        assert after["version"] == version1 + 1
        assert after["turn_deadline"] > time.time() + 30
        kinds1 = [r["kind"] for r in t1.query("SELECT kind FROM actions WHERE game_id = ? ORDER BY id",
                                              (t1.game_id,))]
        assert kinds1[-1] == "resume" and "timeout" not in kinds1
        await fake.wait_for_message(lambda m: t1.is_table(m) and m.id != old_table.id
                                    and ("restarted" in m.content or "reinici" in m.content), timeout=20)
        # An old button (My hand on the table posted before the kill) still works.
        player = t1.user_of(t1.game().actors[0])
        rec = await (await fake.click(player, old_table, f"rummy:hand:{t1.game_id}")).settled(timeout=20)
        assert answers(rec)[-1].ephemeral and answers(rec)[-1].visible_to == player.id
        # The other process never noticed: its game was never resumed nor re-posted.
        kinds0 = [r["kind"] for r in t0.query("SELECT kind FROM actions WHERE game_id = ?", (t0.game_id,))]
        assert "resume" not in kinds0
        assert kinds0.count("timeout") <= 1

        # The resumed turn's timer, when it runs out, fires exactly once across the cluster.
        pg.query("UPDATE games SET turn_deadline = ? WHERE id = ? RETURNING id", (time.time() + 1, t1.game_id))
        await t1.wait_until(lambda: any(r["kind"] == "timeout" for r in t1.query(
            "SELECT kind FROM actions WHERE game_id = ?", (t1.game_id,))), timeout=20)
        await asyncio.sleep(2.5)  # both clocks have ticked again since
        kinds1 = [r["kind"] for r in t1.query("SELECT kind FROM actions WHERE game_id = ?", (t1.game_id,))]
        assert kinds1.count("timeout") == 1
        said = [m for m in fake.public_messages(t1.place)
                if "ran out of time" in m.content or "Se acabó el tiempo" in m.content]
        assert len(said) == 1, [m.content for m in said]

        # Both games play on to the end, each through its own process.
        await t0.play_until_over(rnd)
        await t1.play_until_over(rnd)
        for t in (t0, t1):
            results = t.query("SELECT COUNT(*) AS n FROM results WHERE game_id = ?", (t.game_id,))
            assert results[0]["n"] == 2
        scan_for_leaks(fake, one + two)
        assert fake.violations == []
    finally:
        for p in processes:
            if p.proc is not None and p.returncode is None:
                await p.terminate()
        pg.close()
        await fake.stop()
    for p in processes:
        assert "Traceback" not in p.log_text(), p.log_text()[-3000:]
    assert "shards 0 of 2" in processes[0].log_text()
    assert "shards 1 of 2" in processes[1].log_text()


async def test_one_process_holding_two_shards_identifies_the_second_after_the_first_ready(tmp_path: Path) -> None:
    # One process of one bucket holds both shards: the second IDENTIFY waits for the first one's
    # READY and 5 s more (Discord's limit), not for the claim's whole lease.
    from bot.client import IDENTIFY_LEASE

    fake = FakeDiscord(shard_count=2, guild_shard=0, enforce_identify_pacing=True)
    await fake.start()
    fake.add_guild("Segundo", shard=1)
    bot = BotProcess(fake, db_path=tmp_path / "rummy.sqlite3", log_path=tmp_path / "bot.log", patch_gateway=False,
                     env={"RUMMY_SHARD_COUNT": "2", "RUMMY_DEV_GUILD": "", "RUMMY_FLOOD": "off"})
    try:
        await bot.start(ready_timeout=60, shards=[0, 1])
        accepted = [r for r in fake.gateway.identifies if r.outcome == "ready"]
        assert [r.shard for r in accepted] == [(0, 2), (1, 2)]
        assert fake.identify_breaches() == []
        gap = accepted[1].at - accepted[0].at
        assert 5.0 <= gap < IDENTIFY_LEASE - 3, gap  # the lease alone would space them 15 s
    finally:
        if bot.proc is not None and bot.returncode is None:
            await bot.terminate()
        await fake.stop()
