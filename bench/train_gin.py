"""Learn strong gin's weights under the seed's scoring by the cross-entropy method (issue 23).

    nice -n 15 python bench/train_gin.py                       # the run of docs/performance.md
    python bench/train_gin.py --population 2 --elite 1 --iterations 1 --deals 2 --check 2 --jobs 1  # smoke

What it is: a training script, never part of the test run. The weights are the module constants of
``bot.robot.gin`` named in ``SPACE`` (how much a discard that feeds the opponent's meld costs, how
much deadwood held while they may knock costs, how fast their knock becomes likely, how strongly
their takes and discards move the card chances). Each iteration draws ``--population`` weight sets
from a normal distribution per weight (clipped to the weight's range), plays each against the
yardstick and against normal for ``--deals`` single deals apiece (the same seeds for every set, so
they are compared on the same deals), and refits the distribution to the ``--elite`` best. It
prints every set's rates, then checks the final mean against the shipped constants on
``--check`` fresh deals per pairing, and prints both with 95% intervals. A set is kept in
``bot/robot/gin.py`` only when that check says it is better; the figures go to
``docs/performance.md``.

What it is not: a tuner of the EAAI scoring's look-ahead (``Stakes``), or of anything but gin.
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.robot.gin as gin
from bench.robot import play_deals, wilson

SPACE: dict[str, tuple[float, float]] = {  # weight: its range
    "DANGER_WEIGHT": (0.0, 3.0),
    "DEADWOOD_WEIGHT": (0.0, 0.2),
    "EXPOSURE_WEIGHT": (0.0, 1.0),
    "RISK_BASE": (0.0, 0.1),
    "RISK_STEP": (0.0, 0.08),
    "UNDERCUT_SHARE": (0.3, 0.8),
    "PICK_NEAR": (1.0, 4.0),
    "PICK_FAR": (1.0, 2.5),
    "SHUN_NEAR": (0.2, 1.0),
    "SHUN_FAR": (0.4, 1.0),
}
OPPONENTS = ("yardstick", "normal")


def play_with(job: tuple[dict[str, float], str, str, list[int]]) -> dict:
    """``play_deals`` with strong's weights set to ``weights`` in this worker process."""
    weights, opponent, prefix, ks = job
    for name, value in weights.items():
        setattr(gin, name, value)
    return play_deals(("strong", opponent, prefix, ks))


def rates(weights: dict[str, float], deals: int, prefix: str, jobs: int) -> dict[str, tuple[int, int]]:
    """Strong's (won, lost) against each opponent over ``deals`` deals with ``weights``."""
    out = {}
    for opponent in OPPONENTS:
        work = [(weights, opponent, prefix, list(range(deals))[i::jobs]) for i in range(jobs)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                parts = list(pool.map(play_with, work))
        else:
            parts = [play_with(w) for w in work]
        out[opponent] = (sum(p["a"] for p in parts), sum(p["b"] for p in parts))
    return out


def score(result: dict[str, tuple[int, int]]) -> float:
    """The mean deal win rate over the opponents (what the method maximizes)."""
    return sum(w / max(1, w + lost) for w, lost in result.values()) / len(result)


def show(label: str, result: dict[str, tuple[int, int]]) -> str:
    parts = []
    for opponent, (w, lost) in result.items():
        lo, hi = wilson(w, w + lost)
        parts.append(f"vs {opponent} {w}/{w + lost} = {w / max(1, w + lost):.1%} ({lo:.1%}–{hi:.1%})")
    return f"{label}: " + "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--population", type=int, default=8)
    parser.add_argument("--elite", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--deals", type=int, default=400, help="training deals per opponent and weight set")
    parser.add_argument("--check", type=int, default=2000, help="fresh deals per opponent for the final check")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    shipped = {name: float(getattr(gin, name)) for name in SPACE}
    mean = dict(shipped)
    spread = {name: (hi - lo) / 4 for name, (lo, hi) in SPACE.items()}
    for it in range(args.iterations):
        tried = []
        for i in range(args.population):
            weights = (
                dict(mean)
                if i == 0
                else {n: min(SPACE[n][1], max(SPACE[n][0], rng.gauss(mean[n], spread[n]))) for n in SPACE}
            )
            result = rates(weights, args.deals, f"train{it}", args.jobs)
            tried.append((score(result), weights))
            print(show(f"iteration {it} set {i} ({score(result):.1%})", result), flush=True)
        tried.sort(key=lambda t: -t[0])
        elite = [w for _, w in tried[: args.elite]]
        for n in SPACE:
            values = [w[n] for w in elite]
            mean[n] = sum(values) / len(values)
            var = sum((v - mean[n]) ** 2 for v in values) / len(values)
            spread[n] = max(var**0.5, (SPACE[n][1] - SPACE[n][0]) / 40)
        print(f"iteration {it} mean: " + ", ".join(f"{n}={v:.3g}" for n, v in mean.items()), flush=True)
    print()
    print(show("shipped weights", rates(shipped, args.check, "check", args.jobs)))
    print(show("learned weights", rates(mean, args.check, "check", args.jobs)))
    print("learned: " + ", ".join(f"{n} = {v:.3g}" for n, v in mean.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
