"""Gin at the normal and strong levels (issue 11); easy gin is the plain heuristic.

What it is: two players that read the game only through a ``Sight`` (``bot.robot.sight``).

* **normal** counts deadwood (rules.md §2.1, the engine's exact search). It takes the upcard or
  the discard only when the card goes into a meld of its best arrangement and lowers its
  deadwood, or when it lowers its deadwood by 4 or more and has a partner in hand (a meld in
  prospect). It discards the card that leaves least deadwood, keeping near-melds on equal counts.
  It knocks at once early in the deal; later, as the opponent's hand improves and the undercut
  becomes likely, it waits for a lower count (one point less every second turn, down to 4).
* **strong** keeps track of every card it has seen: the discard pile, the melds, what the
  opponent took (known to be in their hand), what the opponent discarded or passed on (they do
  not collect its neighbours). From that it gives each unseen card a chance of being in the
  opponent's hand; a stock card is an unseen card the opponent does not hold. It looks ahead by
  sampling sequences of the next stock cards (Monte-Carlo): for each candidate discard, and for
  taking the discard against drawing, it counts how many draws the hand needs to reach a knock
  (a little of its final deadwood, and gin, break ties), since whoever knocks first usually wins
  the deal; the deadwood it would hold while the opponent may knock first (a chance growing with
  their turns) is counted too, so that a lost deal costs little. A discard also pays for the
  chance that it completes an opponent's meld. The knock follows the rules in force (issue 23):
  gin always goes out; where an undercut costs little (the seed's 10) it knocks at once unless
  the opponent hands it samples from those chances say an undercut (layoffs included) is more
  likely than not; where it costs ``WAIT_BONUS`` or more (the EAAI scoring's 25) it knocks only
  with ``WAIT_AT`` or less and otherwise plays on for gin or for undercutting the opponent's
  knock. There the look-ahead counts points rather than draws (``Stakes``): before each sampled
  draw the opponent may knock, which scores an undercut if strong's deadwood is at or below
  their count and costs the difference otherwise, and reaching gin scores the gin bonus and
  their deadwood. With the stock nearly gone it knocks when the sampled hands make the knock's
  value positive on average.

Every random choice comes from a generator seeded with the public record of the deal and the
seat, so a move is deterministic for a given game (and the no-peek test can replay it).
What it is not: a game-tree search; no Discord, no SQL.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from bot.engine import Move, Phase, Verb
from bot.engine.cards import card_code, parse_card
from bot.engine.search import (
    LOW_VALUES,
    best_layoffs,
    best_melds,
    deadwood_after_each_discard,
    mask_of,
    meldable_cards,
    min_deadwood,
)

from .heuristic import connections
from .reading import bare, card_of, is_bare, of_verb
from .sight import Sight

__all__ = ["Knowledge", "choose_normal", "choose_strong", "knowledge"]

ALL = (1 << 52) - 1
DANGER_WEIGHT = 1.0  # draws lost, on average, by handing the opponent a card that completes a meld
SAMPLES = 24  # opponent hands sampled before a knock
ROLLOUTS = 16  # stock sequences drawn for the look-ahead
DEPTH = 10  # draws looked ahead
CANDIDATES = 6  # discards (the lowest-deadwood ones) given the look-ahead
DEADWOOD_WEIGHT = 0.04  # draws one point of deadwood left at the end of a look-ahead is worth
EXPOSURE_WEIGHT = 0.8  # draws one point of deadwood held while the opponent may knock is worth
# (0.8 rather than 0.3: whole default games, where the points of a lost knock count, 51.5% of 5,000
# fresh games against the yardstick instead of 49.2%; single deals unchanged; docs/performance.md)
RISK_BASE = 0.02  # the chance the opponent knocks on their first turn ...
RISK_STEP = 0.03  # ... and what each of their turns adds
UNDERCUT_SHARE = 0.5  # a knock undercut in more than this share of the samples waits ...
UNDERCUT_STOCK = 6  # ... while the stock holds more than this many cards
WAIT_BONUS = 20  # with an undercut bonus this big, a knock above ``WAIT_AT`` waits for a lower count
WAIT_AT = 0  # the deadwood knocked at without waiting when undercuts cost that much
OPP_KNOCK_LOW = 5  # the opponent's knock is taken to come with a count spread evenly from here to the limit
GIN_POINTS = 20  # what the opponent's deadwood is taken to be when strong goes gin
DANGER_POINTS = 4.0  # points lost, on average, by handing the opponent a card that completes a meld
PICK_NEAR = 2.2  # how much likelier the opponent holds a close neighbour (``related`` 2) of a card it took ...
PICK_FAR = 1.4  # ... and a card two apart in its suit
SHUN_NEAR = 0.55  # how much less likely it holds a close neighbour of a card it discarded or passed on ...
SHUN_FAR = 0.8  # ... and a card two apart
ROLLOUT_TO_WAIT = False  # the look-ahead counts draws to the count it would knock at (else the limit)


def value(card: int) -> int:
    return LOW_VALUES[card % 13]


def best_after(mask: int) -> int:
    """Least deadwood after the best discard from an 11-card hand ``mask``."""
    return greedy_discard(mask)[0]


def greedy_discard(mask: int) -> tuple[int, int]:
    """``(deadwood, card)``: the discard that leaves least deadwood (lowest card on ties), as
    ``min(deadwood_after_each_discard(mask))`` but faster: a card in no meld lowers the count by
    exactly its value, and no discard lowers it by more than its value, so most searches are skipped."""
    base = min_deadwood(mask, "low", LOW_VALUES)
    meldable = meldable_cards(mask)
    best = (99, 99)
    loose = mask & ~meldable
    while loose:
        low = loose & -loose
        c = low.bit_length() - 1
        best = min(best, (base - LOW_VALUES[c % 13], c))
        loose ^= low
    m = meldable & mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if (base - LOW_VALUES[c % 13], c) < best:
            best = min(best, (min_deadwood(mask ^ low, "low", LOW_VALUES), c))
        m ^= low
    return best


def related(a: int, b: int) -> int:
    """How closely two cards could share a meld: 2 same rank or suit neighbours, 1 two apart."""
    if a % 13 == b % 13:
        return 2
    if a // 13 == b // 13:
        gap = abs(a % 13 - b % 13)
        return 2 if gap == 1 else 1 if gap == 2 else 0
    return 0


# --------------------------------------------------------------------------------- knowledge
@dataclass
class Knowledge:
    """What the strong level knows of where each card is."""

    hand: int  # my cards
    dead: int  # out of reach: the pile below its top, the melds on the table
    top: int | None  # the discard pile's top card
    opp_known: int  # cards the opponent took and still holds
    opp_hidden: int  # how many of the opponent's cards are unknown
    chance: list[float]  # per card: the chance it is in the opponent's hand (1 known, 0 seen elsewhere)
    stock: list[float]  # per card: the chance the stock's top card is this one
    turns: int  # turns played this deal

    @property
    def unseen(self) -> int:
        return ALL & ~self.hand & ~self.dead & ~self.opp_known & ~(0 if self.top is None else 1 << self.top)


def knowledge(sight: Sight) -> Knowledge:
    hand = mask_of(parse_card(c) for c in sight.hand)
    pile = [parse_card(c) for c in sight.discard_pile]
    dead = mask_of(pile[:-1])
    for meld in sight.table:
        dead |= mask_of(parse_card(c) for c in meld.cards)
    opp = next(s for s in sight.seats if s != sight.seat)
    known = 0
    picks: list[int] = []
    shunned: list[int] = []  # discarded or passed on by the opponent
    top: int | None = None
    for seen in sight.history:
        card = parse_card(seen.card) if seen.card else None
        if seen.seat == opp:
            if seen.verb == Verb.TAKE and card is not None:
                known |= 1 << card
                picks.append(card)
            elif seen.verb in (Verb.DISCARD, Verb.KNOCK) and card is not None:
                known &= ~(1 << card)
                shunned.append(card)
            elif seen.verb == Verb.PASS and card is not None:
                shunned.append(card)
            elif seen.verb == Verb.DRAW and top is not None:
                shunned.append(top)  # drew from the stock rather than take this card
        if seen.verb in (Verb.DISCARD, Verb.KNOCK):
            top = card
        elif seen.verb == Verb.TAKE:
            top = None
    top_card = pile[-1] if pile else None
    known &= ~hand & ~dead
    hidden = max(0, sight.card_counts.get(opp, 10) - bin(known).count("1"))
    k = Knowledge(hand, dead, top_card, known, hidden, [0.0] * 52, [0.0] * 52, len(sight.history))
    unseen = k.unseen
    factors = [0.0] * 52
    for c in range(52):
        if (unseen >> c) & 1:
            f = 1.0
            for p in picks:
                r = related(c, p)
                f *= PICK_NEAR if r == 2 else PICK_FAR if r == 1 else 1.0
            for s in shunned:
                r = related(c, s)
                f *= SHUN_NEAR if r == 2 else SHUN_FAR if r == 1 else 1.0
            factors[c] = f
    total = sum(factors)
    for c in range(52):
        if (known >> c) & 1:
            k.chance[c] = 1.0
        elif total and factors[c]:
            k.chance[c] = min(0.95, hidden * factors[c] / total)
    free = [(1.0 - k.chance[c]) if (unseen >> c) & 1 else 0.0 for c in range(52)]
    norm = sum(free) or 1.0
    k.stock = [f / norm for f in free]
    return k


# --------------------------------------------------------------------------------- evaluation
def sequences(k: Knowledge, rng: random.Random, count: int, depth: int) -> list[list[int]]:
    """Possible next stock cards: ``count`` sequences of ``depth`` unseen cards, each drawn with
    the chance that the opponent does not hold it."""
    pool = [c for c in range(52) if k.stock[c] > 0]
    weights = [k.stock[c] for c in pool]
    out = []
    for _ in range(count):
        cards, ws = list(pool), list(weights)
        seq = []
        for _ in range(min(depth, len(cards))):
            i = rng.choices(range(len(cards)), ws)[0]
            seq.append(cards.pop(i))
            ws.pop(i)
        out.append(seq)
    return out


def turns_to_knock(
    hand: int, seqs: list[list[int]], limit: int, risk: float = 0.0, exposure: float = EXPOSURE_WEIGHT
) -> float:
    """Average number of draws until the 10-card ``hand`` may knock, drawing each sequence in
    turn and discarding greedily (least deadwood); a little of the last deadwood breaks ties.
    ``risk``: the chance the opponent knocks on each of their turns; the deadwood held while they
    might (what their knock would take from us) is added, weighted by ``exposure``."""
    total = 0.0
    for seq in seqs:
        h = hand
        d = min_deadwood(h, "low", LOW_VALUES)
        t = len(seq) + 2
        exposed, alive = risk * d, 1.0 - risk
        for i, u in enumerate(seq, 1):
            d, c = greedy_discard(h | 1 << u)
            h = (h | 1 << u) & ~(1 << c)
            if d <= limit:
                t = i
                break
            exposed += alive * risk * d
            alive *= 1.0 - risk
        total += t + DEADWOOD_WEIGHT * d + exposure * exposed - (0.5 if d == 0 else 0)
    return total / len(seqs)


def turns_to_knock_drawing(
    hand: int, seqs: list[list[int]], limit: int, risk: float = 0.0, exposure: float = EXPOSURE_WEIGHT
) -> float:
    """``turns_to_knock`` for a hand that draws first: each sequence's first card is this draw."""
    total = 0.0
    for seq in seqs:
        d, c = greedy_discard(hand | 1 << seq[0])
        h = (hand | 1 << seq[0]) & ~(1 << c)
        total += 1.0 if d <= limit else 1 + turns_to_knock(h, [seq[1:]], limit, risk, exposure)
    return total / len(seqs)


