"""The normal and strong computer players of basic, wrotham, rami, tradicional and dummy: one
strategy class per variant over the shared ``RummyTurn`` (``bot.robot.turn``).

What it is: ``TURNS`` maps each variant to its turn class, and ``choose(sight, strong=...)`` plays
the seat's turn with it. What the variants do differently lives here, as class attributes and
overridden hooks, never as a test of the variant's name:
- **basic**: with the stock known after a turnover (the engine's answer, rules.md §1.4) the strong
  player plans its next turns over the cards it will draw (``bot.robot.turnover``);
- **wrotham**: the same; in deals 4-6 (all seven cards go down at once, §1.9) it ranks discards by
  live cards only (the one-card look-ahead did worse there: 18% v 25% of 200 deals);
- **rami**: a discard can be taken only when it can be played (§3.7), so a listed take is taken;
  the strong player rearranges the table, but never goes out that way with a joker in hand;
- **tradicional**: the strong player takes the discard when the table search places it (or
  places the whole hand with it), rearranges the table, and a listed ``table`` move that empties
  the hand goes out;
- **dummy**: only the current contract's kinds of meld count (§5.3), no new melds once it is
  down and no layoff counts as a fit (§5.5); the strong player counts how many cards the
  contract still lacks when it takes and discards.
What it is not: no look at another hand or the stock; no randomness, so it is deterministic.
"""

from __future__ import annotations

from bot.engine import Move, Verb
from bot.engine.cards import parse_card
from bot.engine.dummy import CONTRACTS
from bot.engine.melds import Reading

from .reading import card_of
from .rearrange import best_table
from .sight import Sight
from .turn import RummyTurn, used_by
from .turnover import plan_discard

__all__ = ["TURNS", "VARIANTS", "RummyTurn", "all_seven_outs", "choose", "used_by"]

# Dummy contracts (rules.md §5.3): what each one asks for, by kind.
TAKE_MARGIN = 2  # wrotham deals 4-6: the discard is taken when it adds this many outs (by copies)
CONTRACT_KINDS = {n: tuple(kind for kind, _ in need) for n, need in CONTRACTS.items()}


class BasicTurn(RummyTurn):
    """Basic rummy (rules.md §1)."""

    def strong_discard(self, ranked: list[Move]) -> Move:
        known = plan_discard(self.sight, ranked)  # the stock known after a turnover (§1.4)
        return known or self.after_plan(ranked)

    def after_plan(self, ranked: list[Move]) -> Move:
        return super().strong_discard(ranked)


class WrothamTurn(BasicTurn):
    """Wrotham (rules.md §1.9)."""

    def after_plan(self, ranked: list[Move]) -> Move:
        # Deals 4-6 go out with all seven cards at once (§1.9): counting cards in melds one card
        # ahead did worse there than the live-card ranking (18% v 25% of 200 deals).
        if not self.sight.all_seven:
            return super().after_plan(ranked)
        return self.nearest_seven(ranked) if self.strong else ranked[0]

    def draw_choice(self, top: str, takes: list[Move]) -> Move | None:
        # Deals 4-6 (§1.9): the strong player takes the discard when it puts the hand down at
        # once, or when, after the best discard, it leaves clearly more cards that would.
        if not (self.strong and self.sight.all_seven) or self.wild(top) or Verb.DRAW not in self.plain:
            return None
        ints = [parse_card(c) for c in self.hand]
        memo: dict[tuple[int, ...], int] = {}
        with_top = [*ints, parse_card(top)]
        if self.melded(tuple(sorted(with_top)), memo) >= len(ints):
            return self.take(takes)
        now = self.outs(ints, memo)
        after = max(
            self.outs([c for j, c in enumerate(ints) if j != i] + [parse_card(top)], memo) for i in range(len(ints))
        )
        return self.take(takes) if after >= now + TAKE_MARGIN else self.plain[Verb.DRAW]

    def nearest_seven(self, ranked: list[Move]) -> Move:
        """Deals 4-6 (§1.9): the discard that leaves most unseen cards with which the next draw
        puts every card but one down at once (each counted by its copies unseen); on equal
        counts the live-card ranking ``ranked`` decides."""
        ints = [parse_card(c) for c in self.hand]
        memo: dict[tuple[int, ...], int] = {}
        best: tuple[int, int, Move] | None = None
        for i, move in enumerate(ranked):
            rest = list(ints)
            rest.remove(parse_card(card_of(move)))
            outs = self.outs(rest, memo)
            if best is None or (outs, -i) > best[:2]:
                best = (outs, -i, move)
        assert best is not None
        return best[2]

    def outs(self, rest: list[int], memo: dict[tuple[int, ...], int]) -> int:
        """Unseen cards (by copies) that, drawn, let ``rest`` and the card go down but one."""
        unseen = self.unseen_counts()
        return sum(
            unseen[u]
            for u in self.connectors(rest, unseen)
            if self.melded(tuple(sorted([*rest, u])), memo) >= len(rest)
        )


class RamiTurn(RummyTurn):
    """Rami (rules.md §3)."""

    rearranges = True
    keeps_joker_out = True

    def draw_choice(self, top: str, takes: list[Move]) -> Move | None:
        return self.take(takes)  # legal only when it can be played (§3.7)


