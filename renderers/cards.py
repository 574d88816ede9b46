"""Card sprites: faces, jokers, wild cards standing for another card, and backs, drawn by our code.

What it is: every card the product shows comes from here, drawn once per (card, width, deck
colouring) and cached: the full card (``card_sprite``: corner index, pips or a court panel) and the
index card (``index_sprite``: only the rank over the suit, as large as the card allows, for
crowded tables read at phone width). Suits are vector shapes (never font glyphs), drawn supersampled and scaled
down so their edges are smooth. A sprite carries a soft shadow; ``Sprite.pad`` says where the card
itself starts inside it.

What it is not: no layout and no game logic; it reads card codes as notation.md writes them
(``7H``, ``TH``, ``JK``, ``JK=8H``, ``JK=7``, ``2C=7``) and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .theme import FONT_LOCK, RGB, Deck, Palette, font

__all__ = ["Face", "Sprite", "card_back", "card_height", "card_sprite", "display_rank", "index_height",
           "index_rank_height", "index_sprite", "parse_code", "suit_mask"]

SUITS = "SHDC"
RANKS = "A23456789TJQK"
_SS = 4  # supersampling factor for sprites


@dataclass(frozen=True, slots=True)
class Face:
    """A card code read for drawing. ``rank``/``suit`` are what the card is (None for a joker);
    ``as_rank``/``as_suit`` what a wild card stands for in a meld (``as_suit`` None when open)."""

    code: str
    rank: str | None
    suit: int | None
    as_rank: str | None = None
    as_suit: int | None = None

    @property
    def joker(self) -> bool:
        return self.rank is None

    @property
    def wild(self) -> bool:
        """A wild card shown as what it stands for (``JK=8H``, ``2C=7``)."""
        return self.as_rank is not None


def parse_code(code: str) -> Face:
    """Read ``7H``, ``TH``/``10H``, ``JK``, ``JK=8H``, ``JK=7`` or ``2C=7C``.

    >>> parse_code("JK=8H")
    Face(code='JK=8H', rank=None, suit=None, as_rank='8', as_suit=1)
    """
    text = code.strip().upper()
    own, eq, stands = text.partition("=")
    if eq and not stands:
        raise ValueError(f"not a card code: {code!r}")
    if own.startswith("10"):
        own = "T" + own[2:]
    if own == "JK":
        rank, suit = None, None
    elif len(own) == 2 and own[0] in RANKS and own[1] in SUITS:
        rank, suit = own[0], SUITS.index(own[1])
    else:
        raise ValueError(f"not a card code: {code!r}")
    as_rank: str | None = None
    as_suit: int | None = None
    if stands:
        if stands.startswith("10"):
            stands = "T" + stands[2:]
        if not stands or stands[0] not in RANKS or len(stands) > 2 or (len(stands) == 2 and stands[1] not in SUITS):
            raise ValueError(f"not a card code: {code!r}")
        as_rank = stands[0]
        as_suit = SUITS.index(stands[1]) if len(stands) == 2 else None
    return Face(code, rank, suit, as_rank, as_suit)


def display_rank(rank: str) -> str:
    """What a card's corner shows: ``10`` for ``T``."""
    return "10" if rank == "T" else rank


def card_height(width: int) -> int:
    """Cards are 5:7 (poker size)."""
    return round(width * 1.4)


# --- vector shapes ---------------------------------------------------------------------------------


def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: float) -> None:
    d.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=255)


def _poly(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], s: float) -> None:
    d.polygon([(x * s, y * s) for x, y in pts], fill=255)


