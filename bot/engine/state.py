"""The state of a game, declared once: ``GameState`` for the whole game, ``Deal`` for one deal.

What it is: the data every part of ``Game`` shares. ``GameState`` is the base of those parts
(``turns``, ``layout``, ``scoring``, ``answers``, ``table``, ``rami_scoring``): what the game is
(rules, seats, seed), where it stands across deals (dealer, deal number, totals, the record) and
who is still in it (``active``, ``seat_after``, ``current_seat``, ``actors``). ``Deal`` is what
one deal holds, from the deal to the score: hands, stock, discard pile, table, phase, whose turn,
the turn's draw, who has placed or opened, the ledger; a new ``Deal`` starts every deal
(``GameState.new_deal``), so nothing of a deal outlives it by accident. Each variant that keeps
more per deal adds it in a subclass here (``GinDeal``, ``RamiDeal``, ``DummyDeal``,
``TradicionalDeal``), so every deal's state is read in this one module.

What it is not: the rules that change the state (the parts and the variants), the views the
players see (``views``), or the record (``layout``). Everything here is plain data, so a game
pickles (``accepts`` tries a move on a copy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import views as v
from .events import Phase
from .melds import MeldRules, Placed, entry_code
from .options import RuleSet
from .views import Number

__all__ = [
    "Deal", "DummyDeal", "GameState", "GinDeal", "LedgerLine", "Number", "RamiDeal", "TableMeld", "TradicionalDeal",
]
LedgerLine = tuple[str, Number, str, dict[str, Any]]
"""notation.md ``game.ledger``: ``(seat, points, code, params)``."""


@dataclass(slots=True)
class TableMeld:
    """A meld on the table: physical cards, what each stands for, and who made it (or None)."""

    kind: str
    cards: list[int]
    stands: list[tuple[int, int | None]]
    owner: str | None

    def placed(self, rules: MeldRules) -> list[Placed]:
        """The meld as placements whose wilds keep what they stand for (rules.md §3.3)."""
        return placed_entries(self.cards, self.stands, rules)

    def codes(self, rules: MeldRules) -> tuple[str, ...]:
        """The meld in canonical codes, every wild annotated as it stands (notation.md "Cards")."""
        return tuple(entry_code(c, s, rules) for c, s in zip(self.cards, self.stands, strict=True))

    def copy(self) -> TableMeld:
        return TableMeld(self.kind, list(self.cards), list(self.stands), self.owner)


def placed_entries(cards: list[int], stands: list[tuple[int, int | None]], rules: MeldRules) -> list[Placed]:
    return [Placed(c, s if rules.is_wild(c) else None) for c, s in zip(cards, stands, strict=True)]


@dataclass(slots=True)
class Deal:
    """One deal, from the deal to the score. Cards are ints (``cards``); the stock's top card is
    its LAST item, the discard pile is bottom first (notation.md writes both the other way)."""

    hands: dict[str, list[int]]
    stock: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    dealt_pile: list[int] = field(default_factory=list)  # the pile as dealt: face up, so public (gin §2.3.1)
    on_table: list[TableMeld] = field(default_factory=list)
    phase: Phase = Phase.DRAW
    turn: int = 0  # index into ``seats`` of the seat to play
    turns: int = 0  # turns played, for the hand safety cap (rules.md §0.4)
    exhaustions: int = 0  # times the stock ran out (rules.md §1.4, §1.7)
    # This turn (reset when it ends): the card taken from the discard pile, and how many copies of
    # it the hand held before (an identical copy is another card, §1.3.4); the card drawn from the
    # stock; the new melds made (one a turn unless ``multiple_melds_per_turn``, §1.7).
    took: int | None = None
    took_keep: int = 0
    drawn: int | None = None
    melds_this_turn: int = 0
    placed: set[str] = field(default_factory=set)  # put cards on the table this deal (going rummy, §1.7)
    placed_before_turn: bool = False  # ... before the turn now played (a rummy is all at once)
    melded: set[str] = field(default_factory=set)  # made a meld this deal (layoff_requires_own_meld)
    opened: set[str] = field(default_factory=set)  # opened (rami §3.5) or laid down the contract (dummy §5.5)
    revealed: dict[str, list[int]] = field(default_factory=dict)  # cards spread face up (gin's knocker)
    window_pending: list[str] = field(default_factory=list)  # still to answer a claim or cut-in window
    hand_over: bool = False
    ledger: list[LedgerLine] = field(default_factory=list)  # every point of this deal, explained
    result: v.DealResult | None = None  # once the deal is scored


@dataclass(slots=True)
class GinDeal(Deal):
    """Gin's deal (rules.md §2): the first upcard's offer, the knock and the defender's layoffs,
    the dead hand."""

    upcard_passes: int = 0  # §2.3.1: passes on the first upcard (non-dealer, then dealer)
    must_draw_stock: bool = False  # both passed it: the non-dealer draws from the stock
    knocker: str | None = None
    knock_deadwood: int = 0
    laid_off: list[int] = field(default_factory=list)  # §2.4: the defender's layoffs
    last_turn: bool = False  # §2.6: the stock is down to two; this turn's discard ends the deal
    wall: bool = False  # dead_hand=wall: the next seat may not draw, only take the discard to knock
    must_knock: bool = False  # ... and did: the turn must end in a knock
    winner_of_deal: str | None = None  # §2.7: who won it, for the next dealer (None: void or tie)


@dataclass(slots=True)
class RamiDeal(Deal):
    """Rami's deal (rules.md §3): the points credited as cards are placed, and what the turn now
    played owes and has done (obligations §3.6, §3.7; the opening §3.5; a rami §3.8)."""

    credits: dict[str, Number] = field(default_factory=dict)
    pending_jokers: int = 0  # jokers retrieved this turn, each still owed a new meld (§3.6)
    must_play: int | None = None  # the discard taken this turn, still to be placed (§3.7)
    must_play_keep: int = 0  # copies of it held before the take
    opened_this_turn: bool = False
    own_only: bool = True  # nothing placed on others' melds this turn (a rami of one's own, §3.8)
    turn_start: dict[str, Any] | None = None  # the turn right after its draw, for a timeout (§3.9)


@dataclass(slots=True)
class DummyDeal(Deal):
    """Dummy's deal (rules.md §5): cut-ins used, and the cut-in window after a discard (§5.5)."""

    cuts: dict[str, int] = field(default_factory=dict)
    laid_turn: bool = False  # the contract went down this turn (layoffs come on later turns)
    cut_requests: list[str] = field(default_factory=list)
    deciding: bool = False  # the next player is still to take the discard or allow the cut-in
    allowed: bool = False  # ... allowed while others could still ask: granted when they answer