@dataclass(frozen=True)
class Stakes:
    """What strong's look-ahead counts where it plays on for gin (the EAAI scoring, issue 23):
    points rather than draws. ``caught[d]``: the points strong expects when the opponent knocks
    while it holds ``d`` deadwood (an undercut when ``d`` is at or below their count, a loss of
    the difference otherwise; their count is spread evenly over ``OPP_KNOCK_LOW``..limit)."""

    caught: tuple[float, ...]
    gin: float  # the points of going gin
    risk: float  # the chance the opponent knocks on their next turn ...
    step: float  # ... and what each later turn adds

    @staticmethod
    def of(sight: Sight, risk: float) -> Stakes:
        limit = int(sight.option("knock_limit", 10))
        bonus = float(sight.option("undercut_bonus", 25))
        counts = range(min(OPP_KNOCK_LOW, limit), limit + 1)
        caught = tuple(
            sum((bonus + k - d) if d <= k else -(d - k) for k in counts) / len(counts) for d in range(120)
        )
        return Stakes(caught, float(sight.option("gin_bonus", 25)) + GIN_POINTS, risk, RISK_STEP)


def points_waiting(hand: int, seqs: list[list[int]], stakes: Stakes) -> float:
    """Expected points of playing on with the 10-card ``hand`` (the opponent moves next): each
    sequence is drawn in turn, discarding greedily; the opponent may knock before each draw
    (``stakes.caught``), and a hand that reaches gin scores ``stakes.gin``. A hand still playing
    when the sequence ends is scored as if caught then."""
    total = 0.0
    caught = stakes.caught
    for seq in seqs:
        h = hand
        d = min_deadwood(h, "low", LOW_VALUES)
        alive, hazard, points = 1.0, stakes.risk, 0.0
        for u in seq:
            points += alive * hazard * caught[d]
            alive *= 1.0 - hazard
            hazard = min(0.4, hazard + stakes.step)
            d, c = greedy_discard(h | 1 << u)
            h = (h | 1 << u) & ~(1 << c)
            if d == 0:
                points += alive * stakes.gin
                alive = 0.0
                break
        total += points + alive * caught[d]
    return total / len(seqs)


