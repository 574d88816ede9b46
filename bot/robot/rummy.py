"""The normal and strong computer players for basic, wrotham, rami, tradicional and dummy.

What it is: a counting player over what the seat can see, its ``Sight`` (``bot.robot.sight``):
its hand, the table, the discard pile, the seats' card counts and contracts, the deal's public
moves and the legal moves; it is never given the ``Game``.
- **normal**: it uses jokers and wild twos and never discards a wild while another card will do;
  it takes the top discard when it can play it (always when that lets it go out); it melds and
  lays off what it can, the move placing the most first; it retrieves a joker when that pays
  (wrotham: a free wild; rami: the engine lists a retrieval only when the joker can be replayed);
  it claims (tradicional option 2) and cuts in (dummy) for a card that fits; in dummy it keeps
  what its current contract needs (sets or runs) and lays the contract down at once.
- **strong**: the same, plus: in Rami and Tradicional with manipulation a search over the whole
  table (``rearrange.best_table``) that places as many hand cards as the rules allow, checked by
  the engine (the sight's ``Judge``) before it is played; in every variant, when another seat is close to going out (few
  cards left) it sheds its highest cards first and spends its wilds.
What it is not: no look at another hand or the stock; no randomness, so it is deterministic.
"""

from __future__ import annotations

from collections import Counter

from bot.engine import Phase
from bot.engine.cards import JOKER, parse_card
from bot.engine.dummy import CONTRACTS
from bot.engine.meldgen import hand_meld_candidates
from bot.engine.melds import MeldRules, natural_extends, parse_entry

from .rearrange import best_table
from .sight import Sight
from .turnover import plan_discard, plan_draw

VARIANTS = ("basic", "wrotham", "rami", "tradicional", "dummy")
AHEAD = 4  # strong looks one card ahead for the normal player's four likeliest discards
CLOSE = 3  # a seat with this many cards or fewer may go out next turn
# Dummy contracts (rules.md §5.3): what each one asks for, by kind.
CONTRACT_KINDS = {n: tuple(kind for kind, _ in need) for n, need in CONTRACTS.items()}


def choose(sight: Sight, *, strong: bool = False) -> str:
    """One move from ``sight.moves`` (the strong level wants the sight's ``Judge`` when the seat
    may rearrange: ``see(game, seat, judge=True)``)."""
    if not sight.moves:
        raise ValueError(f"{sight.seat} has no legal move")
    return _Turn(sight, strong).pick()


def _cards(words: list[str]) -> list[str]:
    """Physical cards of move words (``JK=8H`` is the joker)."""
    return [w.split("=")[0] for w in words if w != "|"]


def used_by(move: str, table: list[list[str]]) -> tuple[list[str], list[str]]:
    """(cards leaving the hand, cards coming into it) if ``move`` is played."""
    verb, _, args = move.partition(" ")
    if verb == "meld":
        return _cards(args.split()), []
    if verb == "layoff":
        return _cards(args.rpartition(" to ")[0].split()), []
    if verb == "swap":
        words = args.rpartition(" to ")[0].split()
        return _cards(words), ["JK"] * len(words)
    if verb == "table":
        new = Counter(_cards(args.split()))
        old = Counter(_cards([c for m in table for c in m]))
        return list((new - old).elements()), []
    return [], []


