"""The game state machine shared by every variant: deals, turns, records, views, scores.

A ``Game`` holds one game (several deals). ``play(seat, move)`` reads one RGN move, checks it
completely, then applies it, so a refused move changes nothing. Variant rules live in the
subclasses (``rummy.py`` for basic and Wrotham, ``gin.py``); this module holds what they share:
dealing and layouts, drawing, melding, laying off, discarding, resigning, timeouts, the record and
the views. It knows nothing of Discord, SQL or pixels.
"""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import views as v
from .cards import CARD_BY_CODE, JOKER, card_code, codes, display_key, make_deck, parse_card, parse_cards
from .errors import IllegalMove
from .events import Event, Phase
from .melds import MeldRules, Placed, Reading, entry_code, one_reading, parse_entry
from .options import OPTION_SPECS, PLAYERS, OptionSpec, RuleSet
from .rgn import parse_number, parse_seat_map, split_melds, tag_line, write_number
from .rng import DealRandom

Number = int | Fraction


@dataclass(slots=True)
class TableMeld:
    kind: str
    cards: list[int]
    stands: list[tuple[int, int | None]]
    owner: str | None

    def placed(self, rules: MeldRules) -> list[Placed]:
        """The meld as placements whose wilds keep what they stand for (rules.md §3.3)."""
        return placed_entries(self.cards, self.stands, rules)


def placed_entries(cards: list[int], stands: list[tuple[int, int | None]], rules: MeldRules) -> list[Placed]:
    return [Placed(c, s if rules.is_wild(c) else None) for c, s in zip(cards, stands, strict=True)]


def norm(x: Number) -> Number:
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