def points_drawing(hand: int, seqs: list[list[int]], stakes: Stakes) -> float:
    """``points_waiting`` for a hand that draws first: each sequence's first card is this draw."""
    total = 0.0
    for seq in seqs:
        d, c = greedy_discard(hand | 1 << seq[0])
        h = (hand | 1 << seq[0]) & ~(1 << c)
        total += stakes.gin if d == 0 else points_waiting(h, [seq[1:]], stakes)
    return total / len(seqs)


def opponent_turns(sight: Sight) -> int:
    """The turns the opponent has had this deal (each starts with a draw or a take)."""
    return sum(1 for s in sight.history if s.seat != sight.seat and s.verb in (Verb.DRAW, Verb.TAKE))


def knock_risk(sight: Sight) -> float:
    """The chance the opponent knocks on their next turn, growing with the turns they have had."""
    return min(0.4, RISK_BASE + RISK_STEP * opponent_turns(sight))


def danger(k: Knowledge, card: int) -> float:
    """The chance that ``card`` completes a meld with cards in the opponent's hand."""
    q = k.chance
    r, s = card % 13, card // 13
    others = [q[t * 13 + r] for t in range(4) if t != s]
    a, b, c = others
    p_set = a * b + a * c + b * c - 2 * a * b * c  # at least two of three
    p_none = 1.0 - p_set

    def at(rank: int) -> float:
        return q[s * 13 + rank] if 0 <= rank < 13 else 0.0

    for lo, hi in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)):
        p_none *= 1.0 - at(lo) * at(hi)
    return 1.0 - p_none


