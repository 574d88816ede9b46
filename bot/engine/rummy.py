"""Basic Rummy with its house rules, and Wrotham Rummy (rules.md §1).

Turn: draw (stock or discard pile), meld (one per turn unless ``multiple_melds_per_turn``), lay
off, discard. Going out ends the deal; a blocked deal scores the lowest hand. Wrotham adds three
jokers, the joker exchange (``swap``), 8/7-card deals with no upcard and, in deals 4-6, the rule
that a player melds all seven cards at once or nothing. Nothing here knows Discord or SQL.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from . import views as v
from .cards import JOKER, card_code, codes, display_key, make_deck
from .errors import IllegalMove
from .events import EventKind, Phase
from .game import Event, Game, Number, norm, placed_entries
from .meldgen import hand_meld_candidates
from .melds import MeldRules, Placed, Stand, entry_code, natural_extends, parse_entry, read_meld
from .move import Move, Verb, card_move
from .search import best_melds, cards_of, mask_of
from .turns import Handled

DEAL_SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}  # rules.md §1.1
_BASIC_VERBS = (Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.DISCARD)  # §1.3
_WROTHAM_VERBS = (Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.DISCARD)  # §1.9: the joker exchange


class BasicRummy(Game):
    """``basic``: rules.md §1.1-1.8."""

    # Hooks overridden. Deal: ``deal_size`` (§1.1), ``expected_count_ok``. Turns: ``verbs`` with
    # ``move_meld`` / ``move_layoff`` / ``move_discard``, ``stock_empty`` (§1.4), ``on_turn_limit``
    # (scored as blocked, §0.4), ``swap_moves`` (none). Scores: ``card_values`` (ace_mode, §1.7),
    # ``placing``. Also ``make_meld_rules`` and ``legal_moves``. House rules read through ``opt``.

    def opt(self, name: str) -> Any:
        """A house rule of §1.7 (variants built on this one fix some of them)."""
        return self.rules[name]

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(ace_mode=self.opt("ace_mode"))

    def card_values(self) -> tuple[int, ...]:
        ace = 1 if self.opt("ace_mode") == "low" else 15  # §1.1, §1.7 ace_mode
        return (ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    def deal_size(self, seat: str, active: int) -> int:
        return DEAL_SIZES[max(2, min(6, active))]

    def expected_count_ok(self, seat: str, count: int) -> bool:
        size = self.deal_size(seat, len(self.active)) + 1
        return 1 <= count <= size + 1

    def verbs(self) -> tuple[Verb, ...]:
        return _BASIC_VERBS

    # ---------------------------------------------------------------- stock exhaustion (§1.4, §1.7)
    def exhaustion_limit(self) -> int | None:
        mode = self.opt("stock_exhaustion")
        if mode == "block":
            return 1
        if mode == "reuse_once":
            return 2
        if mode.startswith("limit:"):
            return int(mode.partition(":")[2])
        return None

    def stock_empty(self, seat: str) -> list[Event]:
        """The player declined the discard with an empty stock: reuse the pile, or the deal is blocked."""
        self.deal.exhaustions += 1
        limit = self.exhaustion_limit()
        if (limit is not None and self.deal.exhaustions >= limit) or not self.deal.discard:
            return self.end_blocked("stock_exhausted")
        pile, self.deal.discard = self.deal.discard, []
        # §1.4: turned over unshuffled (the bottom discard becomes the top), or shuffled (§1.7)
        return self.renew_stock(seat, pile, shuffle=self.opt("stock_exhaustion") == "shuffle")

    def on_turn_limit(self) -> list[Event]:
        return self.end_blocked("turn_limit")

    # ---------------------------------------------------------------- melding
    def all_seven_deal(self) -> bool:
        return False

    def move_meld(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        readings = self.parse_melds(seat, move)
        used = sum(len(r.cards) for r in readings)
        left = len(self.deal.hands[seat]) - used
        if self.all_seven_deal():
            # §1.9: in deals 4-6 nobody melds until all seven cards go down at once.
            if left > 1:
                raise IllegalMove(
                    "all_seven_required",
                    "in deals 4 to 6 you must meld all seven cards at once",
                    {"deal": self.deal_no},
                )
        else:
            many = len(readings) > 1 or self.deal.melds_this_turn > 0
            if many and not self.opt("multiple_melds_per_turn"):
                raise IllegalMove("one_meld_per_turn", "only one new meld per turn", {})
        if left == 0 and self.opt("last_discard_required"):
            raise IllegalMove(
                "last_discard_required", "you must keep a card to discard: going out needs a final discard", {}
            )
        after = [(m.kind, m.cards, m.stands) for m in self.deal.on_table]
        after += [(r.kind, list(r.cards), list(r.stands)) for r in readings]
        self.check_not_stuck(seat, [c for r in readings for c in r.cards], after)
        recorded = self.meld_move(readings)
        events = self.add_melds(seat, readings)
        if not self.deal.hands[seat]:
            events += self.end_out(seat)
        return events, recorded

    def move_layoff(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        index, reading, cards = self.parse_layoff(seat, move)
        meld = self.deal.on_table[index]
        if self.opt("layoff_requires_own_meld") and meld.owner != seat and seat not in self.deal.melded:
            raise IllegalMove(
                "layoff_needs_own_meld", "you may lay off on others' melds only after melding yourself", {}
            )
        if len(cards) == len(self.deal.hands[seat]) and self.opt("last_discard_required"):
            raise IllegalMove(
                "last_discard_required", "you must keep a card to discard: going out needs a final discard", {}
            )
        after = [(m.kind, m.cards, m.stands) for m in self.deal.on_table]
        after[index] = (reading.kind, list(reading.cards), list(reading.stands))
        self.check_not_stuck(seat, cards, after)
        recorded = self.layoff_move(index, reading, cards)
        events = self.apply_layoff(seat, index, reading, cards)
        if not self.deal.hands[seat]:
            events += self.end_out(seat)
        return events, recorded

    def check_not_stuck(self, seat: str, using: list[int], after: list[tuple[str, list[int], list[Stand]]]) -> None:
        """§1.3.4: the card taken from the discard pile cannot be discarded this turn, so a meld or
        layoff may not leave it as the only card unless it can still be laid off on ``after``."""
        if not self.stuck(seat, using, after):
            return
        rest = list(self.deal.hands[seat])
        self.remove(rest, using)
        raise IllegalMove(
            "keep_a_discard",
            f"that would leave only {card_code(rest[0])}, which you took from the discard pile this turn "
            "and cannot discard",
            {"card": card_code(rest[0])},
        )

    def stuck(self, seat: str, using: list[int], after: list[tuple[str, list[int], list[Stand]]] | None = None) -> bool:
        rest = list(self.deal.hands[seat])
        self.remove(rest, using)
        if len(rest) != 1 or rest[0] != self.deal.took or rest.count(self.deal.took) <= self.deal.took_keep:
            return False  # (an identical card held before the take is another card: it may be discarded)
        if self.opt("last_discard_required"):
            return True  # the last card could neither be discarded nor laid off
        if after is None:
            after = [(m.kind, m.cards, m.stands) for m in self.deal.on_table]
        for kind, cards, stands in after:
            existing = placed_entries(cards, stands, self.meld_rules)
            if read_meld([*existing, Placed(rest[0])], self.meld_rules, kind):
                return False
        return True

    def move_discard(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        card = self.parse_discard(seat, move)
        hand = self.deal.hands[seat]
        hand.remove(card)
        self.deal.discard.append(card)
        events = [Event(EventKind.DISCARDED, seat, {"card": card_code(card)})]
        if not hand:
            events += self.end_out(seat)
        else:
            events += self.end_turn()
        return events, card_move(Verb.DISCARD, card)

    # ---------------------------------------------------------------- scoring (§1.5, §1.7)
    def end_out(self, winner: str) -> list[Event]:
        """``winner`` went out: score by ``scoring_mode``, with going rummy when it applies."""
        self.begin_scoring()
        mode = self.opt("scoring_mode")
        rummy = not self.deal.placed_before_turn and self.opt("going_rummy") != "off"
        factor = 2 if rummy and self.opt("going_rummy") == "double" else 1
        losers = [s for s in self.active if s != winner]
        counts = {s: self.hand_value(self.deal.hands[s]) for s in losers}
        for s in losers:
            c = counts[s] * factor
            if mode == "winner_collects":
                self.credit(winner, c, "hand_count", loser=s, count=counts[s], doubled=factor == 2)
            elif mode == "penalty":
                self.credit(s, c, "own_hand", count=counts[s], doubled=factor == 2)
            else:
                self.credit(s, -c, "pays_winner", winner=winner, count=counts[s], doubled=factor == 2)
                self.credit(winner, c, "paid_by", loser=s, count=counts[s], doubled=factor == 2)
        if rummy and self.opt("going_rummy") == "plus10":
            # rules.md §1.7 plus10: +10 to the winner; in penalty mode (low wins) that is -10.
            self.credit(winner, -10 if mode == "penalty" else 10, "going_rummy_bonus")
        self.won[winner] += 1
        seats = [self.seat_result(s) for s in self.active]
        self.close_deal("out", winner, seats, rummy)
        events = [Event(EventKind.WENT_OUT, winner, {"going_rummy": rummy})]
        return events + self.check_game_end()

    def end_blocked(self, reason: str) -> list[Event]:
        """Nobody went out: the lowest hand wins the differences, shared on a tie (§1.7)."""
        self.begin_scoring()
        mode = self.opt("scoring_mode")
        counts = {s: self.hand_value(self.deal.hands[s]) for s in self.active}
        low = min(counts.values())
        lows = [s for s in self.active if counts[s] == low]
        pot = sum(c - low for c in counts.values())
        if mode == "penalty":
            for s in self.active:
                self.credit(s, counts[s], "own_hand", count=counts[s])
        else:
            share = Fraction(pot, len(lows))
            for s in self.active:
                if s in lows:
                    self.credit(s, share, "blocked_share", pot=pot, sharers=len(lows))
                elif mode == "settle":
                    self.credit(s, -(counts[s] - low), "pays_difference", count=counts[s], low=low)
        for s in lows:
            self.won[s] += 1
        seats = [self.seat_result(s) for s in self.active]
        self.close_deal("blocked", lows[0] if len(lows) == 1 else None, seats)
        return [Event(EventKind.BLOCKED, None, {"reason": reason, "low": list(lows)}), *self.check_game_end()]

    def seat_result(self, seat: str) -> v.SeatResult:
        hand = self.deal.hands[seat]
        shown = tuple(card_code(c) for c in sorted(hand, key=display_key))
        return v.SeatResult(seat, shown, (), shown, self.hand_value(hand), (), self.hand_points.get(seat, 0))

    def deals_played(self) -> int:
        return self.deal_no - self.first_deal + 1

    def check_game_end(self) -> list[Event]:
        kind, _, num = self.opt("game_end").partition(":")
        n = int(num)
        over = self.deals_played() >= n if kind == "hands" else any(self.totals[s] >= n for s in self.active)
        if not over:
            return []
        return self.finish_game()

    def finish_game(self) -> list[Event]:
        self.game_over = True
        self.final_scores = dict(self.totals)
        active = self.active
        if self.opt("scoring_mode") == "penalty":
            best = min(self.totals[s] for s in active)  # §1.7 penalty: the lowest total wins
        else:
            best = max(self.totals[s] for s in active)
        self.winners = [s for s in active if self.totals[s] == best]
        return [Event(EventKind.GAME_OVER, None, {"winners": list(self.winners)})]

    def placing(self) -> list[str]:
        sign = 1 if self.opt("scoring_mode") == "penalty" else -1
        return sorted(self.active, key=lambda s: sign * self.totals[s])

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self, seat: str) -> list[Move]:
        if seat not in self.actors:
            return []
        if self.deal.phase == Phase.DRAW:
            return [Move.of(Verb.DRAW), Move.of(Verb.TAKE)] if self.deal.discard else [Move.of(Verb.DRAW)]
        hand = self.deal.hands[seat]
        moves: list[Move] = []
        moves += self.meld_moves(seat)
        moves += self.layoff_moves(seat)  # in deals 4-6 only on the all-seven meld just made
        moves += self.swap_moves(seat)
        discards = sorted({c for c in hand if self.can_discard(seat, c)}, key=lambda c: (-self.value(c), c))
        moves += [card_move(Verb.DISCARD, c) for c in discards]
        return moves

    def meld_moves(self, seat: str) -> list[Move]:
        hand = self.deal.hands[seat]
        keep = 1 if self.opt("last_discard_required") else 0
        if self.all_seven_deal():
            return self.all_seven_moves(seat)
        if self.deal.melds_this_turn and not self.opt("multiple_melds_per_turn"):
            return []
        out: list[Move] = []
        seen: set[Move] = set()
        for words in self.candidate_meld_words(hand):
            if len(hand) - len(words) < keep:
                continue
            try:
                r = self.read_new_meld(words)
            except IllegalMove:
                continue
            after = [(m.kind, m.cards, m.stands) for m in self.deal.on_table]
            after.append((r.kind, list(r.cards), list(r.stands)))
            if self.deal.took is not None and self.stuck(seat, list(r.cards), after):
                continue
            move = self.meld_move([r])
            if move not in seen:
                seen.add(move)
                out.append(move)
        out.sort(key=lambda m: -len(m))  # longest text first: the melds placing most cards
        return out

    def candidate_meld_words(self, hand: list[int]) -> list[list[str]]:
        """Runs and sets made of natural cards from hand (wild placements are added by Wrotham)."""
        naturals = sorted({c for c in hand if c != JOKER})
        mask = mask_of(naturals)
        from .search import candidate_melds

        return [[card_code(c) for c in cards_of(m)] for m in candidate_melds(mask, self.meld_rules.ace_mode)]

    def all_seven_moves(self, seat: str) -> list[Move]:
        return []

    def layoff_moves(self, seat: str) -> list[Move]:
        hand = self.deal.hands[seat]
        if self.opt("last_discard_required") and len(hand) <= 1:
            return []
        out: list[Move] = []
        for i, meld in enumerate(self.deal.on_table):
            if self.opt("layoff_requires_own_meld") and meld.owner != seat and seat not in self.deal.melded:
                continue
            for c in sorted(set(hand)):
                for word in self.layoff_words(c, i):
                    move = Move(Verb.LAYOFF, (word,), i + 1)
                    if self.deal.took is not None and len(hand) == 2 and c != self.deal.took:
                        try:
                            _, reading, cards = self.parse_layoff(seat, move)
                        except IllegalMove:
                            continue
                        after = [(m.kind, m.cards, m.stands) for m in self.deal.on_table]
                        after[i] = (reading.kind, list(reading.cards), list(reading.stands))
                        if self.stuck(seat, cards, after):
                            continue
                    out.append(move)
        return out

    def layoff_words(self, card: int, index: int) -> list[str]:
        meld = self.deal.on_table[index]
        return [card_code(card)] if natural_extends(meld.kind, meld.stands, card, self.meld_rules) else []

    def swap_moves(self, seat: str) -> list[Move]:
        return []  # basic has no jokers


class Wrotham(BasicRummy):
    """``wrotham``: rules.md §1.9. Six deals; three wild jokers; 8 cards to the starting player."""

    # Hooks overridden (on top of BasicRummy). Deal: ``deck`` (three jokers), ``deal_size`` (8/7),
    # ``has_upcard`` (no), ``start_phase`` (play: the starter discards), ``expected_count_ok``.
    # Turns: ``verbs`` + ``move_swap``, ``swap_moves``. Scores: ``joker_value`` (15). BasicRummy's
    # own hooks: ``all_seven_deal`` / ``all_seven_moves`` (deals 4-6), ``candidate_meld_words``,
    # ``layoff_words`` (wild placements), ``check_game_end`` (six deals). Also ``make_meld_rules``.

    has_upcard = False
    joker_value = 15  # §1.9 [rec]: a joker left in hand counts 15

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(ace_mode=self.opt("ace_mode"), wild_jokers=True, max_wilds=None, min_natural=1)

    def deck(self) -> list[int]:
        return make_deck(1, 3)

    def deal_size(self, seat: str, active: int) -> int:
        first = self.seats[self.seat_after(self.dealer)]
        return 8 if seat == first else 7

    def expected_count_ok(self, seat: str, count: int) -> bool:
        return 1 <= count <= 9

    def start_phase(self) -> Phase:
        return Phase.PLAY  # §1.9: the starting player holds 8 and begins by discarding

    def verbs(self) -> tuple[Verb, ...]:
        return _WROTHAM_VERBS

    def all_seven_deal(self) -> bool:
        return self.deal_no >= 4

    def check_game_end(self) -> list[Event]:
        if self.deal_no >= 6:  # §1.9: six deals make a game
            return self.finish_game()
        return []

    # ---------------------------------------------------------------- joker exchange (§1.9)
    def swap_moves(self, seat: str) -> list[Move]:
        return Game.swap_moves(self, seat)

    def move_swap(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        card, index, reading = self.parse_swap(seat, move)
        return self.apply_swap(seat, card, index, reading), Move(Verb.SWAP, (card_code(card),), index + 1)

    # ---------------------------------------------------------------- wild placements
    def candidate_meld_words(self, hand: list[int]) -> list[list[str]]:
        """Every meld from hand, jokers annotated (so never ambiguous): the multi-deck generator."""
        return [r.codes(self.meld_rules) for r in hand_meld_candidates(hand, self.meld_rules)]

    def layoff_words(self, card: int, index: int) -> list[str]:
        if card != JOKER:
            return super().layoff_words(card, index)
        meld = self.deal.on_table[index]
        existing = meld.placed(self.meld_rules)
        words = []
        for r in read_meld([*existing, Placed(JOKER)], self.meld_rules, meld.kind):
            added = [st for c, st in zip(r.cards, r.stands, strict=True) if c == JOKER]
            before = [st for c, st in zip(meld.cards, meld.stands, strict=True) if c == JOKER]
            for st in added:
                if st in before:
                    before.remove(st)
                else:
                    words.append(entry_code(JOKER, st, self.meld_rules))
                    break
        return sorted(set(words))

    def all_seven_moves(self, seat: str) -> list[Move]:
        """Deals 4-6: every way to meld all the hand but at most one card in one move (exact search)."""
        hand = self.deal.hands[seat]
        cands = []
        for words in self.candidate_meld_words(hand):
            try:
                cands.append(self.read_new_meld(words))
            except IllegalMove:
                continue
        from collections import Counter

        ldr = self.opt("last_discard_required")
        results: set[Move] = set()
        have = Counter(hand)

        def search(start: int, used: Counter[int], chosen: list[int]) -> None:
            n = sum(used.values())
            # §1.9: all the hand goes down but at most one card, which is then discarded.
            if chosen and len(hand) - n <= 1 and not (ldr and n == len(hand)):
                rest = list((have - used).elements())
                if rest != [self.deal.took] or self.deal.took_keep:
                    results.add(self.meld_move([cands[i] for i in chosen]))
            for i in range(start, len(cands)):
                cu = used + Counter(cands[i].cards)
                if all(cu[c] <= have[c] for c in cu):
                    search(i + 1, cu, [*chosen, i])

        search(0, Counter(), [])
        return sorted(results)  # by text, as the record writes them


def best_melds_text(hand: list[int], ace_mode: str, values: tuple[int, ...]) -> tuple[int, list[str]]:
    """Helper for views: the best arrangement of a natural hand as meld texts."""
    dead, melds = best_melds(mask_of(hand), ace_mode, values)
    return dead, [codes(cards_of(m)) for m in melds]


__all__ = ["BasicRummy", "Number", "Wrotham", "best_melds_text", "norm", "parse_entry"]
