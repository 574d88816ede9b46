"""Gin speed alone (issue 23): how many draws each level needs to reach a hand it may knock with.

    nice -n 15 python bench/gin_speed.py                          # 1,000 deals per level
    python bench/gin_speed.py --deals 400 --set ROLLOUTS=64        # strong with more look-ahead
    python bench/gin_speed.py --deals 2 --jobs 1                   # smoke

Under the seed's scoring whoever knocks first wins about 95% of deals, so a deal is a race. This
bench measures one side of it with the other side taken away: the measured level plays against a
passive seat that passes the first upcard, draws from the stock and throws that very card away,
never taking and never knocking. The measured level may take those discards (random stock cards,
as in play it may take the opponent's). A deal counts the measured level's turns (each a draw or
a take, then a discard) until its hand after the discard has deadwood of 10 or less, whether or
not it knocks then (strong's knock test needs an opponent worth fearing). Deal ``k`` is seeded
``<prefix>-<k>``, the measured level dealing in even deals, so every level meets the same cards.

What it is not: the race itself (``bench/robot.py`` plays it) nor feeding, which it leaves out by
design: the passive seat takes nothing. It prints each level's mean turns with a 95% interval
of the mean (normal approximation), the spread, and the deals that never got there (left out of
the mean). With the yardstick among the levels it also prints each other level's race share
against it: how often the level would be first to a knockable hand if the two raced without
feeding each other, their times drawn independently from these deals (ties halved, since the
seats swap in play). ``--set`` changes strong's constants as in ``bench/robot.py``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.robot import apply_settings, run_jobs, strong_settings, taken
from bot.engine import Game, Move, Verb, new_game
from bot.engine.cards import parse_card
from bot.engine.search import mask_of, min_deadwood
from bot.robot import choose, see

MEASURED, PASSIVE = "p1", "p2"
KNOCK_LIMIT = 10  # rules.md §2.3.3, the seed's knock limit
NEVER = -1


def passive_move(game: Game, held: frozenset[str]) -> Move:
    """Pass the upcard, draw from the stock, then throw away the card just drawn."""
    verbs = {m.verb for m in game.legal_moves(PASSIVE)}
    for plain in (Verb.PASS, Verb.DRAW):
        if plain in verbs:
            return Move(plain)
    (drawn,) = set(see(game, PASSIVE).hand) - held
    return Move.of(Verb.DISCARD, [drawn])


def turns_to_knockable(level: str, seed: str, measured_deals: bool) -> int:
    """The measured level's turns until its hand may knock, or ``NEVER`` if the deal ends first."""
    game = new_game("gin", [MEASURED, PASSIVE], seed=seed, dealer=MEASURED if measured_deals else PASSIVE)
    turns = 0
    held = frozenset(see(game, PASSIVE).hand)
    while not game.hand_over:
        seat = game.actors[0]
        if seat == PASSIVE:
            move = passive_move(game, held)
            game.play(PASSIVE, move)
            if move.verb is Verb.DISCARD:  # what it holds between its turns, to find its next draw
                held = frozenset(see(game, PASSIVE).hand)
            continue
        move = choose(game, MEASURED, level=level)
        if move.verb is Verb.KNOCK:
            return turns + 1
        game.play(MEASURED, move)
        if move.verb is Verb.DISCARD:
            turns += 1
            hand = mask_of(parse_card(c) for c in see(game, MEASURED).hand)
            if min_deadwood(hand) <= KNOCK_LIMIT:
                return turns
    return NEVER


def play(job: tuple[str, str, list[int]]) -> dict:
    level, prefix, ks = job
    turns = [turns_to_knockable(level, f"{prefix}-{k}", k % 2 == 0) for k in ks]
    return {"turns": turns, "set": taken()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000, help="deals per level (default 1000)")
    parser.add_argument("--levels", default="yardstick,easy,normal,strong", help="levels, comma-separated")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--prefix", default="speed", help="seed prefix")
    parser.add_argument("--set", default="", help="strong gin's constants: NAME=VALUE,...")
    args = parser.parse_args(argv)
    settings = strong_settings(args.set)
    apply_settings(settings)
    print(f"gin alone against a passive seat, {args.deals} deals per level: turns until deadwood <= {KNOCK_LIMIT}")
    if settings:
        print("strong changed: " + ", ".join(f"{k} = {v}" for k, v in settings.items()))
    measured: dict[str, list[int]] = {}
    print(f"{'level':<10} {'deals':>6} {'mean':>7} {'95% CI':>13} {'sd':>6} {'never':>6}")
    for level in filter(None, args.levels.split(",")):
        chunks = [list(range(args.deals))[i :: args.jobs] for i in range(args.jobs)]
        jobs = [(level, args.prefix, ks) for ks in chunks if ks]
        parts = run_jobs(play, jobs, args.jobs, settings)
        turns = [t for p in parts for t in p["turns"]]
        measured[level] = turns
        reached = [t for t in turns if t != NEVER]
        mean = statistics.fmean(reached) if reached else math.nan
        sd = statistics.pstdev(reached) if len(reached) > 1 else 0.0
        half = 1.96 * sd / math.sqrt(len(reached)) if reached else math.nan
        print(f"{level:<10} {len(turns):>6} {mean:>7.3f} {f'{mean - half:.2f}–{mean + half:.2f}':>13} {sd:>6.2f} "
              f"{len(turns) - len(reached):>6}")
    if "yardstick" in measured and len(measured) > 1:
        print("race share against the yardstick, without feeding (ties halved)")
        for level, turns in measured.items():
            if level != "yardstick":
                print(f"{level:<10} {race_share(turns, measured['yardstick']):>7.1%}")
    return 0


def race_share(mine: list[int], theirs: list[int]) -> float:
    """P(mine < theirs) + P(equal) / 2 over independent draws from the two lists (never = last)."""
    def key(t: int) -> float:
        return math.inf if t == NEVER else t

    sooner = ties = 0
    for a in map(key, mine):
        for b in map(key, theirs):
            sooner += a < b
            ties += a == b
    return (sooner + ties / 2) / (len(mine) * len(theirs))


if __name__ == "__main__":
    raise SystemExit(main())
