"""Smoke runs of every bench under ``bench/`` (issue 20: "a bench rots unseen").

What it is: each bench runs as a person would run it (``python bench/NAME.py``, from the
repository), on small sizes so that it takes a few seconds, and the test checks that it exits
cleanly and prints its figures: the lines that carry them, each with a number in it.
What it is not: a timing test. No figure's value is asserted (the developer guide: timings are
measured by the benches, never asserted in tests); ``docs/performance.md`` keeps the measured
figures.

The benches that time the CPU run one at a time on one xdist worker (group ``bench``), so they
neither crowd each other nor the rest of the suite; ``bench/load.py`` starts the real bot against
the fake Discord and joins the end-to-end tests' group (``e2e``), which runs one at a time.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?"

cpu_bench = pytest.mark.xdist_group("bench")


def run_bench(script: str, *args: str, timeout: float = 300) -> str:
    """Run ``bench/<script>`` with ``args`` from the repository; its standard output, once it exited 0."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, (f"bench/{script} exited {proc.returncode}\n"
                                  f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
    return proc.stdout


def has_lines(out: str, *patterns: str) -> None:
    """Every pattern matches a whole line of ``out`` (``{n}`` stands for a printed number)."""
    lines = out.splitlines()
    for pattern in patterns:
        rx = re.compile(pattern.replace("{n}", NUMBER))
        assert any(rx.fullmatch(line.strip()) for line in lines), f"no line like {pattern!r} in:\n{out}"


def section(out: str, title: str) -> str:
    """The lines printed under ``== title ==``, up to the next section."""
    match = re.search(rf"^== {re.escape(title)} ==$\n(.*?)(?=^== |\Z)", out, re.M | re.S)
    assert match, f"no section {title!r} in:\n{out}"
    return match.group(1)


@cpu_bench
def test_engine_bench_prints_ours_and_says_whether_the_peers_ran() -> None:
    out = run_bench("engine.py", "--deals", "20", "--hands", "200", "--repeat", "1")
    ours = section(out, "ours (bot.engine)")
    has_lines(ours, r"gin random deals: +{n} per second \({n} ms a deal\)",
              r"min_deadwood, uncached, from a mask: +{n} µs min, +{n} µs median",
              r"min_deadwood, uncached, from a card list: +{n} µs min, +{n} µs median",
              r"min_deadwood, cached, from a mask: +{n} µs min, +{n} µs median")
    # The peers are the optional extra [bench]: without them the run goes on and says they were skipped.
    for name, module in (("openspiel", "pyspiel"), ("rlcard", "rlcard")):
        peer = section(out, name)
        if importlib.util.find_spec(module) is None:
            has_lines(peer, r"skipped: not installed \(.*\); pip install -e '\.\[bench\]' to compare")
        else:
            has_lines(peer, r"gin random deals: +{n} per second \({n} ms a deal\)",
                      r"min deadwood, same hands: +{n} µs min, +{n} µs median",
                      r"deadwood disagreements with ours: {n} of 200")
    variants = section(out, "every variant: random deals per second through legal_moves + play (4 seats, gin 2)")
    for variant in ("basic", "wrotham", "gin", "rami", "tradicional", "dummy"):
        has_lines(variants, rf"{variant} +{{n}} per second \( *{{n}} ms a deal\)")
    table = section(out, "judging a table move on a 40-card table (rami, manipulation on)")
    has_lines(table, r"legal: .* p50 +{n} ms +p99 +{n} ms", r"refused: .* p50 +{n} ms +p99 +{n} ms")


