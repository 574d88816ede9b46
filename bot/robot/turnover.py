"""The strong player's knowledge of a turned-over stock, and a short plan to go out (basic, wrotham).

What it is: in basic and wrotham (``stock_exhaustion = turn_over``, the default) an empty stock is
replaced by the discard pile turned face down unshuffled, its bottom card on top (rules.md §1.4).
Every discard was played face up, so after a turnover anyone who remembers them knows the whole
stock, card by card (the dealt upcard aside if it was taken before anyone discarded). The same
holds when the stock is empty now: a draw turns the pile over and gives its bottom card.
The engine answers that order from public facts only (``bot.engine.stock_as_known``, carried in
the seat's ``Sight``; ``known_stock`` reads it), and
``Planner`` searches the seat's next few turns over the cards it will draw, assuming the other
seats draw from the stock too: one meld a turn (all seven at once in wrotham's deals 4-6),
every layoff the table allows, one discard, to find the soonest turn it can go out.
What it is not: a model of the other hands; no look at the stock (the ``Sight`` has none).
"""

from __future__ import annotations

from collections import Counter

from bot.engine import Move, Verb
from bot.engine.cards import parse_card
from bot.engine.meldgen import hand_meld_candidates
from bot.engine.melds import MeldRules, Stand, natural_extends, parse_entry

from .reading import card_of
from .sight import Sight

NEVER = 99  # no way out within the plan's horizon
HORIZON = 3  # turns planned past the current one (3 won 517 v 509 of 1,974 deals for 2)
Table = tuple[tuple[str, tuple[Stand, ...]], ...]


def known_stock(sight: Sight) -> list[str | None] | None:
    """The stock's cards, the next one drawn LAST (as the engine pops them), when this seat can know
    them: after a turnover of the discard pile, or now when the stock is empty. None otherwise.
    A card nobody saw (the dealt upcard taken before any discard) is None. The engine answers it
    (``bot.engine.stock_as_known``, rules.md §1.4); the sight carries the answer."""
    return None if sight.known_stock is None else list(sight.known_stock)


