"""The rearrange builder's draft table as a picture (issue 13).

PLACEHOLDER, REPLACED BY h-draftpic: only the view dataclasses below are the agreed contract; this
``draw_draft`` draws the draft's melds with the public table drawing (``renderers.table``), with no
loose cards, hand or picked marks. The other helper's module keeps the same names and signature.
What it is not: no Discord, no SQL, no rules (``bot.builder`` works out what the view holds).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.views import Meld, PublicView, SeatInfo

from .encode import Rendered, encode_still
from .table import draw_table

__all__ = ["DraftMeld", "DraftView", "draw_draft"]


@dataclass(frozen=True)
class DraftMeld:
    number: int                 # 1-based, as the selects name it
    cards: tuple[str, ...]      # RGN card codes, wilds annotated when known (JK=7C)
    valid: bool                 # False: drawn marked invalid
    changed: bool               # touched by this draft (new or altered)
    owner: str | None = None    # seat owning it, where the variant has owners


@dataclass(frozen=True)
class DraftView:
    melds: tuple[DraftMeld, ...]
    loose: tuple[str, ...]      # cards taken out of melds, not yet placed
    hand: tuple[str, ...]       # the player's remaining hand
    picked_loose: frozenset[int]   # indices into loose
    picked_hand: frozenset[int]    # indices into hand
    status: str                 # one translated line


def draw_draft(view: DraftView, *, locale: str = "es", four_colour: bool = False) -> Rendered:
    """Placeholder: the draft's melds on an otherwise empty public table."""
    seat = SeatInfo("draft", len(view.hand), 0, False, True, True, None, False, 0)
    public = PublicView(
        variant="rami", options=(), deal_number=1, phase="play", seats=(seat,), dealer="draft",
        current_seat="draft", actors=("draft",),
        table=tuple(Meld(m.number, m.owner, "run", m.cards) for m in view.melds),
        discard_top=None, discard_count=0, discard_visible=(), stock_count=0, revealed=(), last_move=None,
        hand_over=False, game_over=False, hand_points=(), winners=(), result=None,
    )
    return encode_still(draw_table(public, locale=locale, four_colour=four_colour).image, "draft")
