"""Rummy tradicional (Mexico): basic rummy with Rummikub-style table manipulation (rules.md §4).

Any number of melds a turn, layoffs, and ``table`` moves from the first turn; going out needs no
final discard; the winner collects every loser's whole hand, doubled for a "Rummy". The restock
keeps the top discard; options 1-5 (visible pile, claims, ace high, continuous ranks, two turns)
are toggles. Nothing here knows Discord or SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import card_code, parse_card
from .errors import IllegalMove
from .events import EventKind, Phase
from .game import Event
from .meldgen import hand_meld_candidates
from .melds import MeldRules, natural_extends
from .move import Move, Verb, card_move
from .rummy import BasicRummy
from .state import TableMeld, TradicionalDeal
from .table import TableManipulation
from .turns import Handled

_VERBS = (
    Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.TABLE, Verb.DISCARD,
    Verb.CLAIM, Verb.PASS,  # option 2: the claim window (§4.6)
)


class Tradicional(TableManipulation, BasicRummy):
    """``tradicional``: 2-4 players, one 52-card deck, no jokers."""

    # Hooks overridden (on top of BasicRummy). Deal: ``after_layout`` (restock), ``new_deal``.
    # Turns: ``verbs`` + ``move_claim`` / ``move_pass`` (option 2), ``move_meld`` / ``move_layoff``
    # (option 5), ``move_discard`` (claim window), ``end_turn`` (restock, §4.4), ``stock_empty``,
    # ``on_turn_limit`` (void), ``timeout_moves``, ``rearranging_allowed`` (§4.3). BasicRummy's
    # ``opt`` fixes the §1.7 house rules tradicional settles. TableManipulation:
    # ``check_table_after``, ``after_table``. Scores: ``card_values`` (ace 11 with options 3-4).
    # Also ``make_meld_rules``, ``legal_moves`` and ``public_view`` (option 1: the visible pile).

    keeps_ledger = True  # §4.7: a deal scores from many events, explained line by line

    deal: TradicionalDeal

    def new_deal(self) -> TradicionalDeal:
        return TradicionalDeal(hands={s: [] for s in self.seats})

    def opt(self, name: str) -> Any:
        fixed = {
            "multiple_melds_per_turn": True,  # §4.3: "una o más"
            "going_rummy": "double",  # §4.5: a "Rummy" is paid double by every other player
            "layoff_requires_own_meld": False,
            "last_discard_required": False,
            "scoring_mode": "winner_collects",
            "stock_exhaustion": "turn_over",
        }
        if name == "ace_mode":
            if self.rules["opt4_continuous"]:
                return "round_the_corner"
            return "high_low" if self.rules["opt3_ace_high_low"] else "low"
        return fixed[name] if name in fixed else self.rules[name]

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(ace_mode=self.opt("ace_mode"))

    def card_values(self) -> tuple[int, ...]:
        ace = 11 if self.opt("ace_mode") != "low" else 1  # options 3 and 4: an ace counts 11
        return (ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    def verbs(self) -> tuple[Verb, ...]:
        return _VERBS

    def rearranging_allowed(self, seat: str) -> bool:
        return True  # §4.3: table manipulation from the first turn

    @property
    def notices(self) -> list[tuple[str, dict[str, Any]]]:
        """Things the table should be told when the game starts (§4.7.5)."""
        if self.rules["opt5_two_turns"]:
            return [("opt5_no_rummy_double", {})]
        return []

    # ---------------------------------------------------------------- option 5 (§4.6)
    def first_placing_turn(self, seat: str) -> bool:
        return self.rules["opt5_two_turns"] and not self.deal.placed_before_turn

    def check_two_turns(self, seat: str, left: int) -> None:
        """Option 5: no going out in the turn of one's first placement. The last card would then be
        discarded in that turn too, so such a turn must keep two cards."""
        if self.first_placing_turn(seat) and left < 2:
            raise IllegalMove(
                "two_turns_required",
                "option 5: you may not go out in the turn you first put cards on the table",
                {},
            )

    def move_meld(self, seat: str, move: Move) -> Handled:
        if self.rules["opt5_two_turns"]:
            self.need_phase(Phase.PLAY)
            readings = self.parse_melds(seat, move)
            self.check_two_turns(seat, len(self.deal.hands[seat]) - sum(len(r.cards) for r in readings))
        return super().move_meld(seat, move)

    def move_layoff(self, seat: str, move: Move) -> Handled:
        if self.rules["opt5_two_turns"]:
            self.need_phase(Phase.PLAY)
            _, _, cards = self.parse_layoff(seat, move)
            self.check_two_turns(seat, len(self.deal.hands[seat]) - len(cards))
        return super().move_layoff(seat, move)

    def check_table_after(self, seat: str, used: list[int], new_table: list[TableMeld]) -> None:
        if used:
            self.check_two_turns(seat, len(self.deal.hands[seat]) - len(used))
        after = [(m.kind, m.cards, m.stands) for m in new_table]
        self.check_not_stuck(seat, used, after)

    def after_table(self, seat: str, old: list[TableMeld], used: list[int]) -> list[Event]:
        if not self.deal.hands[seat]:
            return self.end_out(seat)
        return []

    def after_layout(self, layout: Mapping[str, Any]) -> None:
        super().after_layout(layout)
        if self.deal.phase == Phase.DRAW and not self.deal.stock:
            self.restock()  # a position may start a turn with an empty stock (§4.4); no move, no events

    # ---------------------------------------------------------------- restock (§4.4)
    def end_turn(self) -> list[Event]:
        events = super().end_turn()
        if not self.deal.hand_over and not self.deal.stock:
            events += self.restock()
        return events

    def restock(self) -> list[Event]:
        """keep_top: the top discard stays as the pozo, the rest is turned over unshuffled (oldest on
        top). flip_all_then_upcard: all of it is turned over and a new upcard turned. With nothing
        to turn over the deal is void; returns its events."""
        if self.rules["restock"] == "keep_top":
            if len(self.deal.discard) > 1:
                pile, self.deal.discard = self.deal.discard[:-1], self.deal.discard[-1:]
                self.deal.stock = pile[::-1]
        elif self.deal.discard:
            pile, self.deal.discard = self.deal.discard, []
            self.deal.stock = pile[::-1]
            self.deal.discard = [self.deal.stock.pop()]
        if not self.deal.stock and not self.deal.discard:
            return self.end_void_deal()
        return []

    def stock_empty(self, seat: str) -> list[Event]:
        raise IllegalMove("stock_empty", "the stock is empty: take the top discard", {})

    def end_void_deal(self) -> list[Event]:
        self.begin_scoring()
        self.close_deal("void", None, self.hand_results())
        self.void = True
        return [Event(EventKind.DEAL_VOID, None, {})]

    def on_turn_limit(self) -> list[Event]:
        return self.end_void_deal()  # §0.4: void everywhere but basic and Wrotham

    # ---------------------------------------------------------------- option 2: claims (§4.6)
    def move_discard(self, seat: str, move: Move) -> Handled:
        events, recorded = super().move_discard(seat, move)
        if self.rules["opt2_rummy_call"] and not self.deal.hand_over:
            discarder = self.seats.index(seat)
            nxt = self.deal.turn
            eligible = [self.seats[i] for i in self.claim_order(discarder) if i not in (discarder, nxt)]
            if eligible:
                self.deal.phase = Phase.WINDOW
                self.deal.window_pending = eligible
                self.deal.claims = {}
                events.append(Event(EventKind.CLAIM_WINDOW, seat, {"card": card_code(self.deal.discard[-1])}))
        return events, recorded

    def claim_order(self, discarder: int) -> list[int]:
        """Active seats from the discarder's left, in turn order (claim priority)."""
        out, i = [], discarder
        for _ in range(len(self.seats)):
            i = (i + 1) % len(self.seats)
            if self.seats[i] in self.active:
                out.append(i)
        return out

    def claim_ok(self, seat: str, card: int, give: int) -> bool:
        """A claim is valid if the discard fits a table meld or makes a meld with two or more cards
        from the claimer's hand (not counting the card given in exchange)."""
        if any(natural_extends(m.kind, m.stands, card, self.meld_rules) for m in self.deal.on_table):
            return True
        hand = list(self.deal.hands[seat])
        hand.remove(give)
        return bool(hand_meld_candidates([*hand, card], self.meld_rules, must=card))

    def move_claim(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.WINDOW)
        if len(move.cards) != 1 or move.target is not None:
            raise IllegalMove("bad_move", "write claim and the card you leave in its place: claim KD", {})
        give = parse_card(move.cards[0])
        self.take_from_hand(seat, [give])
        card = self.deal.discard[-1]
        if not self.claim_ok(seat, card, give):
            raise IllegalMove(
                "claim_not_playable",
                f"{card_code(card)} neither fits a meld on the table nor makes one with your cards",
                {"card": card_code(card)},
            )
        self.deal.claims[seat] = give
        self.deal.window_pending.remove(seat)
        events = [Event(EventKind.CLAIMED, seat, {})]
        return events + self.maybe_close_window(), card_move(Verb.CLAIM, give)

    def move_pass(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.WINDOW)
        self.no_args(move)
        self.deal.window_pending.remove(seat)
        return [Event(EventKind.PASSED, seat, {}), *self.maybe_close_window()], Move.of(Verb.PASS)

    def maybe_close_window(self) -> list[Event]:
        if self.deal.window_pending:
            return []
        self.deal.phase = Phase.DRAW
        if not self.deal.claims:
            return []
        discarder = self.seat_before(self.deal.turn)
        winner = next(self.seats[i] for i in self.claim_order(discarder) if self.seats[i] in self.deal.claims)
        give = self.deal.claims[winner]
        card = self.deal.discard.pop()
        self.deal.hands[winner].remove(give)
        self.deal.hands[winner].append(card)
        self.deal.discard.append(give)
        self.deal.claims = {}
        return [Event(EventKind.CLAIM_WON, winner, {"card": card_code(card), "left": card_code(give)})]

    def seat_before(self, index: int) -> int:
        n = len(self.seats)
        for k in range(1, n + 1):
            j = (index - k) % n
            if self.seats[j] in self.active:
                return j
        return index

    def timeout_moves(self, seat: str) -> list[Event]:
        if self.deal.phase == Phase.WINDOW:
            return self.play(seat, Move.of(Verb.PASS))
        if self.deal.phase == Phase.DRAW and not self.deal.stock:
            events = self.play(seat, Move.of(Verb.TAKE))
            return events + self.play(seat, card_move(Verb.DISCARD, self.timeout_discard(seat)))
        return super().timeout_moves(seat)

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self, seat: str) -> list[Move]:
        if seat not in self.actors:
            return []
        if self.deal.phase == Phase.WINDOW:
            card = self.deal.discard[-1]
            hand = sorted(set(self.deal.hands[seat]))
            claims = [card_move(Verb.CLAIM, g) for g in hand if self.claim_ok(seat, card, g)]
            return [*claims, Move.of(Verb.PASS)]
        if self.deal.phase == Phase.DRAW:
            draw = [Move.of(Verb.DRAW)] if self.deal.stock else []  # §4.4: an empty stock is restocked
            return draw + ([Move.of(Verb.TAKE)] if self.deal.discard else [])
        moves = super().legal_moves(seat)
        tables = [m for m in self.table_moves(seat) if self.table_ok(seat, m)]
        discards = [m for m in moves if m.verb is Verb.DISCARD]
        others = [m for m in moves if m.verb is not Verb.DISCARD]
        if self.rules["opt5_two_turns"] and self.first_placing_turn(seat):
            others = [m for m in others if self.leaves_two(seat, m)]
        return others + tables + discards

    def leaves_two(self, seat: str, move: Move) -> bool:
        """Option 5: the meld or layoff keeps two cards in hand (``check_two_turns``)."""
        return len(self.deal.hands[seat]) - len(move.cards) >= 2

    def table_ok(self, seat: str, move: Move) -> bool:
        try:
            readings = self.read_table(move.melds)
            used = self.check_table(seat, readings)
            self.check_table_after(
                seat, used, [TableMeld(r.kind, list(r.cards), list(r.stands), None) for r in readings]
            )
        except IllegalMove:
            return False
        return True

    def public_view(self) -> Any:
        view = super().public_view()
        if self.rules["opt1_pozo_visible"]:
            from dataclasses import replace

            view = replace(view, discard_visible=tuple(card_code(c) for c in self.deal.discard))
        return view
