"""bot.engine.search: rules.md §7.1 figures, and a cross-check against a brute-force reference.

The reference below shares no code with the module: it tests meld validity on card lists, lists
melds as subsets of the hand, enumerates every family of disjoint melds, and explores every
sequence of single-card layoffs.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.search import (
    ACE_MODES,
    HIGH_VALUES,
    LOW_VALUES,
    arrangements,
    best_layoffs,
    best_melds,
    can_lay_off,
    candidate_melds,
    cards_of,
    clear_cache,
    mask_of,
    meld_kind,
    min_deadwood,
)

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def card(code: str) -> int:
    """``"TH"`` -> 1 * 13 + 9."""
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def hand(codes: str) -> int:
    return mask_of(card(c) for c in codes.split())


def show(mask: int) -> str:
    return " ".join(RANKS[c % 13] + SUITS[c // 13] for c in cards_of(mask))


# --- brute-force reference ---------------------------------------------------------------------


def ref_is_meld(cards: tuple[int, ...] | list[int], mode: str) -> bool:
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    ranks = sorted(c % 13 for c in cards)
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({c // 13 for c in cards}) != 1 or len(set(ranks)) != len(ranks):
        return False

    def consecutive(seq: list[int]) -> bool:
        return all(b == a + 1 for a, b in pairwise(seq))

    if consecutive(ranks):
        return True
    if mode == "high_low":
        return consecutive(sorted(13 if r == 0 else r for r in ranks))
    if mode == "round_the_corner":
        return any(consecutive(sorted((r - k) % 13 for r in ranks)) for k in range(13))
    return False


@cache
def ref_candidates(cards: tuple[int, ...], mode: str) -> tuple[int, ...]:
    return tuple(
        sorted(
            mask_of(sub)
            for size in range(3, len(cards) + 1)
            for sub in combinations(cards, size)
            if ref_is_meld(sub, mode)
        )
    )


def value_of(mask: int, values: tuple[int, ...]) -> int:
    return sum(values[c % 13] for c in cards_of(mask))


@cache
def ref_families(hand_mask: int, mode: str, values: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every family of pairwise-disjoint melds: (deadwood, melds ascending)."""
    melds = ref_candidates(tuple(cards_of(hand_mask)), mode)
    out = []

    def walk(start: int, used: int, chosen: tuple[int, ...]) -> None:
        out.append((value_of(hand_mask & ~used, values), chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], (*chosen, melds[i]))

    walk(0, 0, ())
    return tuple(sorted(out))


def ref_min_deadwood(hand_mask: int, mode: str, values: tuple[int, ...]) -> int:
    return min(d for d, _ in ref_families(hand_mask, mode, values))


def ref_layoffs(defender: int, melds: tuple[int, ...], mode: str, values: tuple[int, ...]) -> tuple[int, int]:
    """(least deadwood, fewest layoffs reaching it) over every sequence of single-card layoffs."""
    start = (defender, melds)
    depth = {start: 0}
    frontier = [start]
    while frontier:
        grown = []
        for rest, table in frontier:
            for c in cards_of(rest):
                for i, meld in enumerate(table):
                    if ref_is_meld(cards_of(meld | 1 << c), mode):
                        state = (rest & ~(1 << c), (*table[:i], meld | 1 << c, *table[i + 1 :]))
                        if state not in depth:
                            depth[state] = depth[rest, table] + 1
                            grown.append(state)
        frontier = grown
    return min((ref_min_deadwood(rest, mode, values), n) for (rest, _), n in depth.items())


# --- strategies --------------------------------------------------------------------------------

modes = st.sampled_from(ACE_MODES)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 11) -> int:
    """Uniform hands, or dense ones (a few adjacent ranks, wrapping past K) full of melds."""
    if draw(st.booleans()):
        return mask_of(draw(st.lists(st.integers(0, 51), max_size=max_size, unique=True)))
    low = draw(st.integers(0, 12))
    width = draw(st.integers(3, 6))
    pool = [s * 13 + (low + i) % 13 for s in range(4) for i in range(width)]
    return mask_of(draw(st.lists(st.sampled_from(pool), max_size=max_size, unique=True)))


def all_melds(mode: str) -> list[int]:
    runs = {
        mask_of(s * 13 + (start + i) % 13 for i in range(length))
        for s in range(4)
        for start in range(13)
        for length in range(3, 14)
    }
    sets = {mask_of(c) for r in range(13) for n in (3, 4) for c in combinations([s * 13 + r for s in range(4)], n)}
    return sorted(m for m in runs | sets if ref_is_meld(cards_of(m), mode))


ALL_MELDS = {mode: all_melds(mode) for mode in ACE_MODES}


