"""The turn loop shared by every variant: one RGN move at a time, from the draw to the discard.

What it is: the ``TurnLoop`` part of ``Game``, over the game's state (``GameState``) and the
deal's (``self.deal``, a ``Deal``). ``play(seat, move)`` reads a typed move once (``Move.read``;
a ``Move`` is taken as it is), checks whose move it is and dispatches on ``move.verb``
(``handle``) to the variant's handler ``move_<verb>(seat, move) -> (events, Move)``, and writes
the canonical ``Move`` the handler returns to the record (``<seat> <move>``). A handler reads the
move's parts (``cards``, ``target``, ``melds``), never its text, and checks everything before it
changes anything, so a refused move changes nothing. The generic handlers and their helpers live
here (drawing, taking the discard, reading and applying melds, layoffs, joker exchanges and
discards, resigning, the timeout rule of rules.md §0.4). Hooks a variant may override: ``verbs``
and the handlers of its verbs, ``check_draw``, ``after_draw``, ``stock_empty``, ``check_take``,
``check_hand_discard``, ``check_discard``, ``on_turn_limit``, ``on_resign_turn``,
``timeout_moves``, ``next_dealer_index`` and ``swap_open_suits``. Whatever can end the deal
returns the events of that end (``end_turn`` and ``on_turn_limit`` at the cap, ``stock_empty``,
``after_draw``), and the move that called it returns them with its own: ``play`` reports all a
move caused (notation.md).
What it is not: dealing and positions (``layout.py``), scores (``scoring.py``), the questions
about moves the bot asks (``answers.py``), or any variant's own rules (the variant modules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from .cards import CARD_BY_CODE, JOKER, card_code, codes, parse_card
from .errors import IllegalMove
from .events import Event, EventKind, Phase
from .melds import Placed, Reading, entry_code, one_reading, parse_entry
from .move import Move, Verb, card_move, check_groups
from .options import PLAYERS
from .rgn import tag_line
from .rng import DealRandom
from .state import GameState, TableMeld

Handled = tuple[list[Event], Move]
"""What a move handler returns: the events of the move and the canonical move for the record."""
_DRAW, _TAKE = Move.of(Verb.DRAW), Move.of(Verb.TAKE)


class TurnLoop(GameState):
    """Moves, turns and deals in sequence: the part of ``Game`` that plays."""

    if TYPE_CHECKING:  # what this part calls on the others (the variant, ``RecordLayout``, ``Scoring``)

        def legal_moves(self, seat: str) -> list[Move]: ...
        def start_deal(self, layout: Mapping[str, Any] | None = None) -> None: ...
        def value(self, card: int) -> int: ...
        def finish_by_resignation(self) -> None: ...

    # ----------------------------------------------------------------- deals
    def next_deal(self) -> list[Event]:
        """Deal the next hand (dealer per the rules); writes ``[Deal "n"]`` in the record."""
        if self.game_over:
            raise IllegalMove("game_over", "the game is over", {})
        if not self.deal.hand_over:
            raise IllegalMove("deal_not_over", "the current deal is not over", {})
        self.dealer = self.next_dealer_index()
        self.deal_no += 1
        self.log.append(tag_line("Deal", str(self.deal_no)))
        self.start_deal()
        self.last_move = None
        return [Event(EventKind.DEAL_STARTED, None, {"deal": self.deal_no, "dealer": self.seats[self.dealer]})]

    def next_dealer_index(self) -> int:
        if self.void:  # rules.md §0.4, §2.6: after a void deal the same dealer deals again
            self.void = False
            return self.dealer
        return self.seat_after(self.dealer)

    # ----------------------------------------------------------------- one move
    def play(self, seat: str, move: str | Move) -> list[Event]:
        """Apply one RGN move (without the seat), as text or a ``Move``. Refused moves raise
        IllegalMove and change nothing; the record gets the canonical move the handler returns.

        Text is read once, here (``Move.read``); from then on the move is its parts. The checks
        come in the order notation.md's refusals assume: the seat, the game, whose turn, the
        variant's verbs, then the handler's own (phase, rules, and last the move's shape)."""
        if seat not in self.seats:
            raise IllegalMove("unknown_seat", f"{seat} has no seat in this game", {"seat": seat})
        unknown = ""  # a word that is no verb: refused below, once it is this seat's turn
        try:
            typed: Move | None = Move.read(move)  # (a Move is taken as it is)
        except IllegalMove as err:
            if err.code != "unknown_move":
                raise  # an empty move
            typed, unknown = None, err.params["verb"]
        if self.game_over:
            raise IllegalMove("game_over", "the game is over", {})
        if typed is not None and typed.verb is Verb.RESIGN:
            return self._resign(seat)
        if typed is not None and typed.verb is Verb.TIMEOUT:
            return self.timeout(seat)
        if seat in self.resigned:
            raise IllegalMove("resigned", f"{seat} has resigned", {"seat": seat})
        deal = self.deal
        if deal.hand_over:
            raise IllegalMove("deal_over", "the deal is over; the next one has not been dealt", {})
        if (deal.phase == Phase.WINDOW or seat != self.seats[deal.turn]) and seat not in self.actors:
            raise IllegalMove("not_your_turn", f"it is not {seat}'s turn", {"seat": seat, "turn": self.current_seat})
        if typed is None:
            raise self.not_a_move(unknown)
        if typed.verb not in self.verbs():
            raise self.not_a_move(str(typed.verb))
        events, recorded = self.handle(seat, typed)
        if deal.took is not None and not deal.hand_over and deal.hands[seat].count(deal.took) <= deal.took_keep:
            deal.took = None  # the taken card went to the table; an identical card in hand is another one
        line = seat + " " + recorded  # the record line ``<seat> <move>`` (notation.md "Moves")
        self.log.append(line)
        self.last_move = line
        return events

    def handle(self, seat: str, move: Move) -> Handled:
        """Hand ``move`` to its verb's handler, ``move_<verb>(seat, move)``. A handler checks
        everything before it changes anything and returns its events with the canonical move
        for the record. ``resign`` and ``timeout`` never get here (``play`` applies them)."""
        match move.verb:  # the most frequent first
            case Verb.DRAW:
                return self.move_draw(seat, move)
            case Verb.DISCARD:
                return self.move_discard(seat, move)
            case Verb.TAKE:
                return self.move_take(seat, move)
            case Verb.MELD:
                return self.move_meld(seat, move)
            case Verb.LAYOFF:
                return self.move_layoff(seat, move)
            case Verb.PASS:
                return self.move_pass(seat, move)
            case Verb.KNOCK:
                return self.move_knock(seat, move)
            case Verb.TABLE:
                return self.move_table(seat, move)
            case Verb.SWAP:
                return self.move_swap(seat, move)
            case Verb.DONE:
                return self.move_done(seat, move)
            case Verb.AUTO:
                return self.move_auto(seat, move)
            case Verb.CUT:
                return self.move_cut(seat, move)
            case Verb.ALLOW:
                return self.move_allow(seat, move)
            case Verb.CLAIM:
                return self.move_claim(seat, move)
        raise self.not_a_move(str(move.verb))

    def verbs(self) -> tuple[Verb, ...]:
        """The verbs this variant plays (its handlers); ``resign`` and ``timeout`` are everyone's."""
        return (Verb.DRAW, Verb.TAKE, Verb.MELD, Verb.LAYOFF, Verb.DISCARD)

    def not_a_move(self, verb: str) -> IllegalMove:
        return IllegalMove(
            "unknown_move",
            f"{verb!r} is not a move in {self.variant}",
            {"verb": verb, "valid": tuple(str(v) for v in self.verbs())},
        )

    # The handlers of the verbs a variant may list in ``verbs``; a variant that plays the verb
    # overrides its handler (``draw`` and ``take`` are here, the rest in the variants).
    def move_discard(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_meld(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_layoff(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_swap(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_table(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_pass(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_knock(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_done(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_auto(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_cut(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_allow(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def move_claim(self, seat: str, move: Move) -> Handled:
        raise self.not_a_move(str(move.verb))

    def need_phase(self, *phases: str) -> None:
        if self.deal.phase not in phases:
            raise IllegalMove(
                "wrong_phase",
                f"that move is not possible now (phase {self.deal.phase})",
                {"phase": self.deal.phase, "expected": list(phases)},
            )

    # The shape of a move: judged from its parts, after the rules that come first (the phase,
    # opening, ...), so a move written wrongly out of turn or phase is refused for that.
    @staticmethod
    def no_args(move: Move) -> None:
        """``draw``, ``pass``, ``done`` ... are written alone (a target shows in the text too)."""
        if move.cards or move.target is not None:
            raise IllegalMove("bad_move", f"{move.verb} takes no arguments", {"verb": str(move.verb)})

    def take_from_hand(self, seat: str, cards: list[int]) -> None:
        """Check ``cards`` (a multiset) are all in the seat's hand; raises without changing anything."""
        hand = self.deal.hands[seat]
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

    def end_turn(self) -> list[Event]:
        """Pass the turn to the next seat; the hand safety cap (rules.md §0.4) ends runaway deals.

        Returns what that caused (the end of the deal, and of the game, at the cap), which the
        move that ended the turn must return with its own events (notation.md)."""
        deal = self.deal
        deal.turns += 1
        deal.turn = self.seat_after(deal.turn)
        deal.phase = Phase.DRAW
        deal.took = None
        deal.drawn = None
        deal.melds_this_turn = 0
        deal.placed_before_turn = self.seats[deal.turn] in deal.placed
        if deal.turns >= self.turn_limit:
            return self.on_turn_limit()
        return []

    def on_turn_limit(self) -> list[Event]:
        """End the deal at the safety cap (rules.md §0.4); returns its events."""
        raise NotImplementedError

    # draw / take ------------------------------------------------------
    def move_draw(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.DRAW)
        self.no_args(move)
        self.check_draw(seat)
        deal = self.deal
        if not deal.stock:
            return self.stock_empty(seat), _DRAW
        card = deal.stock.pop()
        deal.hands[seat].append(card)
        deal.drawn = card
        deal.phase = Phase.PLAY
        events = [Event(EventKind.DREW, seat, {"stock": len(deal.stock)})]
        events += self.after_draw(seat)
        return events, _DRAW

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
            DealRandom(self.seed or "", self.deal_no, f"reshuffle:{self.deal.exhaustions}").shuffle(pile)
            self.deal.stock = pile  # the last card is the top after the shuffle
        else:
            self.deal.stock = pile[::-1]
        card = self.deal.stock.pop()
        self.deal.hands[seat].append(card)
        self.deal.drawn = card
        self.deal.phase = Phase.PLAY
        renewed = Event(EventKind.STOCK_RENEWED, seat, {"count": len(self.deal.stock) + 1})
        return [renewed, Event(EventKind.DREW, seat, {})]

    def move_take(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.DRAW)
        self.no_args(move)
        deal = self.deal
        if not deal.discard:
            raise IllegalMove("discard_empty", "the discard pile is empty", {})
        self.check_take(seat)
        card = deal.discard.pop()
        deal.took_keep = deal.hands[seat].count(card)
        deal.hands[seat].append(card)
        deal.took = card
        deal.phase = Phase.PLAY
        return [Event(EventKind.TOOK, seat, {"card": card_code(card)})], _TAKE

    def check_take(self, seat: str) -> None:
        pass

    # meld / layoff --------------------------------------------------------
    def read_new_meld(self, words: Iterable[str]) -> Reading:
        return one_reading([parse_entry(w) for w in words], self.meld_rules)

    def parse_melds(self, seat: str, move: Move) -> list[Reading]:
        """The new melds of a ``meld`` move, each read one way (``ambiguous_wild`` otherwise),
        all from the seat's hand. A Move built of cards alone is one meld of them."""
        groups = move.melds or ((move.cards,) if move.cards else ())
        if not groups:
            raise IllegalMove("bad_move", "meld needs cards, e.g. meld 5C 6C 7C", {})
        check_groups(move, groups)
        readings = [self.read_new_meld(g) for g in groups]
        self.take_from_hand(seat, [c for r in readings for c in r.cards])
        return readings

    def meld_text(self, reading: Reading) -> str:
        return " ".join(reading.codes(self.meld_rules))

    def meld_move(self, readings: Iterable[Reading]) -> Move:
        """The canonical ``meld`` move of these new melds: every wild annotated (notation.md)."""
        groups = tuple(tuple(r.codes(self.meld_rules)) for r in readings)
        return Move.from_parts(Verb.MELD, tuple(chain.from_iterable(groups)), None, groups)

    def add_melds(self, seat: str, readings: list[Reading]) -> list[Event]:
        for r in readings:
            self.remove(self.deal.hands[seat], r.cards)
            self.deal.on_table.append(TableMeld(r.kind, list(r.cards), list(r.stands), seat))
        self.deal.placed.add(seat)
        self.deal.melded.add(seat)
        self.deal.melds_this_turn += len(readings)
        first = len(self.deal.on_table) - len(readings) + 1
        return [
            Event(EventKind.MELDED, seat, {"meld": self.meld_text(r), "number": first + i})
            for i, r in enumerate(readings)
        ]

    def parse_layoff(self, seat: str, move: Move) -> tuple[int, Reading, list[int]]:
        """``layoff 7H 8H to 3`` -> (meld index, the meld's new reading, the cards from hand)."""
        n = move.target
        if n is None or not move.cards:
            raise IllegalMove("bad_move", "write a layoff as: layoff 7H to 3", {})
        if not 1 <= n <= len(self.deal.on_table):
            raise IllegalMove("no_such_meld", f"there is no meld {n} on the table", {"number": n})
        meld = self.deal.on_table[n - 1]
        added = [parse_entry(w) for w in move.cards]
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
        meld = self.deal.on_table[index]
        self.remove(self.deal.hands[seat], cards)
        meld.cards, meld.stands, meld.kind = list(reading.cards), list(reading.stands), reading.kind
        self.deal.placed.add(seat)
        return [Event(EventKind.LAID_OFF, seat, {"cards": codes(cards), "number": index + 1})]

    def layoff_move(self, index: int, reading: Reading, cards: list[int]) -> Move:
        """Canonical layoff: naturals as themselves, each added wild annotated as it now stands."""
        old = self.deal.on_table[index]
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
        return Move(Verb.LAYOFF, tuple(words), index + 1)

    # joker exchange / retrieval ------------------------------------------------
    #: Wrotham (§1.9, Rummikub convention): a set's open-suit joker may be exchanged for any missing
    #: suit. Rami (§3.6): only a joker that stands for exactly one card may be retrieved.
    swap_open_suits = True

    def parse_swap(self, seat: str, move: Move) -> tuple[int, int, Reading]:
        """``swap 6H to 2`` -> (card, meld index, the meld's reading with the card in the joker's place)."""
        n = move.target
        if n is None or len(move.cards) != 1:
            raise IllegalMove("bad_move", "write a joker exchange as: swap 6H to 2", {})
        card = parse_card(move.cards[0])
        if not 1 <= n <= len(self.deal.on_table):
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
        meld = self.deal.on_table[n - 1]
        placed = meld.placed(self.meld_rules)
        placed[pos] = Placed(card)
        return card, n - 1, one_reading(placed, self.meld_rules, meld.kind)

    def swap_position(self, card: int, index: int) -> int | None:
        """Where ``card`` can replace a joker of meld ``index``: a joker standing for exactly that
        card, or (``swap_open_suits``) a set's open-suit joker whose suit is missing."""
        meld = self.deal.on_table[index]
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
        meld = self.deal.on_table[index]
        self.deal.hands[seat].remove(card)
        self.deal.hands[seat].append(JOKER)
        if self.deal.took == JOKER:
            self.deal.took_keep += 1  # the joker got back is another card than the joker just taken (§1.3.4)
        meld.cards, meld.stands = list(reading.cards), list(reading.stands)
        self.deal.placed.add(seat)
        return [Event(EventKind.SWAPPED, seat, {"card": card_code(card), "number": index + 1})]

    def swap_moves(self, seat: str) -> list[Move]:
        out: list[Move] = []
        for i in range(len(self.deal.on_table)):
            if JOKER not in self.deal.on_table[i].cards:
                continue
            for c in sorted(set(self.deal.hands[seat]) - {JOKER}):
                if self.swap_position(c, i) is not None:
                    out.append(Move(Verb.SWAP, (card_code(c),), i + 1))
        return out

    # discard ----------------------------------------------------------------
    def parse_discard(self, seat: str, move: Move) -> int:
        """The one card of a discard (or a knock's discard), checked by ``check_hand_discard``."""
        if len(move.cards) != 1 or move.target is not None:
            raise IllegalMove("bad_move", "discard one card, e.g. discard KS", {})
        code = move.cards[0]
        card = CARD_BY_CODE.get(code)  # the canonical spelling needs no further parsing
        if card is None:
            card = parse_card(code)
        self.check_hand_discard(seat, card)
        return card

    def check_hand_discard(self, seat: str, card: int) -> None:
        """``card`` is in the hand and is not the discard just taken (rules.md §1.3.4): a copy
        held before the take is another card."""
        self.take_from_hand(seat, [card])
        took = self.deal.took
        if took is not None and card == took and self.deal.hands[seat].count(card) == 1:
            raise IllegalMove(
                "discard_taken_card",
                f"{card_code(card)} was taken from the discard pile this turn",
                {"card": card_code(card)},
            )

    # resign / timeout -----------------------------------------------------------
    def _resign(self, seat: str) -> list[Event]:
        if seat in self.resigned:
            raise IllegalMove("resigned", f"{seat} has already resigned", {"seat": seat})
        was_turn = not self.deal.hand_over and self.current_seat == seat
        self.resigned.append(seat)
        self.set_aside.extend(self.deal.hands[seat])
        self.deal.hands[seat] = []
        self.deal.revealed.pop(seat, None)
        self.log.append(f"{seat} resign")
        self.last_move = f"{seat} resign"
        events = [Event(EventKind.RESIGNED, seat, {})]
        lo = PLAYERS[self.variant][0]
        if len(self.active) < lo:
            self.finish_by_resignation()
            events.append(Event(EventKind.GAME_OVER, None, {"winners": list(self.winners)}))
            return events
        if not self.deal.hand_over and was_turn:
            self.on_resign_turn(seat)
        return events

    def on_resign_turn(self, seat: str) -> None:
        self.deal.took = None
        self.deal.drawn = None
        self.deal.melds_this_turn = 0
        self.deal.turn = self.seat_after(self.deal.turn)
        self.deal.phase = Phase.DRAW
        self.deal.placed_before_turn = self.seats[self.deal.turn] in self.deal.placed

    # the timeout rule and questions about moves ---------------------------------
    def timeout(self, seat: str) -> list[Event]:
        """The timeout rule (rules.md §0.4) for ``seat``; recorded as ``<seat> timeout``."""
        if self.game_over or self.deal.hand_over or seat not in self.actors:
            raise IllegalMove("not_your_turn", f"{seat} is not to act", {"seat": seat})
        log_len = len(self.log)
        events = self.timeout_moves(seat)
        del self.log[log_len:]
        self.log.append(f"{seat} timeout")
        self.last_move = f"{seat} timeout"
        return [Event(EventKind.TIMED_OUT, seat, {}), *events]

    def timeout_moves(self, seat: str) -> list[Event]:
        events: list[Event] = []
        if self.deal.phase == Phase.DRAW:
            events += self.play(seat, _DRAW)
        if self.deal.hand_over or self.current_seat != seat or self.deal.phase != Phase.PLAY:
            return events
        if not any(self.can_discard(seat, c) for c in set(self.deal.hands[seat])):
            # Only the card taken from the discard pile is left, and it may not go back this turn:
            # the first listed move that places it (a meld or a lay-off: going out) is played.
            moves = [m for m in self.legal_moves(seat) if m.verb is not Verb.RESIGN]
            return events + (self.play(seat, moves[0]) if moves else [])
        events += self.play(seat, card_move(Verb.DISCARD, self.timeout_discard(seat)))
        return events

    def timeout_discard(self, seat: str) -> int:
        """The card just drawn if it may be discarded, else the highest-valued legal discard."""
        legal = [c for c in set(self.deal.hands[seat]) if self.can_discard(seat, c)]
        if self.deal.drawn is not None and self.deal.drawn in legal:
            return self.deal.drawn
        return max(legal, key=lambda c: (self.value(c), c))

    def can_discard(self, seat: str, card: int) -> bool:
        try:
            self.check_discard(seat, card)
        except IllegalMove:
            return False
        return True

    def check_discard(self, seat: str, card: int) -> None:
        """Variant hook: refuse discarding ``card`` now (``can_discard``, ``timeout_discard``)."""
        self.check_hand_discard(seat, card)
