"""Dummy rummy: twelve contracts, twos and jokers wild, cut-ins (rules.md §5).

Each player works through the contracts of §5.3 on their own; a contract is laid down whole in one
``meld A | B`` move and nothing else is ever melded that deal; layoffs come on later turns; the
turn always ends with a discard, which may not be a card that could be laid off. A player who
laid down advances to the next contract when the deal ends. Cut-ins open a window after each
discard: the other seats ``cut`` or ``pass``; from the first request on, the next player may
``take`` the discard or ``allow`` the cut-in at any time, and priority is settled when the window
closes. Nothing here knows Discord or SQL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .cards import JOKER, card_code, display_key, make_deck, parse_rank
from .errors import IllegalMove
from .events import EventKind, Phase
from .game import Event, Game
from .meldgen import MAX_COMBOS, hand_meld_candidates
from .melds import MeldRules, Placed, Reading, entry_code, natural_extends, read_meld
from .move import Move, Verb, card_move
from .rgn import parse_seat_map
from .state import DummyDeal
from .turns import Handled

# §5.3: (kind, minimum size) of each meld of each contract.
CONTRACTS: dict[int, tuple[tuple[str, int], ...]] = {
    1: (("set", 3), ("set", 3)),
    2: (("set", 3), ("run", 4)),
    3: (("set", 4), ("set", 4)),
    4: (("run", 4), ("run", 4)),
    5: (("set", 4), ("run", 4)),
    6: (("set", 3), ("set", 3), ("run", 4)),
    7: (("set", 3), ("run", 7)),
    8: (("set", 3), ("set", 3), ("set", 3)),
    9: (("set", 5), ("set", 5)),
    10: (("run", 5), ("run", 5)),
    11: (("set", 8),),
    12: (("run", 10),),
}
LAST = 12
_VERBS = (
    Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.DISCARD,
    Verb.CUT, Verb.PASS, Verb.ALLOW,  # the cut-in window (§5.5)
)

# §5.6 fallback (Bicycle's Contract Rummy): ace, twos and jokers 15; K Q J T 10; others pip.
BICYCLE = {"A": 15, "2": 15, "JK": 15, "K": 10, "Q": 10, "J": 10, "T": 10}


def parse_card_values(text: str) -> tuple[tuple[int, ...], int]:
    """``contract_bicycle`` or overrides ``A:15,JK:20,2:20`` -> (values by rank A..K, joker)."""
    table = {r: (BICYCLE.get(r, i + 1)) for i, r in enumerate("A23456789TJQK")}
    joker = BICYCLE["JK"]
    if text != "contract_bicycle":
        for item in text.split(","):
            key, _, num = item.partition(":")
            if key.upper() == "JK":
                joker = int(num)
            else:
                r = parse_rank(key)
                assert r is not None  # the option's pattern admits ranks only
                table["A23456789TJQK"[r]] = int(num)
    return tuple(table[r] for r in "A23456789TJQK"), joker


class DummyRummy(Game):
    """``dummy``: 2-4 players, 108 cards, 13 cards dealt, contracts 1-12."""

    # Hooks overridden. Deal: ``deck`` (108 cards), ``deal_size``, ``expected_count_ok``,
    # ``after_layout`` / ``layout_from_tags`` ([Contract], [Cuts]), ``new_deal`` (``DummyDeal``).
    # Turns: ``verbs`` with ``move_meld`` / ``move_layoff`` / ``move_discard`` and the cut-in
    # moves ``move_cut`` / ``move_pass`` / ``move_allow``, ``move_take`` (the next player's answer
    # to a cut-in), ``check_take`` / ``check_discard`` (§5.5), ``stock_empty``, ``on_turn_limit``
    # (void), ``timeout_moves``. Scores: ``value`` (card_values, §5.6), ``placing``. Also
    # ``make_meld_rules``, ``legal_moves`` and ``contracts``.

    deal: DummyDeal

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The game's own state: each seat's contract (§5.3; 13 once all twelve are done), and
        # the card values of §5.6.
        self.contract: dict[str, int] = {s: 1 for s in self.seats}
        values, self.joker_value = parse_card_values(self.rules["card_values"])
        self.values = values

    def new_deal(self) -> DummyDeal:
        return DummyDeal(hands={s: [] for s in self.seats}, cuts={s: 0 for s in self.seats})

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(
            ace_mode="high_low",  # §5.4: ace high or low, never both
            wild_jokers=True,
            wild_twos=True,
            max_wilds=None,
            min_natural=self.rules["min_natural_per_meld"],
            set_max=None,
            set_distinct_suits=False,
            run_mixed_suits=True,
        )

    def deck(self) -> list[int]:
        return make_deck(2, 4)

    def deal_size(self, seat: str, active: int) -> int:
        size: int = self.rules["deal_size"]
        return size

    def value(self, card: int) -> int:
        if card == JOKER:
            return self.joker_value
        return self.values[card % 13]

    def expected_count_ok(self, seat: str, count: int) -> bool:
        size: int = self.rules["deal_size"]
        cuts: int = self.rules["cuts_per_hand"]
        extra: int = self.rules["cut_extra_cards"]
        return 1 <= count <= size + 2 + cuts * (1 + extra)

    def verbs(self) -> tuple[Verb, ...]:
        return _VERBS

    @property
    def contracts(self) -> dict[str, int]:
        return {s: min(self.contract.get(s, 1), LAST) for s in self.seats}

    def layout_from_tags(self, tags: Any) -> dict[str, Any]:
        out = super().layout_from_tags(tags)
        if "Contract" in tags:
            out["contract"] = {k: int(x) for k, x in parse_seat_map(tags["Contract"][0][0]).items()}
        if "Cuts" in tags:
            out["cuts"] = {k: int(x) for k, x in parse_seat_map(tags["Cuts"][0][0]).items()}
        return out

    def after_layout(self, layout: Mapping[str, Any]) -> None:
        super().after_layout(layout)
        for seat, n in layout.get("contract", {}).items():
            if seat not in self.seats or not 1 <= n <= LAST:
                raise IllegalMove("bad_layout", "[Contract] takes seat=number with numbers 1 to 12", {})
            self.contract[seat] = n
        for seat, n in layout.get("cuts", {}).items():
            self.deal.cuts[seat] = n
        if self.deal.phase not in (Phase.DRAW, Phase.PLAY):
            raise IllegalMove("bad_layout", f"dummy positions start in phase draw or play, not {self.deal.phase}", {})

    # ---------------------------------------------------------------- contracts (§5.3, §5.4)
    def contract_fits(self, seat: str, readings: list[Reading]) -> bool:
        """The melds are exactly the contract: as many, of the same kinds, each long enough."""
        need = CONTRACTS[self.contracts[seat]]
        if len(readings) != len(need):
            return False
        exact = self.rules["contract_sizes"] == "exact"

        def assign(i: int, free: list[Reading]) -> bool:
            if i == len(need):
                return True
            kind, size = need[i]
            for k, r in enumerate(free):
                fits = r.kind == kind and (len(r.cards) == size if exact else len(r.cards) >= size)
                if fits and assign(i + 1, free[:k] + free[k + 1 :]):
                    return True
            return False

        return assign(0, list(readings))

    def describe_contract(self, seat: str) -> str:
        return " + ".join(f"{kind} of {size}" for kind, size in CONTRACTS[self.contracts[seat]])

    def move_meld(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        if seat in self.deal.opened:
            raise IllegalMove("already_laid_down", "after laying down your contract you may not meld again (§5.5)", {})
        readings = self.parse_melds(seat, move)
        if not self.contract_fits(seat, readings):
            n = self.contracts[seat]
            raise IllegalMove(
                "contract_not_met",
                f"contract {n} is {self.describe_contract(seat)}, laid down whole and nothing more",
                {"contract": n},
            )
        self.keep_a_discard(seat, [c for r in readings for c in r.cards])
        events = self.add_melds(seat, readings)
        self.deal.opened.add(seat)
        self.deal.laid_turn = True
        events.append(Event(EventKind.LAID_DOWN, seat, {"contract": self.contracts[seat]}))
        return events, self.meld_move(readings)

    def move_layoff(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        if seat not in self.deal.opened:
            raise IllegalMove("not_laid_down", "lay down your contract before laying off (§5.5)", {})
        if self.deal.laid_turn and not self.rules["layoff_same_turn"]:
            raise IllegalMove("layoff_next_turn", "you may lay off from your next turn on (§5.5)", {})
        index, reading, cards = self.parse_layoff(seat, move)
        self.keep_a_discard(seat, cards)
        recorded = self.layoff_move(index, reading, cards)
        return self.apply_layoff(seat, index, reading, cards), recorded

    # ---------------------------------------------------------------- drawing (§5.5)
    def check_take(self, seat: str) -> None:
        if seat in self.deal.opened:
            raise IllegalMove("stock_only", "after laying down you draw from the stock only (§5.5)", {})

    def stock_empty(self, seat: str) -> list[Event]:
        """§5.5 [rec]: the discard pile but its top card is shuffled into a new stock."""
        if len(self.deal.discard) <= 1:
            return self.end_void("no_cards")
        self.deal.exhaustions += 1
        pile, self.deal.discard = self.deal.discard[:-1], self.deal.discard[-1:]
        return self.renew_stock(seat, pile, shuffle=True)

    # ---------------------------------------------------------------- discarding (§5.5)
    def playable(self, card: int) -> bool:
        """Whether ``card`` could be laid off on some table meld (a wild: whenever some meld takes it)."""
        if not self.meld_rules.is_wild(card):
            return any(natural_extends(m.kind, m.stands, card, self.meld_rules) for m in self.deal.on_table)
        for m in self.deal.on_table:
            if read_meld([*m.placed(self.meld_rules), Placed(card)], self.meld_rules, m.kind):
                return True
        return False

    def discardable(self, seat: str) -> set[int]:
        """The cards the turn's discard may be chosen from, before the no-playable rule."""
        hand = self.deal.hands[seat]
        out = set(hand)
        if self.deal.took is not None and hand.count(self.deal.took) == 1:
            out.discard(self.deal.took)  # as in every variant: not the card just taken (docs/notation.md)
        return out

    def keep_a_discard(self, seat: str, using: list[int]) -> None:
        rest = list(self.deal.hands[seat])
        for c in using:
            rest.remove(c)
        if not any(c != self.deal.took or rest.count(c) > 1 for c in rest):
            raise IllegalMove(
                "keep_a_discard", "you must keep a card to discard: every turn ends with a discard (§5.5)", {}
            )

    def check_discard(self, seat: str, card: int) -> None:
        self.check_hand_discard(seat, card)
        rule = self.rules["no_playable_discard"]
        if rule and self.playable(card) and not all(self.playable(c) for c in self.discardable(seat)):
            raise IllegalMove(
                "playable_discard",
                f"{card_code(card)} could be laid off on the table, so it may not be discarded (§5.5)",
                {"card": card_code(card)},
            )

    def move_discard(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        card = self.parse_discard(seat, move)
        self.check_discard(seat, card)
        self.deal.hands[seat].remove(card)
        self.deal.discard.append(card)
        events = [Event(EventKind.DISCARDED, seat, {"card": card_code(card)})]
        recorded = card_move(Verb.DISCARD, card)
        if not self.deal.hands[seat]:
            return events + self.end_out(seat), recorded
        discarder = self.deal.turn
        events += self.end_turn()
        if self.deal.hand_over:
            return events, recorded
        self.deal.laid_turn = False
        if self.rules["cut_ins"]:
            eligible = [
                s
                for s in self.order_after(self.deal.turn)
                if s not in (self.seats[discarder], self.seats[self.deal.turn])
                and s not in self.deal.opened
                and self.deal.cuts[s] < self.rules["cuts_per_hand"]
            ]
            if eligible:
                self.deal.phase = Phase.WINDOW
                self.deal.window_pending = eligible
                self.deal.cut_requests = []
                self.deal.deciding = self.deal.allowed = False
                events.append(Event(EventKind.CUT_WINDOW, seat, {"card": card_code(card)}))
        return events, recorded

    def order_after(self, index: int) -> list[str]:
        """Active seats in turn order starting just after seat ``index``."""
        out, i = [], index
        for _ in range(len(self.seats)):
            i = (i + 1) % len(self.seats)
            if self.seats[i] in self.active:
                out.append(self.seats[i])
        return out

    # ---------------------------------------------------------------- cut-ins (§5.5)
    # notation.md "Windows": every eligible seat is in ``actors`` until it acts or passes. The
    # seats that may ask (``cut`` / ``pass``) are there from the discard on; the next player, who
    # decides (``take`` / ``allow``), joins them with the first request and may answer at once,
    # before or after the seats in between. ``deciding``: the next player is still to answer;
    # ``allowed``: they allowed while others could still ask, so the cut-in is granted, by
    # priority, when the last of those answers.
    def decider(self) -> str:
        return self.seats[self.deal.turn]  # the next player (§5.5), whose turn starts after the window

    def move_cut(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.WINDOW)
        self.no_args(move)
        if seat == self.decider():
            raise IllegalMove("wrong_phase", "take the discard or allow the cut-in", {})
        self.deal.window_pending.remove(seat)
        self.deal.cut_requests.append(seat)
        events = [Event(EventKind.CUT_REQUESTED, seat, {})]
        if not self.deal.deciding and not self.deal.allowed:
            self.deal.deciding = True
            self.deal.window_pending.insert(0, self.decider())  # first in seat order after the discarder
            events.append(Event(EventKind.CUT_DECISION, self.decider(), {"requests": list(self.deal.cut_requests)}))
        return events + self.after_request(), Move.of(Verb.CUT)

    def move_pass(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.WINDOW)
        self.no_args(move)
        if seat == self.decider():
            raise IllegalMove("wrong_phase", "take the discard or allow the cut-in", {})
        self.deal.window_pending.remove(seat)
        return [Event(EventKind.PASSED, seat, {}), *self.after_request()], Move.of(Verb.PASS)

    def after_request(self) -> list[Event]:
        """Close the window once every seat in it has answered."""
        if self.deal.window_pending:
            return []
        if not self.deal.cut_requests:
            self.deal.phase = Phase.DRAW
            return []
        return self.grant_cut()

    def close_window(self) -> None:
        self.deal.deciding = False
        self.deal.allowed = False
        self.deal.window_pending = []
        self.deal.cut_requests = []
        self.deal.phase = Phase.DRAW

    def move_take(self, seat: str, move: Move) -> Handled:
        if self.deal.phase == Phase.WINDOW:
            if seat != self.decider() or not self.deal.deciding:
                raise IllegalMove("wrong_phase", "wait for the cut-in window to close", {})
            self.no_args(move)
            self.check_take(seat)
            self.close_window()  # the next player takes the discard as their draw: no cut-in
        return super().move_take(seat, move)

    def move_allow(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.WINDOW)
        self.no_args(move)
        if seat != self.decider() or not self.deal.deciding:
            raise IllegalMove("wrong_phase", "nobody has asked to cut in", {})
        self.deal.deciding = False
        self.deal.window_pending.remove(seat)
        if self.deal.window_pending:  # others may still ask: the cut-in is granted when they have answered
            self.deal.allowed = True
            return [Event(EventKind.ALLOWED, seat, {})], Move.of(Verb.ALLOW)
        return self.grant_cut(), Move.of(Verb.ALLOW)

    def grant_cut(self) -> list[Event]:
        """The requester nearest after the next player in turn order wins (§5.5): the discard and
        the top ``cut_extra_cards`` of the stock, without a discard."""
        winner = next(s for s in self.order_after(self.deal.turn) if s in self.deal.cut_requests)
        card = self.deal.discard.pop()
        extra = [self.deal.stock.pop() for _ in range(min(self.rules["cut_extra_cards"], len(self.deal.stock)))]
        self.deal.hands[winner] += [card, *extra]
        self.deal.cuts[winner] += 1
        self.close_window()
        return [Event(EventKind.CUT_IN, winner, {"card": card_code(card), "extra": len(extra)})]

    # ---------------------------------------------------------------- scoring (§5.6)
    def end_out(self, winner: str) -> list[Event]:
        self.begin_scoring()
        for s in self.active:
            if s != winner:
                count = self.hand_value(self.deal.hands[s])
                self.credit(s, count, "hand_left", count=count)
        self.credit(winner, 0, "went_out")
        self.won[winner] += 1
        self.advance_contracts()
        self.close_deal("out", winner, self.hand_results())
        return [Event(EventKind.WENT_OUT, winner, {}), *self.check_game_end()]

    def advance_contracts(self) -> None:
        for s in self.deal.opened:
            self.contract[s] = self.contract.get(s, 1) + 1  # 13 = all twelve done

    def end_void(self, reason: str) -> list[Event]:
        self.begin_scoring()
        self.void = True
        self.close_deal("void", None, self.hand_results())
        return [Event(EventKind.DEAL_VOID, None, {"reason": reason})]

    def on_turn_limit(self) -> list[Event]:
        return self.end_void("turn_limit")

    def check_game_end(self) -> list[Event]:
        done = [s for s in self.active if self.contract.get(s, 1) > LAST]
        if not done:
            return []
        if self.rules["game_end"] == "all_finish" and len(done) < len(self.active):
            return []
        low = min(self.totals[s] for s in done)
        self.game_over = True
        self.final_scores = dict(self.totals)
        self.winners = [s for s in done if self.totals[s] == low]
        return [Event(EventKind.GAME_OVER, None, {"winners": list(self.winners)})]

    def placing(self) -> list[str]:
        return sorted(self.active, key=lambda s: (-self.contract.get(s, 1), self.totals[s]))

    def timeout_moves(self, seat: str) -> list[Event]:
        if self.deal.phase == Phase.WINDOW:
            return self.play(seat, Move.of(Verb.ALLOW if seat == self.decider() else Verb.PASS))
        return super().timeout_moves(seat)

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self, seat: str) -> list[Move]:
        if seat not in self.actors:
            return []
        if self.deal.phase == Phase.WINDOW:
            if seat == self.decider():  # the next player, asked to answer a cut-in
                return ([Move.of(Verb.TAKE)] if seat not in self.deal.opened else []) + [Move.of(Verb.ALLOW)]
            return [Move.of(Verb.CUT), Move.of(Verb.PASS)]
        if self.deal.phase == Phase.DRAW:
            may_take = self.deal.discard and seat not in self.deal.opened  # §5.5: stock only once laid down
            return [Move.of(Verb.DRAW)] + ([Move.of(Verb.TAKE)] if may_take else [])
        hand = self.deal.hands[seat]
        moves: list[Move] = []
        if seat not in self.deal.opened:
            moves += [self.meld_move(combo) for combo in self.lay_downs(seat)]
        elif (not self.deal.laid_turn or self.rules["layoff_same_turn"]) and len(hand) > 1:
            for i in range(len(self.deal.on_table)):
                for c in sorted(set(hand)):
                    rest = list(hand)
                    rest.remove(c)
                    if all(x == self.deal.took and rest.count(x) == 1 for x in rest):
                        continue  # it would leave only the card just taken, which cannot be discarded
                    for word in self.layoff_words(c, i):
                        moves.append(Move(Verb.LAYOFF, (word,), i + 1))
        distinct = self.discardable(seat)
        if self.rules["no_playable_discard"] and self.deal.on_table:
            playable = {c for c in distinct if self.playable(c)}
            if playable != distinct:
                distinct -= playable  # §5.5: only when every card is playable may one be discarded
        discards = sorted(distinct, key=lambda c: (-self.value(c), display_key(c)))
        return moves + [card_move(Verb.DISCARD, c) for c in discards]

    def layoff_words(self, card: int, index: int) -> list[str]:
        meld = self.deal.on_table[index]
        if not self.meld_rules.is_wild(card):
            return [card_code(card)] if natural_extends(meld.kind, meld.stands, card, self.meld_rules) else []
        found = read_meld([*meld.placed(self.meld_rules), Placed(card)], self.meld_rules, meld.kind)
        words = set()
        for r in found:
            before = Counter(st for c, st in zip(meld.cards, meld.stands, strict=True) if c == card)
            for c, st in zip(r.cards, r.stands, strict=True):
                if c == card:
                    if before[st] > 0:
                        before[st] -= 1
                    else:
                        words.add(entry_code(card, st, self.meld_rules))
        return sorted(words)

    def lay_downs(self, seat: str) -> list[list[Reading]]:
        """Every way (up to ``MAX_COMBOS``) to lay down the contract from hand, keeping a card."""
        hand = self.deal.hands[seat]
        need = CONTRACTS[self.contracts[seat]]
        exact = self.rules["contract_sizes"] == "exact"
        cands = hand_meld_candidates(hand, self.meld_rules)
        by_req = [
            [r for r in cands if r.kind == kind and (len(r.cards) == size if exact else len(r.cards) >= size)]
            for kind, size in need
        ]
        have = Counter(hand)
        found: list[list[Reading]] = []

        def dfs(i: int, chosen: list[Reading], last: dict[tuple[str, int], int]) -> None:
            if len(found) >= MAX_COMBOS:
                return
            if i == len(need):
                took = self.deal.took
                if any(n > (1 if c == took else 0) for c, n in have.items()):
                    found.append(list(chosen))
                return
            start = last.get(need[i], 0)  # equal requirements take candidates in order: no repeats
            for k in range(start, len(by_req[i])):
                r = by_req[i][k]
                cnt = Counter(r.cards)
                if all(have[c] >= n for c, n in cnt.items()):
                    have.subtract(cnt)
                    chosen.append(r)
                    dfs(i + 1, chosen, {**last, need[i]: k + 1})
                    chosen.pop()
                    have.update(cnt)

        dfs(0, [], {})
        return found
