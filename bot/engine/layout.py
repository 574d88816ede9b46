"""The record layout of a deal: where the cards lie, how a deal is dealt or a position laid out.

What it is: the ``RecordLayout`` part of ``Game``: dealing deal n from ``(seed, n)`` into a new
``Deal`` (``state``), laying out a position from RGN tags (notation.md
"Positions": ``[Hand]``, ``[Stock]``, ``[Table]``, ``[Phase]`` ...), checking that its counts fit
the phase (``bad_layout``), and writing the record back. The variant hooks here say how a deal is
made: ``deck``, ``deal_size``, ``has_upcard``, ``start_phase``, ``expected_count_ok`` and
``after_layout`` / ``layout_from_tags`` for variant tags.
What it is not: the turn loop (``turns.py``), scores (``scoring.py``), reading an RGN text into
tags and moves (``rgn.py``), or the header tags (``bot.engine.load_game``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .cards import card_code, make_deck, parse_card, parse_cards
from .errors import IllegalMove
from .events import Phase
from .melds import Reading
from .rgn import parse_number, parse_seat_map
from .rng import DealRandom
from .state import GameState, TableMeld, placed_entries

__all__ = ["RecordLayout", "TableMeld", "placed_entries"]


class RecordLayout(GameState):
    """Dealing, positions and the record: the part of ``Game`` that puts cards in their places
    (``self.deal``: hands, the stock with its top card last, the discard pile bottom first ...)."""

    #: every deal phase (``[Phase]`` accepts all but ``over``)
    PHASES = tuple(Phase)
    has_upcard = True  # a card is turned up to start the discard pile

    if TYPE_CHECKING:  # what this part calls on ``TurnLoop``

        def read_new_meld(self, words: Iterable[str]) -> Reading: ...

    # ----------------------------------------------------------------- variant hooks
    def deck(self) -> list[int]:
        return make_deck(1, 0)

    def deal_size(self, seat: str, active: int) -> int:
        raise NotImplementedError

    def start_phase(self) -> Phase:
        return Phase.DRAW

    def expected_count_ok(self, seat: str, count: int) -> bool:
        return count >= 1

    # ----------------------------------------------------------------- dealing
    def start_deal(self, layout: Mapping[str, Any] | None = None) -> None:
        """Deal ``self.deal_no`` from (seed, deal number), or lay out the position of a record."""
        self.deal = self.new_deal()
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
            self.deal.hands[s] = list(hands_given.get(s, []))
        rounds = max(to_deal.values(), default=0)
        for r in range(rounds):
            for s in order:
                if s in to_deal and r < to_deal[s]:
                    if not rest:
                        raise IllegalMove("bad_layout", "not enough cards to deal", {})
                    self.deal.hands[s].append(rest.pop())
        self.deal.on_table = [m.copy() for m in table]
        if discard_given is not None:
            self.deal.discard = list(discard_given)
        elif self.has_upcard and stock_given is None and rest:
            self.deal.discard = [rest.pop()]
        if stock_given is not None:
            leftovers = list(reversed(rest))
            top = self.deal.discard[-1:] if self.deal.discard else []
            self.deal.discard = self.deal.discard[:-1] + leftovers + top
            self.deal.stock = list(reversed(stock_given))
        else:
            self.deal.stock = rest
        self.deal.dealt_pile = list(self.deal.discard)
        self.deal.turn = self.seat_after(dealer_i)
        self.deal.phase = self.start_phase()
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
            self.deal.turn = self.seats.index(layout["turn"])
        if "phase" in layout:
            self.deal.phase = Phase(layout["phase"])
        if "took" in layout:
            if self.deal.phase != Phase.PLAY:
                raise IllegalMove("bad_layout", "[Took] needs phase play", {})
            self.deal.took = layout["took"]
            self.deal.took_keep = self.deal.hands[self.seats[self.deal.turn]].count(self.deal.took) - 1
            if self.deal.took not in self.deal.hands[self.seats[self.deal.turn]]:
                raise IllegalMove("bad_layout", "the [Took] card is not in the hand of the seat to play", {})
        owners = {m.owner for m in self.deal.on_table if m.owner}
        # A meld's owner created it this deal, so they have placed cards (going rummy, §1.7).
        self.deal.placed = set(layout.get("placed", ())) | owners
        self.deal.opened = set(layout.get("opened", ()))
        self.deal.melded = owners | self.deal.placed
        self.deal.placed_before_turn = self.seats[self.deal.turn] in self.deal.placed
        if layout.get("explicit"):
            self.check_layout()

    def check_layout(self) -> None:
        for s in self.active:
            if not self.expected_count_ok(s, len(self.deal.hands[s])):
                raise IllegalMove(
                    "bad_layout",
                    f"{s} holds {len(self.deal.hands[s])} cards, which phase {self.deal.phase} does not allow",
                    {"seat": s, "count": len(self.deal.hands[s]), "phase": self.deal.phase},
                )

    # ----------------------------------------------------------------- the record
    def record(self) -> str:
        """RGN that reproduces this exact game, every deal, with canonical moves."""
        return "\n".join([*self.header, *self.log]) + "\n"

    # ----------------------------------------------------------------- position tags
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
            if phase not in self.PHASES or phase == Phase.OVER:
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
            out["phase"] = Phase.DRAW
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
        for tag in ("Totals", "Won"):
            if tag in tags:
                for seat, raw in parse_seat_map(tags[tag][0][0]).items():
                    if seat not in self.seats:
                        raise IllegalMove("bad_layout", f"[{tag}] names {seat}, who has no seat", {"seat": seat})
                    if tag == "Totals":
                        self.totals[seat] = parse_number(raw)
                    else:
                        self.won[seat] = int(parse_number(raw))
