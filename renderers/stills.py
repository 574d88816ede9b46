"""The still pictures the bot sends: the table, a hand and the end of a deal, as palette PNGs.

What it is: ``render_table``, ``render_hand`` and ``render_result``, each the matching ``draw_*``
scene encoded by ``encode.encode_still`` (the format is chosen there). They live here, above the
encoder, because the shared palette (``palette.py``) is sampled from those three pictures: the
modules that draw them know nothing of encoding, the palette reads them, and only this module
puts the two together, so no module imports one that imports it back.

What it is not: no drawing and no encoder settings of its own. The lobby, the standings and the
replay are not in the palette's sample sheet; they encode themselves in their own modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.views import Number, PublicView, SeatView

from .encode import Rendered, encode_still
from .hand import draw_hand
from .hint import HintMark
from .result import LedgerLine, draw_result
from .table import draw_table

__all__ = ["render_hand", "render_result", "render_table"]


def render_table(view: PublicView, *, locale: str = "es", four_colour: bool = False,
                 names: Mapping[str, str] | None = None, recent: Sequence[str] = (),
                 hint: HintMark | None = None) -> Rendered:
    """The table as an encoded image (see ``encode.py`` for the format; ``recent`` and ``hint``:
    ``draw_table``)."""
    scene = draw_table(view, locale=locale, four_colour=four_colour, names=names, recent=recent, hint=hint)
    return encode_still(scene.image, "table")


def render_hand(view: SeatView, *, sort: str = "suit", locale: str = "es", four_colour: bool = False,
                selected: frozenset[int] = frozenset(), hint: HintMark | None = None) -> Rendered:
    """The hand as an encoded image (``hint``: ``draw_hand``)."""
    scene = draw_hand(view, sort=sort, locale=locale, four_colour=four_colour, selected=selected, hint=hint)
    return encode_still(scene.image, "hand")


def render_result(view: PublicView, *, locale: str = "es", four_colour: bool = False,
                  names: Mapping[str, str] | None = None, ledger: Sequence[LedgerLine] = (),
                  final_scores: Mapping[str, Number] | None = None) -> Rendered:
    """The end of the deal as an encoded image (``ledger`` and ``final_scores``: ``draw_result``)."""
    scene = draw_result(view, locale=locale, four_colour=four_colour, names=names, ledger=ledger,
                        final_scores=final_scores)
    return encode_still(scene.image, "deal")
