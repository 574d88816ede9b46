"""The replay: an animated image of one finished deal, one frame per move.

What it is: ``render_replay`` draws the steps it is given (the engine's ``deal_steps``: the public
view after every move of one deal, which the service hands over) each as a table frame (hands
stay face down: a public view holds none) with the move as its caption, ends on the end-of-deal
picture with every hand face up, and encodes the animation. It never plays a move.

What it is not: a way to see hidden cards. Frames are drawn from public views only, and hands
appear face up only in the end-of-deal picture of a finished deal; still, a record itself reveals
the deck (notation.md "Shuffling"), so the bot keeps records of games in progress to itself.
No file or network access.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine import ReplayStep
from bot.words.i18n import translate

from .encode import Rendered, encode_animation
from .result import draw_result
from .table import WIDTH, draw_table, table_height
from .theme import Palette
from .words import Part, move_parts

__all__ = ["render_replay"]

MOVE_MS = 900
FIRST_MS = 1600
LAST_MS = 6000


def _caption(step: ReplayStep, names: Mapping[str, str] | None, locale: str) -> list[Part]:
    if step.move is None:
        return [translate("replay.start", locale)]
    return move_parts(step.move, names, locale, took=step.took)


@dataclass(frozen=True, slots=True)
class _Film:
    size: tuple[int, int]
    count: int  # frames, the end picture included
    end: Image.Image | None


def _film(steps: Sequence[ReplayStep], locale: str, four_colour: bool, names: Mapping[str, str] | None) -> _Film:
    height = max(table_height(s.view, locale, caption=True, names=names) for s in steps)
    last = steps[-1].view
    end = None
    if last.hand_over and last.result is not None:
        end = draw_result(last, locale=locale, four_colour=four_colour, names=names).image
        height = max(height, end.height)
    return _Film((WIDTH, height), len(steps) + (1 if end is not None else 0), end)


def _frame(steps: Sequence[ReplayStep], i: int, film: _Film, locale: str, four_colour: bool,
           names: Mapping[str, str] | None) -> Image.Image:
    if i == len(steps):
        assert film.end is not None
        frame = Image.new("RGB", film.size, Palette.felt)
        frame.paste(film.end, (0, 0))
        return frame
    step = steps[i]
    total = len(steps) - 1
    footer = translate("replay.move", locale, n=i, total=total) if i else translate("replay.start", locale)
    return draw_table(step.view, locale=locale, four_colour=four_colour, names=names,
                      caption=_caption(step, names, locale), footer=footer, height=film.size[1]).image


def replay_frames(steps: Sequence[ReplayStep], *, locale: str = "es", four_colour: bool = False,
                  names: Mapping[str, str] | None = None) -> Iterator[Image.Image]:
    """One RGB frame per step, all the same size, then the end-of-deal picture when it ended;
    drawn lazily, so a long deal never holds all its frames in memory."""
    film = _film(steps, locale, four_colour, names)
    for i in range(film.count):
        yield _frame(steps, i, film, locale, four_colour, names)


def durations(count: int) -> list[int]:
    """Milliseconds per frame: the deal as dealt a little longer, the last picture much longer."""
    if count == 1:
        return [LAST_MS]
    return [FIRST_MS] + [MOVE_MS] * (count - 2) + [LAST_MS]


def render_replay(steps: Sequence[ReplayStep], *, locale: str = "es", four_colour: bool = False,
                  names: Mapping[str, str] | None = None, fmt: str = "gif") -> Rendered:
    """The replay of one deal, from its ``steps`` (``bot.engine.deal_steps``), as an animation
    (``fmt``: ``gif``, the default, or ``webp``; see ``encode.encode_animation``)."""
    film = _film(steps, locale, four_colour, names)
    frames = (_frame(steps, i, film, locale, four_colour, names) for i in range(film.count))
    return encode_animation(frames, durations(film.count), "replay", size=film.size, fmt=fmt)