class _Turn:
    def __init__(self, sight: Sight, strong: bool) -> None:
        self.sight = sight
        seat = self.seat = sight.seat
        self.moves = list(sight.moves)
        self.strong = strong
        self.variant = sight.variant
        self.rules: MeldRules = sight.meld_rules
        self.hand = list(sight.hand)
        self.table = [list(m.cards) for m in sight.table]
        names = [s for s in sight.seats if s not in sight.resigned]
        others = [sight.card_counts[s] for s in names if s != seat]
        # Someone may go out soon: keep the count low (strong) rather than build.
        self.danger = strong and bool(others) and min(others) <= CLOSE
        self.contract = sight.contracts.get(seat)
        self.laid = seat in sight.opened
        self._unseen: Counter[int] | None = None
        self._reads: tuple[dict[str, list[int]], dict[str, list[int]]] | None = None
        self.next_seat = names[(names.index(seat) + 1) % len(names)] if seat in names else None

    def card_value(self, card: int) -> int:
        return self.sight.card_values[card]

    # ------------------------------------------------------------------ card knowledge
    def wild(self, code: str) -> bool:
        return self.rules.is_wild(parse_card(code))

    def value(self, code: str) -> int:
        return self.card_value(parse_card(code))

    def meldable(self, cards: list[str]) -> set[int]:
        """Indexes of ``cards`` that some best-looking set of disjoint melds uses (greedy by size)."""
        ints = [parse_card(c) for c in cards]
        cands = hand_meld_candidates(ints, self.rules)
        if self.variant == "dummy":
            if self.laid:
                return set()  # no new melds once the contract is down (§5.5)
            kinds = CONTRACT_KINDS.get(self.contract or 0, ("set", "run"))
            cands = [r for r in cands if r.kind in kinds]
        cands = sorted(cands, key=lambda r: (-len(r.cards), r.cards))
        have = Counter(ints)
        used: Counter[int] = Counter()
        for r in cands:
            need = Counter(r.cards)
            if all(have[c] - used[c] >= n for c, n in need.items()):
                used.update(need)
        out: set[int] = set()
        for i, c in enumerate(ints):
            if used[c] > 0:
                used[c] -= 1
                out.add(i)
        return out

    def keep(self, code: str, hand: list[str], in_meld: bool) -> float:
        """How much ``code`` is worth keeping in ``hand`` (the lowest is discarded)."""
        if self.wild(code):
            return 1000.0  # a wild is discarded only when every card is one
        if in_meld:
            return 200.0 - self.value(code) * 0.2
        card = parse_card(code)
        sets, runs = self.partners(card, hand)
        score = 10 * sets + 8 * runs
        if self.variant == "dummy" and self.contract and not self.laid:
            kinds = CONTRACT_KINDS.get(self.contract, ())
            score = 10 * sets * (1.5 if "set" in kinds else 0.3) + 8 * runs * (1.5 if "run" in kinds else 0.3)
        score += self.table_fit(card) * 6
        return score - self.value(code) * (0.8 if self.danger else 0.4)

    def partners(self, card: int, hand: list[str]) -> tuple[float, float]:
        """How strongly ``card`` pairs with other hand cards towards a set and towards a run.
        Normal counts the partners; strong counts, for each partner, the cards still unseen that
        would complete the three (dead pairs and gaps count for nothing)."""
        rank, suit = card % 13, card // 13
        sets = runs = 0.0
        seen_self = False
        for other in hand:
            o = parse_card(other)
            if o == card and not seen_self:
                seen_self = True
                continue
            if self.rules.is_wild(o):
                continue
            orank, osuit = o % 13, o // 13
            gap = min(abs(orank - rank), 13 - abs(orank - rank))
            if orank == rank and (osuit != suit or not self.rules.set_distinct_suits):
                sets += self.live_set(rank, {suit, osuit}) if self.strong else 1
            elif gap <= 2 and gap and (osuit == suit or self.rules.run_mixed_suits):
                if self.strong:
                    runs += self.live_run(min(rank, orank), max(rank, orank), suit)
                else:
                    runs += 1.5 if gap == 1 else 1
        return sets, runs

    def unseen_counts(self) -> Counter[int]:
        """Cards this seat has not seen: the deck less its hand, the table and the discard pile
        (every discard was played in public; the top one is the next seat's to take)."""
        if self._unseen is None:
            seen = Counter(parse_card(c) for c in self.hand)
            seen.update(parse_card(c.split("=")[0]) for m in self.table for c in m)
            seen.update(parse_card(c) for c in self.sight.discard_pile)
            self._unseen = Counter(self.sight.deck) - seen
        return self._unseen

    def live_set(self, rank: int, suits: set[int]) -> float:
        unseen = self.unseen_counts()
        n = sum(unseen[s * 13 + rank] for s in range(4) if s not in suits or not self.rules.set_distinct_suits)
        return min(n, 3) / 2

    def live_run(self, lo: int, hi: int, suit: int) -> float:
        unseen = self.unseen_counts()
        ranks = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
        suits = range(4) if self.rules.run_mixed_suits else (suit,)
        n = sum(unseen[s * 13 + r] for r in ranks if 0 <= r < 13 for s in suits)
        return min(n, 3) / 2 * (1.5 if hi - lo == 1 else 1)

    def table_fit(self, card: int) -> int:
        """1 when ``card`` could be laid off on a table meld (kept for a later layoff)."""
        if self.rules.is_wild(card):
            return 0
        for m in self.sight.table:
            placed = [parse_entry(c) for c in m.cards]
            stands = [p.stand or (p.card % 13, p.card // 13) for p in placed]
            if natural_extends(m.kind, stands, card, self.rules):
                return 1
        return 0

    def fits_hand(self, code: str, hand: list[str]) -> bool:
        """Whether ``code`` makes a meld with cards of ``hand``, or goes on a table meld."""
        card = parse_card(code)
        if self.rules.is_wild(card):
            return True
        pool = [parse_card(c) for c in hand] + [card]
        if hand_meld_candidates(pool, self.rules, must=card):
            return True
        return bool(self.table_fit(card)) and self.variant != "dummy"

    # ------------------------------------------------------------------ the move
    def pick(self) -> str:
        phase, moves = self.sight.phase, self.moves
        if phase == Phase.WINDOW:
            return self.window()
        verbs = {m.split()[0] for m in moves}
        if "draw" in verbs or (phase == Phase.DRAW and "take" in verbs):
            return self.draw()
        return self.play()

    def window(self) -> str:
        moves = self.moves
        top = self.sight.discard_pile[-1] if self.sight.discard_pile else None
        claims = [m for m in moves if m.startswith("claim ")]
        if claims and top:
            # Tradicional option 2: the claimed card fits; give the card worth least.
            give = min(claims, key=lambda m: (self.keep(m.split()[1], self.hand, False), m))
            if self.keep(give.split()[1], self.hand, False) < self.keep(top, [*self.hand, top], False):
                return give
        if top and "take" in moves and self.wants(top):
            return "take"
        room = 13 if self.strong else 17  # a cut brings three stock cards too
        if "cut" in moves and top and not self.laid and self.wants(top) and len(self.hand) <= room:
            return "cut"
        for calm in ("allow", "pass"):
            if calm in moves:
                return calm
        return moves[0]

    def wants(self, top: str) -> bool:
        """Whether the top discard is worth taking instead of the stock."""
        if self.wild(top):
            return True
        if self.variant == "dummy":
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
        return self.fits_hand(top, self.hand)

    def draw(self) -> str:
        moves = self.moves
        pile = self.sight.discard_pile
        takes = [m for m in moves if m.split()[0] == "take"]
        fallback = "draw" if "draw" in moves else moves[0]
        if not takes or not pile:
            return fallback
        top = pile[-1]
        if self.variant == "rami":
            return "take" if "take" in moves else takes[0]  # legal only when it can be played (§3.7)
        if self.strong and self.variant == "tradicional":
            with_top = best_table(self.table, [*self.hand, top], self.rules, self.card_value, must=top)
            without = best_table(self.table, self.hand, self.rules, self.card_value)
            gain = (len(with_top.used) if with_top and top in with_top.used else 0) - (
                len(without.used) if without else 0
            )
            if gain >= 1 or (with_top and len(with_top.used) >= len(self.hand)):
                return "take" if "take" in moves else takes[0]
        if self.strong and "take" in moves and "draw" in moves:
            known = plan_draw(self.sight, top)
            if known:
                return known
        if self.wants(top):
            return "take" if "take" in moves else takes[0]
        return fallback

    def play(self) -> str:
        moves = self.moves
        if self.strong and self.variant in ("rami", "tradicional") and self.sight.can_rearrange:
            found = self.rearrange()
            if found:
                return found
        placing = [m for m in moves if m.split()[0] in ("meld", "layoff", "swap")]
        if self.variant == "tradicional":
            # A listed table move that empties the hand goes out at once.
            placing += [m for m in moves if m.startswith("table ")]
        if placing:
            best = max(placing, key=self.placing_score)
            if self.placing_score(best) > 0:
                return best
        discards = [m for m in moves if m.startswith("discard ")]
        if discards:
            return self.discard(discards)
        for ending in ("done", "take"):
            if ending in moves:
                return ending
        plain = [m for m in moves if m.split()[0] not in ("table", "cut", "claim")]
        return (plain or moves)[0]

    def placing_score(self, move: str) -> float:
        out, back = used_by(move, self.table)
        left = list(self.hand)
        for c in out:
            if c in left:
                left.remove(c)
        left += back
        if not left:
            return 10_000.0  # out at once
        verb = move.split()[0]
        if verb == "table" and len(left) > 1:
            return -1.0  # normal play leaves the table alone unless it goes out
        wilds_out = sum(self.wild(c) for c in out)
        score = 10.0 * len(out) + sum(self.value(c) for c in out if not self.wild(c))
        if verb == "swap":
            score += 15.0  # a wild back in hand, the natural card placed
        if wilds_out and not self.danger:
            score -= 6.0 * wilds_out  # a wild is worth more in hand while nobody is close
        return score

    def discard(self, discards: list[str]) -> str:
        hand = self.hand
        melded = self.meldable(hand)
        worth: dict[str, float] = {}
        for i, c in enumerate(hand):
            k = self.keep(c, hand, i in melded)
            worth[c] = min(worth.get(c, k), k)
        ranked = sorted(discards, key=lambda m: (worth.get(m.split()[1], 0.0), -self.value(m.split()[1]), m))
        if self.strong and self.variant == "dummy" and not self.laid:
            return self.discard_for_contract(ranked)
        # Wrotham deals 4-6 go out with all seven cards at once (rules.md §1.9): counting cards in
        # melds one card ahead did worse there than the live-card ranking (18% v 25% of 200 deals).
        all_seven = self.variant == "wrotham" and self.sight.all_seven
        if self.strong and self.variant in ("basic", "wrotham"):
            known = plan_discard(self.sight, ranked)
            if known:
                return known
        if self.strong and not (self.variant == "dummy" and self.laid) and not all_seven:
            return self.discard_ahead(ranked[:AHEAD])
        return ranked[0]

    def discard_for_contract(self, ranked: list[str]) -> str:
        """Strong dummy: the discard that leaves the contract fewest cards away (a wild never,
        while another card will do); among equals, the normal player's choice."""
        ints = [parse_card(c) for c in self.hand]

        def gap(move: str) -> int:
            card = parse_card(move.split()[1])
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
                options = [r for r in range(13) if counts[r] and not self.rules.is_wild(r)] or [None]
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

    def discard_ahead(self, discards: list[str]) -> str:
        """Strong, among ``discards`` (the likeliest first): the discard that keeps the most cards
        in melds, then the most chances that the next card drawn adds to them (each unseen card
        weighted by its copies still unseen), then the highest count. A wild goes only when every
        card is one."""
        unseen = self.unseen_counts()
        total = max(1, sum(unseen.values()))
        if self.variant == "dummy":
            # Suits never matter in dummy melds (§5.4): one unseen card of each rank stands for all.
            by_rank: Counter[int] = Counter()
            for u, n in unseen.items():
                by_rank[JOKER if self.rules.is_wild(u) else u % 13] += n
            unseen = by_rank
        ints = sorted(parse_card(c) for c in self.hand)
        memo: dict[tuple[int, ...], int] = {}
        best: tuple[float, str] | None = None
        for move in discards:
            code = move.split()[1]
            card = parse_card(code)
            rest = list(ints)
            rest.remove(card)
            base = self.melded(tuple(rest), memo)
            gain = 0.0
            for u in self.connectors(rest, unseen):
                gain += unseen[u] * (self.melded(tuple(sorted([*rest, u])), memo) - base)
            score = 10.0 * base + 40.0 * gain / total + self.value(code) * (1.0 if self.danger else 0.3)
            score -= self.feeds(card)
            if self.rules.is_wild(card):
                score -= 1000.0
            if best is None or score > best[0]:
                best = (score, move)
        assert best is not None
        return best[1]

    def feeds(self, card: int) -> float:
        """How much discarding ``card`` would help the seat after this one (or, where anyone may
        claim or cut in, any seat), judged from the discards they took and the ones they passed."""
        took, passed = self.reads()
        risk = 0.0
        for seat, cards in took.items():
            weight = 1.0 if seat == self.next_seat else 0.4
            for y in cards:
                if y % 13 == card % 13:
                    risk += 4.0 * weight
                elif (self.rules.run_mixed_suits or y // 13 == card // 13) and 0 < abs(y % 13 - card % 13) <= 2:
                    risk += 3.0 * weight
        if any(y % 13 == card % 13 for y in passed.get(self.next_seat, ())):
            risk -= 1.5
        return risk

    def reads(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """From this deal's public moves: the discards each seat took, and those it let pass."""
        if self._reads is None:
            took: dict[str, list[int]] = {}
            passed: dict[str, list[int]] = {}
            top: int | None = None
            for seen in self.sight.history:
                words = [seen.seat, seen.verb, *seen.args.split()]
                if len(words) < 2 or words[0] == self.seat:
                    top = parse_card(words[2]) if len(words) > 2 and words[1] == "discard" else top
                    continue
                who, verb = words[0], words[1]
                if verb == "discard" and len(words) > 2:
                    top = parse_card(words[2])
                elif verb in ("take", "claim") and top is not None:
                    took.setdefault(who, []).append(top)
                    top = parse_card(words[2]) if verb == "claim" and len(words) > 2 else None
                elif verb == "draw" and top is not None:
                    passed.setdefault(who, []).append(top)
                    top = None
            self._reads = (took, passed)
        return self._reads

    def connectors(self, cards: list[int], unseen: Counter[int]) -> list[int]:
        """Unseen cards that could join a meld with ``cards``: wilds, same ranks, near ranks."""
        out = []
        for u in unseen:
            if unseen[u] <= 0:
                continue
            if self.rules.is_wild(u):
                out.append(u)
                continue
            for c in cards:
                if self.rules.is_wild(c):
                    continue
                gap = abs(c % 13 - u % 13)
                if c % 13 == u % 13 or (
                    (self.rules.run_mixed_suits or c // 13 == u // 13) and min(gap, 13 - gap) <= 2
                ):
                    out.append(u)
                    break
        return out

    def melded(self, cards: tuple[int, ...], memo: dict[tuple[int, ...], int]) -> int:
        """Most cards of ``cards`` in disjoint melds (of the contract's kinds in dummy): exact."""
        if cards in memo:
            return memo[cards]
        cands = hand_meld_candidates(list(cards), self.rules)
        if self.variant == "dummy":
            kinds = CONTRACT_KINDS.get(self.contract or 0, ("set", "run"))
            cands = [r for r in cands if r.kind in kinds]
        by_card: dict[int, list[Counter[int]]] = {}
        for r in sorted(cands, key=lambda r: -len(r.cards)):
            need = Counter(r.cards)
            by_card.setdefault(min(r.cards), []).append(need)
        have = Counter(cards)
        best = 0
        budget = [800]

        def walk(placed: int, left: int) -> None:
            # The lowest card left either goes in a meld whose lowest card it is, or stays out.
            nonlocal best
            best = max(best, placed)
            budget[0] -= 1
            if placed + left <= best or budget[0] <= 0:
                return
            c = min((x for x, n in have.items() if n > 0), default=None)
            if c is None:
                return
            for need in by_card.get(c, ()):
                if all(have[x] >= n for x, n in need.items()):
                    have.subtract(need)
                    k = sum(need.values())
                    walk(placed + k, left - k)
                    have.update(need)
            n = have[c]
            have[c] = 0
            walk(placed, left - n)
            have[c] = n

        walk(0, len(cards))
        memo[cards] = best
        return best

    def rearrange(self) -> str | None:
        # Rami §3.7: the discard this seat took this turn must be placed (the seat saw it taken).
        must = self.sight.must_play if self.sight.must_play in self.hand else None
        plan = best_table(self.table, self.hand, self.rules, self.card_value, must=must)
        if plan is None:
            return None
        left = len(self.hand) - len(plan.used)
        if self.variant == "rami" and left == 0 and JOKER in (parse_card(c) for c in self.hand):
            return None
        text = plan.text(self.rules)
        judge = self.sight.judge
        if judge is None or not judge.accepts(text):
            return None
        return text


__all__ = ["VARIANTS", "choose", "used_by"]