def _shape(d: ImageDraw.ImageDraw, kind: str, s: float) -> None:
    """Draw a unit-box shape scaled by ``s`` (pixels per unit) in white on an L image."""
    if kind == "H":
        _circle(d, 0.285, 0.31, 0.265, s)
        _circle(d, 0.715, 0.31, 0.265, s)
        _poly(d, [(0.035, 0.40), (0.5, 0.95), (0.965, 0.40), (0.5, 0.28)], s)
    elif kind == "D":
        _poly(d, [(0.5, 0.02), (0.64, 0.22), (0.88, 0.5), (0.64, 0.78), (0.5, 0.98), (0.36, 0.78), (0.12, 0.5),
                  (0.36, 0.22)], s)
    elif kind == "S":
        _circle(d, 0.29, 0.58, 0.235, s)
        _circle(d, 0.71, 0.58, 0.235, s)
        _poly(d, [(0.5, 0.02), (0.065, 0.52), (0.935, 0.52)], s)
        _poly(d, [(0.5, 0.50), (0.30, 0.97), (0.70, 0.97)], s)
    elif kind == "C":
        _circle(d, 0.5, 0.27, 0.225, s)
        _circle(d, 0.265, 0.585, 0.225, s)
        _circle(d, 0.735, 0.585, 0.225, s)
        _circle(d, 0.5, 0.52, 0.13, s)
        _poly(d, [(0.5, 0.50), (0.30, 0.97), (0.70, 0.97)], s)
    elif kind == "*":  # joker star
        pts = []
        for i in range(10):
            ang = -math.pi / 2 + i * math.pi / 5
            r = 0.5 if i % 2 == 0 else 0.2
            pts.append((0.5 + r * math.cos(ang), 0.54 + r * math.sin(ang)))
        _poly(d, pts, s)
    elif kind == "crown":
        _poly(d, [(0.06, 0.30), (0.30, 0.58), (0.5, 0.18), (0.70, 0.58), (0.94, 0.30), (0.84, 0.80), (0.16, 0.80)], s)
        d.rectangle((0.16 * s, 0.84 * s, 0.84 * s, 0.94 * s), fill=255)
        for cx, cy in ((0.08, 0.27), (0.5, 0.14), (0.92, 0.27)):
            _circle(d, cx, cy, 0.07, s)
    elif kind == "?":  # an open suit: a ring
        _circle(d, 0.5, 0.5, 0.38, s)
        d.ellipse((0.5 * s - 0.2 * s, 0.5 * s - 0.2 * s, 0.5 * s + 0.2 * s, 0.5 * s + 0.2 * s), fill=0)
    else:
        raise ValueError(kind)


