"""Bench: the normal and strong computer players in basic, wrotham, rami, tradicional and dummy.

Run: ``nice -n 15 python -m bench.robot_rummy [--deals N] [--mixed M] [--rotate R]``. It prints,
with 95% Wilson confidence intervals:
- Rami (table manipulation on) and Tradicional, four strong bots: the share of deals that end with
  someone going out (goal ≥ 90%), and the hand cards placed through ``table`` moves per deal, four
  strong bots against four normal ones (goal: strong places more);
- every variant, one strong bot and three normal ones (the strong seat moves round the table):
  the strong bot's share of deals won (goal > 25%);
- with ``--rotate R`` (issue 23), the same share over R deals each played four times, the strong
  bot in every seat in turn, so the card luck of a deal cancels (a seat dealt a winning hand is
  strong once and normal three times); deals nobody wins are left out. The plays of one deal are
  not independent, so the interval (over plays) is a little narrower than it should be;
  ``--rotate 2`` is the smoke size;
- move times p50/p99, overall and with 40 or more cards on the table (goal p99 ≤ 500 ms).
Deals are seeded by their number, so a run replays exactly (the times aside). Wrotham's deals
are spread over deals 1-6 of a game and dummy's over the twelve contracts.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from bot.engine import Game, Verb, load_game, new_game
from bot.robot import choose
from bot.robot.rummy import used_by

OPTIONS = {
    "basic": "",
    "wrotham": "",
    "rami": "table_manipulation=true",
    "tradicional": "",
    "dummy": "",
}
SEATS = ["p1", "p2", "p3", "p4"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / max(n, 1):.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f})"


class Stats:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.big: list[float] = []  # moves with 40+ cards on the table

    def quantile(self, xs: list[float], q: float) -> float:
        if not xs:
            return float("nan")
        s = sorted(xs)
        return s[min(len(s) - 1, int(q * len(s)))] * 1000

    def line(self) -> str:
        return (
            f"move time p50 {self.quantile(self.times, 0.5):.1f} ms, p99 {self.quantile(self.times, 0.99):.1f} ms "
            f"({len(self.times)} moves); with 40+ table cards p50 {self.quantile(self.big, 0.5):.1f} ms, "
            f"p99 {self.quantile(self.big, 0.99):.1f} ms ({len(self.big)} moves)"
        )


def start_deal(variant: str, seed: str) -> Game:
    """Deal ``seed``: wrotham spreads its deals over the six of a game (deals 4-6 go out with all
    seven cards at once) and dummy over the twelve contracts, so every part of the game counts."""
    k = int(seed.rsplit("-", 1)[1]) if seed.rsplit("-", 1)[-1].isdigit() else 0
    tags = [f'[Variant "{variant}"]', f'[Options "{OPTIONS[variant]}"]', f'[Seats "{" ".join(SEATS)}"]']
    tags.append(f'[Seed "{seed.replace("-", "")[:32]}"]')
    if variant == "wrotham":
        tags.append(f'[Deal "{1 + k % 6}"]')
    elif variant == "dummy":
        contract = 1 + k % 12
        tags.append(f'[Contract "{" ".join(f"{s}={contract}" for s in SEATS)}"]')
    else:
        return new_game(variant, SEATS, seed=seed, options=OPTIONS[variant])
    return load_game("\n".join(tags) + "\n")


def deal(variant: str, levels: dict[str, str], seed: str, stats: Stats) -> tuple[str, str | None, dict[str, int]]:
    """Play one deal; (outcome, winner, hand cards each seat placed through table moves)."""
    game = start_deal(variant, seed)
    rearranged = dict.fromkeys(SEATS, 0)
    while not game.hand_over:
        seat = game.actors[0]
        table = game.table
        start = time.perf_counter()
        move = choose(game, seat, level=levels[seat])
        spent = time.perf_counter() - start
        stats.times.append(spent)
        if sum(len(m) for m in table) >= 40:
            stats.big.append(spent)
        if move.verb is Verb.TABLE and move.melds:
            rearranged[seat] += len(used_by(move, table)[0])
        game.play(seat, move)
    res = game.result
    assert res is not None
    return res.outcome, res.winner, rearranged


def big_tables(count: int) -> None:
    """The strong search alone on rami positions with a 40-card table and a 14-card hand, checked
    by the engine as the player does (``load_game`` lays the position out, ``accepts`` judges)."""
    import random

    from bot.engine.cards import card_code, make_deck
    from bot.engine.meldgen import hand_meld_candidates
    from bot.robot.rummy import TURNS
    from bot.robot.sight import see

    spent: list[float] = []
    placed = 0
    for k in range(count):
        rnd = random.Random(k)
        deck = make_deck(2, 0)
        rnd.shuffle(deck)
        game = new_game("rami", SEATS[:2], seed=1, options="table_manipulation=true")
        rules = game.meld_rules  # type: ignore[attr-defined]
        pool = deck[:70]
        melds: list[list[str]] = []
        used = 0
        cands = hand_meld_candidates(pool, rules)
        rnd.shuffle(cands)
        left = list(pool)
        for r in cands:
            if used >= 40:
                break
            if all(left.count(c) >= n for c, n in Counter(r.cards).items()):
                for c in r.cards:
                    left.remove(c)
                melds.append(r.codes(rules))
                used += len(r.cards)
        rest = left + deck[70:]
        hand = " ".join(card_code(c) for c in rest[:14])
        other = " ".join(card_code(c) for c in rest[14:28])
        text = (
            f'[Variant "rami"]\n[Options "table_manipulation=true"]\n[Seats "p1 p2"]\n[Hand "p1" "{hand}"]\n'
            f'[Hand "p2" "{other}"]\n[Table "{" | ".join(" ".join(m) for m in melds)}"]\n'
            f'[Opened "p1 p2"]\n[Turn "p1"]\n[Phase "play"]\n'
        )
        pos = load_game(text)
        start = time.perf_counter()
        move = TURNS["rami"](see(pos, "p1", judge=True), True).rearrange()
        spent.append(time.perf_counter() - start)
        if move:
            placed += len(used_by(move, pos.table)[0])
            pos.play("p1", move)
    st = Stats()
    print(f"rami, {count} positions with a 40-card table and 14 cards in hand: strong search + engine check "
          f"p50 {st.quantile(spent, 0.5):.1f} ms, p99 {st.quantile(spent, 0.99):.1f} ms, "
          f"max {max(spent) * 1000:.1f} ms; {placed} hand cards placed", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=40, help="deals per all-strong / all-normal run")
    ap.add_argument("--mixed", type=int, default=60, help="deals per variant, one strong v three normal")
    ap.add_argument("--variants", default="basic,wrotham,rami,tradicional,dummy")
    ap.add_argument("--tables", type=int, default=100, help="40-card rami tables for the search alone")
    ap.add_argument("--rotate", type=int, default=0, help="deals per variant played with strong in every seat")
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v in OPTIONS]
    stats = Stats()
    if args.tables:
        big_tables(args.tables)
    for variant in ("rami", "tradicional"):
        if variant not in variants:
            continue
        placed = {}
        for level in ("strong", "normal"):
            out = 0
            cards = 0
            for k in range(args.deals):
                outcome, _, rearranged = deal(variant, dict.fromkeys(SEATS, level), f"{variant}-all-{k}", stats)
                out += outcome == "out"
                cards += sum(rearranged.values())
            placed[level] = cards
            print(f"{variant} four {level}: deals ending with someone out {pct(out, args.deals)}; "
                  f"hand cards placed by rearrangement {cards} ({cards / args.deals:.2f} a deal)", flush=True)
        print(f"{variant}: rearrangement strong {placed['strong']} v normal {placed['normal']} cards", flush=True)
    for variant in variants:
        wins = 0
        n = 0
        for k in range(args.mixed):
            strong_seat = SEATS[k % 4]
            levels = {s: ("strong" if s == strong_seat else "normal") for s in SEATS}
            outcome, winner, _ = deal(variant, levels, f"{variant}-mixed-{k}", stats)
            if winner is None:
                continue  # a void or blocked deal with no winner is not counted
            n += 1
            wins += winner == strong_seat
        print(f"{variant} one strong v three normal: strong wins {pct(wins, n)}", flush=True)
    for variant in variants if args.rotate else ():
        wins = n = 0
        for k in range(args.rotate):
            for strong_seat in SEATS:
                levels = {s: ("strong" if s == strong_seat else "normal") for s in SEATS}
                _, winner, _ = deal(variant, levels, f"{variant}-rot-{k}", stats)
                if winner is not None:
                    n += 1
                    wins += winner == strong_seat
        print(
            f"{variant} one strong v three normal, {args.rotate} deals rotated (strong in every seat): "
            f"strong wins {pct(wins, n)}",
            flush=True,
        )
    print(stats.line())


if __name__ == "__main__":
    main()
