"""Encoding: the shared palette keeps pictures faithful; the GIF writer is exact and small."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw, ImageFont

from renderers import draw_hand, draw_result, draw_table
from renderers.encode import GifWriter, encode_still, quantize
from renderers.palette import shared_palette
from renderers.samples import NAMES, built_result, built_view
from renderers.theme import font

from .helpers import gin_hand_game


def _error(image: Image.Image) -> tuple[float, int]:
    """Mean and 99.9th percentile of the per-channel error the palette introduces."""
    diff = ImageChops.difference(image, quantize(image).convert("RGB"))
    hist = [0] * 256
    for band in diff.split():
        for value, count in enumerate(band.histogram()):
            hist[value] += count
    total = sum(hist)
    mean = sum(v * c for v, c in enumerate(hist)) / total
    seen = 0
    for value, count in enumerate(hist):
        seen += count
        if seen >= total * 0.999:
            return mean, value
    return mean, 255


def test_the_shared_palette_keeps_every_picture_faithful():
    pictures = [
        draw_table(built_view("basic", 4, 12, seed=7, acting=2), names=NAMES, four_colour=True).image,
        draw_table(built_view("wrotham", 3, 6, seed=9), locale="en").image,
        draw_result(built_result(built_view("dummy", 4, 8, seed=3), winner=1)).image,
        draw_hand(gin_hand_game().view("ana"), sort="melds").image,
    ]
    for picture in pictures:
        mean, p999 = _error(picture)
        assert mean < 1.5 and p999 < 40, (mean, p999)
    assert len(shared_palette().getpalette() or []) // 3 <= 255  # index 255 stays free for GIFs


def test_stills_are_palette_pngs():
    out = encode_still(draw_hand(gin_hand_game().view("ana")).image, "hand")
    image = Image.open(io.BytesIO(out.data))
    assert image.format == "PNG" and image.mode == "P" and out.filename == "hand.png"


def test_the_gif_writer_keeps_frames_exact_and_merges_repeats():
    palette = Image.new("P", (1, 1))
    palette.putpalette([0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])
    frames = []
    for i in range(4):
        frame = Image.new("RGB", (64, 32), (255, 255, 255))
        ImageDraw.Draw(frame).rectangle((i * 8, 4, i * 8 + 10, 20), fill=(255, 0, 0))
        frames.append(frame)
    frames.insert(2, frames[1].copy())  # a repeated frame: shown longer, not stored twice
    buf = io.BytesIO()
    writer = GifWriter(buf, palette, (64, 32))
    for frame in frames:
        writer.add(frame, 100)
    writer.close()
    gif = Image.open(io.BytesIO(buf.getvalue()))
    assert gif.n_frames == 4
    expected = [frames[0], frames[1], frames[3], frames[4]]
    lengths = [100, 200, 100, 100]
    for i, frame in enumerate(expected):
        gif.seek(i)
        assert gif.convert("RGB").tobytes() == frame.tobytes()
        assert gif.info["duration"] == lengths[i]


def test_spanish_accents_render_with_the_bundled_font():
    f = font(40, "bold")

    def glyph(ch: str) -> bytes:
        image = Image.new("L", (60, 60))
        ImageDraw.Draw(image).text((10, 5), ch, font=f, fill=255)
        return image.tobytes()

    missing = glyph("\u4e00")  # a glyph the font does not have: drawn as .notdef
    for ch in "ñÑáéíóúüÁÉÍÓÚ¿¡·–…≤≥":
        assert any(glyph(ch)) and glyph(ch) != missing, ch
    assert glyph("ñ") != glyph("n")
    assert isinstance(f, ImageFont.FreeTypeFont) and "Inter" in (f.getname()[0] or "")
