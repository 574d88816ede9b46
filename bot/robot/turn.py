"""One turn of the normal and strong rummy players: what every variant's strategy shares.

What it is: ``RummyTurn``, a counting player over what the seat can see, its ``Sight``
(``bot.robot.sight``): its hand, the table, the discard pile, the seats' card counts and
contracts, the deal's public moves and the legal moves; it is never given the ``Game``. It knows
no variant by name: what differs between basic, wrotham, rami, tradicional and dummy is in the
per-variant subclasses of ``bot.robot.rummy`` (hooks and class attributes below), and the rules
themselves come from the sight (meld rules, card values, the engine's known stock).
- **normal**: it uses jokers and wild twos and never discards a wild while another card will do;
  it takes the top discard when it can play it (always when that lets it go out); it melds and
  lays off what it can, the move placing the most first; it retrieves a joker when that pays;
  it claims and cuts in for a card that fits.
- **strong**: the same, plus a search over the whole table where the variant rearranges
  (``rearrange.best_table``, checked by the engine through the sight's ``Judge``); live-card
  counting for pairs and gaps, a one-card look-ahead over its discards and the known-stock plan;
  when another seat is close to going out (few cards left) it sheds its highest cards first and
  spends its wilds.
What it is not: no look at another hand or the stock; no randomness, so it is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.engine import Move, Phase, Verb
from bot.engine.cards import JOKER, parse_card
from bot.engine.meldgen import hand_meld_candidates
from bot.engine.melds import MeldRules, Reading, natural_extends, parse_entry

from .reading import bare, card_of, of_verb
from .rearrange import best_table
from .sight import Sight
from .turnover import plan_draw

AHEAD = 4  # strong looks one card ahead for the normal player's four likeliest discards
CLOSE = 3  # a seat with this many cards or fewer may go out next turn


def _cards(entries: Iterable[str]) -> list[str]:
    """Physical cards of card entries (``JK=8H`` is the joker)."""
    return [e.split("=")[0] for e in entries]


def used_by(move: Move, table: list[list[str]]) -> tuple[list[str], list[str]]:
    """(cards leaving the hand, cards coming into it) if ``move`` is played."""
    if move.verb in (Verb.MELD, Verb.LAYOFF):
        return _cards(move.cards), []
    if move.verb is Verb.SWAP:
        return _cards(move.cards), ["JK"] * len(move.cards)
    if move.verb is Verb.TABLE:
        new = Counter(_cards(c for m in move.melds for c in m))
        old = Counter(_cards([c for m in table for c in m]))
        return list((new - old).elements()), []
    return [], []


class RummyTurn:
    """The shared player; a variant's strategy subclasses it and overrides the hooks."""

    #: the strong player searches the whole table for a ``table`` move (rami, tradicional)
    rearranges = False
    #: a listed ``table`` move that empties the hand is a way to go out (tradicional)
    table_goes_out = False
    #: a card that a table meld takes counts as fitting the hand (no: dummy's contract melds only)
    layoffs_fit = True
    #: going out through a table move with a joker in hand is refused (rami)
    keeps_joker_out = False

    def __init__(self, sight: Sight, strong: bool) -> None:
        self.sight = sight
        seat = self.seat = sight.seat
        self.moves = list(sight.moves)
        self.plain = bare(self.moves)  # the listed moves that are a verb alone, by verb
        self.strong = strong
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
        if self.melds_closed():
            return set()
        cands = self.of_kinds(hand_meld_candidates(ints, self.rules))
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
        score = self.partner_score(sets, runs)
        score += self.table_fit(card) * 6
        return score - self.value(code) * (0.8 if self.danger else 0.4)

    # ------------------------------------------------------------------ hooks (per variant)
    def melds_closed(self) -> bool:
        """No new melds may be made from the hand now."""
        return False

    def of_kinds(self, cands: list[Reading]) -> list[Reading]:
        """The meld candidates this seat may make (every kind unless the variant restricts)."""
        return cands

    def partner_score(self, sets: float, runs: float) -> float:
        """What a loose card's partners towards a set and a run are worth keeping."""
        return 10 * sets + 8 * runs

    def wants_card(self, top: str) -> bool:
        """Whether a natural top discard is worth taking instead of the stock."""
        return self.fits_hand(top, self.hand)

    def draw_choice(self, top: str, takes: list[Move]) -> Move | None:
        """A variant's own choice between the pile and the stock, before the shared ones."""
        return None

    def strong_discard(self, ranked: list[Move]) -> Move:
        """The strong player's discard among ``ranked`` (the normal player's order)."""
        return self.discard_ahead(ranked[:AHEAD])

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
        return bool(self.table_fit(card)) and self.layoffs_fit

    # ------------------------------------------------------------------ the move
    def pick(self) -> Move:
        phase, moves = self.sight.phase, self.moves
        if phase == Phase.WINDOW:
            return self.window()
        verbs = {m.verb for m in moves}
        if Verb.DRAW in verbs or (phase == Phase.DRAW and Verb.TAKE in verbs):
            return self.draw()
        return self.play()

    def window(self) -> Move:
        moves, plain = self.moves, self.plain
        top = self.sight.discard_pile[-1] if self.sight.discard_pile else None
        claims = [m for m in of_verb(moves, Verb.CLAIM) if m.card]
        if claims and top:
            # Tradicional option 2: the claimed card fits; give the card worth least.
            give = min(claims, key=lambda m: (self.keep(card_of(m), self.hand, False), m))
            if self.keep(card_of(give), self.hand, False) < self.keep(top, [*self.hand, top], False):
                return give
        if top and Verb.TAKE in plain and self.wants(top):
            return plain[Verb.TAKE]
        room = 13 if self.strong else 17  # a cut brings three stock cards too
        if Verb.CUT in plain and top and not self.laid and self.wants(top) and len(self.hand) <= room:
            return plain[Verb.CUT]
        for calm in (Verb.ALLOW, Verb.PASS):
            if calm in plain:
                return plain[calm]
        return moves[0]

    def wants(self, top: str) -> bool:
        """Whether the top discard is worth taking instead of the stock."""
        if self.wild(top):
            return True
        return self.wants_card(top)

    def draw(self) -> Move:
        moves, plain = self.moves, self.plain
        pile = self.sight.discard_pile
        takes = of_verb(moves, Verb.TAKE)
        fallback = plain.get(Verb.DRAW, moves[0])
        if not takes or not pile:
            return fallback
        top = pile[-1]
        own = self.draw_choice(top, takes)
        if own is not None:
            return own
        if self.strong and Verb.TAKE in plain and Verb.DRAW in plain:
            known = plan_draw(self.sight, top)
            if known is not None:
                return plain[known]
        if self.wants(top):
            return self.take(takes)
        return fallback

    def take(self, takes: list[Move]) -> Move:
        """The plain ``take`` when listed, else the first take listed (rami names its card)."""
        return self.plain.get(Verb.TAKE, takes[0])

    def play(self) -> Move:
        moves = self.moves
        if self.strong and self.rearranges and self.sight.can_rearrange:
            found = self.rearrange()
            if found:
                return found
        placing = of_verb(moves, Verb.MELD, Verb.LAYOFF, Verb.SWAP)
        if self.table_goes_out:
            # A listed table move that empties the hand goes out at once.
            placing += [m for m in of_verb(moves, Verb.TABLE) if m.melds]
        if placing:
            best = max(placing, key=self.placing_score)
            if self.placing_score(best) > 0:
                return best
        discards = [m for m in of_verb(moves, Verb.DISCARD) if m.card]
        if discards:
            return self.discard(discards)
        for ending in (Verb.DONE, Verb.TAKE):
            if ending in self.plain:
                return self.plain[ending]
        simple = [m for m in moves if m.verb not in (Verb.TABLE, Verb.CUT, Verb.CLAIM)]
        return (simple or moves)[0]

    def placing_score(self, move: Move) -> float:
        out, back = used_by(move, self.table)
        left = list(self.hand)
        for c in out:
            if c in left:
                left.remove(c)
        left += back
        if not left:
            return 10_000.0  # out at once
        verb = move.verb
        if verb is Verb.TABLE and len(left) > 1:
            return -1.0  # normal play leaves the table alone unless it goes out
        wilds_out = sum(self.wild(c) for c in out)
        score = 10.0 * len(out) + sum(self.value(c) for c in out if not self.wild(c))
        if verb is Verb.SWAP:
            score += 15.0  # a wild back in hand, the natural card placed
        if wilds_out and not self.danger:
            score -= 6.0 * wilds_out  # a wild is worth more in hand while nobody is close
        return score

    def discard(self, discards: list[Move]) -> Move:
        hand = self.hand
        melded = self.meldable(hand)
        worth: dict[str, float] = {}
        for i, c in enumerate(hand):
            k = self.keep(c, hand, i in melded)
            worth[c] = min(worth.get(c, k), k)
        ranked = sorted(discards, key=lambda m: (worth.get(card_of(m), 0.0), -self.value(card_of(m)), m))
        return self.strong_discard(ranked) if self.strong else ranked[0]

    def discard_ahead(self, discards: list[Move]) -> Move:
        """Strong, among ``discards`` (the likeliest first): the discard that keeps the most cards
        in melds, then the most chances that the next card drawn adds to them (each unseen card
        weighted by its copies still unseen), then the highest count. A wild goes only when every
        card is one."""
        unseen = self.unseen_counts()
        total = max(1, sum(unseen.values()))
        ints = sorted(parse_card(c) for c in self.hand)
        memo: dict[tuple[int, ...], int] = {}
        best: tuple[float, Move] | None = None
        for move in discards:
            code = card_of(move)
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
        if any(y % 13 == card % 13 for y in passed.get(self.next_seat or "", ())):
            risk -= 1.5
        return risk

    def reads(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """From this deal's public moves: the discards each seat took, and those it let pass."""
        if self._reads is None:
            took: dict[str, list[int]] = {}
            passed: dict[str, list[int]] = {}
            top: int | None = None
            for seen in self.sight.history:
                first = seen.move.card  # the card a discard, knock or claim names
                if seen.seat == self.seat:
                    top = parse_card(first) if first and seen.verb == Verb.DISCARD else top
                    continue
                who, verb = seen.seat, seen.verb
                if verb == Verb.DISCARD and first:
                    top = parse_card(first)
                elif verb in (Verb.TAKE, Verb.CLAIM) and top is not None:
                    took.setdefault(who, []).append(top)
                    top = parse_card(first) if verb == Verb.CLAIM and first else None
                elif verb == Verb.DRAW and top is not None:
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
        cands = self.of_kinds(hand_meld_candidates(list(cards), self.rules))
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

    def rearrange(self) -> Move | None:
        # Rami §3.7: the discard this seat took this turn must be placed (the seat saw it taken).
        must = self.sight.must_play if self.sight.must_play in self.hand else None
        plan = best_table(self.table, self.hand, self.rules, self.card_value, must=must)
        if plan is None:
            return None
        left = len(self.hand) - len(plan.used)
        if self.keeps_joker_out and left == 0 and JOKER in (parse_card(c) for c in self.hand):
            return None
        move = plan.move(self.rules)
        judge = self.sight.judge
        if judge is None or not judge.accepts(move):
            return None
        return move


__all__ = ["AHEAD", "RummyTurn", "used_by"]