class TradicionalTurn(RummyTurn):
    """Tradicional (rules.md §4)."""

    rearranges = True
    table_goes_out = True

    def draw_choice(self, top: str, takes: list[Move]) -> Move | None:
        if not self.strong:
            return None
        with_top = best_table(self.table, [*self.hand, top], self.rules, self.card_value, must=top)
        without = best_table(self.table, self.hand, self.rules, self.card_value)
        gain = (len(with_top.used) if with_top and top in with_top.used else 0) - (len(without.used) if without else 0)
        if gain >= 1 or (with_top and len(with_top.used) >= len(self.hand)):
            return self.take(takes)
        return None


class DummyTurn(RummyTurn):
    """Dummy (rules.md §5): contracts."""

    layoffs_fit = False

    def melds_closed(self) -> bool:
        return self.laid  # no new melds once the contract is down (§5.5)

    def of_kinds(self, cands: list[Reading]) -> list[Reading]:
        kinds = CONTRACT_KINDS.get(self.contract or 0, ("set", "run"))
        return [r for r in cands if r.kind in kinds]

    def partner_score(self, sets: float, runs: float) -> float:
        if not self.contract or self.laid:
            return super().partner_score(sets, runs)
        kinds = CONTRACT_KINDS.get(self.contract, ())
        return 10 * sets * (1.5 if "set" in kinds else 0.3) + 8 * runs * (1.5 if "run" in kinds else 0.3)

    def wants_card(self, top: str) -> bool:
        if self.laid:
            return False
        if self.strong:
            # Strong: only a card that brings the contract a card closer, after the discard.
            ints = [parse_card(c) for c in self.hand]
            now = self.contract_gap(ints)
            after = min(self.contract_gap(ints[:i] + ints[i + 1 :] + [parse_card(top)]) for i in range(len(ints)))
            return after < now
        worst = min(self.keep(c, self.hand, False) for c in self.hand)
        return self.keep(top, [*self.hand, top], False) > max(worst, 12.0)

    def strong_discard(self, ranked: list[Move]) -> Move:
        return ranked[0] if self.laid else self.discard_for_contract(ranked)

    def discard_for_contract(self, ranked: list[Move]) -> Move:
        """Strong dummy: the discard that leaves the contract fewest cards away (a wild never,
        while another card will do); among equals, the normal player's choice."""
        ints = [parse_card(c) for c in self.hand]

        def gap(move: Move) -> int:
            card = parse_card(card_of(move))
            rest = list(ints)
            rest.remove(card)
            return self.contract_gap(rest) + (100 if self.rules.is_wild(card) else 0)

        return min(ranked, key=lambda m: (gap(m), ranked.index(m)))

    def contract_gap(self, cards: list[int]) -> int:
        """Dummy: the fewest cards still missing for the current contract (rules.md §5.3, §5.4):
        sets by rank, runs as windows of ranks of any suits, wilds filling any gap, each meld
        holding at least one natural card. Exact over the ranks and windows the hand allows."""
        need = sorted(CONTRACTS.get(self.contract or 0, ()), key=lambda r: (r[0] != "set", -r[1]))
        wilds = sum(1 for c in cards if self.rules.is_wild(c))
        counts = [0] * 13
        for c in cards:
            if not self.rules.is_wild(c):
                counts[c % 13] += 1
        line = [0, *range(1, 13), 0]  # ace low, 2..K, ace high (a rank index per position)
        best = 1 << 30

        def walk(i: int, missing: int, empty: int) -> None:
            nonlocal best
            if i == len(need):
                best = min(best, missing - min(wilds, missing - empty))
                return
            kind, size = need[i]
            if kind == "set":
                # ``is_wild(r)``: rank r's spade stands for the rank (twos are wild in dummy).
                options: list[int | None] = [r for r in range(13) if counts[r] and not self.rules.is_wild(r)] or [None]
                for r in options:
                    used = 0 if r is None else min(counts[r], size)
                    if r is not None:
                        counts[r] -= used
                    walk(i + 1, missing + size - used, empty + (used == 0))
                    if r is not None:
                        counts[r] += used
                return
            for start in range(0, len(line) - size + 1):
                took = [r for r in line[start : start + size] if counts[r] and not self.rules.is_wild(r)]
                took = list(dict.fromkeys(took))  # one card per rank (the ace may not be both ends)
                for r in took:
                    counts[r] -= 1
                walk(i + 1, missing + size - len(took), empty + (not took))
                for r in took:
                    counts[r] += 1

        walk(0, 0, 0)
        return max(best, 0)


TURNS: dict[str, type[RummyTurn]] = {
    "basic": BasicTurn,
    "wrotham": WrothamTurn,
    "rami": RamiTurn,
    "tradicional": TradicionalTurn,
    "dummy": DummyTurn,
}
VARIANTS = tuple(TURNS)


def choose(sight: Sight, *, strong: bool = False) -> Move:
    """One move from ``sight.moves`` by the variant's strategy (the strong level wants the sight's
    ``Judge`` when the seat may rearrange: ``see(game, seat, judge=True)``)."""
    if not sight.moves:
        raise ValueError(f"{sight.seat} has no legal move")
    return TURNS[sight.variant](sight, strong).pick()


def all_seven_outs(sight: Sight, card: str) -> int | None:
    """Wrotham deals 4-6 (rules.md §1.9): how many unseen cards (by copies) would, drawn next,
    put the hand left after discarding ``card`` down all at once; None in any other deal."""
    if not sight.all_seven or card not in sight.hand:
        return None
    rest = [parse_card(c) for c in sight.hand]
    rest.remove(parse_card(card))
    return WrothamTurn(sight, True).outs(rest, {})
