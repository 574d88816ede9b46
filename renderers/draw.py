"""Drawing primitives shared by the scenes: a canvas that remembers what it drew where.

What it is: ``Scene`` wraps a Pillow image and records every text box (its ink bounds), every card
and every named region it draws, so tests can check what a player would notice (nothing runs off
the image, the acting seat is the highlighted one, a hand shows only its own cards) without
reading pixels. It also holds the small widgets every scene uses: pills, inline card chips, text
fitted with an ellipsis, and text mixed with card codes.

What it is not: no game knowledge and no layout decisions; scenes (``table.py``, ``hand.py``,
``result.py``, ``replay.py``) decide where things go.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from .cards import SUITS, card_back, card_sprite, display_rank, index_sprite, paint_shape, parse_code
from .theme import CLASSIC, FONT_LOCK, RGB, Deck, Palette, font

__all__ = ["PROBE", "Box", "Region", "Scene", "TextBox", "clean_name", "is_card_code"]

Box = tuple[int, int, int, int]

_CARD_RE = re.compile(r"^(?:(?:10|[A2-9TJQK])[SHDC]|JK)(?:=(?:10|[A2-9TJQK])[SHDC]?)?$")
# Code points the bundled font has (see renderers/fonts/README.md); anything else is dropped from names.
_SUPPORTED = [(0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC)]


def is_card_code(token: str) -> bool:
    """Whether a token is a card code (``7H``, ``10H``, ``JK``, ``JK=8H``, ``2C=7``)."""
    return bool(_CARD_RE.match(token.upper())) if token.isupper() or token[:1].isdigit() else False


def clean_name(name: str, fallback: str) -> str:
    """A display name reduced to what the bundled font can draw (emoji and other scripts dropped);
    ``fallback`` (the seat id) when nothing is left."""
    kept = "".join(ch for ch in name if any(lo <= ord(ch) <= hi for lo, hi in _SUPPORTED))
    kept = " ".join(kept.split())
    return kept or fallback


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, weight: str) -> tuple[Image.Image, int, int, float]:
    """A text rendered once as a mask: (mask, left, top, advance) relative to the line box's
    top-left corner (anchor ``la``). Labels repeat from one render to the next, so this cache
    takes most of the text cost out of a table."""
    with FONT_LOCK:
        f = font(size, weight)
        left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="la"))  # whole pixels (FreeType)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="la")
        return mask, left, top, f.getlength(text)


_SS = 4  # supersampling for shape masks


@lru_cache(maxsize=1024)
def _ellipse_mask(w: int, h: int) -> Image.Image:
    """An antialiased ellipse mask, ``w``×``h``."""
    big = Image.new("L", (w * _SS, h * _SS), 0)
    ImageDraw.Draw(big).ellipse((0, 0, w * _SS - 1, h * _SS - 1), fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


@lru_cache(maxsize=256)
def _corners(r: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The four antialiased corner masks (top-left, top-right, bottom-left, bottom-right) of a
    rounded rectangle of radius ``r``: only the corners need a mask, the rest is a plain fill."""
    disc = _ellipse_mask(2 * r, 2 * r)
    return (disc.crop((0, 0, r, r)), disc.crop((r, 0, 2 * r, r)), disc.crop((0, r, r, 2 * r)),
            disc.crop((r, r, 2 * r, 2 * r)))


@dataclass(frozen=True, slots=True)
class TextBox:
    """A text as drawn: its string, the bounds of its ink and, when it was given one, the room it had
    (``room``: the ``max_width`` span or the pill around it, as a box), which its ink must not leave."""

    text: str
    box: Box
    room: Box | None = None


@dataclass(frozen=True, slots=True)
class Region:
    """A named area: ``kind`` such as ``seat``, ``acting``, ``meld``, ``card``, ``discard``; ``key``
    says which (a seat name, a meld number, a card code)."""

    kind: str
    key: str
    box: Box