@dataclass(slots=True)
class TradicionalDeal(Deal):
    """Tradicional's deal (rules.md §4): the claims of option 2's window, card left by claimer."""

    claims: dict[str, int] = field(default_factory=dict)


class GameState:
    """One game's state across deals, and the seat order; the base of every part of ``Game``."""

    def __init__(
        self,
        rules: RuleSet,
        seats: list[str],
        dealer: int,
        seed: str | None,
        first_deal: int = 1,
        header: list[str] | None = None,
    ) -> None:
        # What the game is.
        self.rules = rules
        self.variant = rules.variant
        self.seats = list(seats)
        self.seed = seed
        self.first_deal = first_deal
        self.turn_limit: int = rules["hand_turn_limit"]  # rules.md §0.4: the hand safety cap
        self.header = header or []  # the record's tags (``bot.engine.load_game``)
        # Where it stands.
        self.dealer = dealer
        self.deal_no = first_deal
        self.log: list[str] = []  # the record's move lines and ``[Deal "n"]`` tags
        self.last_move: str | None = None
        self.totals: dict[str, Number] = {s: 0 for s in seats}
        self.won: dict[str, int] = {s: 0 for s in seats}  # deals won (gin's line bonus, §2.7)
        self.hand_points: dict[str, Number] = {}  # the last scored deal's points (notation.md)
        self._scored_deal: int | None = None
        self.final_scores: dict[str, Number] = {}
        self.winners: list[str] = []
        self.game_over = False
        self.void = False  # the last deal was void: the same dealer deals again (§0.4, §2.6)
        # Who is still in it.
        self.resigned: list[str] = []
        self.eliminated: list[str] = []  # rami elimination mode (§3.8)
        self.set_aside: list[int] = []  # resigned seats' hands, face down (notation.md "Resigning")
        self.deal = self.new_deal()

    # Set by ``Game`` from its variant's hooks (``make_meld_rules``, ``card_values``).
    meld_rules: MeldRules
    values: tuple[int, ...]

    def new_deal(self) -> Deal:
        """Variant hook: the state of a deal about to be dealt (a variant's ``Deal`` subclass)."""
        return Deal(hands={s: [] for s in self.seats})

    # ----------------------------------------------------------------- seats
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
        if self.deal.hand_over or self.game_over:
            return None
        return self.seats[self.deal.turn]

    @property
    def actors(self) -> list[str]:
        seat = self.current_seat
        if seat is None:
            return []
        if self.deal.phase == Phase.WINDOW:
            return list(self.deal.window_pending)  # everyone who may still claim or cut in, in seat order
        return [seat]
