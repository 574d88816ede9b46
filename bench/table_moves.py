"""Table-manipulation suggestions: the time of ``legal_moves`` (rami, manipulation on) with 10, 20
and 40 melds on the table and a 25-card hand (issue 15, hole 8).

    python bench/table_moves.py [--repeat R] [--seed S]

``TableManipulation.table_moves`` tries every pair of hand cards against every card a meld could
give up, so its cost grows with the table and with the square of the hand; it runs for every
autocomplete keystroke, every hand message and every computer turn. Prints, for each table size,
min / median / max milliseconds of ``table_moves`` and of the whole ``legal_moves`` of the player
to move, each on a fresh copy of the position (no cache), and how many suggestions came out. The
positions are random but fixed by ``--seed``: runs of 4 and sets of 4 (cards a table move can
free), eight seats so that the four decks hold them (the others hold two cards each).

Then the autocomplete burst: ``--games`` games of 40 melds in one service, the player to move in
each typing ``--keys`` keystrokes at once, answered the way the bot answers autocomplete (the
service's cached legal moves where it has them, else the engine on the event loop, as before
issue 15): how long until every answer, the slowest answer, and the longest the event loop was
held (what every other click waits). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without install

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SEATS = [f"p{i}" for i in range(1, 9)]  # 7-8 players: four decks (named as the bot names seats)


def position(melds: int, hand_size: int, seed: int) -> str:
    """A rami record: ``melds`` runs and sets on the table, ``p1`` (opened) to play with ``hand_size`` cards."""
    rng = random.Random(seed)
    used: Counter[str] = Counter()

    def fits(cards: list[str]) -> bool:
        need = Counter(cards)
        return all(used[c] + n <= 4 for c, n in need.items())

    table: list[str] = []
    for _ in range(100_000):
        if len(table) == melds:
            break
        if rng.random() < 0.6:
            length, suit = 4, rng.choice(SUITS)
            start = rng.randint(0, len(RANKS) - length)
            cards = [RANKS[start + k] + suit for k in range(length)]
        else:
            rank = rng.choice(RANKS)
            cards = [rank + s for s in SUITS]
        if fits(cards):
            used.update(cards)
            table.append(" ".join(cards))
    left = [r + s for r in RANKS for s in SUITS for _ in range(4 - used[r + s])]
    rng.shuffle(left)
    hand, rest = left[:hand_size], left[hand_size:]
    others = [f'[Hand "{seat}" "{rest[2 * i]} {rest[2 * i + 1]}"]' for i, seat in enumerate(SEATS[1:])]
    return "\n".join([
        '[Variant "rami"]',
        '[Options "table_manipulation=true"]',
        f'[Seats "{" ".join(SEATS)}"]',
        f'[Dealer "{SEATS[-1]}"]',
        f'[Table "{" | ".join(table)}"]',
        f'[Hand "{SEATS[0]}" "{" ".join(hand)}"]',
        *others,
        f'[Opened "{SEATS[0]} {SEATS[1]}"]',
        f'[Turn "{SEATS[0]}"]',
        '[Phase "play"]',
    ]) + "\n"


def timed(base: object, fn_name: str, repeat: int) -> tuple[list[float], int]:
    """Milliseconds of ``getattr(copy, fn_name)("p1")`` on ``repeat`` fresh copies, and the output's size."""
    times, size = [], 0
    for _ in range(repeat):
        game = copy.deepcopy(base)
        start = time.perf_counter()
        out = getattr(game, fn_name)("p1")
        times.append((time.perf_counter() - start) * 1000)
        size = len(out)
    return times, size


async def burst(games: int, keystrokes: int, melds: int, hand: int, seed: int,
                cold: bool) -> tuple[float, float, float]:
    """``games`` rami games of ``melds`` melds in one service (SQLite), the player to move in each
    typing ``keystrokes`` characters of ``/rummy play`` at once, answered as the bot answers
    autocomplete. (ms until every answer, the latest answer in ms from the burst's start, the
    longest the event loop was held in ms.) ``cold``: the engine cache is empty (after a restart, or a game another
    process moved): the records are replayed (these records are positions with no moves, so the
    replay is short)."""
    import asyncio
    import tempfile

    from bot.service import GameService
    from bot.store import Database, repo

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        svc = GameService(db)
        rows = []
        for g in range(games):
            change = await svc.games.open_lobby(guild_id=1, channel_id=100 + g, host_id=1000 * g + 1, host_name="p",
                                                variant="rami", options="table_manipulation=true")
            for u in range(2, len(SEATS) + 1):
                await svc.games.join(change.game.id, 1000 * g + u, "p")
            row = (await svc.games.start(change.game.id, 1000 * g + 1)).game
            async with db.transaction() as tx:
                await repo.update_game(tx, row.id, record=position(melds, hand, seed + g), version=row.version + 1)
            written = await svc.core.get(row.id)
            assert written is not None  # the game just written
            rows.append(written)
        svc.core.cache.clear()
        if not cold:
            for row in rows:  # the engine cache as it is after a move
                svc.core.cache[row.id] = (row.version, svc.core.engine(row))
        # The bot's answer to one keystroke: the new path where the service has it, else the old one.
        new = hasattr(svc, "legal_moves")

        async def answer(row) -> float:
            """When this keystroke was answered, counted from the start of the burst."""
            if new:
                await svc.reading.legal_moves(row, "p1")
            else:
                svc.core.engine(row).legal_moves("p1")
            return (time.perf_counter() - start) * 1000

        held = [0.0]
        running = [True]

        async def watch() -> None:
            last = time.perf_counter()
            while running[0]:
                await asyncio.sleep(0)
                now = time.perf_counter()
                held[0] = max(held[0], (now - last) * 1000)
                last = now

        watcher = asyncio.ensure_future(watch())
        await asyncio.sleep(0)
        start = time.perf_counter()
        times = await asyncio.gather(*[answer(r) for _ in range(keystrokes) for r in rows])
        total = (time.perf_counter() - start) * 1000
        running[0] = False
        await watcher
        await db.close()
        return total, max(times), held[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", type=int, default=25)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--keys", type=int, default=5)
    args = parser.parse_args(argv)

    from bot.engine import load_game

    print(f"rami, table manipulation on, a {args.hand}-card hand; ms min / median / max of {args.repeat}")
    for melds in (10, 20, 40):
        base = load_game(position(melds, args.hand, args.seed + melds))
        assert len(base.table) == melds
        for name in ("table_moves", "legal_moves"):
            times, size = timed(base, name, args.repeat)
            print(f"{melds:3} melds  {name:12} {min(times):7.2f} {statistics.median(times):7.2f} "
                  f"{max(times):7.2f} ms   ({size} moves)")
    import asyncio

    print(f"\n{args.games} games of 40 melds, the player to move typing {args.keys} keystrokes in each, all at once:")
    for cold in (False, True):
        total, slowest, held = asyncio.run(burst(args.games, args.keys, 40, args.hand, args.seed, cold))
        label = "engine not cached (replayed)" if cold else "engine cached"
        print(f"  {label:29} every answer in {total:7.1f} ms, latest answer {slowest:7.1f} ms, "
              f"event loop held at most {held:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