class Game:
    """One game of a variant. Build it with ``new_game`` or ``load_game`` (``bot.engine``)."""

    #: every deal phase (``[Phase]`` accepts all but ``over``)
    PHASES = tuple(Phase)
    has_upcard = True

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

    def card_values(self) -> tuple[int, ...]:
        """Value of each rank A..K when scored; jokers are valued by ``joker_value``."""
        return (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    joker_value = 0

    def deck(self) -> list[int]:
        return make_deck(1, 0)

    def deal_size(self, seat: str, active: int) -> int:
        raise NotImplementedError

    def start_phase(self) -> str:
        return "draw"

    def expected_count_ok(self, seat: str, count: int) -> bool:
        return count >= 1

    # ----------------------------------------------------------------- state
    def _reset_deal_state(self) -> None:
        self.hands: dict[str, list[int]] = {s: [] for s in self.seats}
        self.stock: list[int] = []  # internal order: top card LAST
        self.discard: list[int] = []  # bottom first
        self.on_table: list[TableMeld] = []
        self.phase = "draw"
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

    def value(self, card: int) -> int:
        return self.joker_value if card == JOKER else self.values[card % 13]

    def hand_value(self, cards: Iterable[int]) -> int:
        return sum(self.value(c) for c in cards)

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
        if self.phase == "window":
            return list(self.window_pending)  # everyone who may still claim or cut in, in seat order
        return [seat]

    # ----------------------------------------------------------------- dealing
    def start_deal(self, layout: Mapping[str, Any] | None = None) -> None:
        """Deal ``self.deal_no`` from (seed, deal number), or lay out the position of a record."""
        self._reset_deal_state()
        self.ledger = []
        self.result = None
        layout = layout or {}
        rest = self.deck() if not layout else self.undealt(layout)
        hands_given: dict[str, list[int]] = layout.get("hands", {})
        table: list[TableMeld] = layout.get("table", [])
        stock_given: list[int] | None = layout.get("stock")
        discard_given: list[int] | None = layout.get("discard")
        if self.seed is not None:
            DealRandom(self.seed, self.deal_no).shuffle(rest)
        rest.reverse()  # pop() takes the top card (index 0 of the shuffled deck)
        active = self.active
        dealer_i = self.dealer
        order = []
        i = self.seat_after(dealer_i)
        for _ in range(len(active)):
            order.append(self.seats[i])
            i = self.seat_after(i)
        to_deal = {s: self.deal_size(s, len(active)) for s in order if s not in hands_given}
        for s in order:
            self.hands[s] = list(hands_given.get(s, []))
        rounds = max(to_deal.values(), default=0)
        for r in range(rounds):
            for s in order:
                if s in to_deal and r < to_deal[s]:
                    if not rest:
                        raise IllegalMove("bad_layout", "not enough cards to deal", {})
                    self.hands[s].append(rest.pop())
        self.on_table = [TableMeld(m.kind, list(m.cards), list(m.stands), m.owner) for m in table]
        if discard_given is not None:
            self.discard = list(discard_given)
        elif self.has_upcard and stock_given is None and rest:
            self.discard = [rest.pop()]
        if stock_given is not None:
            leftovers = list(reversed(rest))
            top = self.discard[-1:] if self.discard else []
            self.discard = self.discard[:-1] + leftovers + top
            self.stock = list(reversed(stock_given))
        else:
            self.stock = rest
        self.turn = self.seat_after(dealer_i)
        self.phase = self.start_phase()
        self.after_layout(layout)

    def undealt(self, layout: Mapping[str, Any]) -> list[int]:
        """The deck less every card a position tag placed, in canonical order; refuses extra copies."""
        pool = Counter(self.deck())
        placed_cards: list[tuple[str, list[int]]] = [
            (f"the hand of {s}", cs) for s, cs in layout.get("hands", {}).items()
        ]
        placed_cards += [("the table", m.cards) for m in layout.get("table", [])]
        for name, key in (("the stock", "stock"), ("the discard pile", "discard")):
            if layout.get(key) is not None:
                placed_cards.append((name, layout[key]))
        for where, cards in placed_cards:
            for c in cards:
                if pool[c] <= 0:
                    raise IllegalMove(
                        "bad_layout",
                        f"{card_code(c)} in {where} is one copy more than the deck holds",
                        {"card": card_code(c)},
                    )
                pool[c] -= 1
        rest: list[int] = []
        for c in self.deck():
            if pool[c] > 0:
                pool[c] -= 1
                rest.append(c)
        return rest

    def after_layout(self, layout: Mapping[str, Any]) -> None:
        """Apply ``[Turn]``, ``[Phase]`` and friends, then check the counts make sense."""
        if "turn" in layout:
            self.turn = self.seats.index(layout["turn"])
        if "phase" in layout:
            self.phase = layout["phase"]
        if "took" in layout:
            if self.phase != "play":
                raise IllegalMove("bad_layout", "[Took] needs phase play", {})
            self.took = layout["took"]
            self.took_keep = self.hands[self.seats[self.turn]].count(self.took) - 1
            if self.took not in self.hands[self.seats[self.turn]]:
                raise IllegalMove("bad_layout", "the [Took] card is not in the hand of the seat to play", {})
        owners = {m.owner for m in self.on_table if m.owner}
        # A meld's owner created it this deal, so they have placed cards (going rummy, §1.7).
        self.placed = set(layout.get("placed", ())) | owners
        self.opened = set(layout.get("opened", ()))
        self.melded = owners | self.placed
        self.placed_before_turn = self.seats[self.turn] in self.placed
        if layout.get("explicit"):
            self.check_layout()

    def check_layout(self) -> None:
        for s in self.active:
            if not self.expected_count_ok(s, len(self.hands[s])):
                raise IllegalMove(
                    "bad_layout",
                    f"{s} holds {len(self.hands[s])} cards, which phase {self.phase} does not allow",
                    {"seat": s, "count": len(self.hands[s]), "phase": self.phase},
                )

    def next_deal(self) -> list[Event]:
        """Deal the next hand (dealer per the rules); writes ``[Deal "n"]`` in the record."""
        if self.game_over:
            raise IllegalMove("game_over", "the game is over", {})
        if not self.hand_over:
            raise IllegalMove("deal_not_over", "the current deal is not over", {})
        self.dealer = self.next_dealer_index()
        self.deal_no += 1
        self.log.append(tag_line("Deal", str(self.deal_no)))
        self.start_deal()
        self.last_move = None
        return [Event("deal_started", None, {"deal": self.deal_no, "dealer": self.seats[self.dealer]})]

    def next_dealer_index(self) -> int:
        if self.void:  # rules.md §0.4, §2.6: after a void deal the same dealer deals again
            self.void = False
            return self.dealer
        return self.seat_after(self.dealer)

    # ----------------------------------------------------------------- moves
    def play(self, seat: str, move: str) -> list[Event]:
        """Apply one RGN move (without the seat). Refused moves raise IllegalMove and change nothing."""
        if seat not in self.seats:
            raise IllegalMove("unknown_seat", f"{seat} has no seat in this game", {"seat": seat})
        words = move.split()
        if not words:
            raise IllegalMove("bad_move", "an empty move", {})
        verb = words[0].lower()
        if self.game_over:
            raise IllegalMove("game_over", "the game is over", {})
        if verb == "resign":
            return self._resign(seat)
        if verb == "timeout":
            return self.timeout(seat)
        if seat in self.resigned:
            raise IllegalMove("resigned", f"{seat} has resigned", {"seat": seat})
        if self.hand_over:
            raise IllegalMove("deal_over", "the deal is over; the next one has not been dealt", {})
        if (self.phase == "window" or seat != self.seats[self.turn]) and seat not in self.actors:
            raise IllegalMove("not_your_turn", f"it is not {seat}'s turn", {"seat": seat, "turn": self.current_seat})
        handler = getattr(self, "move_" + verb, None) if verb in self.verbs() else None
        if handler is None:
            raise IllegalMove(
                "unknown_move", f"{verb!r} is not a move in {self.variant}", {"verb": verb, "valid": self.verbs()}
            )
        args = move.strip()[len(words[0]) :].strip() if len(words) > 1 else ""
        events, text = handler(seat, args)
        if self.took is not None and not self.hand_over and self.hands[seat].count(self.took) <= self.took_keep:
            self.took = None  # the taken card went to the table; an identical card in hand is another one
        line = f"{seat} {text}"
        self.log.append(line)
        self.last_move = line
        return events

    def verbs(self) -> tuple[str, ...]:
        return ("draw", "take", "meld", "layoff", "discard")

    def need_phase(self, *phases: str) -> None:
        if self.phase not in phases:
            raise IllegalMove(
                "wrong_phase",
                f"that move is not possible now (phase {self.phase})",
                {"phase": self.phase, "expected": list(phases)},
            )

    @staticmethod
    def no_args(args: str, verb: str) -> None:
        if args.strip():
            raise IllegalMove("bad_move", f"{verb} takes no arguments", {"verb": verb})

    def take_from_hand(self, seat: str, cards: list[int]) -> None:
        """Check ``cards`` (a multiset) are all in the seat's hand; raises without changing anything."""
        hand = self.hands[seat]
        if len(cards) == 1:
            if cards[0] not in hand:
                raise IllegalMove(
                    "not_in_hand", f"{card_code(cards[0])} is not in your hand", {"card": card_code(cards[0])}
                )
            return
        need = Counter(cards)
        have = Counter(hand)
        for c, n in need.items():
            if have[c] < n:
                raise IllegalMove("not_in_hand", f"{card_code(c)} is not in your hand", {"card": card_code(c)})

    @staticmethod
    def remove(hand: list[int], cards: Iterable[int]) -> None:
        for c in cards:
            hand.remove(c)

    def end_turn(self) -> None:
        """Pass the turn to the next seat; the hand safety cap (rules.md §0.4) ends runaway deals."""
        self.turns += 1
        self.turn = self.seat_after(self.turn)
        self.phase = "draw"
        self.took = None
        self.drawn = None
        self.melds_this_turn = 0
        self.placed_before_turn = self.seats[self.turn] in self.placed
        if self.turns >= self.turn_limit:
            self.on_turn_limit()

    def on_turn_limit(self) -> None:
        raise NotImplementedError

    # draw / take ------------------------------------------------------
    def move_draw(self, seat: str, args: str) -> tuple[list[Event], str]:
        self.need_phase("draw")
        self.no_args(args, "draw")
        self.check_draw(seat)
        if not self.stock:
            return self.stock_empty(seat), "draw"
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.drawn = card
        self.phase = "play"
        events = [Event("drew", seat, {"stock": len(self.stock)})]
        events += self.after_draw(seat)
        return events, "draw"

    def check_draw(self, seat: str) -> None:
        pass

    def after_draw(self, seat: str) -> list[Event]:
        return []

    def stock_empty(self, seat: str) -> list[Event]:
        raise IllegalMove("stock_empty", "the stock is empty", {})

    def renew_stock(self, seat: str, pile: list[int], shuffle: bool) -> list[Event]:
        """Make ``pile`` (discards, bottom first) the new stock, shuffled or turned over as it lies
        (the bottom discard on top), and draw its top card for ``seat``."""
        if shuffle:
            DealRandom(self.seed or "", self.deal_no, f"reshuffle:{self.exhaustions}").shuffle(pile)
            self.stock = pile  # the last card is the top after the shuffle
        else:
            self.stock = pile[::-1]
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.drawn = card
        self.phase = "play"
        return [Event("stock_renewed", seat, {"count": len(self.stock) + 1}), Event("drew", seat, {})]

    def move_take(self, seat: str, args: str) -> tuple[list[Event], str]:
        self.need_phase("draw")
        self.no_args(args, "take")
        if not self.discard:
            raise IllegalMove("discard_empty", "the discard pile is empty", {})
        self.check_take(seat)
        card = self.discard.pop()
        self.took_keep = self.hands[seat].count(card)
        self.hands[seat].append(card)
        self.took = card
        self.phase = "play"
        return [Event("took", seat, {"card": card_code(card)})], "take"

    def check_take(self, seat: str) -> None:
        pass

    # meld / layoff --------------------------------------------------------
    def read_new_meld(self, words: list[str]) -> Reading:
        return one_reading([parse_entry(w) for w in words], self.meld_rules)

    def parse_melds(self, seat: str, args: str) -> list[Reading]:
        if not args.strip():
            raise IllegalMove("bad_move", "meld needs cards, e.g. meld 5C 6C 7C", {})
        readings = [self.read_new_meld(g) for g in split_melds(args)]
        self.take_from_hand(seat, [c for r in readings for c in r.cards])
        return readings

    def meld_text(self, reading: Reading) -> str:
        return " ".join(reading.codes(self.meld_rules))

    def add_melds(self, seat: str, readings: list[Reading]) -> list[Event]:
        for r in readings:
            self.remove(self.hands[seat], r.cards)
            self.on_table.append(TableMeld(r.kind, list(r.cards), list(r.stands), seat))
        self.placed.add(seat)
        self.melded.add(seat)
        self.melds_this_turn += len(readings)
        first = len(self.on_table) - len(readings) + 1
        return [Event("melded", seat, {"meld": self.meld_text(r), "number": first + i}) for i, r in enumerate(readings)]

    def parse_layoff(self, seat: str, args: str) -> tuple[int, Reading, list[int]]:
        """``7H 8H to 3`` -> (meld index, the meld's new reading, the cards from hand)."""
        left, sep, right = args.rpartition(" to ")
        if not sep or not right.strip().isdigit() or not left.split():
            raise IllegalMove("bad_move", "write a layoff as: layoff 7H to 3", {})
        n = int(right)
        if not 1 <= n <= len(self.on_table):
            raise IllegalMove("no_such_meld", f"there is no meld {n} on the table", {"number": n})
        meld = self.on_table[n - 1]
        added = [parse_entry(w) for w in left.split()]
        self.take_from_hand(seat, [p.card for p in added])
        existing = meld.placed(self.meld_rules)
        try:
            reading = one_reading(existing + added, self.meld_rules, meld.kind)
        except IllegalMove as err:
            if err.code == "invalid_meld":
                raise IllegalMove(
                    "invalid_layoff",
                    f"{codes(p.card for p in added)} does not fit meld {n}",
                    {"cards": codes(p.card for p in added), "number": n},
                ) from None
            raise
        return n - 1, reading, [p.card for p in added]

    def apply_layoff(self, seat: str, index: int, reading: Reading, cards: list[int]) -> list[Event]:
        meld = self.on_table[index]
        self.remove(self.hands[seat], cards)
        meld.cards, meld.stands, meld.kind = list(reading.cards), list(reading.stands), reading.kind
        self.placed.add(seat)
        return [Event("laid_off", seat, {"cards": codes(cards), "number": index + 1})]

    def layoff_text(self, index: int, reading: Reading, cards: list[int]) -> str:
        """Canonical layoff: naturals as themselves, each added wild annotated as it now stands."""
        old = self.on_table[index]
        old_wilds = [(c, st) for c, st in zip(old.cards, old.stands, strict=True) if self.meld_rules.is_wild(c)]
        words = [card_code(c) for c in cards if not self.meld_rules.is_wild(c)]
        for c, st in zip(reading.cards, reading.stands, strict=True):
            if not self.meld_rules.is_wild(c):
                continue
            match = next(
                (k for k, (oc, ost) in enumerate(old_wilds) if oc == c and (ost == st or ost == (st[0], None))), None
            )
            if match is None:
                words.append(entry_code(c, st, self.meld_rules))
            else:
                old_wilds.pop(match)
        return f"layoff {' '.join(words)} to {index + 1}"

    # joker exchange / retrieval ------------------------------------------------
    #: Wrotham (§1.9, Rummikub convention): a set's open-suit joker may be exchanged for any missing
    #: suit. Rami (§3.6): only a joker that stands for exactly one card may be retrieved.
    swap_open_suits = True

    def parse_swap(self, seat: str, args: str) -> tuple[int, int, Reading]:
        """``6H to 2`` -> (card, meld index, the meld's reading with the card in the joker's place)."""
        left, sep, right = args.rpartition(" to ")
        if not sep or not right.strip().isdigit() or len(left.split()) != 1:
            raise IllegalMove("bad_move", "write a joker exchange as: swap 6H to 2", {})
        card = parse_card(left.strip())
        n = int(right)
        if not 1 <= n <= len(self.on_table):
            raise IllegalMove("no_such_meld", f"there is no meld {n} on the table", {"number": n})
        self.take_from_hand(seat, [card])
        # A joker is exchanged for the real card it stands for, never for another wild card.
        pos = None if self.meld_rules.is_wild(card) else self.swap_position(card, n - 1)
        if pos is None:
            raise IllegalMove(
                "swap_no_match",
                f"no joker in meld {n} stands for {card_code(card)}",
                {"card": card_code(card), "number": n},
            )
        meld = self.on_table[n - 1]
        placed = meld.placed(self.meld_rules)
        placed[pos] = Placed(card)
        return card, n - 1, one_reading(placed, self.meld_rules, meld.kind)

    def swap_position(self, card: int, index: int) -> int | None:
        """Where ``card`` can replace a joker of meld ``index``: a joker standing for exactly that
        card, or (``swap_open_suits``) a set's open-suit joker whose suit is missing."""
        meld = self.on_table[index]
        r, s = card % 13, card // 13
        for i, (c, st) in enumerate(zip(meld.cards, meld.stands, strict=True)):
            if c != JOKER:
                continue
            if st == (r, s):
                return i
            if self.swap_open_suits and meld.kind == "set" and st == (r, None):
                present = {x // 13 for x in meld.cards if x != JOKER} | {
                    t[1] for x, t in zip(meld.cards, meld.stands, strict=True) if x == JOKER and t[1] is not None
                }
                if s not in present:
                    return i
        return None

    def apply_swap(self, seat: str, card: int, index: int, reading: Reading) -> list[Event]:
        meld = self.on_table[index]
        self.hands[seat].remove(card)
        self.hands[seat].append(JOKER)
        if self.took == JOKER:
            self.took_keep += 1  # the joker got back is another card than the joker just taken (§1.3.4)
        meld.cards, meld.stands = list(reading.cards), list(reading.stands)
        self.placed.add(seat)
        return [Event("swapped", seat, {"card": card_code(card), "number": index + 1})]

    def swap_moves(self, seat: str) -> list[str]:
        out: list[str] = []
        for i in range(len(self.on_table)):
            if JOKER not in self.on_table[i].cards:
                continue
            for c in sorted(set(self.hands[seat]) - {JOKER}):
                if self.swap_position(c, i) is not None:
                    out.append(f"swap {card_code(c)} to {i + 1}")
        return out

    # discard ----------------------------------------------------------------
    def parse_discard(self, seat: str, args: str) -> int:
        card = CARD_BY_CODE.get(args)  # the canonical spelling needs no further parsing
        if card is None:
            words = args.split()
            if len(words) != 1:
                raise IllegalMove("bad_move", "discard one card, e.g. discard KS", {})
            card = parse_card(words[0])
        self.take_from_hand(seat, [card])
        if self.took is not None and card == self.took and self.hands[seat].count(card) == 1:
            raise IllegalMove(
                "discard_taken_card",
                f"{card_code(card)} was taken from the discard pile this turn",
                {"card": card_code(card)},
            )
        return card

    # resign / timeout -----------------------------------------------------------
    def _resign(self, seat: str) -> list[Event]:
        if seat in self.resigned:
            raise IllegalMove("resigned", f"{seat} has already resigned", {"seat": seat})
        was_turn = not self.hand_over and self.current_seat == seat
        self.resigned.append(seat)
        self.set_aside.extend(self.hands[seat])
        self.hands[seat] = []
        self.revealed.pop(seat, None)
        self.log.append(f"{seat} resign")
        self.last_move = f"{seat} resign"
        events = [Event("resigned", seat, {})]
        lo = PLAYERS[self.variant][0]
        if len(self.active) < lo:
            self.finish_by_resignation()
            events.append(Event("game_over", None, {"winners": list(self.winners)}))
            return events
        if not self.hand_over and was_turn:
            self.on_resign_turn(seat)
        return events

    def on_resign_turn(self, seat: str) -> None:
        self.took = None
        self.drawn = None
        self.melds_this_turn = 0
        self.turn = self.seat_after(self.turn)
        self.phase = "draw"
        self.placed_before_turn = self.seats[self.turn] in self.placed

    def finish_by_resignation(self) -> None:
        self.hand_over = True
        self.phase = "over"
        self.game_over = True
        ranked = self.placing()
        self.final_scores = dict(self.totals)
        self.winners = ranked[:1] if ranked else []

    def placing(self) -> list[str]:
        """Active seats best first by total (resigned seats finish last)."""
        return sorted(self.active, key=lambda s: -self.totals[s])

    def timeout(self, seat: str) -> list[Event]:
        """The timeout rule (rules.md §0.4) for ``seat``; recorded as ``<seat> timeout``."""
        if self.game_over or self.hand_over or seat not in self.actors:
            raise IllegalMove("not_your_turn", f"{seat} is not to act", {"seat": seat})
        log_len = len(self.log)
        events = self.timeout_moves(seat)
        del self.log[log_len:]
        self.log.append(f"{seat} timeout")
        self.last_move = f"{seat} timeout"
        return [Event("timed_out", seat, {}), *events]

    def timeout_moves(self, seat: str) -> list[Event]:
        events: list[Event] = []
        if self.phase == "draw":
            events += self.play(seat, "draw")
        if self.hand_over or self.current_seat != seat or self.phase != "play":
            return events
        card = self.timeout_discard(seat)
        events += self.play(seat, f"discard {card_code(card)}")
        return events

    def timeout_discard(self, seat: str) -> int:
        """The card just drawn if it may be discarded, else the highest-valued legal discard."""
        legal = [c for c in set(self.hands[seat]) if self.can_discard(seat, c)]
        if self.drawn is not None and self.drawn in legal:
            return self.drawn
        return max(legal, key=lambda c: (self.value(c), c))

    def accepts(self, seat: str, move: str) -> bool:
        """Whether ``move`` would be accepted now, tried on a copy (rami's swap listing, the bot
        asking which meld a layoff targets). The game is left unchanged.

        The copy is a pickle round trip: the state is plain data, and this is about four times
        faster than ``copy.deepcopy``.
        """
        trial = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        try:
            trial.play(seat, move)
        except IllegalMove:
            return False
        return True

    def meld_targets(self, seat: str, verb: str, cards: list[str]) -> list[int]:
        """The meld numbers ``n`` (1-based, as ``game.melds`` shows them) for which
        ``f"{verb} {cards} to {n}"`` would be accepted now; ``verb`` is ``layoff`` or ``swap``."""
        words = " ".join(cards)
        return [n for n in range(1, len(self.on_table) + 1) if self.accepts(seat, f"{verb} {words} to {n}")]

    def can_rearrange(self, seat: str) -> bool:
        """Whether ``seat`` may play a ``table`` move now: in the play phase of its own turn, where
        the variant allows manipulation (``rearranging_allowed``: tradicional rules.md §4.3, rami
        §3.10). Whether a particular table move is legal is for ``play`` to judge."""
        return self.phase == Phase.PLAY and self.current_seat == seat and self.rearranging_allowed(seat)

    def rearranging_allowed(self, seat: str) -> bool:
        """Variant hook: table manipulation is open to ``seat`` at all this turn."""
        return False

    def can_discard(self, seat: str, card: int) -> bool:
        try:
            self.check_discard(seat, card)
        except IllegalMove:
            return False
        return True

    def check_discard(self, seat: str, card: int) -> None:
        self.parse_discard(seat, card_code(card))

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

    def legal_moves(self, seat: str) -> list[str]:
        raise NotImplementedError

    # ----------------------------------------------------------------- scoring helpers
    def begin_scoring(self) -> None:
        """``hand_points`` keeps the last finished deal's points until the next deal is scored."""
        if self._scored_deal != self.deal_no:
            self._scored_deal = self.deal_no
            self.hand_points = {}

    def credit(self, seat: str, points: Number, code: str, **params: Any) -> None:
        self.begin_scoring()
        points = norm(Fraction(points))
        self.hand_points[seat] = norm(Fraction(self.hand_points.get(seat, 0)) + points)
        self.ledger.append((seat, points, code, params))

    def close_deal(self, outcome: str, winner: str | None, seats: list[v.SeatResult], rummy: bool = False) -> None:
        self.begin_scoring()
        for s in self.seats:
            self.hand_points.setdefault(s, 0)
            self.totals[s] = norm(Fraction(self.totals[s]) + Fraction(self.hand_points[s]))
        self.result = v.DealResult(outcome, winner, tuple(seats), rummy)
        self.revealed = {s: list(self.hands[s]) for s in self.active}  # hands are shown at the end
        self.hand_over = True
        self.phase = "over"
        self.took = None
        self.drawn = None

    def hand_results(self) -> list[v.SeatResult]:
        """Each active seat's hand at the end of a deal, valued, with the deal's points."""
        out = []
        for s in self.active:
            hand = tuple(card_code(c) for c in sorted(self.hands[s], key=display_key))
            out.append(v.SeatResult(s, hand, (), hand, self.hand_value(self.hands[s]), (), self.hand_points.get(s, 0)))
        return out

    # ----------------------------------------------------------------- record
    def record(self) -> str:
        """RGN that reproduces this exact game, every deal, with canonical moves."""
        return "\n".join([*self.header, *self.log]) + "\n"

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

    # ----------------------------------------------------------------- layout reading
    def layout_from_tags(self, tags: Mapping[str, list[list[str]]]) -> dict[str, Any]:
        """Turn position tags (notation.md "Positions") into a layout for ``start_deal``."""
        out: dict[str, Any] = {}
        hands: dict[str, list[int]] = {}
        for args in tags.get("Hand", []):
            if len(args) != 2 or args[0] not in self.seats:
                raise IllegalMove("bad_layout", 'write [Hand "seat" "cards"] for a seated player', {})
            hands[args[0]] = parse_cards(args[1])
        if hands:
            out["hands"] = hands
        if "Stock" in tags:
            out["stock"] = parse_cards(tags["Stock"][0][0])
        if "Discard" in tags:
            out["discard"] = parse_cards(tags["Discard"][0][0])
        if "Table" in tags:
            out["table"] = self.parse_table(tags["Table"][0][0])
        if "Turn" in tags:
            seat = tags["Turn"][0][0]
            if seat not in self.seats:
                raise IllegalMove("bad_layout", f"[Turn] names {seat}, who has no seat", {"seat": seat})
            out["turn"] = seat
        if "Phase" in tags:
            phase = tags["Phase"][0][0]
            if phase not in self.PHASES or phase == "over":
                raise IllegalMove("bad_layout", f"unknown phase {phase!r}", {"phase": phase})
            out["phase"] = phase
        if "Took" in tags:
            out["took"] = parse_card(tags["Took"][0][0])
        for tag in ("Placed", "Opened"):
            if tag in tags:
                names = tags[tag][0][0].split()
                for n in names:
                    if n not in self.seats:
                        raise IllegalMove("bad_layout", f"[{tag}] names {n}, who has no seat", {"seat": n})
                out[tag.lower()] = names
        out["explicit"] = any(k in tags for k in ("Hand", "Stock", "Discard", "Table", "Turn", "Phase"))
        if out["explicit"] and "phase" not in out:
            out["phase"] = "draw"
        return out

    def parse_table(self, text: str) -> list[TableMeld]:
        melds: list[TableMeld] = []
        for group in text.split("|"):
            words = group.split()
            if not words:
                raise IllegalMove("bad_layout", "an empty meld in [Table]", {})
            owner = None
            if words[0].endswith(":"):
                owner = words[0][:-1]
                if owner not in self.seats:
                    raise IllegalMove("bad_layout", f"[Table] names {owner}, who has no seat", {"seat": owner})
                words = words[1:]
            r = self.read_new_meld(words)
            melds.append(TableMeld(r.kind, list(r.cards), list(r.stands), owner))
        return melds

    def apply_game_tags(self, tags: Mapping[str, list[list[str]]]) -> None:
        for tag, target in (("Totals", self.totals), ("Won", self.won)):
            if tag in tags:
                for seat, raw in parse_seat_map(tags[tag][0][0]).items():
                    if seat not in self.seats:
                        raise IllegalMove("bad_layout", f"[{tag}] names {seat}, who has no seat", {"seat": seat})
                    target[seat] = parse_number(raw) if tag == "Totals" else int(parse_number(raw))


def totals_text(values: Mapping[str, Number]) -> str:
    return " ".join(f"{k}={write_number(x)}" for k, x in values.items())
