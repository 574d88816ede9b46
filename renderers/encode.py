"""Turning a drawn picture into bytes for Discord.

What it is: the encoder settings, chosen by measurement (``bench/render.py``, figures in
``docs/performance.md``), and the ``Rendered`` result the bot sends as a file.

What it is not: no drawing, no Discord objects (the bot wraps ``Rendered.data`` in a
``discord.File`` named ``Rendered.filename``), and no palette building: the shared palette comes
from ``palette.py``, which never imports this module back.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from typing import BinaryIO

from PIL import Image, ImageChops

from .palette import TRANSPARENT, shared_palette

__all__ = ["ANIMATION_FORMATS", "GifWriter", "Rendered", "encode_animation", "encode_still", "quantize"]


@dataclass(frozen=True, slots=True)
class Rendered:
    """An encoded image: bytes, format (``png``, ``gif``, ``webp``) and a filename to send it as."""

    data: bytes
    format: str
    width: int
    height: int
    name: str

    @property
    def filename(self) -> str:
        return f"{self.name}.{self.format}"

    @property
    def mime(self) -> str:
        return f"image/{self.format}"


PNG_LEVEL = 3
"""zlib level for stills: after quantizing, level 3 is about as small as 6 in less time (bench)."""


def quantize(image: Image.Image) -> Image.Image:
    """Map onto the shared palette (``palette.py``), without dithering: our pictures are flat
    colours, text and card art, which a palette holds with no visible loss, and a palette PNG is
    a third of the bytes of an RGB one and much faster to compress."""
    return image.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


def encode_still(image: Image.Image, name: str) -> Rendered:
    """A still picture as a palette PNG (lossless after quantizing: edges and text stay sharp)."""
    buf = io.BytesIO()
    quantize(image).save(buf, format="PNG", compress_level=PNG_LEVEL)
    return Rendered(buf.getvalue(), "png", image.width, image.height, name)


# --- animations ------------------------------------------------------------------------------------

ANIMATION_FORMATS = ("gif", "webp")


class GifWriter:
    """An animated GIF written one frame at a time, keeping only the previous frame in memory.

    All frames share one global palette (by default the shared one, ``palette.py``). Each frame
    after the first is cropped to the box that changed, and its unchanged pixels inside that box
    are made transparent, so a move that changes a label and a card costs a few kilobytes.
    Pillow encodes each frame (its LZW coder); this class only writes the GIF blocks around them.
    """

    def __init__(self, fp: BinaryIO, palette: Image.Image, size: tuple[int, int], loop: int = 0) -> None:
        self.fp = fp
        self.palette = palette
        self.size = size
        self.previous: Image.Image | None = None
        self.pending: tuple[bytes, int] | None = None  # a frame's blocks wait for its final delay
        colours = (palette.getpalette() or [])[: 256 * 3]
        colours += [0] * (256 * 3 - len(colours))
        fp.write(b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0) + bytes(colours))
        fp.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00")

    def add(self, frame: Image.Image, duration_ms: int) -> None:
        """Append an RGB frame (mapped here onto the palette) shown for ``duration_ms``."""
        if frame.size != self.size:
            raise ValueError("every frame of an animation must have the same size")
        current = frame.quantize(palette=self.palette, dither=Image.Dither.NONE)
        if self.previous is None:
            self._queue(current, (0, 0), duration_ms)
        else:
            delta = ImageChops.subtract_modulo(current, self.previous)
            box = delta.getbbox()
            if box is None:  # nothing changed: show the previous frame longer
                if self.pending is not None:
                    self.pending = (self.pending[0], self.pending[1] + duration_ms)
                return
            part = current.crop(box)
            unchanged = delta.crop(box).point([255] + [0] * 255, "1")
            part.paste(TRANSPARENT, mask=unchanged)
            self._queue(part, box[:2], duration_ms)
        self.previous = current

    def _queue(self, image: Image.Image, offset: tuple[int, int], duration_ms: int) -> None:
        self._flush()
        self.pending = (_image_blocks(image, offset), duration_ms)

    def _flush(self) -> None:
        if self.pending is None:
            return
        blocks, duration = self.pending
        # Graphic control: disposal 1 (keep), transparent index, delay in 1/100 s.
        delay = max(2, round(duration / 10))
        self.fp.write(b"\x21\xf9\x04" + struct.pack("<BHB", 0x05, delay, TRANSPARENT) + b"\x00")
        self.fp.write(blocks)
        self.pending = None

    def close(self) -> None:
        self._flush()
        self.fp.write(b";")


def _image_blocks(image: Image.Image, offset: tuple[int, int]) -> bytes:
    """The image descriptor and LZW data of a palette image, moved to ``offset``: Pillow writes
    the image as a one-frame GIF, and its descriptor and data blocks are taken from that."""
    buf = io.BytesIO()
    image.save(buf, format="GIF", optimize=False)
    data = buf.getvalue()
    flags = data[10]
    pos = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    while data[pos] == 0x21:  # skip extensions (Pillow may write a comment or control block)
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    if data[pos] != 0x2C:
        raise ValueError("unexpected GIF layout from Pillow")
    _left, _top, width, height, local = struct.unpack("<HHHHB", data[pos + 1: pos + 10])
    start = pos + 10 + (3 * 2 ** ((local & 7) + 1) if local & 0x80 else 0)
    end = start + 1
    while data[end]:
        end += data[end] + 1
    end += 1
    descriptor = b"\x2c" + struct.pack("<HHHHB", offset[0], offset[1], width, height, local & ~0x80 & 0xFF)
    return descriptor + data[start:end]


def encode_animation(frames: Iterable[Image.Image], durations: Iterable[int], name: str, *,
                     size: tuple[int, int], fmt: str = "gif", palette: Image.Image | None = None) -> Rendered:
    """Encode RGB frames lazily (a generator is fine) as a GIF (default: smaller and faster than
    animated WebP for our frames, see docs/performance.md) or an animated WebP."""
    buf = io.BytesIO()
    if fmt == "gif":
        if palette is None:
            palette = shared_palette()
        writer = GifWriter(buf, palette, size)
        for frame, duration in zip(frames, durations, strict=True):
            writer.add(frame, duration)
        writer.close()
    elif fmt == "webp":
        items = list(zip(frames, durations, strict=True))
        first = items[0][0]
        first.save(buf, format="WEBP", save_all=True, append_images=[f for f, _ in items[1:]],
                   duration=[d for _, d in items], loop=0, quality=80, method=0, kmin=0, kmax=0)
    else:
        raise ValueError(f"fmt must be one of {ANIMATION_FORMATS}")
    return Rendered(buf.getvalue(), fmt, size[0], size[1], name)
