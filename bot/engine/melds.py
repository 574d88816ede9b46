"""Meld validation, wild-card readings and canonical meld form (rules.md §1.2, §1.9, §2.2, §6.1).

A meld is a list of physical cards, each with what it stands for: a natural card stands for
itself, a wild card (a joker, or a two where twos are wild) for a rank and, when known, a suit.
``read_meld`` returns every reading a list of placed cards allows under a ``MeldRules``; the game
refuses the move when there is none and asks for an annotation when there are several
(notation.md "Cards"). This module is not about turns, owners or scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, RANKS, SUITS, card_code, parse_card, parse_rank
from .errors import IllegalMove

# What a card stands for: (rank, suit) with suit None while a set or mixed run leaves it open.
Stand = tuple[int, int | None]


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What counts as a meld in one variant (one instance per rule set, built once)."""

    ace_mode: str = "low"  # low | high_low | round_the_corner
    wild_jokers: bool = False
    wild_twos: bool = False
    max_wilds: int | None = None  # per meld; None = no limit
    min_natural: int = 1
    set_max: int | None = 4
    set_distinct_suits: bool = True
    run_mixed_suits: bool = False
    run_max: int = 13
    identities: bool = False  # rami §3.11: 3-4 copies of one card
    wild_layoff: bool = True  # rami §3.3: a joker may not extend an existing meld

    def is_wild(self, card: int) -> bool:
        return (card == JOKER and self.wild_jokers) or (self.wild_twos and card != JOKER and card % 13 == 1)


@dataclass(frozen=True, slots=True)
class Placed:
    """One card put into a meld, with the annotation the player (or the table) gave it."""

    card: int
    stand: Stand | None = None  # None: natural, or a wild left to inference


@dataclass(frozen=True, slots=True)
class Reading:
    """One valid reading: the meld's kind and its cards in canonical order with their stands."""

    kind: str  # "run" | "set" | "identity"
    cards: tuple[int, ...]
    stands: tuple[Stand, ...]

    def codes(self, rules: MeldRules) -> list[str]:
        return [entry_code(c, s, rules) for c, s in zip(self.cards, self.stands, strict=True)]


def stand_code(stand: Stand) -> str:
    r, s = stand
    return RANKS[r] + ("" if s is None else SUITS[s])


def entry_code(card: int, stand: Stand, rules: MeldRules) -> str:
    """``8H`` for a natural, ``JK=8H`` / ``2C=7`` for a wild (canonical: always annotated)."""
    if rules.is_wild(card):
        return f"{card_code(card)}={stand_code(stand)}"
    return card_code(card)


def parse_entry(text: str) -> Placed:
    """``8H``, ``JK``, ``JK=8H``, ``2C=7``."""
    if "=" not in text:
        return Placed(parse_card(text))
    left, _, right = text.partition("=")
    card = parse_card(left)
    right = right.upper()
    if len(right) >= 2 and right[-1] in SUITS and parse_rank(right[:-1]) is not None:
        return Placed(card, (parse_rank(right[:-1]), SUITS.index(right[-1])))  # type: ignore[arg-type]
    r = parse_rank(right)
    if r is None:
        raise IllegalMove("bad_card", f"{text!r}: after '=' write a card or a rank (JK=8H, JK=7)", {"text": text})
    return Placed(card, (r, None))


def _line(rules: MeldRules) -> tuple[int, bool]:
    """Length of the rank line runs live on, and whether it wraps (round the corner)."""
    if rules.ace_mode == "round_the_corner":
        return 13, True
    if rules.ace_mode == "high_low":
        return 14, False
    return 13, False


