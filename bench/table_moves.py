"""Table-manipulation suggestions: the time of ``legal_moves`` (rami, manipulation on) with 10, 20
and 40 melds on the table and a 25-card hand (issue 15, hole 8).

    python bench/table_moves.py [--repeat R] [--seed S]

``TableManipulation.table_moves`` tries every pair of hand cards against every card a meld could
give up, so its cost grows with the table and with the square of the hand; it runs for every
autocomplete keystroke, every hand message and every computer turn. Prints, for each table size,
min / median / max milliseconds of ``table_moves`` and of the whole ``legal_moves`` of the player
to move, each on a fresh copy of the position (no cache), and how many suggestions came out. The
positions are random but fixed by ``--seed``: runs of 4 and sets of 4 (cards a table move can
free), eight seats so that the four decks hold them (the others hold two cards each). Nothing here asserts a time.
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
SEATS = ["ana", "bea", "cai", "dan", "eva", "fer", "gil", "hugo"]  # 7-8 players: four decks


def position(melds: int, hand_size: int, seed: int) -> str:
    """A rami record: ``melds`` runs and sets on the table, ``ana`` (opened) to play with ``hand_size`` cards."""
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
        '[Dealer "hugo"]',
        f'[Table "{" | ".join(table)}"]',
        f'[Hand "ana" "{" ".join(hand)}"]',
        *others,
        '[Opened "ana bea"]',
        '[Turn "ana"]',
        '[Phase "play"]',
    ]) + "\n"


def timed(base: object, fn_name: str, repeat: int) -> tuple[list[float], int]:
    """Milliseconds of ``getattr(copy, fn_name)("ana")`` on ``repeat`` fresh copies, and the output's size."""
    times, size = [], 0
    for _ in range(repeat):
        game = copy.deepcopy(base)
        start = time.perf_counter()
        out = getattr(game, fn_name)("ana")
        times.append((time.perf_counter() - start) * 1000)
        size = len(out)
    return times, size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", type=int, default=25)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
