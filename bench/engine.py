"""Engine benchmark: gin random deals per second and min-deadwood speed, ours against peers.

    python bench/engine.py [--deals N] [--hands N] [--repeat R] [--seed S]

Prints, in one run:
1. gin random deals per second through the public engine API (``bot.engine.new_game``); if
   that API is missing or broken the line says why and the other figures still print;
2. microseconds per ``min_deadwood`` of a random 10-card hand, uncached (memo cleared before
   each pass; the hands are distinct) and cached (the same hands again);
3. with the optional ``bench`` extra (``pip install -e '.[bench]'``: open-spiel, rlcard), the same
   figures for OpenSpiel's ``gin_rummy`` (C++, through pyspiel) and RLCard's gin rummy (pure
   Python, raw game loop), on the SAME hands, as ratios ours/theirs, plus a check that every
   engine finds the same deadwood.

Figures are min / median over ``--repeat`` passes on a shared, noisy machine; nothing here asserts
a time. Cards are our ints (``suit * 13 + rank``, S H D C); OpenSpiel and RLCard number cards
the same way up to the order of suits, which does not change a deadwood.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without install

Figures = tuple[float, float]  # (min, median)
T = TypeVar("T")


def make_hands(count: int, seed: int) -> list[list[int]]:
    """``count`` distinct random 10-card hands."""
    rng = random.Random(seed)
    seen: set[frozenset[int]] = set()
    hands: list[list[int]] = []
    while len(hands) < count:
        cards = sorted(rng.sample(range(52), 10))
        key = frozenset(cards)
        if key not in seen:
            seen.add(key)
            hands.append(cards)
    return hands


def per_call_us(
    fn: Callable[[T], object],
    items: Sequence[T],
    repeat: int,
    before: Callable[[], None] | None = None,
) -> Figures:
    """Microseconds per call over ``items``: (min, median) over ``repeat`` passes."""
    passes = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        for item in items:
            fn(item)
        passes.append((time.perf_counter() - start) / len(items) * 1e6)
    return min(passes), statistics.median(passes)


def deals_per_second(play_one: Callable[[int, random.Random], None], deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        play_one(i, rng)
    return deals / (time.perf_counter() - start)


# --- ours --------------------------------------------------------------------------------------


def ours_deal_fn() -> Callable[[int, random.Random], None]:
    from bot.engine import new_game  # notation.md "The Python contract"

    def deal(i: int, rng: random.Random) -> None:
        game = new_game("gin", ["ana", "bea"], seed=i)
        steps = 0
        while not game.hand_over:
            seat = game.actors[0]
            moves = game.legal_moves(seat)
            game.play(seat, rng.choice(moves))
            steps += 1
            if steps > 10_000:
                raise RuntimeError(f"deal {i} did not end after 10,000 moves")

    return deal


def ours_min_deadwood(hands: list[list[int]], repeat: int) -> dict[str, Figures]:
    from bot.engine.search import clear_cache, mask_of, min_deadwood

    masks = [mask_of(h) for h in hands]
    min_deadwood(masks[0])  # build the tables once, outside the timing
    return {
        "uncached, from a mask": per_call_us(min_deadwood, masks, repeat, before=clear_cache),
        "uncached, from a card list": per_call_us(
            lambda cards: min_deadwood(mask_of(cards)), hands, repeat, before=clear_cache
        ),
        "cached, from a mask": per_call_us(min_deadwood, masks, repeat),
    }


def ours_values(hands: list[list[int]]) -> list[int]:
    from bot.engine.search import mask_of, min_deadwood

    return [min_deadwood(mask_of(h)) for h in hands]


# --- OpenSpiel (C++ through pyspiel) -----------------------------------------------------------


def openspiel_deal_fn() -> Callable[[int, random.Random], None]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")

    def deal(_: int, rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(actions))

    return deal


def openspiel_min_deadwood_fn() -> Callable[[list[int]], int]:
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    return utils.min_deadwood


# --- RLCard (pure Python) ----------------------------------------------------------------------


def rlcard_deal_fn(seed: int) -> Callable[[int, random.Random], None]:
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)  # RLCard shuffles with this

    def deal(_: int, rng: random.Random) -> None:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))

    return deal


def rlcard_min_deadwood_fn() -> tuple[Callable[[list[Any]], int], Callable[[list[int]], list[Any]]]:
    """RLCard's min deadwood of a hand of its ``Card`` objects, and the conversion from our ints."""
    from rlcard.games.gin_rummy.utils import melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    def min_deadwood(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand)
        if clusters:
            return rl_utils.get_deadwood_count(hand, clusters[0])
        return sum(rl_utils.get_deadwood_value(card) for card in hand)

    def convert(cards: list[int]) -> list[Any]:
        return [rl_utils.get_card(c) for c in cards]  # RLCard's card_id = rank + 13 * suit, S H D C

    return min_deadwood, convert