def knock_value(sight: Sight, mine: int, theirs: int) -> int:
    """The knocker's score minus the defender's (rules.md §2.5)."""
    if mine == 0:
        return sight.option("gin_bonus", 20) + theirs
    if mine < theirs:
        return theirs - mine
    if mine == theirs and not sight.option("undercut_on_tie", True):
        return 0
    return -(sight.option("undercut_bonus", 20) + mine - theirs)


def sample_hands(k: Knowledge, rng: random.Random, n: int) -> list[int]:
    """Opponent hands drawn from the card chances: the known cards plus ``opp_hidden`` unseen ones."""
    pool = [c for c in range(52) if (k.unseen >> c) & 1]
    weights = [max(k.chance[c], 0.01) for c in pool]
    out = []
    for _ in range(n):
        hand = k.opp_known
        cards, ws = list(pool), list(weights)
        for _ in range(min(k.opp_hidden, len(cards))):
            i = rng.choices(range(len(cards)), ws)[0]
            hand |= 1 << cards.pop(i)
            ws.pop(i)
        out.append(hand)
    return out


def rng_for(sight: Sight) -> random.Random:
    """A generator seeded with what the seat has seen, so the move replays identically."""
    # Each seen move is hashed as "<seat> <verb> <the rest>", so a move that is its verb alone
    # ends in a space: the words hashed since issue 11, kept so that every move replays as it did.
    lines = (f"{s.seat} {s.move}{' ' if is_bare(s.move) else ''}" for s in sight.history)
    text = "|".join([sight.seat, str(sight.deal_number), *sight.hand, *lines])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


