"""``Game``: one game of a variant (several deals), with the state every variant shares.

A ``Game`` is put together from three parts, each in its own module:

* ``layout.RecordLayout``: dealing, laying out a position from RGN tags, the record;
* ``turns.TurnLoop``: ``play(seat, move)`` and the generic move handlers, resigning, timeouts;
* ``scoring.Scoring``: card values, the ledger and credits, closing a deal.

This module declares the state they share (``__init__`` and ``_reset_deal_state``), who is to
act (``current_seat``, ``actors``), and the read-only API of notation.md ("The Python contract":
``hand``, ``table``, ``melds``, ``view`` ...). Variant rules live in the subclasses
(``rummy.py``, ``gin.py``, ``rami.py``, ``tradicional.py``, ``dummy.py``), which override the
hooks each part documents. It knows nothing of Discord, SQL or pixels.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import views as v
from .answers import Answers
from .cards import card_code, display_key
from .errors import IllegalMove
from .events import Event, EventKind, Phase
from .layout import RecordLayout, TableMeld, placed_entries
from .melds import MeldRules, entry_code
from .move import Move
from .options import OPTION_SPECS, OptionSpec, RuleSet
from .scoring import Number, Scoring, norm, totals_text
from .turns import TurnLoop

__all__ = [
    "Event",
    "EventKind",
    "Game",
    "Number",
    "Phase",
    "TableMeld",
    "norm",
    "placed_entries",
    "totals_text",
]


class Game(TurnLoop, Scoring, RecordLayout, Answers):
    """One game of a variant. Build it with ``new_game`` or ``load_game`` (``bot.engine``)."""

    def __init__(
        self,
        rules: RuleSet,
        seats: list[str],
        dealer: int,
        seed: str | None,
        first_deal: int = 1,
        header: list[str] | None = None,
    ) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.seats = list(seats)
        self.dealer = dealer
        self.seed = seed
        self.first_deal = first_deal
        self.deal_no = first_deal
        self.meld_rules = self.make_meld_rules()
        self.turn_limit: int = rules["hand_turn_limit"]
        self.values = self.card_values()
        self.header = header or []
        self.log: list[str] = []
        self.totals: dict[str, Number] = {s: 0 for s in seats}
        self.won: dict[str, int] = {s: 0 for s in seats}
        self.hand_points: dict[str, Number] = {}
        self._scored_deal: int | None = None
        self.ledger: list[tuple[str, Number, str, dict[str, Any]]] = []
        self.final_scores: dict[str, Number] = {}
        self.winners: list[str] = []
        self.game_over = False
        self.resigned: list[str] = []
        self.eliminated: list[str] = []  # rami elimination mode (§3.8)
        self.set_aside: list[int] = []
        self.last_move: str | None = None
        self.result: v.DealResult | None = None
        self.void = False  # the last deal was void: the same dealer deals again
        self._reset_deal_state()

    # ----------------------------------------------------------------- variant hooks
    def make_meld_rules(self) -> MeldRules:
        return MeldRules()

    # ----------------------------------------------------------------- state
    def _reset_deal_state(self) -> None:
        self.hands: dict[str, list[int]] = {s: [] for s in self.seats}
        self.stock: list[int] = []  # internal order: top card LAST
        self.discard: list[int] = []  # bottom first
        self.dealt_pile: list[int] = []  # the discard pile as dealt: face up, so public (gin's first upcard)
        self.on_table: list[TableMeld] = []
        self.phase = Phase.DRAW
        self.turn = 0
        self.took: int | None = None
        self.took_keep = 0  # copies of the taken card held before the take
        self.drawn: int | None = None
        self.melds_this_turn = 0
        self.placed: set[str] = set()
        self.melded: set[str] = set()
        self.opened: set[str] = set()
        self.placed_before_turn = False
        self.turns = 0
        self.exhaustions = 0
        self.hand_over = False
        self.revealed: dict[str, list[int]] = {}
        self.window_pending: list[str] = []

    @property
    def phase(self) -> Phase:
        """Where the deal stands; always a ``Phase`` (assigning a plain string converts it)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = Phase(value)

    @property
    def active(self) -> list[str]:
        return [s for s in self.seats if s not in self.resigned and s not in self.eliminated]

    @property
    def seats_out(self) -> frozenset[str]:
        """Seats that take no further part: resigned (notation.md "Resigning") or eliminated
        (rami elimination mode, rules.md §3.8)."""
        return frozenset(self.resigned) | frozenset(self.eliminated)

    def seat_after(self, index: int) -> int:
        n = len(self.seats)
        if not self.resigned and not self.eliminated:
            return (index + 1) % n
        for k in range(1, n + 1):
            j = (index + k) % n
            if self.seats[j] not in self.resigned and self.seats[j] not in self.eliminated:
                return j
        return index

    @property
    def current_seat(self) -> str | None:
        if self.hand_over or self.game_over:
            return None
        return self.seats[self.turn]

    @property
    def actors(self) -> list[str]:
        seat = self.current_seat
        if seat is None:
            return []
        if self.phase == Phase.WINDOW:
            return list(self.window_pending)  # everyone who may still claim or cut in, in seat order
        return [seat]

    # ----------------------------------------------------------------- read-only API
    def hand(self, seat: str) -> list[str]:
        return [card_code(c) for c in sorted(self.hands[seat], key=display_key)]

    @property
    def table(self) -> list[list[str]]:
        rules = self.meld_rules
        return [[entry_code(c, s, rules) for c, s in zip(m.cards, m.stands, strict=True)] for m in self.on_table]

    @property
    def melds(self) -> list[v.Meld]:
        """The melds with the numbers in force (``layoff 7H to 3`` uses them)."""
        return [
            v.Meld(i + 1, m.owner, m.kind, tuple(t))
            for i, (m, t) in enumerate(zip(self.on_table, self.table, strict=True))
        ]

    @property
    def discard_pile(self) -> list[str]:
        return [card_code(c) for c in self.discard]

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def contracts(self) -> dict[str, int]:
        return {}

    def all_cards(self) -> Counter[int]:
        """Every card the game holds anywhere: equals the deck at all times."""
        total: Counter[int] = Counter(self.stock) + Counter(self.discard) + Counter(self.set_aside)
        for h in self.hands.values():
            total.update(h)
        for m in self.on_table:
            total.update(m.cards)
        return total

    def legal_moves(self, seat: str) -> list[Move]:
        """notation.md: the moves ``seat`` may play now, most useful first, each built from its
        parts (never formatted and read back); ``[]`` when ``seat`` may not act."""
        raise NotImplementedError

    # ----------------------------------------------------------------- views
    def options_shown(self) -> tuple[tuple[str, str], ...]:
        return tuple((s.name, OptionSpec.write(self.rules[s.name])) for s in OPTION_SPECS[self.variant])

    def public_view(self) -> v.PublicView:
        actors = self.actors
        seats = tuple(
            v.SeatInfo(
                name=s,
                card_count=len(self.hands[s]),
                total=self.totals[s],
                is_dealer=i == self.dealer,
                is_acting=s in actors,
                opened=s in self.opened,
                contract=self.contracts.get(s),
                resigned=s in self.resigned,
                deals_won=self.won[s],
            )
            for i, s in enumerate(self.seats)
        )
        return v.PublicView(
            variant=self.variant,
            options=self.options_shown(),
            deal_number=self.deal_no,
            phase=self.phase,
            seats=seats,
            dealer=self.seats[self.dealer],
            current_seat=self.current_seat,
            actors=tuple(actors),
            table=tuple(self.melds),
            discard_top=card_code(self.discard[-1]) if self.discard else None,
            discard_count=len(self.discard),
            discard_visible=(),
            stock_count=len(self.stock),
            revealed=tuple((s, tuple(card_code(c) for c in cs)) for s, cs in self.revealed.items()),
            last_move=self.last_move,
            hand_over=self.hand_over,
            game_over=self.game_over,
            hand_points=tuple(self.hand_points.items()),
            winners=tuple(self.winners),
            result=self.result,
        )

    def view(self, seat: str) -> v.SeatView:
        if seat not in self.seats:
            raise IllegalMove("unknown_seat", f"{seat} has no seat in this game", {"seat": seat})
        mine = self.current_seat == seat
        return v.SeatView(
            seat=seat,
            public=self.public_view(),
            hand=tuple(self.hand(seat)),
            drawn=card_code(self.drawn) if mine and self.drawn is not None and self.drawn in self.hands[seat] else None,
            took=card_code(self.took) if mine and self.took is not None else None,
        )