@cache
def suit_mask(kind: str, size: int) -> Image.Image:
    """An antialiased ``size``×``size`` mask of a suit (``S H D C``), the joker star ``*``, the
    open-suit ring ``?`` or the winner's ``crown``."""
    big = Image.new("L", (size * _SS, size * _SS), 0)
    _shape(ImageDraw.Draw(big), kind, size * _SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paint_shape(target: Image.Image | ImageDraw.ImageDraw, kind: str, box: tuple[int, int, int], colour: RGB) -> None:
    """Paint shape ``kind`` of side ``box[2]`` with its top-left corner at ``box[:2]``, on an image
    or through an existing ``ImageDraw`` (cheaper)."""
    x, y, size = box
    if size < 2:
        return
    draw = target if isinstance(target, ImageDraw.ImageDraw) else ImageDraw.Draw(target)
    draw.bitmap((x, y), suit_mask(kind, size), fill=colour)


# --- sprites ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sprite:
    """A card drawn with its shadow; the card's top-left corner is at (pad, pad) in ``image``."""

    image: Image.Image
    pad: int
    width: int
    height: int

    def paste(self, canvas: Image.Image, x: int, y: int) -> None:
        canvas.paste(self.image, (x - self.pad, y - self.pad), self.image)


def _suit_colour(deck: Deck, suit: int | None) -> RGB:
    return deck.suits[suit] if suit is not None else Palette.joker


def _shadowed(card: Image.Image, radius: int) -> Sprite:
    """Put an RGBA card (full-resolution) on a transparent sprite with a soft drop shadow."""
    w, h = card.size
    pad = max(2, w // 14)
    sprite = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    shadow = Image.new("L", sprite.size, 0)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (pad, pad + max(1, pad // 2), pad + w - 1, pad + h - 1 + max(1, pad // 2)), radius=radius, fill=110
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(max(1, pad / 2)))
    sprite.putalpha(shadow)
    sprite.alpha_composite(card, (pad, pad))
    return Sprite(sprite, pad, w, h)


def _blank(width: int, face: RGB, edge: RGB, height: int | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """A supersampled rounded card (5:7 unless ``height`` is given): (image, draw, corner radius at 1x)."""
    h = height or card_height(width)
    radius = max(3, round(width * 0.085))
    big = Image.new("RGBA", (width * _SS, h * _SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, width * _SS - 1, h * _SS - 1), radius=radius * _SS, fill=(*edge, 255))
    inset = max(_SS, round(width * _SS / 70))
    d.rounded_rectangle(
        (inset, inset, width * _SS - 1 - inset, h * _SS - 1 - inset), radius=radius * _SS - inset, fill=(*face, 255)
    )
    return big, d, radius


def _text_fit(d: ImageDraw.ImageDraw, img: Image.Image, text: str, x: float, y: float, size: int, max_w: float,
              colour: RGB, weight: str = "heavy", centre: bool = True) -> float:
    """Draw ``text`` with its top at ``y``, centred on ``x`` (or starting at ``x``), squeezed
    horizontally if wider than ``max_w``. Returns the bottom of the ink."""
    f = font(size, weight)
    left, top, right, bottom = (int(v) for v in f.getbbox(text))  # FreeType boxes are whole pixels
    tw, th = right - left, bottom - top
    if tw <= max_w:
        px = x - tw / 2 if centre else x
        d.text((px - left, y - top), text, font=f, fill=(*colour, 255))
        return y + th
    # Squeeze: draw on its own layer and scale it to the width (keeps "10" inside a narrow corner).
    layer = Image.new("L", (tw + 4, th + 4), 0)
    ImageDraw.Draw(layer).text((2 - left, 2 - top), text, font=f, fill=255)
    layer = layer.resize((max(1, round(max_w)), th + 4), Image.Resampling.LANCZOS)
    px = x - layer.width / 2 if centre else x
    img.paste((*colour, 255), (round(px), round(y - 2)), layer)
    return y + th


def _corner(big: Image.Image, d: ImageDraw.ImageDraw, width: int, rank_text: str, suit_kind: str, colour: RGB,
            mark: str | None = None, mark_colour: RGB | None = None) -> None:
    """Rank and suit in the top-left corner (supersampled coordinates)."""
    s = _SS
    compact = width < 60
    rank_size = round(width * (0.36 if compact else 0.29)) * s
    cx = width * (0.22 if compact else 0.19) * s
    max_w = width * (0.36 if compact else 0.29) * s
    bottom = _text_fit(d, big, rank_text, cx, width * 0.09 * s, rank_size, max_w, colour)
    suit_size = round(width * (0.26 if compact else 0.20)) * s
    sy = bottom + width * 0.05 * s
    big.paste((*colour, 255), (round(cx - suit_size / 2), round(sy)), _big_mask(suit_kind, suit_size))
    if mark:
        my = sy + suit_size + width * 0.05 * s
        msize = round(width * 0.17) * s
        if mark == "*":
            big.paste((*(mark_colour or Palette.joker), 255), (round(cx - msize / 2), round(my)),
                      _big_mask("*", msize))
        else:
            # A wild natural card (dummy's twos): its own small rank and suit, side by side.
            rank_text, suit_kind = mark[:-1], mark[-1]
            tsize = round(width * 0.15) * s
            f = font(tsize, "bold")
            left, top, right, _ = f.getbbox(rank_text)
            total = (right - left) + msize * 0.8
            x0 = cx - total / 2
            d.text((x0 - left, my - top), rank_text, font=f, fill=(*(mark_colour or colour), 255))
            big.paste((*(mark_colour or colour), 255), (round(x0 + right - left + msize * 0.1), round(my)),
                      _big_mask(suit_kind, round(msize * 0.7)))


@cache
def _big_mask(kind: str, size: int) -> Image.Image:
    """A shape mask at supersampled size (drawn once more supersampled, for clean edges)."""
    return suit_mask(kind, size)


def _face_image(face: Face, width: int, deck: Deck, full: bool) -> tuple[Image.Image, int]:
    s = _SS
    h = card_height(width)
    wild = face.wild
    big, d, radius = _blank(width, Palette.wild_face if wild else Palette.card_face,
                            Palette.wild_edge if wild else Palette.card_edge)
    cw, ch = width * s, h * s
    if wild:
        # The corner says what the card stands for; a star (joker) or the real card (a wild two) under it.
        as_colour = _suit_colour(deck, face.as_suit) if face.as_suit is not None else (96, 96, 104)
        _corner(big, d, width, display_rank(face.as_rank or ""), "?" if face.as_suit is None else SUITS[face.as_suit],
                as_colour, mark="*" if face.joker else _wild_label(face), mark_colour=Palette.joker if face.joker
                else _suit_colour(deck, face.suit))
        centre_kind = "*" if face.joker else SUITS[face.suit or 0]
        centre_colour = Palette.joker if face.joker else _suit_colour(deck, face.suit)
        size = round(width * 0.46) * s
        big.paste((*centre_colour, 255), (round(cw * (0.58 if full else 0.66) - size / 2), round(ch * 0.60 - size / 2)),
                  _big_mask(centre_kind, size))
    elif face.joker:
        colour = Palette.joker
        _text_fit(d, big, "JK", width * 0.19 * s, width * 0.09 * s, round(width * 0.25) * s, width * 0.30 * s, colour)
        msize = round(width * 0.2) * s
        big.paste((*colour, 255), (round(width * 0.19 * s - msize / 2), round(width * 0.40 * s)),
                  _big_mask("*", msize))
        size = round(width * 0.56) * s
        big.paste((*Palette.gold, 255), (round(cw * 0.56 - size / 2), round(ch * 0.56 - size / 2)),
                  _big_mask("*", size))
        inner = round(size * 0.62)
        big.paste((*colour, 255), (round(cw * 0.56 - inner / 2), round(ch * 0.56 - inner / 2 + size * 0.03)),
                  _big_mask("*", inner))
        if width >= 60:
            _text_fit(d, big, "JOKER", cw * 0.56, ch * 0.80, round(width * 0.13) * s, cw * 0.6, colour, "heavy")
    else:
        colour = _suit_colour(deck, face.suit)
        rank = face.rank or "A"
        _corner(big, d, width, display_rank(rank), SUITS[face.suit or 0], colour)
        if width >= 60 and full:
            # The same index upside down in the bottom-right corner, as on a real card (copied
            # before the centre is drawn, so no piece of the centre comes along).
            corner = big.crop((0, 0, round(cw * 0.36), round(ch * 0.40)))
            flipped = corner.rotate(180)
            big.alpha_composite(flipped, (cw - flipped.width, ch - flipped.height))
            # The crop took the rounded edge and border with it; repaint them.
            d.rounded_rectangle((0, 0, cw - 1, ch - 1), radius=radius * s, outline=(*Palette.card_edge, 255),
                                width=max(s, round(width * s / 70)))
        if rank in "JQK" and width >= 60:
            # Court cards: the letter and the suit in a tinted panel between the two corners.
            # Half hidden under the next card: move it right, out of the visible strip of a meld.
            shift = 0.0 if full else 0.15
            fx0, fy0, fx1, fy1 = cw * (0.31 + shift), ch * 0.27, cw * (0.69 + shift), ch * 0.73
            tint = tuple(round(c * 0.14 + 255 * 0.86) for c in colour)
            d.rounded_rectangle((fx0, fy0, fx1, fy1), radius=width * 0.06 * s, fill=(*tint, 255),
                                outline=(*colour, 255), width=max(s, round(width * 0.018 * s)))
            bottom = _text_fit(d, big, rank, (fx0 + fx1) / 2, fy0 + ch * 0.05, round(width * 0.26) * s,
                               (fx1 - fx0) * 0.8, colour)
            size = round(width * 0.17) * s
            big.paste((*colour, 255), (round((fx0 + fx1) / 2 - size / 2), round(bottom + ch * 0.035)),
                      _big_mask(SUITS[face.suit or 0], size))
        else:
            frac = (0.44 if rank == "A" else 0.38) if width >= 60 else (0.42 if rank == "A" else 0.38)
            size = round(width * frac) * s
            cx = cw * ((0.5 if full else 0.63) if width >= 60 else 0.64)
            cy = ch * (0.5 if width >= 60 else 0.68)
            big.paste((*colour, 255), (round(cx - size / 2), round(cy - size / 2)), _big_mask(SUITS[face.suit or 0],
                                                                                              size))
    return big.resize((width, h), Image.Resampling.LANCZOS), radius


def _wild_label(face: Face) -> str:
    return display_rank(face.rank or "") + SUITS[face.suit or 0] if face.rank else "*"


@lru_cache(maxsize=2048)
def card_sprite(code: str, width: int, deck: Deck, full: bool = True) -> Sprite:
    """The sprite of a card code at ``width`` px (height 1.4×), in the given deck colouring.
    ``full=False`` leaves out the upside-down index, for a card half hidden under the next one
    (its fragments at the edge of the visible part would only be noise)."""
    face = parse_code(code)
    with FONT_LOCK:
        img, radius = _face_image(face, width, deck, full)
    return _shadowed(img, radius)


@lru_cache(maxsize=64)
def card_back(width: int) -> Sprite:
    """The back of every card: a navy lattice inside a white rim, with a small emblem."""
    s = _SS
    h = card_height(width)
    big, d, radius = _blank(width, Palette.back_rim, Palette.card_edge)
    cw, ch = width * s, h * s
    rim = max(2 * s, round(width * 0.07 * s))
    inner = (rim, rim, cw - 1 - rim, ch - 1 - rim)
    d.rounded_rectangle(inner, radius=max(s, radius * s - rim), fill=(*Palette.back, 255))
    pattern = Image.new("RGBA", big.size, (0, 0, 0, 0))
    pd = ImageDraw.Draw(pattern)
    step = max(3 * s, round(width * 0.14 * s))
    line = max(s, round(width * 0.018 * s))
    for k in range(-ch, cw + ch, step):
        pd.line((k, 0, k + ch, ch), fill=(*Palette.back_light, 255), width=line)
        pd.line((k, ch, k + ch, 0), fill=(*Palette.back_light, 255), width=line)
    mask = Image.new("L", big.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=max(s, radius * s - rim), fill=255)
    mask = ImageChops.multiply(mask, pattern.getchannel("A"))
    big.paste((*Palette.back_light, 255), (0, 0), mask)
    # Emblem: a gold diamond in a navy disc.
    r = width * 0.2 * s
    d.ellipse((cw / 2 - r, ch / 2 - r, cw / 2 + r, ch / 2 + r), fill=(*Palette.back, 255),
              outline=(*Palette.back_rim, 255), width=max(s, round(width * 0.025 * s)))
    size = round(r * 1.2)
    big.paste((*Palette.gold, 255), (round(cw / 2 - size / 2), round(ch / 2 - size / 2)), _big_mask("D", size))
    return _shadowed(big.resize((width, h), Image.Resampling.LANCZOS), radius)


# --- index cards -----------------------------------------------------------------------------------

INDEX_RATIO = 1.7  # an index card is this much taller than wide


def index_height(width: int) -> int:
    return round(width * INDEX_RATIO)


@cache
def _rank_font_size(cap: int) -> int:
    """The font size whose capitals (``8``) are ``cap`` px tall, in the heavy weight."""
    size = cap
    while True:
        with FONT_LOCK:
            top, bottom = font(size + 1, "heavy").getbbox("8")[1::2]
        if bottom - top > cap:
            return size
        size += 1


def index_rank_height(width: int) -> int:
    """How tall an index card's rank is drawn (its capitals), in px: 0.45 of its height."""
    return round(index_height(width) * 0.45)


def _index_image(face: Face, width: int, deck: Deck) -> tuple[Image.Image, int]:
    s = _SS
    h = index_height(width)
    wild = face.wild
    big, d, radius = _blank(width, Palette.wild_face if wild else Palette.card_face,
                            Palette.wild_edge if wild else Palette.card_edge, h)
    cw = width * s
    pad = width * 0.08 * s
    cap = index_rank_height(width) * s
    size = _rank_font_size(cap)
    top = h * 0.075 * s
    suit_size = round(h * 0.30) * s
    suit_y = top + cap + h * 0.06 * s
    if face.joker and not wild:
        _text_fit(d, big, "JK", cw / 2, top, size, cw - 2 * pad, Palette.joker)
        star = round(suit_size * 1.1)
        big.paste((*Palette.gold, 255), (round(cw / 2 - star / 2), round(suit_y - star * 0.05)), _big_mask("*", star))
        inner = round(star * 0.62)
        big.paste((*Palette.joker, 255), (round(cw / 2 - inner / 2), round(suit_y - star * 0.05 + (star - inner) / 2
                                                                             + star * 0.03)), _big_mask("*", inner))
        return big.resize((width, h), Image.Resampling.LANCZOS), radius
    if wild:
        rank, suit = face.as_rank or "", face.as_suit
        colour = _suit_colour(deck, suit) if suit is not None else (96, 96, 104)
    else:
        rank, suit = face.rank or "A", face.suit
        colour = _suit_colour(deck, suit)
    _text_fit(d, big, display_rank(rank), cw / 2, top, size, cw - 2 * pad, colour)
    kind = "?" if suit is None else SUITS[suit]
    if not wild:
        big.paste((*colour, 255), (round(cw / 2 - suit_size / 2), round(suit_y)), _big_mask(kind, suit_size))
        return big.resize((width, h), Image.Resampling.LANCZOS), radius
    # A wild card: what it stands for on the left, what it is on the right (a star, or the two of dummy).
    small = round(suit_size * 0.72)
    gap = cw * 0.04
    left = cw / 2 - gap / 2 - small
    big.paste((*colour, 255), (round(left), round(suit_y + (suit_size - small) / 2)), _big_mask(kind, small))
    mx = cw / 2 + gap / 2
    if face.joker:
        big.paste((*Palette.joker, 255), (round(mx), round(suit_y + (suit_size - small) / 2)), _big_mask("*", small))
    else:
        own = _suit_colour(deck, face.suit)
        _text_fit(d, big, display_rank(face.rank or ""), mx + small / 2, suit_y + (suit_size - small) / 2,
                  _rank_font_size(round(small * 0.9)), small * 1.1, own)
    return big.resize((width, h), Image.Resampling.LANCZOS), radius


@lru_cache(maxsize=1024)
def index_sprite(code: str, width: int, deck: Deck) -> Sprite:
    """The index card of a code at ``width`` px (height ``index_height``): the rank, as large as
    the card allows, over its suit. A wild card is cream like its full card, with what it stands
    for and a joker's star (or a wild two's own rank) side by side under it."""
    face = parse_code(code)
    with FONT_LOCK:
        img, radius = _index_image(face, width, deck)
    return _shadowed(img, radius)