# --------------------------------------------------------------------------------- normal
def choose_normal(sight: Sight) -> Move:
    moves = list(sight.moves)
    plain = bare(moves)
    hand = [parse_card(c) for c in sight.hand]
    mask = mask_of(hand)
    if Verb.AUTO in plain:
        return plain[Verb.AUTO]
    if Verb.TAKE in plain and sight.discard_pile and (Verb.DRAW in plain or Verb.PASS in plain):
        up = parse_card(sight.discard_pile[-1])
        now = min_deadwood(mask, "low", LOW_VALUES)
        after, out = min(
            (d, c) for d, c in deadwood_after_each_discard(mask | 1 << up, "low", LOW_VALUES) if c != up
        )
        _, best = best_melds((mask | 1 << up) & ~(1 << out), "low", LOW_VALUES)
        in_meld = any(m >> up & 1 for m in best)
        prospect = connections(card_code(up), sight.hand) >= 1 and after <= now - 4
        if after < now and (in_meld or prospect):
            return plain[Verb.TAKE]
        return plain[Verb.DRAW] if Verb.DRAW in plain else plain[Verb.PASS]
    if Verb.TAKE in plain:  # the wall: take only to knock
        return plain[Verb.TAKE]
    if Verb.DRAW in plain or Verb.PASS in plain:
        return plain[Verb.DRAW] if Verb.DRAW in plain else plain[Verb.PASS]
    knocks = of_verb(moves, Verb.KNOCK)
    if knocks:
        each = deadwood_after_each_discard(mask, "low", LOW_VALUES)
        knocked = {parse_card(card_of(m)) for m in knocks if not m.melds}  # gin lists a knock as its discard
        dead = min(d for d, c in each if c in knocked)
        limit = sight.option("knock_limit", 10)
        own_turns = sum(1 for s in sight.history if s.seat == sight.seat and s.verb in (Verb.DRAW, Verb.TAKE))
        wanted = max(4, limit - max(0, own_turns - 5) // 2)
        if dead == 0 or dead <= wanted or sight.stock_count <= 3:
            return knocks[0]
    discards = of_verb(moves, Verb.DISCARD)
    if not discards:
        return moves[0]

    def cost(move: Move) -> tuple[int, int, str]:
        card = parse_card(card_of(move))
        rest = mask & ~(1 << card)
        near = min(connections(card_code(card), sight.hand), 2)
        return min_deadwood(rest, "low", LOW_VALUES) + 2 * near, -value(card), move

    return min(discards, key=cost)


# --------------------------------------------------------------------------------- strong
def choose_strong(sight: Sight) -> Move:
    moves = list(sight.moves)
    plain = bare(moves)
    if Verb.AUTO in plain:
        return plain[Verb.AUTO]
    if Verb.TAKE in plain and not (Verb.DRAW in plain or Verb.PASS in plain):
        return plain[Verb.TAKE]
    k = knowledge(sight)
    hand = k.hand
    risk = knock_risk(sight)
    cost = EXPOSURE_WEIGHT
    if Verb.DRAW in plain or Verb.PASS in plain:
        stock = plain[Verb.DRAW] if Verb.DRAW in plain else plain[Verb.PASS]
        take = plain.get(Verb.TAKE)
        if take is not None and k.top is not None:
            if sight.phase == Phase.DRAW and Verb.DRAW not in plain:
                return take  # the wall: the take is offered only when it knocks
            up = k.top
            limit = target(sight)
            seqs = sequences(k, rng_for(sight), ROLLOUTS, DEPTH)
            with_up = hand | 1 << up
            after = sorted((d, c) for d, c in deadwood_after_each_discard(with_up, "low", LOW_VALUES) if c != up)
            if waits(sight):
                stakes = Stakes.of(sight, risk)
                gain = max(
                    (stakes.gin if d == 0 else points_waiting(with_up & ~(1 << c), seqs, stakes))
                    - DANGER_POINTS * danger(k, c)
                    for d, c in after[:CANDIDATES]
                )
                return take if gain > points_drawing(hand, seqs, stakes) else stock
            taking = min(
                (1.0 if d <= limit else 1 + turns_to_knock((hand | 1 << up) & ~(1 << c), seqs, limit, risk, cost))
                for d, c in after[:CANDIDATES]
            )
            draw = turns_to_knock_drawing(hand, seqs, limit, risk, cost)
            if taking < draw:
                return take
        return stock
    knocks = of_verb(moves, Verb.KNOCK)
    discards = of_verb(moves, Verb.DISCARD)
    if knocks and should_knock(sight, k, parse_card(card_of(knocks[0]))):
        return knocks[0]
    if not discards:
        return knocks[0] if knocks else moves[0]
    limit = target(sight)
    base = {c: d for d, c in deadwood_after_each_discard(hand, "low", LOW_VALUES)}
    ranked = sorted(discards, key=lambda m: (base[parse_card(card_of(m))], -value(parse_card(card_of(m)))))
    seqs = sequences(k, rng_for(sight), ROLLOUTS, DEPTH)
    scores = {}
    if waits(sight):
        stakes = Stakes.of(sight, risk)
        for m in ranked[:CANDIDATES]:
            card = parse_card(card_of(m))
            ev = points_waiting(hand & ~(1 << card), seqs, stakes) - DANGER_POINTS * danger(k, card)
            scores[m] = (-ev, -value(card), m)
        return min(scores, key=scores.__getitem__)
    for m in ranked[:CANDIDATES]:
        card = parse_card(card_of(m))
        rest = hand & ~(1 << card)
        scores[m] = (turns_to_knock(rest, seqs, limit, risk, cost) + DANGER_WEIGHT * danger(k, card), -value(card), m)
    return min(scores, key=scores.__getitem__)


def wait_at(sight: Sight) -> int:
    """The highest deadwood strong knocks with at once, from the rules in force (rules.md §2.5):
    the knock limit, unless an undercut costs ``WAIT_BONUS`` or more (the EAAI scoring's 25),
    when only a count of ``WAIT_AT`` or less goes down at once and higher ones wait for gin or an
    undercut of the opponent's knock (whoever knocks first no longer usually wins)."""
    limit = int(sight.option("knock_limit", 10))
    return min(limit, WAIT_AT) if waits(sight) else limit


def waits(sight: Sight) -> bool:
    """Whether an undercut costs enough (``WAIT_BONUS``) for strong to wait for low counts."""
    return bool(sight.option("undercut_bonus", 10) >= WAIT_BONUS)


def target(sight: Sight) -> int:
    """The count the look-ahead races to: where strong would knock."""
    return wait_at(sight) if ROLLOUT_TO_WAIT else int(sight.option("knock_limit", 10))


def should_knock(sight: Sight, k: Knowledge, card: int) -> bool:
    """Gin always goes out. With the stock nearly gone, knock when the sampled opponent hands
    (layoffs included) make the knock's value positive on average (a void deal scores nothing).
    Otherwise a count above ``wait_at`` waits; one at or below it knocks unless the samples say
    an undercut is more likely than not."""
    rest = k.hand & ~(1 << card)
    mine, melds = best_melds(rest, "low", LOW_VALUES)
    late = sight.stock_count <= UNDERCUT_STOCK
    if mine == 0 or (late and mine <= wait_at(sight)):
        return True
    if not late and mine > wait_at(sight):
        return False
    layoff = sight.option("layoff_on_gin", True)
    hands = sample_hands(k, rng_for(sight), SAMPLES)
    values = []
    for opp in hands:
        laid = best_layoffs(opp, melds, "low", LOW_VALUES)[0] if (mine or layoff) else min_deadwood(opp)
        values.append(knock_value(sight, mine, laid))
    if late:
        return sum(values) > 0
    return sum(v < 0 for v in values) <= UNDERCUT_SHARE * len(hands)
