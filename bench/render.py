"""Render and encode times and byte sizes of the renderers (figures for docs/performance.md).

    python bench/render.py [--repeat N] [--replay-runs N] [--formats]

Prints p50 / p90 / min over N runs (warm: sprite, text and mask caches filled, as in a running
bot) and the first, cold run, for: a 4-seat table with 12 melds, the crowded 8-seat table with
30 melds, an 11-card and a 15-card hand, the end-of-deal screen, a lobby (five seated, two option
chips), the rearrange builder's draft (49 cards: 9 melds, 5 loose cards, a 10-card hand) and a
63-move replay (GIF and animated WebP; max(3, N / 10) runs unless ``--replay-runs`` says).
``--formats`` also compares encoders on the 4-seat table (PNG from RGB and from a palette at
several zlib levels, WebP, JPEG), which is how the formats were chosen. Goals (issue
"Renderers"): table <= 15 ms and < 300 KB, hand <= 5 ms, 60-move replay < 2 s, a draft picture
< 250 ms (each builder step answers with one, well within Discord's 3 s); the lobby took about
4 ms when it was a timed test (issue 14 moved the timing here).
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import PIL  # noqa: E402
from PIL import Image  # noqa: E402

from bot.engine import deal_steps as replay_steps  # noqa: E402
from bot.engine import load_game  # noqa: E402
from renderers import LobbyInfo, draw_hand, draw_lobby, draw_result, draw_table, render_replay  # noqa: E402
from renderers.draft import draft_scene  # noqa: E402
from renderers.draft_samples import built_draft  # noqa: E402
from renderers.encode import Rendered, encode_still, quantize  # noqa: E402
from renderers.samples import NAMES, built_result, built_view  # noqa: E402
from scripts.played import played_game  # noqa: E402

T = TypeVar("T")


def timed(fn: Callable[[], T], repeat: int) -> tuple[float, list[float], T]:
    """(cold ms, warm ms list, last result)."""
    t = time.perf_counter()
    out = fn()
    cold = (time.perf_counter() - t) * 1000
    warm = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        warm.append((time.perf_counter() - t) * 1000)
    return cold, warm, out


def row(label: str, cold: float, warm: list[float], size: int | None = None, extra: str = "") -> None:
    warm = sorted(warm)
    p50 = statistics.median(warm)
    p90 = warm[min(len(warm) - 1, int(len(warm) * 0.9))]
    kb = f"{size / 1024:8.1f} KB" if size is not None else " " * 11
    print(f"{label:44} p50 {p50:7.1f}  p90 {p90:7.1f}  min {warm[0]:7.1f}  cold {cold:7.1f} ms {kb} {extra}")


def still(label: str, draw: Callable[[], Image.Image], repeat: int) -> None:
    cold_d, warm_d, image = timed(draw, repeat)
    cold_e, warm_e, out = timed(lambda: encode_still(image, "bench"), repeat)
    size = len(out.data)
    row(f"{label}: draw", cold_d, warm_d)
    row(f"{label}: encode", cold_e, warm_e)
    totals = [d + e for d, e in zip(warm_d, warm_e, strict=True)]
    row(f"{label}: total", cold_d + cold_e, totals, size, f"{image.width}x{image.height}")


def formats(image: Image.Image, repeat: int) -> None:
    print(f"\nEncoders on the 4-seat table ({image.width}x{image.height}):")

    def save(img: Image.Image, **kw: Any) -> Callable[[], int]:  # kw: Pillow's encoder params (Any there)
        def run() -> int:
            buf = io.BytesIO()
            img.save(buf, **kw)
            return len(buf.getvalue())

        return run

    cold, warm, _ = timed(lambda: quantize(image), repeat)
    row("quantize onto the shared palette", cold, warm)
    cold, warm, _ = timed(lambda: image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE),
                          repeat)
    row("quantize, own palette (FASTOCTREE)", cold, warm)
    pal = quantize(image)
    cases = [
        ("PNG RGB level 1", image, {"format": "PNG", "compress_level": 1}),
        ("PNG RGB level 6", image, {"format": "PNG", "compress_level": 6}),
        ("PNG palette level 1", pal, {"format": "PNG", "compress_level": 1}),
        ("PNG palette level 3", pal, {"format": "PNG", "compress_level": 3}),
        ("PNG palette level 6", pal, {"format": "PNG", "compress_level": 6}),
        ("WebP lossless method 0", image, {"format": "WEBP", "lossless": True, "method": 0, "quality": 0}),
        ("WebP q85 method 0", image, {"format": "WEBP", "quality": 85, "method": 0}),
        ("JPEG q90 4:4:4", image, {"format": "JPEG", "quality": 90, "subsampling": 0}),
    ]
    for label, img, kw in cases:
        cold, warm, size = timed(save(img, **kw), repeat)
        row(label, cold, warm, size)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--replay-runs", type=int, default=0, help="warm runs of each replay (default max(3, N / 10))")
    parser.add_argument("--formats", action="store_true", help="compare still-image encoders too")
    args = parser.parse_args()
    n = args.repeat
    print(f"Python {platform.python_version()}, Pillow {PIL.__version__}, {platform.machine()}, repeat {n}\n")

    table4 = built_view("basic", 4, 12, seed=7, acting=2)
    crowded = built_view("rami", 8, 30, seed=4, acting=5)
    still("table 4 seats, 12 melds", lambda: draw_table(table4, names=NAMES).image, n)
    still("table 8 seats, 30 melds", lambda: draw_table(crowded, names=NAMES).image, n)
    hand11 = load_game('[Variant "gin"]\n[Seats "ana bea"]\n[Hand "ana" "3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D"]\n'
                       '[Turn "ana"]\n[Phase "play"]\n').view("ana")
    still("hand 11 cards, by suit", lambda: draw_hand(hand11).image, n)
    still("hand 11 cards, in melds", lambda: draw_hand(hand11, sort="melds").image, n)
    # A rami-sized hand (15 cards, just drawn), on the gin view.
    cards = ("AS", "2S", "3S", "4S", "5H", "6H", "7H", "9D", "9C", "9H", "JC", "QC", "KC", "2D", "8S")
    hand15 = replace(hand11, hand=cards)
    still("hand 15 cards, by rank", lambda: draw_hand(hand15, sort="rank").image, n)
    end = built_result(built_view("rami", 8, 14, seed=4, acting=5), winner=3)
    still("end of deal, 8 seats", lambda: draw_result(end, names=NAMES).image, n)
    seated = tuple(NAMES[s] for s in ("ana", "bea", "cris", "dolo", "inigo"))
    lobby = LobbyInfo("rami", (("first_meld_min", "40"), ("table_manipulation", "true")), seated, seated[0], 2, 8, 2)
    still("lobby, 5 seated, 2 option chips", lambda: draw_lobby(lobby).image, n)
    draft = built_draft()
    draft_cards = sum(len(m.cards) for m in draft.melds) + len(draft.loose) + len(draft.hand)
    still(f"draft {draft_cards} cards, {len(draft.melds)} melds", lambda: draft_scene(draft).image, n)

    record = played_game("wrotham", 3, seed=43).record()
    moves = len(replay_steps(record)) - 1
    for fmt in ("gif", "webp"):
        runs = args.replay_runs or max(3, n // 10)

        def replay(fmt: str = fmt) -> Rendered:
            return render_replay(replay_steps(record), names=NAMES, fmt=fmt)

        cold, warm, out = timed(replay, runs)
        size = len(out.data)
        row(f"replay {moves} moves, {fmt} (draw + encode)", cold, warm, size, f"{moves + 2} frames")
    if args.formats:
        formats(draw_table(table4, names=NAMES).image, n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
