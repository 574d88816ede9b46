"""The engine's small vocabulary: deal phases, event kinds and the ``Event`` a move returns.

What it is: the names that code outside the engine may compare against (``game.phase`` is a
``Phase``; every ``Event.kind`` is an ``EventKind``). Both are ``StrEnum``s, so they equal the
plain strings notation.md documents (``Phase.WINDOW == "window"``) and records stay unchanged.
What it is not: the rules that move a game from one phase to another (``turns.py`` and the
variant modules) or the wording of announcements (the bot translates by kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple


class Phase(StrEnum):
    """Where a deal stands (notation.md ``[Phase]``; ``over`` once the deal has ended)."""

    UPCARD = "upcard"  # gin's first-upcard offer (rules.md §2.3)
    DRAW = "draw"  # the seat to play has not drawn yet
    PLAY = "play"  # drawn or taken: melds, layoffs, the discard
    LAYOFF = "layoff"  # gin's defender after a knock (rules.md §2.4)
    WINDOW = "window"  # a claim (tradicional §4.6) or cut-in (dummy §5.5) window
    OVER = "over"  # the deal is over


class EventKind(StrEnum):
    """What an ``Event`` reports; the bot announces by kind (values are the wire names)."""

    DEAL_STARTED = "deal_started"
    DREW = "drew"
    TOOK = "took"
    STOCK_RENEWED = "stock_renewed"
    MELDED = "melded"
    LAID_OFF = "laid_off"
    SWAPPED = "swapped"
    TABLE_REARRANGED = "table_rearranged"
    DISCARDED = "discarded"
    TURN_ENDED = "turn_ended"
    FEW_CARDS = "few_cards"  # rami §3.4: three cards or fewer left
    OPENED = "opened"  # rami §3.5
    LAID_DOWN = "laid_down"  # dummy §5.5: a contract laid down
    KNOCKED = "knocked"  # gin §2.3
    PASSED = "passed"
    CLAIM_WINDOW = "claim_window"  # tradicional §4.6 option 2
    CLAIMED = "claimed"
    CLAIM_WON = "claim_won"
    CUT_WINDOW = "cut_window"  # dummy §5.5 cut-ins
    CUT_REQUESTED = "cut_requested"
    CUT_DECISION = "cut_decision"
    ALLOWED = "allowed"
    CUT_IN = "cut_in"
    PENALTY = "penalty"  # rami §3.9
    TIMED_OUT = "timed_out"  # rules.md §0.4
    RESIGNED = "resigned"
    ELIMINATED = "eliminated"  # rami §3.8 elimination mode
    WENT_OUT = "went_out"
    BLOCKED = "blocked"
    DEAL_VOID = "deal_void"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


class Event(NamedTuple):
    """Something that happened, for the bot to announce: ``kind`` plus what the message needs.

    ``game.play``, ``game.timeout`` and ``game.next_deal`` return them in the order things
    happened (notation.md: ``events = game.play(...)``)."""

    kind: EventKind
    seat: str | None = None
    params: Mapping[str, Any] = MappingProxyType({})