class Planner:
    """The soonest turn (0 = this one) this seat can go out, over known draws."""

    def __init__(self, sight: Sight, rules: MeldRules) -> None:
        self.rules = rules
        self.all_seven = sight.all_seven
        self.table: Table = tuple(
            (m.kind, tuple(p.stand or (p.card % 13, p.card // 13) for p in map(parse_entry, m.cards)))
            for m in sight.table
        )
        self.memo: dict[tuple, int] = {}
        self.budget = 3000

    def extend(self, table: Table, card: int) -> Table | None:
        """``table`` with natural ``card`` laid off on its first meld that takes it, or None."""
        for i, (kind, stands) in enumerate(table):
            if natural_extends(kind, stands, card, self.rules):
                r, s = card % 13, card // 13
                if kind == "run" and stands[0][0] == (r + 1) % 13 and (stands[-1][0] + 1) % 13 != r:
                    new = ((r, s), *stands)
                else:
                    new = (*stands, (r, s))
                return (*table[:i], (kind, new), *table[i + 1 :])
        return None

    def lay_off(self, cards: list[int], table: Table) -> tuple[list[int], Table]:
        """Every card of ``cards`` that some table meld takes, laid off (again until none does);
        a wild goes on any run or short set."""
        left = list(cards)
        moved = True
        while moved and left:
            moved = False
            for c in list(left):
                if self.rules.is_wild(c):
                    if self.rules.wild_layoff and any(
                        k == "run" or (k == "set" and len(st) < (self.rules.set_max or 99)) for k, st in table
                    ):
                        left.remove(c)
                        moved = True
                    continue
                new = self.extend(table, c)
                if new is not None:
                    table = new
                    left.remove(c)
                    moved = True
        return left, table

    def turns(self, hand: list[int], future: list[int], table: Table | None = None, keep: int | None = None) -> int:
        """Turns until out: ``hand`` has drawn this turn's card, ``future`` the draws of the next
        turns. ``keep``: a card taken from the pile this turn, which may not be the discard."""
        table = self.table if table is None else table
        key = (tuple(sorted(hand)), tuple(future), table, keep)
        if key in self.memo:
            return self.memo[key]
        self.budget -= 1
        best = NEVER
        if self.all_seven:
            if self.melded(hand) >= len(hand) - 1 and (keep is None or len(hand) > 1):
                best = 0
            options = [(list(hand), table)]
        else:
            options = []
            for r in [None, *hand_meld_candidates(hand, self.rules)]:
                rest = list(hand)
                tab = table
                if r is not None:
                    for c in r.cards:
                        rest.remove(c)
                    tab = (*table, (r.kind, tuple(r.stands)))
                rest, tab = self.lay_off(rest, tab)
                if len(rest) == 0 or (len(rest) == 1 and rest[0] != keep):
                    best = 0
                    break
                options.append((rest, tab))
        if best and future and self.budget > 0:
            for rest, tab in options:
                for d in set(rest):
                    if d == keep or self.rules.is_wild(d):
                        continue
                    after = list(rest)
                    after.remove(d)
                    best = min(best, 1 + self.turns([*after, future[0]], future[1:], tab))
                    if best == 1:
                        break
                if best == 1:
                    break
        self.memo[key] = best
        return best

    def melded(self, cards: list[int]) -> int:
        """Most cards of ``cards`` in disjoint melds (exact, small hands)."""
        cands = hand_meld_candidates(cards, self.rules)
        best = 0

        def walk(have: Counter[int], placed: int, start: int) -> None:
            nonlocal best
            best = max(best, placed)
            for i in range(start, len(cands)):
                need = Counter(cands[i].cards)
                if all(have[c] >= n for c, n in need.items()):
                    walk(have - need, placed + sum(need.values()), i + 1)

        walk(Counter(cards), 0, 0)
        return best


def draws_for(stock: list[str | None], first: int, seats: int, count: int) -> list[int]:
    """This seat's next ``count`` known draws when it draws the stock card ``first`` from the top
    and every seat draws from the stock; stops at the first card not known."""
    out: list[int] = []
    i = first
    while len(out) < count and i < len(stock):
        code = stock[len(stock) - 1 - i]
        if code is None:
            break
        out.append(parse_card(code))
        i += seats
    return out


def plan_draw(sight: Sight, top: str) -> Verb | None:
    """With the stock known: the verb ``take`` or ``draw``, whichever lets this seat go out
    sooner; None when they tie (the plan cannot tell them apart)."""
    stock = known_stock(sight)
    if not stock or stock[-1] is None:
        return None
    n = len([s for s in sight.seats if s not in sight.resigned])
    plan = Planner(sight, sight.meld_rules)
    ints = [parse_card(c) for c in sight.hand]
    # Taking leaves the stock to the others: this seat's next draw is the (n-1)th card down.
    later = draws_for(stock, n - 1, n, HORIZON) if sight.stock_count else []
    t_take = plan.turns([*ints, parse_card(top)], later, keep=parse_card(top))
    t_draw = plan.turns([*ints, parse_card(stock[-1])], draws_for(stock, n, n, HORIZON))
    if t_take == t_draw:
        return None
    return Verb.TAKE if t_take < t_draw else Verb.DRAW


def plan_discard(sight: Sight, ranked: list[Move]) -> Move | None:
    """With the stock known: among ``ranked`` discards (the likeliest first), the first that goes
    out soonest over this seat's known draws; None when none goes out within the horizon."""
    stock = known_stock(sight)
    if not stock:
        return None
    n = len([s for s in sight.seats if s not in sight.resigned])
    future = draws_for(stock, n - 1, n, HORIZON + 1)
    if not future:
        return None
    rules = sight.meld_rules
    plan = Planner(sight, rules)
    ints = [parse_card(c) for c in sight.hand]
    best: tuple[int, Move] | None = None
    for move in ranked:
        card = parse_card(card_of(move))
        if rules.is_wild(card) and best is not None:
            continue
        rest = list(ints)
        rest.remove(card)
        t = plan.turns([*rest, future[0]], future[1:])
        if best is None or t < best[0]:
            best = (t, move)
    if best is None or best[0] >= NEVER:
        return None
    return best[1]


__all__ = ["NEVER", "Planner", "draws_for", "known_stock", "plan_discard", "plan_draw"]

