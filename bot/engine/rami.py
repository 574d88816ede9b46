"""Rami: French-style rummy with jokers, an opening minimum and points per card placed (rules.md §3).

What it is: the rami turn. The opening is one ``meld A | B`` move worth ``first_meld_min``
(§3.5); a retrieved joker (§3.6) or a taken discard (§3.7) is an obligation that must be met
before the turn ends, checked exactly by ``feasible``; a timeout with one open returns the turn to
its state right after the draw (never drawing again) and costs 300 (§3.9). What it is not: the points (card values,
credits, bonuses, elimination: ``rami_scoring.py``), table moves (manipulation, ``table.py``),
Discord or SQL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .cards import JOKER, card_code, codes, display_key, make_deck, parse_card
from .errors import IllegalMove
from .events import EventKind, Phase
from .game import Event, Game
from .meldgen import combos_reaching, hand_meld_candidates
from .melds import MeldRules, Placed, Reading, natural_extends, read_meld
from .move import Move, Verb, card_move
from .rami_scoring import RamiScoring
from .state import RamiDeal, TableMeld, placed_entries
from .table import TableManipulation
from .turns import Handled


class Rami(TableManipulation, RamiScoring, Game):
    """``rami``: 2-8 players, 2-4 decks with jokers, 14 cards, no upcard."""

    # Hooks overridden. Deal: ``deck`` (2-4 decks, §3.1), ``deal_size`` (14), ``has_upcard`` (no),
    # ``expected_count_ok``, ``after_layout`` / ``layout_from_tags`` ([Credits]),
    # ``new_deal`` (``RamiDeal``). Turns: ``verbs`` with ``move_meld`` / ``move_layoff`` / ``move_swap`` /
    # ``move_discard`` / ``move_done``, ``move_draw`` / ``move_take`` (turn snapshot, §3.7),
    # ``stock_empty`` (§3.7), ``check_hand_discard`` / ``check_discard`` (obligations), ``end_turn``,
    # ``on_turn_limit`` (void), ``timeout_moves`` (§3.9), ``rearranging_allowed`` and
    # ``swap_open_suits`` (§3.6). TableManipulation: ``table_allowed``, ``check_table_after``,
    # ``after_table``. Scores (RamiScoring): ``value``, ``placing``. Also ``make_meld_rules``,
    # ``legal_moves``.

    has_upcard = False
    keeps_ledger = True  # §3.8: a deal scores from many events, explained line by line
    swap_open_suits = False  # §3.6: only an unambiguous joker may be retrieved

    deal: RamiDeal

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rounds_played = 0

    def new_deal(self) -> RamiDeal:
        return RamiDeal(hands={s: [] for s in self.seats}, credits={s: 0 for s in self.seats})

    # The deal's state the robots' sight reads (a taken discard still to place, §3.7; the turn's
    # start, whose hidden cards it blanks out).
    @property
    def must_play(self) -> int | None:
        return self.deal.must_play

    @property
    def turn_start(self) -> dict[str, Any] | None:
        return self.deal.turn_start

    # ---------------------------------------------------------------- deal (§3.1)
    def decks(self) -> int:
        if self.rules["identities"]:
            return 4  # §3.11
        n = len(self.seats)
        return 2 if n <= 4 else 3 if n <= 6 else 4

    def deck(self) -> list[int]:
        d = self.decks()
        return make_deck(d, d * self.rules["jokers_per_deck"])

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(
            ace_mode="round_the_corner" if self.rules["ace_wrap"] else "high_low",
            wild_jokers=True,
            max_wilds=1,
            min_natural=2,
            identities=self.rules["identities"],
            wild_layoff=False,
        )

    def deal_size(self, seat: str, active: int) -> int:
        return 14

    def expected_count_ok(self, seat: str, count: int) -> bool:
        return 1 <= count <= 15 + 10  # several discards may be taken at once (multiple mode)

    def verbs(self) -> tuple[Verb, ...]:
        # §3.7: discard_mode none ends a turn with ``done``; §3.10: manipulation adds ``table``.
        end = Verb.DONE if self.rules["discard_mode"] == "none" else Verb.DISCARD
        table = (Verb.TABLE,) if self.rules["table_manipulation"] else ()
        return (Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.SWAP, end, *table)

    def reset_turn(self) -> None:
        """What one turn tracks: its obligations, the opening and the rami bonus's conditions."""
        self.deal.pending_jokers = 0
        self.deal.must_play = None
        self.deal.must_play_keep = 0
        self.deal.opened_this_turn = False
        self.deal.own_only = True
        self.deal.turn_start = None

    def after_layout(self, layout: Mapping[str, Any]) -> None:
        super().after_layout(layout)
        for seat, points in layout.get("credits", {}).items():
            self.deal.credits[seat] = points
        if self.deal.phase not in (Phase.DRAW, Phase.PLAY):
            raise IllegalMove("bad_layout", f"rami has no phase {self.deal.phase}", {"phase": self.deal.phase})
        if self.deal.phase == Phase.PLAY:
            self.snapshot_turn()

    # ---------------------------------------------------------------- turn obligations
    def snapshot_turn(self) -> None:
        """The turn's state right after its draw or take, for the timeout rollback (§0.4, §3.9:
        "the drawn card stays in the hand"); a position in phase play starts there."""
        seat = self.seats[self.deal.turn]
        self.deal.turn_start = {
            "hand": list(self.deal.hands[seat]),
            "stock": list(self.deal.stock),
            "discard": list(self.deal.discard),
            "table": [m.copy() for m in self.deal.on_table],
            "credits": dict(self.deal.credits),
            "ledger": len(self.deal.ledger),
            "placed": set(self.deal.placed),
            "opened": set(self.deal.opened),
            "drawn": self.deal.drawn,
            "took": self.deal.took,
            "took_keep": self.deal.took_keep,
        }

    def roll_back_turn(self, seat: str) -> None:
        """§3.9: the table and the hand go back to the snapshot; the obligations lapse (the penalty
        answers for them) and the turn stands right after its draw, in phase play."""
        snap = self.deal.turn_start
        assert snap is not None
        self.deal.hands[seat] = list(snap["hand"])
        self.deal.stock = list(snap["stock"])
        self.deal.discard = list(snap["discard"])
        self.deal.on_table = [m.copy() for m in snap["table"]]
        self.deal.credits = dict(snap["credits"])
        del self.deal.ledger[snap["ledger"] :]
        self.deal.placed = set(snap["placed"])
        self.deal.opened = set(snap["opened"])
        self.deal.drawn, self.deal.took, self.deal.took_keep = snap["drawn"], snap["took"], snap["took_keep"]
        self.deal.must_play = None
        self.deal.pending_jokers = 0
        self.deal.opened_this_turn = False
        self.deal.own_only = True
        self.deal.phase = Phase.PLAY

    def obligations(self, seat: str) -> list[str]:
        out = []
        if self.deal.pending_jokers:
            out.append("joker")
        deal = self.deal
        if deal.must_play is not None and deal.hands[seat].count(deal.must_play) > deal.must_play_keep:
            out.append("taken")
        return out

    def check_turn_can_end(self, seat: str) -> None:
        open_ = self.obligations(seat)
        if "joker" in open_:
            raise IllegalMove("joker_not_replayed", "the retrieved joker must go into a new meld this turn (§3.6)", {})
        if "taken" in open_:
            assert self.deal.must_play is not None
            raise IllegalMove(
                "taken_card_not_played",
                f"{card_code(self.deal.must_play)}, taken from the discard pile, must be played this turn",
                {"card": card_code(self.deal.must_play)},
            )

    def feasible(
        self, seat: str, hand: list[int], jokers: int, must: int | None, table: list[TableMeld] | None = None
    ) -> bool:
        """Whether the obligations still open after a move can all be met from ``hand``: ``jokers``
        new melds with a joker each (one joker a meld, §3.3, §3.6) and the taken card placed, in a
        new meld or on a table meld (§3.7). Exact: a search over disjoint melds from hand."""
        need_card = must is not None and hand.count(must) > self.deal.must_play_keep
        if need_card and must == JOKER:
            # A taken joker and a retrieved one are the same card: every joker beyond those held
            # before the take must leave the hand, and a joker leaves only in a new meld of its own
            # (no layoff, one joker a meld, §3.3, §3.6), so one such meld cannot settle both.
            jokers = max(jokers, hand.count(JOKER) - self.deal.must_play_keep)
            need_card = False
        if not jokers and not need_card:
            return True
        layable = (
            need_card
            and must is not None  # (need_card says so)
            and must != JOKER
            and any(
                read_meld([*m.placed(self.meld_rules), Placed(must)], self.meld_rules, m.kind)
                for m in (self.deal.on_table if table is None else table)
            )
        )
        need_card = need_card and not layable
        if not jokers and not need_card:
            return True
        opening = seat not in self.deal.opened
        minimum = self.rules["first_meld_min"] if opening else 0
        cands = [
            r
            for r in hand_meld_candidates(hand, self.meld_rules)
            if opening or JOKER in r.cards or (need_card and must in r.cards)
        ]
        values = [self.meld_value(r.kind, r.cards, r.stands) for r in cands]
        have = Counter(hand)

        def search(start: int, jokers_left: int, card_left: bool, total: int = 0) -> bool:
            # Not yet opened: the joker's new meld must be part of an opening (§3.5).
            if jokers_left <= 0 and not card_left and total >= minimum:
                return True
            for k in range(start, len(cands)):
                r = cands[k]
                need = Counter(r.cards)
                if all(have[c] >= n for c, n in need.items()):
                    have.subtract(need)
                    ok = search(
                        k + 1, jokers_left - r.cards.count(JOKER), card_left and must not in r.cards,
                        total + values[k],
                    )
                    have.update(need)
                    if ok:
                        return True
            return False

        return search(0, jokers, need_card)

    def check_feasible(self, seat: str, using: list[int], jokers: int, table: list[TableMeld] | None = None) -> None:
        hand = list(self.deal.hands[seat])
        for c in using:
            hand.remove(c)
        if hand and not self.feasible(seat, hand, jokers, self.deal.must_play, table):
            raise IllegalMove(
                "obligation_impossible",
                "that would leave a retrieved joker or a taken card you could no longer play this turn",
                {},
            )

    def need_opened(self, seat: str, what: str) -> None:
        if seat not in self.deal.opened:
            raise IllegalMove("not_opened", f"you must open before you {what} (§3.5)", {"what": what})

    # ---------------------------------------------------------------- draw / take (§3.4, §3.7)
    def move_draw(self, seat: str, move: Move) -> Handled:
        handled = super().move_draw(seat, move)
        if self.deal.phase == Phase.PLAY:
            self.snapshot_turn()  # after the draw (a refused draw raised above and changed nothing)
        return handled

    def stock_empty(self, seat: str) -> list[Event]:
        """§3.7: shuffle the discard pile into a new stock; with none, the round ends blocked."""
        if not self.deal.discard:
            return self.end_blocked()
        self.deal.exhaustions += 1
        pile, self.deal.discard = self.deal.discard, []
        return self.renew_stock(seat, pile, shuffle=True)

    def move_take(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.DRAW)
        mode = self.rules["discard_mode"]
        if mode in ("none", "one_way"):
            raise IllegalMove("no_taking", "the discard pile cannot be taken in this game", {"mode": mode})
        self.need_opened(seat, "take from the discard pile")
        if not self.deal.discard:
            raise IllegalMove("discard_empty", "the discard pile is empty", {})
        words = move.cards
        if len(words) > 1 or (words and mode != "multiple") or move.target is not None:
            raise IllegalMove("bad_move", "write take (or, taking several, take 9D)", {})
        depth = 1
        if words:
            card = parse_card(words[0])
            if card not in self.deal.discard:
                raise IllegalMove("not_in_pile", f"{card_code(card)} is not in the discard pile", {"card": words[0]})
            depth = len(self.deal.discard) - max(i for i, c in enumerate(self.deal.discard) if c == card)
        taken = self.deal.discard[-depth:]
        deepest = taken[0]
        if not self.can_place(seat, deepest, taken[1:]):
            raise IllegalMove(
                "cannot_play_taken",
                f"{card_code(deepest)} may be taken only if you can play it this turn (§3.7)",
                {"card": card_code(deepest)},
            )
        del self.deal.discard[-depth:]
        self.deal.must_play_keep = self.deal.took_keep = self.deal.hands[seat].count(deepest)
        self.deal.hands[seat].extend(reversed(taken))
        self.deal.took = deepest
        self.deal.must_play = deepest
        self.deal.phase = Phase.PLAY
        self.snapshot_turn()  # the take is the turn's draw (§3.7)
        recorded = Move.of(Verb.TAKE, (card_code(deepest),) if words else ())
        return [Event(EventKind.TOOK, seat, {"cards": codes(taken)})], recorded

    def can_place(self, seat: str, card: int, extra: list[int]) -> bool:
        """Whether ``card`` could be placed this turn: laid off on a table meld, or in a new meld with
        cards from hand. Rearrangements of the table are not searched for (docs/notation.md)."""
        if card != JOKER and any(natural_extends(m.kind, m.stands, card, self.meld_rules) for m in self.deal.on_table):
            return True
        pool = self.deal.hands[seat] + extra
        return any(card in r.cards for r in hand_meld_candidates([*pool, card], self.meld_rules, must=card))

    # ---------------------------------------------------------------- meld / layoff / swap
    def move_meld(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        readings = self.parse_melds(seat, move)
        value = sum(self.meld_value(r.kind, r.cards, r.stands) for r in readings)
        opening = seat not in self.deal.opened
        if opening and value < self.rules["first_meld_min"]:
            raise IllegalMove(
                "opening_too_low",
                f"an opening needs {self.rules['first_meld_min']} points of new melds; these make {value}",
                {"value": value, "minimum": self.rules["first_meld_min"]},
            )
        self.check_going_out(seat, [c for r in readings for c in r.cards])
        jokers_placed = sum(1 for r in readings if JOKER in r.cards)
        using = [c for r in readings for c in r.cards]
        self.check_feasible(seat, using, max(0, self.deal.pending_jokers - jokers_placed))
        events = self.add_melds(seat, readings)
        self.deal.pending_jokers = max(0, self.deal.pending_jokers - jokers_placed)
        for r in readings:
            self.place_credit(
                seat, self.meld_value(r.kind, r.cards, r.stands), "meld", meld=" ".join(r.codes(self.meld_rules))
            )
        if opening:
            self.deal.opened.add(seat)
            self.deal.opened_this_turn = True
            events.append(Event(EventKind.OPENED, seat, {"value": value}))
        return events + self.after_placing(seat), self.meld_move(readings)

    def check_going_out(self, seat: str, using: list[int]) -> None:
        """Emptying the hand ends the round, so every obligation must be met by then."""
        rest = Counter(self.deal.hands[seat])
        rest.subtract(using)
        if sum(rest.values()) == 0 and self.deal.pending_jokers and JOKER not in using:
            raise IllegalMove("joker_not_replayed", "the retrieved joker must go into a new meld this turn", {})

    def move_layoff(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        self.need_opened(seat, "lay off")
        if any(w.upper().startswith("JK") for w in move.cards):
            raise IllegalMove("joker_layoff", "a joker cannot extend an existing meld (§3.3)", {})
        index, reading, cards = self.parse_layoff(seat, move)
        old = self.deal.on_table[index]
        before = self.meld_value(old.kind, old.cards, old.stands)
        after = list(self.deal.on_table)
        after[index] = TableMeld(reading.kind, list(reading.cards), list(reading.stands), None)
        self.check_feasible(seat, cards, self.deal.pending_jokers, after)
        recorded = self.layoff_move(index, reading, cards)
        events = self.apply_layoff(seat, index, reading, cards)
        gain = self.meld_value(reading.kind, reading.cards, reading.stands) - before
        self.place_credit(seat, gain, "layoff", cards=codes(cards), number=index + 1)
        self.deal.own_only = False
        return events + self.after_placing(seat), recorded

    def move_swap(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        if self.rules["retrieval_requires_opened"]:
            self.need_opened(seat, "retrieve a joker")
        try:
            card, index, reading = self.parse_swap(seat, move)
        except IllegalMove as err:
            if err.code == "swap_no_match":
                raise IllegalMove(
                    "joker_ambiguous_or_absent",
                    "a joker can be retrieved only with the one card it surely stands for (§3.6)",
                    err.params,
                ) from None
            raise
        hand_after = [*self.deal.hands[seat], JOKER]
        hand_after.remove(card)
        after = list(self.deal.on_table)
        after[index] = TableMeld(reading.kind, list(reading.cards), list(reading.stands), None)
        if not self.feasible(seat, hand_after, self.deal.pending_jokers + 1, self.deal.must_play, after):
            raise IllegalMove(
                "joker_cannot_be_replayed",
                "you could not put that joker into a new meld this turn, as the rules require (§3.6)",
                {},
            )
        meld = self.deal.on_table[index]
        ranks = {s[0] for s in meld.stands}
        pos = next(
            i
            for i, (c, s) in enumerate(zip(meld.cards, meld.stands, strict=True))
            if c == JOKER and s == (card % 13, card // 13)
        )
        joker_value = self.placement_value(JOKER, meld.stands[pos], meld.kind, ranks)
        events = self.apply_swap(seat, card, index, reading)
        self.deal.pending_jokers += 1
        if self.rules["joker_retrieval_debit"]:
            self.place_credit(seat, -joker_value, "joker_retrieved", number=index + 1)
        self.place_credit(seat, joker_value, "card_for_joker", card=card_code(card), number=index + 1)
        self.deal.own_only = False
        return events, Move(Verb.SWAP, (card_code(card),), index + 1)

    def after_placing(self, seat: str) -> list[Event]:
        events: list[Event] = []
        left = len(self.deal.hands[seat])
        if left == 0:
            return self.end_out(seat, final_discard=False)
        if left <= 3:
            events.append(Event(EventKind.FEW_CARDS, seat, {"count": left}))  # §3.4: announced automatically
        return events

    # ---------------------------------------------------------------- table manipulation (§3.10)
    def rearranging_allowed(self, seat: str) -> bool:
        return bool(self.rules["table_manipulation"]) and seat in self.deal.opened  # §3.10, once opened

    def opening_draft(self, seat: str) -> bool:
        # §3.5, §3.10: with manipulation, a seat that has not opened lays its opening out as a
        # draft in its own turn's play phase; the draft is played as its opening ``meld`` move.
        return (bool(self.rules["table_manipulation"]) and self.deal.phase == Phase.PLAY
                and self.current_seat == seat and seat not in self.deal.opened)

    def opening_minimum(self, seat: str) -> int | None:
        return None if seat in self.deal.opened else int(self.rules["first_meld_min"])  # §3.5

    def table_allowed(self, seat: str) -> None:
        if not self.rules["table_manipulation"]:
            raise IllegalMove("unknown_move", "table manipulation is off in this game", {"verb": "table"})
        self.need_opened(seat, "rearrange the table")

    def check_table_after(self, seat: str, used: list[int], new_table: list[TableMeld]) -> None:
        self.check_feasible(seat, used, self.deal.pending_jokers, new_table)

    def after_table(self, seat: str, old: list[TableMeld], used: list[int]) -> list[Event]:
        """§3.10: cards taken from the table are debited at their old value and credited at their
        new one, so the player gains what the table gained."""
        self.place_credit(
            seat, self.table_value(self.deal.on_table) - self.table_value(old), "table_move", cards=codes(used)
        )
        self.deal.own_only = False
        return self.after_placing(seat)

    # ---------------------------------------------------------------- ending the turn
    def move_discard(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        card = self.parse_discard(seat, move)
        self.check_turn_can_end(seat)
        self.deal.hands[seat].remove(card)
        self.deal.discard.append(card)
        events = [Event(EventKind.DISCARDED, seat, {"card": card_code(card)})]
        recorded = card_move(Verb.DISCARD, card)
        if not self.deal.hands[seat]:
            return events + self.end_out(seat, final_discard=True), recorded
        if len(self.deal.hands[seat]) <= 3:
            events.append(Event(EventKind.FEW_CARDS, seat, {"count": len(self.deal.hands[seat])}))
        events += self.end_turn()
        return events, recorded

    def move_done(self, seat: str, move: Move) -> Handled:
        """``discard_mode=none``: the turn ends without a discard (§3.7)."""
        self.need_phase(Phase.PLAY)
        self.no_args(move)
        self.check_turn_can_end(seat)
        return [Event(EventKind.TURN_ENDED, seat, {}), *self.end_turn()], Move.of(Verb.DONE)

    def end_turn(self) -> list[Event]:
        self.reset_turn()
        return super().end_turn()

    def on_turn_limit(self) -> list[Event]:
        return self.end_void()

    # ---------------------------------------------------------------- timeout (§0.4, §3.9)
    def timeout_moves(self, seat: str) -> list[Event]:
        events: list[Event] = []
        if self.deal.phase == Phase.PLAY and self.obligations(seat) and self.deal.turn_start is not None:
            # §0.4, §3.9: back to right after the draw, never a second draw; then the discard.
            self.roll_back_turn(seat)
            events += self.charge_penalty(seat)
        if self.deal.phase == Phase.DRAW:
            events += self.play(seat, Move.of(Verb.DRAW))
        if self.deal.hand_over or self.deal.phase != Phase.PLAY:
            return events
        if self.rules["discard_mode"] == "none":
            return events + self.play(seat, Move.of(Verb.DONE))
        return events + self.play(seat, card_move(Verb.DISCARD, self.timeout_discard(seat)))

    def check_hand_discard(self, seat: str, card: int) -> None:
        """The taken card is an obligation here (§3.7), checked by ``check_turn_can_end``; once it is
        played, another copy of it may be discarded."""
        took, self.deal.took = self.deal.took, None
        try:
            super().check_hand_discard(seat, card)
        finally:
            self.deal.took = took

    def check_discard(self, seat: str, card: int) -> None:
        self.check_hand_discard(seat, card)
        self.check_turn_can_end(seat)

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self, seat: str) -> list[Move]:
        if seat not in self.actors:
            return []
        moves: list[Move]
        if self.deal.phase == Phase.DRAW:
            moves = [Move.of(Verb.DRAW)]
            mode = self.rules["discard_mode"]
            if seat in self.deal.opened and self.deal.discard and mode in ("simple", "multiple"):
                if self.can_place(seat, self.deal.discard[-1], []):
                    moves.append(Move.of(Verb.TAKE))
                if mode == "multiple":
                    seen: set[int] = set()
                    for i in range(len(self.deal.discard) - 2, -1, -1):
                        c = self.deal.discard[i]
                        if c not in seen and c not in self.deal.discard[i + 1 :]:
                            seen.add(c)
                            if self.can_place(seat, c, self.deal.discard[i + 1 :]):
                                moves.append(Move.of(Verb.TAKE, (card_code(c),)))
            return moves
        moves = []
        hand = self.deal.hands[seat]
        opened = seat in self.deal.opened
        cands = hand_meld_candidates(hand, self.meld_rules)
        if opened:
            moves += [self.meld_move([r]) for r in cands]
        else:
            minimum = self.rules["first_meld_min"]

            def value(r: Reading) -> int:
                return self.meld_value(r.kind, r.cards, r.stands)

            moves += [self.meld_move([r]) for r in cands if value(r) >= minimum]  # complete
            for combo in combos_reaching(cands, hand, value, minimum):
                if len(combo) > 1:
                    moves.append(self.meld_move(combo))
        if opened:
            for i, m in enumerate(self.deal.on_table):
                for c in sorted(set(hand) - {JOKER}):
                    if natural_extends(m.kind, m.stands, c, self.meld_rules):
                        moves.append(Move(Verb.LAYOFF, (card_code(c),), i + 1))
            moves += [m for m in self.swap_moves(seat) if self.accepts(seat, m)]
            if self.rules["table_manipulation"]:
                moves += self.table_moves(seat)
        elif not self.rules["retrieval_requires_opened"]:
            moves += [m for m in self.swap_moves(seat) if self.accepts(seat, m)]
        if self.obligations(seat):
            # Rare: keep only the moves after which the obligation can still be met.
            return [m for m in moves if self.accepts(seat, m)]
        if self.rules["discard_mode"] == "none":
            return [*moves, Move.of(Verb.DONE)]
        order = sorted(set(hand), key=lambda c: (-self.value(c), display_key(c)))
        return moves + [card_move(Verb.DISCARD, c) for c in order]


    def layout_from_tags(self, tags: Any) -> dict[str, Any]:
        out = super().layout_from_tags(tags)
        if "Credits" in tags:
            from .rgn import parse_number, parse_seat_map

            out["credits"] = {k: parse_number(x) for k, x in parse_seat_map(tags["Credits"][0][0]).items()}
        return out


__all__ = ["Rami", "placed_entries"]