@cpu_bench
def test_render_bench_prints_every_picture_and_the_encoders() -> None:
    out = run_bench("render.py", "--repeat", "1", "--replay-runs", "1", "--formats")
    timing = r" +p50 +{n} +p90 +{n} +min +{n} +cold +{n} ms"
    for picture in ("table 4 seats, 12 melds", "table 8 seats, 30 melds", "hand 11 cards, by suit",
                    "hand 15 cards, by rank", "end of deal, 8 seats", "lobby, 5 seated, 2 option chips"):
        has_lines(out, rf"{re.escape(picture)}: draw{timing}",
                  rf"{re.escape(picture)}: total{timing} +{{n}} KB \d+x\d+")
    has_lines(out, rf"draft \d+ cards, \d+ melds: total{timing} +{{n}} KB \d+x\d+",
              rf"replay \d+ moves, gif \(draw \+ encode\){timing} +{{n}} KB \d+ frames",
              rf"replay \d+ moves, webp \(draw \+ encode\){timing} +{{n}} KB \d+ frames",
              r"Encoders on the 4-seat table \(\d+x\d+\):",
              rf"PNG palette level 3{timing} +{{n}} KB")


@cpu_bench
def test_turn_bench_prints_a_turn_alone_and_in_bursts() -> None:
    out = run_bench("turn.py", "--turns", "20", "--games", "3", "--bursts", "2")
    stats = r" +p50 +{n} +p99 +{n} +max +{n} +min +{n} ms +\(n=\d+\)"
    has_lines(out, rf"turn \(commit \+ render\){stats}.*",
              rf"service\.play \(lock, load, engine, commit\){stats}",
              rf"public_view \+ render_table \(thread\){stats}",
              rf"acknowledgement \(receipt -> defer\){stats}.*",
              rf"table ready \(receipt -> committed \+ rendered\){stats}",
              r"whole burst: p50 {n} ms, max {n} ms")


@cpu_bench
def test_table_moves_bench_prints_each_table_size_and_the_burst() -> None:
    out = run_bench("table_moves.py", "--repeat", "2", "--games", "2", "--keys", "2")
    for melds in (10, 20, 40):
        for name in ("table_moves", "legal_moves"):
            has_lines(out, rf"{melds} melds +{name} +{{n}} +{{n}} +{{n}} ms +\(\d+ moves\)")
    for label in ("engine cached", r"engine not cached \(replayed\)"):
        has_lines(out, rf"{label} +every answer in +{{n}} ms, latest answer +{{n}} ms, "
                       r"event loop held at most +{n} ms")


@cpu_bench
def test_robot_bench_prints_each_pairing_and_the_move_times() -> None:
    # Small sizes through its own options: --deals 4 per pairing, --jobs 1 (no process pool).
    out = run_bench("robot.py", "--deals", "4", "--jobs", "1")
    for a, b in (("strong", "yardstick"), ("strong", "normal"), ("normal", "easy")):
        has_lines(out, rf"{a} vs {b} +\d+ +\d+ +\d+ +{{n}}% .*")
    for level in ("easy", "normal", "strong", "yardstick"):
        has_lines(out, rf"{level} +\d+ +{{n}} +{{n}}")


@cpu_bench
def test_robot_bench_plays_whole_matches_under_either_scoring() -> None:
    # One match to 100 per mode: the EAAI unit (against its 70% goal), then a whole game under the
    # seed's scoring, bonuses and all (no goal), each with the deals it took.
    out = run_bench("robot.py", "--matches", "1", "--jobs", "1", "--pairs", "strong:yardstick")
    has_lines(out, r"gin, 1 matches to 100 per pairing, EAAI scoring .*",
              r"strong vs yardstick +[01] +[01] +0 +{n}% .* 70% (ok|NO) +\d+:\d+ +\(\d+ deals\)")
    out = run_bench("robot.py", "--matches", "1", "--jobs", "1", "--pairs", "strong:yardstick", "--seed-scoring")
    has_lines(out, r"gin, 1 games to 100 per pairing, the seed's scoring .*",
              r"strong vs yardstick +[01] +[01] +0 +{n}% +{n}%–{n}% +\d+:\d+ +\(\d+ deals\)")


