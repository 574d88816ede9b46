"""Renderers: pure functions from the engine's views to image bytes, drawn with Pillow.

What it is: ``render_table(public_view)``, ``render_hand(seat_view)``, ``render_result(public_view)``
and ``render_replay(steps)`` each return a ``Rendered`` (bytes, format, size, filename); the
``draw_*`` functions return the drawn ``Scene`` for tests. Cards, suits and jokers are drawn by
``cards.py``, text uses the bundled Inter font (``fonts/``), and every label goes through
``bot.words.i18n`` (``locale="es"`` or ``"en"``). ``four_colour=True`` gives the four-colour deck.

What it is not: no Discord, no SQL, no I/O and no game rules; renderers read the views they are
given and never play a move (a replay's steps come from the engine's ``deal_steps`` through the
service; a hand's order is the engine's ``group_hand``). They are CPU-bound and blocking: the bot calls them through
``asyncio.to_thread``.

The modules import one way, bottom to top: ``theme``, ``cards``, ``draw``, ``words``; ``hint``
(a hint's banner, ``HintMark``) and ``melds`` (the table's melds band); the drawings ``table``,
``hand``, ``result`` (no encoding in them); ``palette`` (sampled from those
drawings); ``encode`` (onto that palette); then ``stills`` (table, hand and result as PNGs),
``lobby``, ``standings``, ``draft`` (the rearrange builder's picture, ``draw_draft``) and
``replay``, which draw and encode. No module imports one above it
(``tests/renderers/test_no_import_cycles.py``).
"""

from __future__ import annotations

from .draft import DraftMeld, DraftView, draw_draft
from .encode import Rendered
from .hand import SORTS, draw_hand
from .hint import HintMark
from .lobby import LobbyInfo, draw_lobby, render_lobby
from .palette import shared_palette
from .replay import render_replay
from .result import draw_result
from .stills import render_hand, render_result, render_table
from .table import draw_table

__all__ = [
    "SORTS",
    "DraftMeld",
    "DraftView",
    "HintMark",
    "LobbyInfo",
    "Rendered",
    "draw_draft",
    "draw_hand",
    "draw_lobby",
    "draw_result",
    "draw_table",
    "render_hand",
    "render_lobby",
    "render_replay",
    "render_result",
    "render_table",
    "warm_up",
]


def warm_up() -> None:
    """Build the shared palette and the common sprites now (about a second), so that the first
    picture a player asks for is as fast as the others. The bot calls it in a thread at start-up."""
    shared_palette()