# --- report ------------------------------------------------------------------------------------


VARIANT_RUNS = [
    ("basic", "basic", None),
    ("wrotham", "wrotham", None),
    ("gin", "gin", None),
    ("rami", "rami", None),
    ("rami, table_manipulation", "rami", "table_manipulation=true"),
    ("tradicional", "tradicional", None),
    ("tradicional, claims (option 2)", "tradicional", "opt2_rummy_call=true"),
    ("dummy", "dummy", None),
    ("dummy, cut-ins", "dummy", "cut_ins=true"),
]


def variant_deals_per_second(variant: str, options: str | None, deals: int, seed: int) -> float:
    """Random deals of one variant, every move chosen among ``legal_moves`` (windows included)."""
    from bot.engine import new_game

    seats = ["ana", "bea"] if variant == "gin" else ["ana", "bea", "cai", "dan"]
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        game = new_game(variant, seats, seed=i, options=options)
        while not game.hand_over:
            seat = game.actors[0]
            game.play(seat, rng.choice(game.legal_moves(seat)))
    return deals / (time.perf_counter() - start)


# A 40-card rami table (two decks) and a player who has opened, holding a second 6H.
_TABLE = (
    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS | 2H 3H 4H 5H 6H 7H 8H 9H TH | 3D 4D 5D 6D 7D 8D 9D"
    " | 5C 6C 7C 8C 9C TC JC | KH KD KC | 4S 4H 4D"
)
TABLE_POSITION = f"""
[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "ana bea cai dan"]
[Dealer "dan"]
[Table "{_TABLE}"]
[Hand "ana" "6H QD QC 9S 2C"]
[Opened "ana"]
[Turn "ana"]
[Phase "play"]
"""
_REST = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS | 3D 4D 5D 6D 7D 8D 9D | 5C 6C 7C 8C 9C TC JC | KH KD KC | 4S 4H 4D"
TABLE_MOVES = [
    ("legal: split a run with a 6H", f"table 2H 3H 4H 5H 6H | 6H 7H 8H 9H TH | {_REST}"),
    ("refused: a table card missing", f"table 2H 3H 4H 5H 6H | 6H 7H 8H 9H | {_REST}"),
    ("refused: an invalid meld", f"table 2H 3H 4H 5H 6H 6H 7H 8H 9H TH | {_REST}"),
]


def table_move_us(move: str, count: int) -> tuple[float, float]:
    """p50 and p99 microseconds of ``play(seat, move)`` on fresh copies of the position."""
    import copy

    from bot.engine import IllegalMove, load_game

    base = load_game(TABLE_POSITION)
    assert sum(len(m.cards) for m in base.melds) == 40
    games = [copy.deepcopy(base) for _ in range(count)]
    times = []
    for game in games:
        start = time.perf_counter()
        with contextlib.suppress(IllegalMove):
            game.play("ana", move)
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def fmt(figures: Figures) -> str:
    return f"{figures[0]:8.2f} µs min, {figures[1]:8.2f} µs median"