@dataclass
class Scene:
    """An image being drawn plus the record of what was drawn on it."""

    image: Image.Image
    deck: Deck
    texts: list[TextBox] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)
    panels: list[Box] = field(default_factory=list)  # every rounded rectangle drawn: panels, pills, badges

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)

    @classmethod
    def new(cls, width: int, height: int, deck: Deck, background: RGB = Palette.felt) -> Scene:
        return cls(Image.new("RGB", (width, height), background), deck)

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    # --- records --------------------------------------------------------------------------------

    def mark(self, kind: str, key: str, box: Box) -> None:
        self.regions.append(Region(kind, key, tuple(int(v) for v in box)))  # type: ignore[arg-type]

    def found(self, kind: str) -> list[Region]:
        return [r for r in self.regions if r.kind == kind]

    # --- text -----------------------------------------------------------------------------------

    @staticmethod
    def measure(text: str, size: int, weight: str = "bold") -> int:
        """Advance width of ``text`` in px."""
        return round(_text_mask(text, size, weight)[3]) if text else 0

    @staticmethod
    def fit(text: str, size: int, weight: str, max_width: int) -> str:
        """``text``, cut with an ellipsis so that it is at most ``max_width`` px wide."""
        if _text_mask(text, size, weight)[3] <= max_width:
            return text
        while text and _text_mask(text + "…", size, weight)[3] > max_width:
            text = text[:-1].rstrip()
        return text + "…" if text else ""

    def text(self, x: float, y: float, text: str, size: int, colour: RGB, weight: str = "bold", *,
             align: str = "left", max_width: int | None = None) -> Box:
        """Draw one line whose line box starts at ``y`` (top of the font's ascender) and is placed
        at ``x`` by ``align`` (left / centre / right). Records and returns the ink box."""
        room: Box | None = None
        if max_width is not None:
            text = self.fit(text, size, weight, max_width)
            lo = x - (max_width / 2 if align == "centre" else max_width if align == "right" else 0)
            room = (int(lo), 0, round(lo + max_width), self.height)
        if not text:
            return (int(x), int(y), int(x), int(y))
        mask, left, top, advance = _text_mask(text, size, weight)
        if align == "centre":
            x -= advance / 2
        elif align == "right":
            x -= advance
        px, py = round(x) + left, round(y) + top
        self.draw.bitmap((px, py), mask, fill=colour)
        ibox = (px, py, px + mask.width, py + mask.height)
        self.texts.append(TextBox(text, ibox, room))
        return ibox

    # --- shapes ---------------------------------------------------------------------------------

    def rrect(self, box: tuple[float, float, float, float], radius: float, fill: RGB,
              outline: RGB | None = None, width: int = 0) -> None:
        """An antialiased rounded rectangle (``outline`` drawn ``width`` px inside the box)."""
        x0, y0, x1, y1 = (round(v) for v in box)
        self.panels.append((x0, y0, x1, y1))
        if outline is not None and width > 0:
            self._rrect(x0, y0, x1, y1, round(radius), outline)
            x0, y0, x1, y1 = x0 + width, y0 + width, x1 - width, y1 - width
            radius = max(0, radius - width)
        self._rrect(x0, y0, x1, y1, round(radius), fill)

    def _rrect(self, x0: int, y0: int, x1: int, y1: int, r: int, fill: RGB) -> None:
        w, h = x1 - x0, y1 - y0
        if w <= 0 or h <= 0:
            return
        r = min(r, w // 2, h // 2)
        if r <= 0:
            self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)
            return
        self.draw.rectangle((x0 + r, y0, x1 - r - 1, y1 - 1), fill=fill)
        if h > 2 * r:
            self.draw.rectangle((x0, y0 + r, x0 + r - 1, y1 - r - 1), fill=fill)
            self.draw.rectangle((x1 - r, y0 + r, x1 - 1, y1 - r - 1), fill=fill)
        tl, tr, bl, br = _corners(r)
        self.draw.bitmap((x0, y0), tl, fill=fill)
        self.draw.bitmap((x1 - r, y0), tr, fill=fill)
        self.draw.bitmap((x0, y1 - r), bl, fill=fill)
        self.draw.bitmap((x1 - r, y1 - r), br, fill=fill)

    def ellipse(self, box: tuple[float, float, float, float], fill: RGB) -> None:
        x0, y0, x1, y1 = (round(v) for v in box)
        if x1 > x0 and y1 > y0:
            self.draw.bitmap((x0, y0), _ellipse_mask(x1 - x0, y1 - y0), fill=fill)

    # --- widgets --------------------------------------------------------------------------------

    def pill(self, x: float, y: float, text: str, size: int, fill: RGB, ink: RGB, *, height: int | None = None,
             icon: str | None = None, weight: str = "bold") -> Box:
        """A rounded label; ``icon`` is ``play`` (a triangle) or a shape kind drawn before the text."""
        h = height or round(size * 1.55)
        pad = round(h * 0.42)
        icon_w = round(h * 0.42) + round(h * 0.2) if icon else 0
        w = pad * 2 + icon_w + self.measure(text, size, weight)
        self.rrect((x, y, x + w, y + h), h / 2, fill)
        if icon == "play":
            s = h * 0.42
            cx, cy = x + pad, y + h / 2
            self.draw.polygon([(cx, cy - s / 2), (cx + s * 0.87, cy), (cx, cy + s / 2)], fill=ink)
        elif icon:
            s = round(h * 0.48)
            paint_shape(self.draw, icon, (round(x + pad - 1), round(y + (h - s) / 2), s), ink)
        self.text(x + pad + icon_w, y + (h - round(size * 1.21)) / 2, text, size, ink, weight)
        box = (int(x), int(y), int(x + w), int(y + h))
        if self.texts and self.texts[-1].text == text:  # its room is the pill
            self.texts[-1] = TextBox(text, self.texts[-1].box, box)
        return box

    def pill_width(self, text: str, size: int, *, height: int | None = None, icon: str | None = None,
                   weight: str = "bold") -> int:
        h = height or round(size * 1.55)
        pad = round(h * 0.42)
        icon_w = round(h * 0.42) + round(h * 0.2) if icon else 0
        return pad * 2 + icon_w + self.measure(text, size, weight)

    def card(self, code: str, x: int, y: int, width: int, *, record: bool = True, full: bool = True) -> Box:
        """Paste a face-up card with its top-left corner at (x, y); ``full=False`` for a card the
        next one half covers."""
        sprite = card_sprite(code, width, self.deck, full)
        sprite.paste(self.image, x, y)
        box = (x, y, x + sprite.width, y + sprite.height)
        if record:
            self.mark("card", code, box)
        return box

    def index_card(self, code: str, x: int, y: int, width: int) -> Box:
        """Paste an index card (the rank over the suit, ``cards.index_sprite``) at (x, y)."""
        sprite = index_sprite(code, width, self.deck)
        sprite.paste(self.image, x, y)
        box = (x, y, x + sprite.width, y + sprite.height)
        self.mark("card", code, box)
        return box

    def back(self, x: int, y: int, width: int) -> Box:
        sprite = card_back(width)
        sprite.paste(self.image, x, y)
        return (x, y, x + sprite.width, y + sprite.height)

    # --- text with card codes -------------------------------------------------------------------

    def chip_width(self, code: str, size: int) -> int:
        face = parse_code(code)
        rank = face.as_rank if face.wild else face.rank
        label = display_rank(rank) if rank else "JK"
        return round(size * 0.35) * 2 + self.measure(label, size, "heavy") + round(size * 0.82)

    def chip(self, x: float, y: float, code: str, size: int) -> Box:
        """A card code as a small white chip: rank and a vector suit, in the deck's colours."""
        face = parse_code(code)
        h = round(size * 1.45)
        w = self.chip_width(code, size)
        wild = face.wild or face.joker
        self.rrect((x, y, x + w, y + h), round(h * 0.22), Palette.wild_face if wild else Palette.card_face)
        if face.joker and not face.wild:
            label, kind, colour = "JK", "*", Palette.joker
        else:
            rank = face.as_rank if face.wild else face.rank
            suit = face.as_suit if face.wild else face.suit
            label = display_rank(rank or "")
            kind = SUITS[suit] if suit is not None else "?"
            colour = self.deck.suits[suit] if suit is not None else (96, 96, 104)
        tx = x + round(size * 0.35)
        self.text(tx, y + (h - round(size * 1.21)) / 2, label, size, colour, "heavy")
        s = round(size * 0.78)
        paint_shape(self.draw, kind, (round(x + w - round(size * 0.3) - s), round(y + (h - s) / 2), s), colour)
        box = (int(x), int(y), int(x + w), int(y + h))
        self.mark("chip", code, box)
        return box

    def rich_width(self, parts: Sequence[str | tuple[str]], size: int, weight: str = "semibold") -> int:
        """Width of a line made of text parts and card chips (a 1-tuple holds a card code)."""
        gap = round(size * 0.25)
        total = 0
        previous_chip = False
        for part in parts:
            if isinstance(part, tuple):
                total += self.chip_width(part[0], size) + (gap if previous_chip else 0)
                previous_chip = True
            else:
                total += self.measure(part, size, weight)
                previous_chip = False
        return total

    def rich(self, x: float, y: float, parts: Sequence[str | tuple[str]], size: int, colour: RGB,
             weight: str = "semibold") -> int:
        """Draw text parts and card chips on one line; returns the x where the line ends."""
        gap = round(size * 0.25)
        chip_h = round(size * 1.45)
        line_h = round(size * 1.21)
        previous_chip = False
        for part in parts:
            if isinstance(part, tuple):
                x += gap if previous_chip else 0
                self.chip(x, y + (line_h - chip_h) / 2, part[0], size)
                x += self.chip_width(part[0], size)
                previous_chip = True
                continue
            if part.strip():
                self.text(x, y, part, size, colour, weight)
            x += self.measure(part, size, weight)
            previous_chip = False
        return round(x)


PROBE = Scene(Image.new("RGB", (1, 1)), CLASSIC)
"""A 1×1 scene for measuring text and widgets before the real picture exists (never drawn on)."""
