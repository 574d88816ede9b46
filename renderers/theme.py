"""The look shared by every image: colours, the two deck colourings, seat colours and fonts.

What it is: constants and a cached font loader over the Inter files bundled in
``renderers/fonts`` (OFL, see the README there), so text never depends on what a machine has
installed. What it is not: no drawing and no layout (``cards.py``, ``draw.py`` and the scene
modules do that).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont

__all__ = [
    "CLASSIC",
    "FONT_LOCK",
    "FOUR_COLOUR",
    "Deck",
    "Palette",
    "deck_for",
    "font",
]

RGB = tuple[int, int, int]

_FONTS = Path(__file__).with_name("fonts")
_WEIGHTS = {"regular": "Inter-Regular.otf", "semibold": "Inter-SemiBold.otf", "bold": "Inter-Bold.otf",
            "heavy": "Inter-ExtraBold.otf"}


FONT_LOCK = threading.RLock()
"""Held around every FreeType call: a font face must not rasterise in two threads at once, and
the bot renders in worker threads. Texts and sprites are cached, so the lock is rarely taken."""


@cache
def font(size: int, weight: str = "bold") -> ImageFont.FreeTypeFont:
    """Inter at ``size`` px. The basic layout engine is used on purpose: it is what every Pillow
    build has, so an image is the same bytes with or without libraqm."""
    return ImageFont.truetype(str(_FONTS / _WEIGHTS[weight]), size, layout_engine=ImageFont.Layout.BASIC)


@dataclass(frozen=True, slots=True)
class Deck:
    """How the four suits are coloured (index S H D C)."""

    name: str
    suits: tuple[RGB, RGB, RGB, RGB]


CLASSIC = Deck("classic", ((28, 31, 38), (206, 38, 48), (206, 38, 48), (28, 31, 38)))
"""Red hearts and diamonds, black spades and clubs."""
FOUR_COLOUR = Deck("four", ((28, 31, 38), (206, 38, 48), (22, 96, 196), (24, 128, 62)))
"""The four-colour poker deck, for colour-blind players: black spades, red hearts, blue diamonds,
green clubs."""


def deck_for(four_colour: bool) -> Deck:
    return FOUR_COLOUR if four_colour else CLASSIC


class Palette:
    """Colours of the table and its furniture."""

    felt = (21, 92, 66)
    felt_dark = (15, 70, 50)
    felt_line = (44, 122, 92)
    band = (12, 56, 40)  # header and caption bars
    panel = (16, 64, 47)
    panel_acting = (39, 98, 72)
    panel_resigned = (52, 60, 58)
    ink = (245, 247, 244)  # text on felt
    ink_soft = (185, 214, 198)
    ink_faint = (128, 170, 148)
    gold = (255, 200, 61)
    gold_dark = (120, 84, 0)
    green_ok = (86, 200, 120)
    red_bad = (240, 104, 96)
    chip = (236, 240, 236)
    chip_ink = (24, 48, 36)
    card_face = (252, 252, 249)
    card_edge = (176, 184, 190)
    wild_face = (255, 243, 205)
    wild_edge = (214, 168, 40)
    joker = (108, 62, 168)
    back = (32, 58, 140)
    back_light = (58, 88, 178)
    back_rim = (242, 244, 250)
    shadow = (0, 0, 0)


SEAT_COLOURS: tuple[RGB, ...] = (
    (255, 176, 59),  # amber
    (94, 183, 255),  # sky
    (255, 117, 143),  # rose
    (125, 224, 142),  # mint
    (196, 148, 255),  # lilac
    (255, 226, 98),  # lemon
    (98, 222, 216),  # teal
    (255, 152, 110),  # coral
)
"""One accent per seat (avatar disc, meld group name); names are always written too."""