@cpu_bench
def test_robot_bench_measures_an_ablation_of_strong() -> None:
    # Strong without its feed charge, on two deals, through a process pool (the bench checks that
    # every worker played with the setting, whatever the start method); a name that is no
    # constant is refused.
    out = run_bench("robot.py", "--deals", "2", "--jobs", "2", "--pairs", "strong:yardstick",
                    "--set", "DANGER_WEIGHT=0,CANDIDATES=3")
    has_lines(out, r"strong changed: DANGER_WEIGHT = 0.0, CANDIDATES = 3")
    has_lines(out, r"strong vs yardstick +\d+ +\d+ +\d+ +{n}% .*")
    with pytest.raises(AssertionError, match="no numeric constant"):
        run_bench("robot.py", "--deals", "1", "--jobs", "1", "--set", "choose_strong=1")


@cpu_bench
def test_gin_feed_bench_prints_the_forecast_scores_and_the_blends() -> None:
    # One deal of forecasts with two short chains, and two blends of two deals, in one process.
    out = run_bench("gin_feed.py", "--brier", "1", "--chains", "2", "--steps", "40",
                    "--blend", "0,1", "--deals", "2", "--play", "1", "--jobs", "1")
    has_lines(out, r"forecasts at strong's discards: 1 deals, \d+ decisions .*, \d+ hand cards, "
                   r"{n}% of them feed a meld")
    for label in ("base rate", r"strong \(per-card chances\)", r"exact posterior \(yardstick\)"):
        has_lines(out, rf"{label} +{{n}}")
    for share in ("0", "1"):
        has_lines(out, rf"{share} +\d+ +\d+ +{{n}}% +{{n}}%–{{n}}%")
    has_lines(out, r"strong vs yardstick in play, 1 single deals, feed estimate from the posterior "
                   r"\(2 chains of 40 steps; \d+ discards fell back to strong's own\)")
    for label in ("as shipped", "exact posterior"):
        has_lines(out, rf"{label} +\d+ +\d+ +{{n}}% +{{n}}%–{{n}}%")
    has_lines(out, r"deals strong won only with the posterior: \d+; only as shipped: \d+")


@cpu_bench
def test_gin_speed_bench_prints_each_levels_turns_alone() -> None:
    # Two deals per level in one process, then strong with a constant changed through a pool.
    out = run_bench("gin_speed.py", "--deals", "2", "--jobs", "1")
    has_lines(out, r"gin alone against a passive seat, 2 deals per level: turns until deadwood <= 10")
    for level in ("yardstick", "easy", "normal", "strong"):
        has_lines(out, rf"{level} +2 +({{n}}|nan) +.* +{{n}} +[0-2]")
    has_lines(out, "race share against the yardstick, without feeding \\(ties halved\\)", r"strong +{n}%")
    out = run_bench("gin_speed.py", "--deals", "2", "--jobs", "2", "--levels", "strong", "--set", "ROLLOUTS=4")
    has_lines(out, r"strong changed: ROLLOUTS = 4", r"strong +2 +({n}|nan) +.* +{n} +[0-2]")


@cpu_bench
def test_gin_training_prints_each_weight_set_and_the_check() -> None:
    # One iteration of two weight sets on two deals each, a two-deal check, no process pool.
    out = run_bench("train_gin.py", "--population", "2", "--elite", "1", "--iterations", "1",
                    "--deals", "2", "--check", "2", "--jobs", "1")
    for label in ("iteration 0 set 0", "iteration 0 set 1", "shipped weights", "learned weights"):
        has_lines(out, rf"{label}.*: vs yardstick \d+/\d+ = {{n}}% .*; vs normal \d+/\d+ = {{n}}% .*")
    has_lines(out, r"learned: DANGER_WEIGHT = {n}, .*SHUN_FAR = {n}")


@cpu_bench
def test_robot_rummy_bench_prints_every_variant() -> None:
    # Small sizes through its own options: one deal per run, one mixed deal per variant, two tables.
    out = run_bench("robot_rummy.py", "--deals", "1", "--mixed", "1", "--tables", "2")
    has_lines(out, r"rami, 2 positions with a 40-card table .*: strong search \+ engine check "
                   r"p50 {n} ms, p99 {n} ms, max {n} ms; \d+ hand cards placed")
    for variant in ("rami", "tradicional"):
        for level in ("strong", "normal"):
            has_lines(out, rf"{variant} four {level}: deals ending with someone out \d+/\d+ = {{n}}% .*")
    for variant in ("basic", "wrotham", "rami", "tradicional", "dummy"):
        has_lines(out, rf"{variant} one strong v three normal: strong wins \d+/\d+ = {{n}}% .*")
    has_lines(out, r"move time p50 {n} ms, p99 {n} ms \(\d+ moves\).*")


