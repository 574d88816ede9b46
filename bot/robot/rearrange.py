"""Table rearrangement for the strong player in Rami and Tradicional (rules.md §3.10, §4.3).

What it is: a Rummikub-solver-style exact search. The cards of the table (every one of which must
stay on the table) and the natural cards of the hand are pooled; the engine's meld generator
(``bot.engine.meldgen.hand_meld_candidates``) lists every meld the pool allows; a depth-first
search picks melds that cover every table card and as many hand cards as possible (then the most
points), with a bound (cards placed + cards left ≤ best found) and a memo of states already
searched. It is exact within a node budget, never a wall-clock one, so it is deterministic.

Jokers: a table meld holding a joker is left as it is, because a table joker keeps what it stands
for and leaves a meld only by retrieval (§3.6, §3.10); a joker in the hand is not used here
(Rami: a joker goes down only in a new meld of its own, §3.3). The caller checks the resulting
``table`` move with the engine before playing it.
What it is not: no scoring of bonuses or of the opponents; no Discord, no clocks beyond the cap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine import Move
from bot.engine.cards import JOKER
from bot.engine.meldgen import hand_meld_candidates
from bot.engine.melds import MeldRules, Reading, parse_entry

NODE_BUDGET = 3_000
_WEIGHT = 1000  # a card placed outweighs any difference in points


@dataclass(frozen=True, slots=True)
class Plan:
    """A new table: ``kept`` melds as they are (codes), ``melds`` built by the search, and the hand
    cards (codes) it places."""

    kept: tuple[tuple[str, ...], ...]
    melds: tuple[Reading, ...]
    used: tuple[str, ...]
    complete: bool  # the search ended inside its budget (the plan is then the best there is)

    def move(self, rules: MeldRules) -> Move:
        """The ``table`` move of this plan: the kept melds, then the new ones."""
        return Move.table_of([*self.kept, *(r.codes(rules) for r in self.melds)])


def _card(code: str) -> int:
    return parse_entry(code).card


def best_table(
    table: Sequence[Sequence[str]],
    hand: Sequence[str],
    rules: MeldRules,
    value: Callable[[int], int],
    *,
    must: str | None = None,
    nodes: int = NODE_BUDGET,
) -> Plan | None:
    """The rearrangement placing the most hand cards (then points); None when it places none.
    ``must``: a hand card the plan should place if it can (a discard just taken, Rami §3.7)."""
    kept: list[tuple[str, ...]] = []
    free: list[int] = []
    for meld in table:
        cards = [_card(c) for c in meld]
        if any(rules.is_wild(c) for c in cards):
            kept.append(tuple(meld))
        else:
            free.extend(cards)
    own = [_card(c) for c in hand]
    own = [c for c in own if not rules.is_wild(c)]
    if not own:
        return None
    must_card = _card(must) if must else None
    cands = [r for r in hand_meld_candidates(free + own, rules) if JOKER not in r.cards]
    solver = _Solver(free, own, cands, value, must_card, nodes)
    chosen = solver.run()
    if chosen is None:
        return None
    melds = tuple(cands[i] for i in chosen)
    used = Counter(c for r in melds for c in r.cards) - Counter(free)
    if not used:
        return None
    from bot.engine.cards import card_code

    return Plan(tuple(kept), melds, tuple(card_code(c) for c in sorted(used.elements())), solver.complete)


class _Solver:
    """Cover every table card with candidate melds, placing as much of the hand as possible."""

    def __init__(
        self,
        table: list[int],
        hand: list[int],
        cands: list[Reading],
        value: Callable[[int], int],
        must: int | None,
        nodes: int,
    ) -> None:
        self.need = [0] * 53
        self.avail = [0] * 53
        for c in table:
            self.need[c] += 1
            self.avail[c] += 1
        self.hand_copies = [0] * 53
        for c in hand:
            self.avail[c] += 1
            self.hand_copies[c] += 1
        self.weight = [_WEIGHT + value(c) if c != JOKER else _WEIGHT for c in range(53)]
        if must is not None:
            self.weight[must] += _WEIGHT // 2
        self.cands = [tuple(Counter(r.cards).items()) for r in cands]
        self.sizes = [sum(self.weight[c] for c in r.cards) for r in cands]
        # Longer melds first: a good solution early makes the bound bite.
        order = sorted(range(len(cands)), key=lambda i: -len(cands[i].cards))
        self.by_card: list[list[int]] = [[] for _ in range(53)]
        for i in order:
            for c, _ in self.cands[i]:
                self.by_card[c].append(i)
        self.table_weight = sum(self.weight[c] for c in table)
        self.hand_weight = sum(self.weight[c] for c in hand)
        self.best = self.table_weight  # the table as it is: every table card, no hand card
        self.best_set: list[int] | None = None
        self.chosen: list[int] = []
        self.seen: dict[bytes, int] = {}
        self.nodes = nodes
        self.complete = True

    def fits(self, i: int) -> bool:
        avail = self.avail
        return all(avail[c] >= n for c, n in self.cands[i])

    def run(self) -> list[int] | None:
        try:
            self.cover(0, sum(self.weight[c] * n for c, n in enumerate(self.avail)))
        except _OutOfBudget:
            self.complete = False
        return self.best_set

    def spend(self) -> None:
        # A node budget, never the wall clock: the move must be the same on any machine (issue 11:
        # deterministic given the game), and 3,000 nodes stay well inside the 500 ms goal.
        self.nodes -= 1
        if self.nodes <= 0:
            raise _OutOfBudget

    def cover(self, placed: int, left: int) -> None:
        """``placed``: weight in the chosen melds; ``left``: weight of the cards not yet used."""
        self.spend()
        if placed + left <= self.best:
            return
        key = bytes(self.avail) + bytes(self.need)
        if self.seen.get(key, -1) >= placed:
            return
        self.seen[key] = placed
        # Branch on a table card with few melds that could still hold it: the scarcest few by
        # the candidate lists, then by the melds that still fit (none: a dead end).
        needed = sorted((len(self.by_card[c]), c) for c in range(53) if self.need[c])
        if not needed:
            self.pack(placed, left, 0)
            return
        best_options: list[int] | None = None
        for _, c in needed[:2]:
            options = [i for i in self.by_card[c] if self.fits(i)]
            if not options:
                return
            if best_options is None or len(options) < len(best_options):
                best_options = options
        assert best_options is not None
        for i in best_options:
            if self.fits(i):
                self.take(i)
                self.cover(placed + self.sizes[i], left - self.sizes[i])
                self.untake(i)

    def pack(self, placed: int, left: int, start: int) -> None:
        """Every table card is covered: new melds of hand cards only, the lowest card first."""
        self.spend()
        if placed > self.best:
            self.best = placed
            self.best_set = list(self.chosen)
        if placed + left <= self.best:
            return
        c = start
        while c < 53 and not self.avail[c]:
            c += 1
        if c == 53:
            return
        for i in self.by_card[c]:
            if self.fits(i):
                self.take(i)
                self.pack(placed + self.sizes[i], left - self.sizes[i], c)
                self.untake(i)
        # Or leave every copy of this card in the hand.
        n = self.avail[c]
        self.avail[c] = 0
        self.pack(placed, left - n * self.weight[c], c + 1)
        self.avail[c] = n

    # Copies of a card are interchangeable and table copies are used first, so the table copies
    # still to cover are the copies left beyond the hand's own.
    def take(self, i: int) -> None:
        self.chosen.append(i)
        for c, n in self.cands[i]:
            self.avail[c] -= n
            self.need[c] = max(0, self.avail[c] - self.hand_copies[c])

    def untake(self, i: int) -> None:
        self.chosen.pop()
        for c, n in self.cands[i]:
            self.avail[c] += n
            self.need[c] = max(0, self.avail[c] - self.hand_copies[c])


class _OutOfBudget(Exception):
    pass
