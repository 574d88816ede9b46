"""``Game``: one game of a variant (several deals), put together from its parts.

A ``Game`` is four parts, each in its own module, over the state they share (``state``:
``GameState`` for the game, ``Deal`` for the deal now played, declared once there):

* ``layout.RecordLayout``: dealing, laying out a position from RGN tags, the record;
* ``turns.TurnLoop``: ``play(seat, move)``, its dispatch on the verb and the generic handlers,
  resigning, timeouts;
* ``scoring.Scoring``: card values, the ledger and credits, closing a deal;
* ``answers.Answers``: the rule questions the floors above ask (``accepts``, ``may_build`` ...).

This module adds the read-only API of notation.md ("The Python contract": ``hand``, ``table``,
``melds``, ``phase``, ``opened``, ``view`` ...), including the deal's state under the names code
above the engine reads (``hands``, ``stock``, ``took`` ...: properties of ``game.deal``). Variant
rules live in the subclasses (``rummy.py``, ``gin.py``, ``rami.py``, ``tradicional.py``,
``dummy.py``), which override the hooks each part documents. It knows nothing of Discord, SQL or
pixels.
"""

from __future__ import annotations

from collections import Counter

from . import views as v
from .answers import Answers
from .cards import card_code, display_key
from .errors import IllegalMove
from .events import Event, EventKind, Phase
from .layout import RecordLayout
from .melds import MeldRules
from .move import Move
from .options import OPTION_SPECS, OptionSpec, RuleSet
from .scoring import Number, Scoring, norm, totals_text
from .state import LedgerLine, TableMeld, placed_entries
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
        super().__init__(rules, seats, dealer, seed, first_deal, header)
        self.meld_rules = self.make_meld_rules()
        self.values = self.card_values()

    # ----------------------------------------------------------------- variant hooks
    def make_meld_rules(self) -> MeldRules:
        return MeldRules()

    # ----------------------------------------------------------------- the deal's state, by name
    # notation.md reads ``phase``, ``opened``, ``hand_over`` and ``ledger``; the robots' sight,
    # the bot and the tests read the others. The engine itself reads ``self.deal``.
    @property
    def phase(self) -> Phase:
        """Where the deal stands; always a ``Phase`` (assigning a plain string converts it)."""
        return self.deal.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.deal.phase = Phase(value)

    @property
    def opened(self) -> set[str]:
        return self.deal.opened

    @property
    def hand_over(self) -> bool:
        return self.deal.hand_over

    @property
    def ledger(self) -> list[LedgerLine]:
        return self.deal.ledger

    @property
    def result(self) -> v.DealResult | None:
        return self.deal.result

    @property
    def hands(self) -> dict[str, list[int]]:
        return self.deal.hands

    @property
    def stock(self) -> list[int]:
        """The stock, top card LAST."""
        return self.deal.stock

    @stock.setter
    def stock(self, cards: list[int]) -> None:
        self.deal.stock = cards

    @property
    def discard(self) -> list[int]:
        """The discard pile, bottom first."""
        return self.deal.discard

    @property
    def dealt_pile(self) -> list[int]:
        return self.deal.dealt_pile

    @property
    def on_table(self) -> list[TableMeld]:
        return self.deal.on_table

    @property
    def turn(self) -> int:
        return self.deal.turn

    @property
    def took(self) -> int | None:
        return self.deal.took

    @property
    def drawn(self) -> int | None:
        return self.deal.drawn

    @property
    def placed(self) -> set[str]:
        return self.deal.placed

    @property
    def melded(self) -> set[str]:
        return self.deal.melded

    @property
    def revealed(self) -> dict[str, list[int]]:
        return self.deal.revealed

    # ----------------------------------------------------------------- read-only API
    def hand(self, seat: str) -> list[str]:
        return [card_code(c) for c in sorted(self.deal.hands[seat], key=display_key)]

    @property
    def table(self) -> list[list[str]]:
        return [list(m.codes(self.meld_rules)) for m in self.deal.on_table]

    @property
    def melds(self) -> list[v.Meld]:
        """The melds with the numbers in force (``layoff 7H to 3`` uses them)."""
        return [
            v.Meld(i + 1, m.owner, m.kind, tuple(t))
            for i, (m, t) in enumerate(zip(self.deal.on_table, self.table, strict=True))
        ]

    @property
    def discard_pile(self) -> list[str]:
        return [card_code(c) for c in self.deal.discard]

    @property
    def stock_count(self) -> int:
        return len(self.deal.stock)

    @property
    def contracts(self) -> dict[str, int]:
        return {}

    def all_cards(self) -> Counter[int]:
        """Every card the game holds anywhere: equals the deck at all times."""
        total: Counter[int] = Counter(self.deal.stock) + Counter(self.deal.discard) + Counter(self.set_aside)
        for h in self.deal.hands.values():
            total.update(h)
        for m in self.deal.on_table:
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
                card_count=len(self.deal.hands[s]),
                total=self.totals[s],
                is_dealer=i == self.dealer,
                is_acting=s in actors,
                opened=s in self.deal.opened,
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
            phase=self.deal.phase,
            seats=seats,
            dealer=self.seats[self.dealer],
            current_seat=self.current_seat,
            actors=tuple(actors),
            table=tuple(self.melds),
            discard_top=card_code(self.deal.discard[-1]) if self.deal.discard else None,
            discard_count=len(self.deal.discard),
            discard_visible=(),
            stock_count=len(self.deal.stock),
            revealed=tuple((s, tuple(card_code(c) for c in cs)) for s, cs in self.deal.revealed.items()),
            last_move=self.last_move,
            hand_over=self.deal.hand_over,
            game_over=self.game_over,
            hand_points=tuple(self.hand_points.items()),
            winners=tuple(self.winners),
            result=self.deal.result,
        )

    def view(self, seat: str) -> v.SeatView:
        if seat not in self.seats:
            raise IllegalMove("unknown_seat", f"{seat} has no seat in this game", {"seat": seat})
        mine = self.current_seat == seat
        drawn, took = self.deal.drawn, self.deal.took
        return v.SeatView(
            seat=seat,
            public=self.public_view(),
            hand=tuple(self.hand(seat)),
            drawn=card_code(drawn) if mine and drawn is not None and drawn in self.deal.hands[seat] else None,
            took=card_code(took) if mine and took is not None else None,
        )