LOAD_FIGURES = (
    r"\d+ games of basic, 2 seats each; lobbies opened and started in {n} s; 2 moves per game "
    r"\((in lockstep rounds|each game at its own pace)\) in {n} s",
    r"/rummy play: acknowledgement +n= *\d+ +p50 +{n} ms +p90 +{n} ms +p99 +{n} ms +max +{n} ms",
    r"/rummy play: hand answered +n= *\d+ +p50 +{n} ms .*",
    r"autocomplete answered \(wall clock\) +n= *\d+ +p50 +{n} ms .*",
    r"turns per second {n}; moves sent \d+, committed \d+; refused or lost: -?\d+",
    r"'heartbeat blocked' warnings: \d+; tracebacks: \d+; fake Discord violations: \d+",
    r"acknowledged after Discord's 3 s: \d+ of \d+",
    # Discord's request budget (issue 37), as the fake Discord counted it.
    r"== Discord's request budget over the timed moves .*",
    r"bot token \d+ requests, {n} a move; interaction tokens \d+, {n} a move",
    r"moves a second one bot could sustain under Discord's 50 a second: (\d+|unbounded)",
    r"429s \d+ \(\d+ global\); not waited out: \d+",
    r"interaction +{n} a move +\d+ +POST /interactions/\{interaction_id\}/\{token\}/callback",
    # The bot's own /metrics, read at the end (issue 21).
    r"== the bot's own /metrics, beside the bench's figures ==",
    r"acknowledgement, every interaction \(bot\) +n= *\d+ +p50 <= +{n} ms +p99 <= +{n} ms;.*",
    r"moves committed \(bot\) \d+ person, \d+ in all; \(bench\) \d+ in the timed rounds",
    r"database transaction \(bot\) +n= *\d+ .*conflicts \d+",
)


@pytest.mark.e2e
@pytest.mark.xdist_group("e2e")
def test_load_bench_on_sqlite_prints_its_figures() -> None:
    out = run_bench("load.py", "--games", "3", "--rounds", "2")
    has_lines(out, r"bench/load\.py .* SQLite, 1 process", *LOAD_FIGURES)


@pytest.mark.e2e
@pytest.mark.xdist_group("e2e")
@pytest.mark.parametrize("processes", [1, 2])
def test_load_bench_on_postgresql_prints_its_figures(pg_url: str, processes: int) -> None:
    # pg_url: the session's PostgreSQL (tests/postgres.py; under CI=true a missing server fails).
    out = run_bench("load.py", "--games", "3", "--rounds", "2", "--database-url", pg_url,
                    "--processes", str(processes))
    has_lines(out, rf"bench/load\.py .* PostgreSQL, {processes} process(es)?", *LOAD_FIGURES)


@cpu_bench
def test_activity_bench_prints_the_fan_out_the_loop_and_the_first_load() -> None:
    # Chromium is part of the first load's figure: under CI=true it is installed (.ci/run), else
    # the bench says it did not measure it only when Playwright itself is missing.
    out = run_bench("activity.py", "--games", "2", "--moves", "3", "--pace", "0.1")
    has_lines(out, r"Activity fan-out: {n} gin games x 4 pages .* {n} moves measured, 0 not seen .*",
              r"move -> every page of its game updated: p50 {n} ms  p95 {n} ms  p99 {n} ms  max {n} ms .*",
              r"event loop held: worst {n} ms, p99 {n} ms over {n} ticks .*",
              r"Discord REST requests by the Activity's wing: {n} for {n} moves .*",
              r"first load at 390x844 through the proxy: {n} KB transferred .*")