def ratio_line(name: str, ours: float, theirs: float, higher_is_better: bool) -> str:
    ratio = ours / theirs
    faster = ratio if higher_is_better else 1 / ratio
    word = "faster" if faster >= 1 else "slower"
    amount = faster if faster >= 1 else 1 / faster
    return f"  ours/{name}: {ratio:.3f}  (ours {amount:.2f}x {word})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="random gin deals per engine (default 200)")
    parser.add_argument("--hands", type=int, default=20_000, help="random 10-card hands (default 20000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes over the hands (default 5)")
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args(argv)

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}")
    print(f"{args.deals} deals per engine; {args.hands} distinct random 10-card hands, {args.repeat} passes")
    hands = make_hands(args.hands, args.seed)
    deal_rate: dict[str, float] = {}
    deadwood_us: dict[str, float] = {}

    print("\n== ours (bot.engine) ==")
    try:
        rate = deals_per_second(ours_deal_fn(), args.deals, args.seed)
    except (ImportError, AttributeError) as error:
        print(f"gin random deals: engine API not available yet ({type(error).__name__}: {error})")
    except Exception as error:  # the engine is being written: report, keep benchmarking
        print(f"gin random deals: failed ({type(error).__name__}: {error})")
    else:
        deal_rate["ours"] = rate
        print(f"gin random deals: {rate:8.1f} per second ({1000 / rate:.2f} ms a deal)")
    ours = ours_min_deadwood(hands, args.repeat)
    for label, figures in ours.items():
        print(f"min_deadwood, {label + ':':28} {fmt(figures)}")
    deadwood_us["ours"] = ours["uncached, from a mask"][0]
    expected = ours_values(hands)

    # A peer's min deadwood takes a hand in its own card type (OpenSpiel: our ints in a list;
    # RLCard: its Card objects); ``convert`` makes that hand from ours.
    fn: Callable[[list[Any]], int]
    convert: Callable[[list[int]], list[Any]]
    for name in ("openspiel", "rlcard"):
        print(f"\n== {name} ==")
        try:
            if name == "openspiel":
                deal = openspiel_deal_fn()
                fn, convert = openspiel_min_deadwood_fn(), list
            else:
                deal = rlcard_deal_fn(args.seed)
                fn, convert = rlcard_min_deadwood_fn()
        except ImportError as error:
            print(f"skipped: not installed ({error}); pip install -e '.[bench]' to compare")
            continue
        rate = deals_per_second(deal, args.deals, args.seed)
        deal_rate[name] = rate
        print(f"gin random deals: {rate:8.1f} per second ({1000 / rate:.2f} ms a deal)")
        converted = [convert(h) for h in hands]
        figures = per_call_us(fn, converted, args.repeat)
        deadwood_us[name] = figures[0]
        print(f"min deadwood, {'same hands:':27} {fmt(figures)}")
        differ = sum(fn(h) != e for h, e in zip(converted, expected, strict=True))
        print(f"deadwood disagreements with ours: {differ} of {len(hands)}")

    print("\n== every variant: random deals per second through legal_moves + play (4 seats, gin 2) ==")
    for label, variant, options in VARIANT_RUNS:
        rate = variant_deals_per_second(variant, options, max(5, args.deals // 10), args.seed)
        print(f"{label:34} {rate:8.1f} per second ({1000 / rate:7.1f} ms a deal)")

    print("\n== judging a table move on a 40-card table (rami, manipulation on) ==")
    for label, move in TABLE_MOVES:
        p50, p99 = table_move_us(move, 300)
        print(f"{label:34} p50 {p50 / 1000:6.2f} ms   p99 {p99 / 1000:6.2f} ms")

    if len(deadwood_us) > 1:
        print("\n== ratios (ours/theirs; deals: rate, above 1 = ours faster; deadwood: time, uncached) ==")
        for name in ("openspiel", "rlcard"):
            if name in deal_rate and "ours" in deal_rate:
                print(f"gin random deals per second, vs {name}")
                print(ratio_line(name, deal_rate["ours"], deal_rate[name], higher_is_better=True))
            if name in deadwood_us:
                print(f"µs per min deadwood, vs {name}")
                print(ratio_line(name, deadwood_us["ours"], deadwood_us[name], higher_is_better=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
