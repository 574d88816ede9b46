"""The replay: an animated image of one finished deal, one frame per move, from its record.

What it is: ``replay_steps`` re-plays an RGN record through the engine's public contract
(``load_game`` on the record's header, then ``play`` move by move, ``next_deal`` at each
``[Deal "n"]``) and keeps the public view after every move of the chosen deal; ``render_replay``
draws each as a table frame (hands stay face down: a public view holds none) with the move as
its caption, ends on the end-of-deal picture with every hand face up, and encodes the animation.

What it is not: a way to see hidden cards. Frames are drawn from public views only, and hands
appear face up only in the end-of-deal picture of a finished deal; still, a record itself reveals
the deck (notation.md "Shuffling"), so the bot keeps records of games in progress to itself.
No file or network access.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine import load_game
from bot.engine.rgn import parse_record
from bot.engine.views import PublicView
from bot.words.i18n import translate

from .encode import Rendered, encode_animation
from .result import draw_result
from .table import WIDTH, draw_table, table_height
from .theme import Palette
from .words import Part, move_parts

__all__ = ["ReplayStep", "render_replay", "replay_steps"]

MOVE_MS = 900
FIRST_MS = 1600
LAST_MS = 6000


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The table after ``move`` (None for the deal as dealt); ``took`` is the card a bare
    ``take`` took, read from the view before it."""

    view: PublicView
    move: str | None
    took: str | None = None


def replay_steps(record: str, deal: int | None = None) -> list[ReplayStep]:
    """Every public view of one deal of ``record``: as dealt, then after each move.

    ``deal`` is the deal number (``[Deal "n"]``); None means the record's first deal."""
    rec = parse_record(record)
    lines = record.splitlines()
    first_move = min((line for kind, _, _, line in rec.body), default=len(lines) + 1)
    game = load_game("\n".join(lines[: first_move - 1]))
    target = game.deal_no if deal is None else deal
    steps: list[ReplayStep] = []
    if game.deal_no == target:
        steps.append(ReplayStep(game.public_view(), None))
    for kind, seat, move, _line in rec.body:
        if kind == "deal":
            if game.deal_no == target:
                break
            game.next_deal()
            if game.deal_no == target:
                steps.append(ReplayStep(game.public_view(), None))
            continue
        before = steps[-1].view if steps else None
        game.play(seat, move)
        if game.deal_no == target:
            took = before.discard_top if before is not None and move.split()[0] == "take" else None
            steps.append(ReplayStep(game.public_view(), f"{seat} {move}", took))
    if not steps:
        raise ValueError(f"the record has no deal {target}")
    return steps


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


def render_replay(record: str, *, deal: int | None = None, locale: str = "es", four_colour: bool = False,
                  names: Mapping[str, str] | None = None, fmt: str = "gif") -> Rendered:
    """The replay of one deal of a finished game's ``record`` as an animation (``fmt``: ``gif``,
    the default, or ``webp``; see ``encode.encode_animation``)."""
    steps = replay_steps(record, deal)
    film = _film(steps, locale, four_colour, names)
    frames = (_frame(steps, i, film, locale, four_colour, names) for i in range(film.count))
    return encode_animation(frames, durations(film.count), "replay", size=film.size, fmt=fmt)
