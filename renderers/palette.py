"""The one 255-colour palette every encoded image uses.

What it is: a palette computed once per process from a sheet of sample pictures (tables of several
variants in both deck colourings, an end-of-deal screen, hands with their marks, a hint's hand and
table with its banner and frames), so it holds our
theme's colours and the antialiased blends between them. Mapping a picture onto a known palette
takes about 2 ms where computing a palette per picture takes 8–14 (bench/render.py), and it gives
a GIF the shared palette it needs. Index 255 stays free (the GIF's "unchanged" pixel). The
sheet's views are ``samples.py``'s, built from plain data: no game is loaded or played here.

What it is not: no drawing of its own and no encoding; ``encode.py`` applies it. A new colour in
the theme is picked up automatically, since the sheet is drawn by the real renderers;
``tests/renderers/test_encode.py`` checks that the mapping stays faithful. The order of imports is
one way: the table, hand and result modules draw (and import neither this module nor the
encoder), this module samples them, ``encode.py`` uses this module, and ``stills.py`` puts drawing
and encoding together.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from PIL import Image

from .hand import draw_hand
from .hint import HintMark
from .result import draw_result
from .samples import NAMES, built_hand, built_result, built_view
from .table import draw_table

__all__ = ["TRANSPARENT", "palette_of", "shared_palette"]

TRANSPARENT = 255
"""The palette index left free: a GIF frame's "unchanged since the last frame" pixel."""

_LOCK = threading.Lock()
_PALETTE: list[Image.Image] = []


def shared_palette() -> Image.Image:
    """A "P" image whose palette is the shared one (built on first use, about a second; threads
    asking at the same time wait for the one that builds it)."""
    if not _PALETTE:
        with _LOCK:
            if not _PALETTE:
                _PALETTE.append(_build())
    return _PALETTE[0]


def palette_of(samples: Iterable[Image.Image]) -> Image.Image:
    """One 255-colour palette for a whole animation, from a few representative frames (stacked)."""
    images = list(samples)
    width = max(im.width for im in images)
    sheet = Image.new("RGB", (width, sum(im.height for im in images)))
    y = 0
    for im in images:
        sheet.paste(im, (0, y))
        y += im.height
    return sheet.quantize(TRANSPARENT, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _build() -> Image.Image:
    sheet = [
        draw_table(built_view("rami", 8, 30, seed=4, acting=5), names=NAMES).image,
        draw_table(built_view("dummy", 4, 9, seed=2, acting=1), names=NAMES, four_colour=True).image,
        draw_table(built_view("tradicional", 3, 7, seed=3, acting=1, visible_pile=23), names=NAMES,
                   footer="·").image,
        draw_result(built_result(built_view("wrotham", 4, 8, seed=5, acting=1), winner=2), names=NAMES).image,
        draw_hand(built_hand(drawn="7D", took="9S"), sort="melds").image,
        draw_hand(built_hand(drawn="KD"), four_colour=True).image,
        # A hint's banner and frames (all the melds framed: the table before is given as empty).
        draw_hand(built_hand(), hint=HintMark("ana take", hand_before=built_hand().hand[1:])).image,
        draw_table(built_view("rami", 3, 4, seed=6), names=NAMES, hint=HintMark("ana draw", table_before=())).image,
    ]
    return palette_of(sheet)
