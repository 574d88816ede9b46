"""The process ``tests/bot/test_crash.py`` kills: it plays one move through the real service and
store, and stops inside that move's transaction so the parent can SIGKILL it there.

Run as ``python -m tests.bot.crash_child TARGET GAME USER MOVE VERSION INTERACTION NOW STOP_AT``:
TARGET is a SQLite path or a ``postgresql://`` URL. The move's transaction runs normally until its
STOP_AT-th statement has run; then the child prints ``stopped <n>`` and waits (the transaction
open, its writes made but not committed) until it is killed. If the move commits before that
statement comes, it prints ``committed <version>`` and waits.

Or as ``python -m tests.bot.crash_child burst TARGET GAMES SEED``: random legal moves and next deals
in the games GAMES (ids, comma-separated), all at once, without end; after each commit it prints
``committed <game> <version>`` (the move is acknowledged), so the parent can kill it at any moment.
What it is not: a test; it asserts nothing (the parent checks the database after the kill).
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Any

from bot.service import GameService
from bot.store import Database, open_database
from tests.bot.helpers import choose, uid

STATEMENTS = ("execute", "insert", "update", "fetchone", "fetchall")


async def main(argv: list[str]) -> None:
    target, game_id, user_id, move, version, interaction_id, now, stop_at = argv
    db = await open_database(target)
    if isinstance(db, Database):
        # A tiny page cache makes SQLite spill the transaction's dirty pages into the WAL before
        # COMMIT, so the kill leaves uncommitted frames in the file for recovery to ignore.
        await db.conn.execute("PRAGMA cache_size = 1")
    calls = 0
    wait_forever = asyncio.Event()

    def stopping(real: Any) -> Any:
        async def statement(self: Any, sql: str, params: Any = ()) -> Any:
            nonlocal calls
            result = await real(self, sql, params)
            calls += 1
            if calls == int(stop_at):
                # Whether this statement ran inside the move's transaction (the service also
                # reads through the same methods before it opens one, on PostgreSQL).
                inside = self.conn.is_in_transaction() if hasattr(self.conn, "is_in_transaction") \
                    else self.conn.in_transaction
                print(f"stopped {calls}{' in transaction' if inside else ''}", flush=True)
                await wait_forever.wait()
            return result

        return statement

    for name in STATEMENTS:
        setattr(db.tx_class, name, stopping(getattr(db.tx_class, name)))
    svc = GameService(db, clock=lambda: float(now))
    change = await svc.acting.play(int(game_id), int(user_id), move, interaction_id=int(interaction_id),
                                   version=int(version))
    print(f"committed {change.game.version}", flush=True)
    await wait_forever.wait()


async def burst(target: str, games: str, seed: str) -> None:
    db = await open_database(target)
    svc = GameService(db)
    rng = random.Random(seed)

    async def play(game_id: int) -> None:
        while True:
            row = await svc.core.get(game_id)
            assert row is not None and row.status == "playing", "a burst game ended"
            game = svc.core.engine(row)
            if game.hand_over:
                change = await svc.acting.next_deal(game_id, None, version=row.version)
            else:
                seat = rng.choice(game.actors)
                change = await svc.acting.play(game_id, uid(row, seat), choose(game, seat, rng), version=row.version)
            print(f"committed {game_id} {change.game.version}", flush=True)

    await asyncio.gather(*(play(int(g)) for g in games.split(",")))


if __name__ == "__main__":
    if sys.argv[1] == "burst":
        asyncio.run(burst(*sys.argv[2:]))
    else:
        asyncio.run(main(sys.argv[1:]))