def read_meld(placed: Sequence[Placed], rules: MeldRules, kind: str | None = None) -> list[Reading]:
    """Every reading of ``placed`` as one meld (optionally only of ``kind``); [] when invalid."""
    naturals: list[int] = []
    wilds: list[Placed] = []
    for p in placed:
        if rules.is_wild(p.card):
            wilds.append(p)
        elif p.stand is not None and p.stand != (p.card % 13, p.card // 13):
            return []  # a natural card cannot stand for another card
        else:
            naturals.append(p.card)
    if len(naturals) < rules.min_natural or len(placed) < 3:
        return []
    if rules.max_wilds is not None and len(wilds) > rules.max_wilds:
        return []
    readings: list[Reading] = []
    if kind in (None, "set"):
        r = _read_set(naturals, wilds, rules)
        if r is not None:
            readings.append(r)
    if kind in (None, "run"):
        seen: set[tuple[tuple[int, ...], tuple[Stand, ...]]] = set()
        for r in _read_runs(naturals, wilds, rules):
            # A run of all thirteen ranks reads the same from the ace up or down to it: one reading
            # (the first, ace low) is kept, so it is never ambiguous.
            key = (tuple(sorted(r.cards)), tuple(sorted(r.stands, key=lambda s: (s[0], -1 if s[1] is None else s[1]))))
            if key not in seen:
                seen.add(key)
                readings.append(r)
    if rules.identities and kind in (None, "identity"):
        r = _read_identity(naturals, wilds, rules)
        if r is not None:
            readings.append(r)
    return readings


def _read_identity(naturals: list[int], wilds: list[Placed], rules: MeldRules) -> Reading | None:
    """Copies of one card (rami identities, §3.3): at most 4 cards, a wild stands for that card."""
    if len(set(naturals)) != 1 or len(naturals) + len(wilds) > 4:
        return None
    card = naturals[0]
    stand = (card % 13, card // 13)
    for w in wilds:
        if (w.stand is not None and w.stand[0] != stand[0]) or (w.stand and w.stand[1] not in (None, stand[1])):
            return None
    cards = tuple(naturals) + tuple(sorted(w.card for w in wilds))
    return Reading("identity", cards, (stand,) * len(cards))


def _read_set(naturals: list[int], wilds: list[Placed], rules: MeldRules) -> Reading | None:
    ranks = {c % 13 for c in naturals}
    if len(ranks) != 1:
        return None
    r = ranks.pop()
    size = len(naturals) + len(wilds)
    if rules.set_max is not None and size > rules.set_max:
        return None
    suits = [c // 13 for c in naturals]
    if rules.set_distinct_suits and len(set(suits)) != len(suits):
        return None
    fixed: list[int] = []
    for w in wilds:
        if w.stand is not None:
            if w.stand[0] != r:
                return None
            if w.stand[1] is not None:
                fixed.append(w.stand[1])
    if rules.set_distinct_suits:
        if len(set(fixed)) != len(fixed) or set(fixed) & set(suits):
            return None
        missing = [s for s in range(4) if s not in suits and s not in fixed]
    open_wilds = [w for w in wilds if w.stand is None or w.stand[1] is None]
    stands_w: list[Stand] = []
    for w in wilds:
        if not rules.set_distinct_suits:
            stands_w.append((r, None))  # suits may repeat (dummy): a wild's suit means nothing
        elif w.stand is not None and w.stand[1] is not None:
            stands_w.append(w.stand)
        elif rules.set_distinct_suits and len(missing) == 1 and len(open_wilds) == 1:
            stands_w.append((r, missing[0]))  # a fourth card fixes the last suit
        else:
            stands_w.append((r, None))
    nat_sorted = sorted(naturals, key=lambda c: (c // 13, c))
    order = sorted(range(len(wilds)), key=lambda i: (wilds[i].card, 9 if stands_w[i][1] is None else stands_w[i][1]))
    cards = tuple(nat_sorted) + tuple(wilds[i].card for i in order)
    stands = tuple((c % 13, c // 13) for c in nat_sorted) + tuple(stands_w[i] for i in order)
    return Reading("set", cards, stands)


def _read_runs(naturals: list[int], wilds: list[Placed], rules: MeldRules) -> list[Reading]:
    size = len(naturals) + len(wilds)
    if size > rules.run_max:
        return []
    nat_suits = {c // 13 for c in naturals}
    if not rules.run_mixed_suits and len(nat_suits) > 1:
        return []
    run_suit = next(iter(nat_suits)) if not rules.run_mixed_suits else None
    for w in wilds:
        if w.stand is not None and w.stand[1] is not None and not rules.run_mixed_suits and w.stand[1] != run_suit:
            return []
    nat_ranks = [c % 13 for c in naturals]
    if len(set(nat_ranks)) != len(nat_ranks):
        return []
    line, wraps = _line(rules)
    out: list[Reading] = []
    starts = range(13) if wraps else range(line - size + 1)
    if wraps and size == 13:
        starts = range(1)  # a full circle has one reading
    for start in starts:
        window = [(start + i) % 13 for i in range(size)]  # rank at each position (index 13 = ace high)
        pos_of = {rk: i for i, rk in enumerate(window)}
        if len(pos_of) != size:
            continue
        slots: list[int | None] = [None] * size
        ok = True
        for c in naturals:
            i = pos_of.get(c % 13)
            if i is None:
                ok = False
                break
            slots[i] = c
        if not ok:
            continue
        free = [i for i in range(size) if slots[i] is None]
        wild_at: dict[int, Placed] = {}
        loose: list[Placed] = []
        for w in wilds:
            if w.stand is None:
                loose.append(w)
                continue
            i = pos_of.get(w.stand[0])
            if i is None or i in wild_at or slots[i] is not None:
                ok = False
                break
            wild_at[i] = w
        if not ok:
            continue
        rest = [i for i in free if i not in wild_at]
        for i, w in zip(rest, sorted(loose, key=lambda p: p.card), strict=True):
            wild_at[i] = w
        cards: list[int] = []
        stands: list[Stand] = []
        for i in range(size):
            natural = slots[i]
            if natural is not None:
                cards.append(natural)
                stands.append((natural % 13, natural // 13))
            else:
                w = wild_at[i]
                cards.append(w.card)
                stands.append((window[i], run_suit))
        out.append(Reading("run", tuple(cards), tuple(stands)))
    return out


def describe_readings(readings: Sequence[Reading], rules: MeldRules) -> list[str]:
    return [" ".join(r.codes(rules)) for r in readings]


def one_reading(placed: Sequence[Placed], rules: MeldRules, kind: str | None = None) -> Reading:
    """The single reading of a meld, or IllegalMove ``invalid_meld`` / ``ambiguous_wild``."""
    readings = read_meld(placed, rules, kind)
    if not readings:
        text = " ".join(card_code(p.card) for p in placed)
        raise IllegalMove("invalid_meld", f"{text} is not a valid meld (a run or a set)", {"meld": text})
    if len(readings) > 1:
        options = describe_readings(readings, rules)
        raise IllegalMove(
            "ambiguous_wild",
            "the wild card could stand for several cards; say which: " + " or ".join(options),
            {"readings": options},
        )
    return readings[0]


def value_of_stand(stand: Stand) -> int:
    """Rank index helper for scoring what a wild stands for."""
    return stand[0]


def natural_extends(kind: str, stands: Sequence[Stand], card: int, rules: MeldRules) -> bool:
    """Whether natural ``card`` can be laid off on a meld read as ``stands`` (wilds keep what they
    stand for). Equivalent to a full ``read_meld`` of the extended meld, and much faster."""
    r, s = card % 13, card // 13
    n = len(stands)
    if kind == "set":
        if stands[0][0] != r or (rules.set_max is not None and n >= rules.set_max):
            return False
        return not rules.set_distinct_suits or all(st[1] != s for st in stands)
    if kind == "identity":
        return n < 4 and stands[0] == (r, s)
    if n >= rules.run_max:
        return False
    if not rules.run_mixed_suits and stands[0][1] is not None and stands[0][1] != s:
        suit = next((st[1] for st in stands if st[1] is not None), None)
        if suit != s:
            return False
    first, last = stands[0][0], stands[-1][0]
    if rules.ace_mode == "round_the_corner":
        return r in ((last + 1) % 13, (first - 1) % 13) and n < 13
    top = 13 if last == 0 and n > 1 else last  # an ace after a king sits high
    if top + 1 <= (13 if rules.ace_mode == "high_low" else 12) and r == (top + 1) % 13:
        return True
    return first >= 1 and r == first - 1