@st.composite
def knocks(draw: st.DrawFn) -> tuple[str, tuple[int, ...], int]:
    """(mode, knocker melds, defender hand), the defender often holding cards next to the melds."""
    mode = draw(modes)
    melds: list[int] = []
    used = 0
    for meld in draw(st.lists(st.sampled_from(ALL_MELDS[mode]), min_size=1, max_size=3)):
        if not meld & used:
            melds.append(meld)
            used |= meld
    rest = [c for c in range(52) if not used >> c & 1]
    near = [
        c
        for c in rest
        if any(c // 13 == m // 13 and min((c - m) % 13, (m - c) % 13) <= 3 for m in cards_of(used))
        or any(c % 13 == m % 13 for m in cards_of(used))
    ]
    chosen = set(draw(st.lists(st.sampled_from(near), max_size=8, unique=True))) if near else set()
    chosen |= set(draw(st.lists(st.sampled_from(rest), max_size=11 - len(chosen), unique=True)))
    return mode, tuple(melds), mask_of(sorted(chosen)[:11])


# --- rules.md §7.1 -----------------------------------------------------------------------------


def test_ec01_non_obvious_split_allows_the_knock():
    eleven = hand("3H 4H 5H 5S 5D 5C 6C 7C AD 2S KD")
    ten = eleven & ~hand("KD")
    assert min_deadwood(ten) == 10
    assert best_melds(ten) == (10, tuple(sorted((hand("5H 5S 5D"), hand("5C 6C 7C")))))
    # the greedy splits named in rules.md are all worse
    assert arrangements(ten, 10) == [(10, tuple(sorted((hand("5H 5S 5D"), hand("5C 6C 7C")))))]
    assert (23, (hand("5S 5H 5D 5C"),)) in arrangements(ten, 23)
    assert (13, tuple(sorted((hand("3H 4H 5H"), hand("5C 6C 7C"))))) in arrangements(ten, 13)
    assert (16, tuple(sorted((hand("3H 4H 5H"), hand("5S 5D 5C"))))) in arrangements(ten, 16)
    # KD is the (only) discard that makes the hand knockable
    by_discard = {show(1 << c): min_deadwood(eleven & ~(1 << c)) for c in cards_of(eleven)}
    assert by_discard["KD"] == 10
    assert min(by_discard.values()) == 10


def test_ec10_ace_is_low_only_in_gin():
    ten = hand("QS KS AS 2H 2D 2C 7H 8H 9H TD")
    assert min_deadwood(ten) == 31
    assert best_melds(ten) == (31, tuple(sorted((hand("2H 2D 2C"), hand("7H 8H 9H")))))
    assert meld_kind(hand("QS KS AS")) is None
    assert meld_kind(hand("QS KS AS"), "high_low") == "run"
    assert meld_kind(hand("QS KS AS"), "round_the_corner") == "run"
    assert meld_kind(hand("KS AS 2S")) is None
    assert meld_kind(hand("KS AS 2S"), "high_low") is None
    assert meld_kind(hand("KS AS 2S"), "round_the_corner") == "run"
    for mode in ACE_MODES:
        assert meld_kind(hand("AS 2S 3S"), mode) == "run"
    assert hand("QS KS AS") not in candidate_melds(ten)
    assert hand("QS KS AS") in candidate_melds(ten, "high_low")
    # high_low (ace 15): Q-K-A melds too, only TD stays
    assert min_deadwood(ten, "high_low", HIGH_VALUES) == 10


def test_ec03_defender_lays_off_and_undercuts():
    knocker = (hand("AS 2S 3S"), hand("8H 8D 8C"), hand("KS KH KC"))
    defender = hand("4S 5H 5D 5C TD JD QD 8S 3C 4C")
    assert best_layoffs(defender, knocker) == (7, ((card("4S"), 0), (card("8S"), 1)))


def test_ec07_layoff_against_gin():
    knocker = (hand("2S 3S 4S 5S 6S 7S 8S"), hand("JH QH KH"))
    defender = hand("9S TS JS QS KS AC 2C 3C 8H TH")
    # 9S..KS could all chain onto the spade run, but keeping them as a meld needs fewer layoffs
    assert best_layoffs(defender, knocker) == (8, ((card("TH"), 1),))
    assert min_deadwood(defender) == 18  # layoff_on_gin = false


def test_ec08_gin_is_never_undercut():
    knocker = (hand("AS 2S 3S"), hand("4H 5H 6H"), hand("9C 9D 9S 9H"))
    defender = hand("4S 5S 6S 7H KC KD KS TC JC QC")
    assert best_layoffs(defender, knocker) == (0, ((card("7H"), 1),))
    assert min_deadwood(defender) == 7


def test_layoffs_chain_in_order_and_may_break_own_melds():
    # the defender breaks their own run AH 2H 3H: 3H then 2H chain onto 4H 5H 6H and the aces make
    # a set, leaving QD QC = 20 (keeping the run leaves AS AD QD QC = 22)
    defender = hand("AH 2H 3H AS AD QD QC")
    assert min_deadwood(defender) == 22
    assert best_layoffs(defender, (hand("4H 5H 6H"),)) == (20, ((card("3H"), 0), (card("2H"), 0)))
    # both ends of a run, the far card only after the near one
    dw, steps = best_layoffs(hand("2C 3C 7C 8C KD"), (hand("4C 5C 6C"),))
    assert dw == 10
    laid = [c for c, _ in steps]
    assert laid.index(card("3C")) < laid.index(card("2C"))
    assert laid.index(card("7C")) < laid.index(card("8C"))
    assert best_layoffs(0, (hand("4C 5C 6C"),)) == (0, ())


def test_can_lay_off():
    run = hand("4C 5C 6C")
    assert can_lay_off(card("3C"), run) and can_lay_off(card("7C"), run)
    assert not can_lay_off(card("8C"), run) and not can_lay_off(card("5C"), run)
    assert can_lay_off(card("7D"), hand("7S 7H 7C"))
    assert not can_lay_off(card("7D"), hand("7S 7H 7C 7D"))
    assert not can_lay_off(card("AS"), hand("JS QS KS"))
    assert can_lay_off(card("AS"), hand("JS QS KS"), "high_low")
    assert not can_lay_off(card("2S"), hand("QS KS AS"), "high_low")
    assert can_lay_off(card("2S"), hand("QS KS AS"), "round_the_corner")
    assert not can_lay_off(card("9S"), hand("2S 3S"))  # not a meld to begin with


def test_helpers_and_bad_arguments():
    assert cards_of(mask_of([51, 0, 13, 0])) == [0, 13, 51]
    assert card("TH") == 22
    assert min_deadwood(0) == 0
    assert arrangements(0, 0) == [(0, ())]
    assert arrangements(hand("KS"), 9) == []
    with pytest.raises(ValueError):
        min_deadwood(hand("AS"), "sideways")
    with pytest.raises(ValueError):
        best_layoffs(hand("AS"), (hand("2S 3S"),))
    # an equal values tuple that is a different object gives the same answers
    own = tuple(list(LOW_VALUES))
    assert own is not LOW_VALUES
    assert min_deadwood(hand("QS KS AS 2H 2D 2C 7H 8H 9H TD"), "low", own) == 31
    clear_cache()
    assert min_deadwood(hand("QS KS AS 2H 2D 2C 7H 8H 9H TD")) == 31


def test_meld_counts():
    # runs: 66 a suit ace-low; +11 with Q-K-A-style high windows; 132 + 1 cyclic; sets: 13 * 5
    assert len(candidate_melds((1 << 52) - 1)) == 4 * 66 + 65
    assert len(candidate_melds((1 << 52) - 1, "high_low")) == 4 * 76 + 65
    assert len(candidate_melds((1 << 52) - 1, "round_the_corner")) == 4 * 131 + 65
    for mode in ACE_MODES:
        assert list(candidate_melds((1 << 52) - 1, mode)) == ALL_MELDS[mode]


# --- cross-check against the reference ----------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(hands(), modes, st.booleans())
def test_min_deadwood_and_best_melds_match_brute_force(mask, mode, high):
    values = HIGH_VALUES if high else LOW_VALUES
    families = ref_families(mask, mode, values)
    best = min(d for d, _ in families)
    assert candidate_melds(mask, mode) == ref_candidates(tuple(cards_of(mask)), mode)
    assert min_deadwood(mask, mode, values) == best
    assert best_melds(mask, mode, values) == min((d, m) for d, m in families if d == best)
    clear_cache()
    assert min_deadwood(mask, mode, values) == best


@settings(max_examples=300, deadline=None)
@given(hands(), modes, st.integers(-1, 60))
def test_arrangements_match_brute_force(mask, mode, limit):
    expected = [f for f in ref_families(mask, mode, LOW_VALUES) if f[0] <= limit]
    assert arrangements(mask, limit, mode) == expected


@settings(max_examples=300, deadline=None)
@given(knocks(), st.booleans())
def test_best_layoffs_match_brute_force(knock, high):
    mode, melds, defender = knock
    values = HIGH_VALUES if high else LOW_VALUES
    dw, steps = best_layoffs(defender, melds, mode, values)
    assert (dw, len(steps)) == ref_layoffs(defender, melds, mode, values)
    # the sequence replays legally and leaves that deadwood
    table = list(melds)
    rest = defender
    for c, i in steps:
        assert rest >> c & 1
        assert ref_is_meld(cards_of(table[i] | 1 << c), mode)
        assert can_lay_off(c, table[i], mode)
        table[i] |= 1 << c
        rest &= ~(1 << c)
    assert ref_min_deadwood(rest, mode, values) == dw


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 51), st.sampled_from(sorted({m for ms in ALL_MELDS.values() for m in ms})), modes)
def test_can_lay_off_and_meld_kind_match_reference(c, meld, mode):
    valid = ref_is_meld(cards_of(meld), mode)
    assert (meld_kind(meld, mode) is not None) == valid
    expected = valid and not meld >> c & 1 and ref_is_meld(cards_of(meld | 1 << c), mode)
    assert can_lay_off(c, meld, mode) == expected
