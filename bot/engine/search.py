"""Exhaustive meld search for single-deck hands without wild cards (rules.md §0.4 "Meld search", §2).

What it is: the solver behind gin deadwood, the knocker's choice of arrangement and the defender's
layoffs. A hand is a 52-bit int mask (bit ``suit * 13 + rank`` set = card held, suits S H D C =
0..3, ranks A..K = 0..12); a meld is the mask of its cards. Every answer is exact: the search
looks at every partition of the hand into melds and deadwood (never a greedy choice, see EC-01).

What it is not: it knows no jokers or wild cards, no multi-deck duplicates, no table rules
(opening minimums, melds per turn) and no turn order. Callers pass naturals of one deck only.

How it is fast. ``min_deadwood`` enumerates the set choices (for each rank held 3 or 4 times:
no set, the 4-set, or one of the 3-subsets) and, for each choice, adds the exact best run
coverage of each suit's remaining 13-bit mask, read from a table of all 8,192 suit masks built
once per (ace mode, card values). Runs never cross suits, so this covers every partition. Results
are memoised in a bounded dict per configuration (cleared when it reaches ``CACHE_LIMIT`` entries).

Ace modes (``ACE_MODES``): ``low`` (A-2-3, not Q-K-A), ``high_low`` (also Q-K-A, never K-A-2),
``round_the_corner`` (any wrap such as K-A-2; a run has at most 13 cards).

>>> min_deadwood(mask_of([15, 16, 17, 4, 30, 43, 44, 45, 26, 1]))  # EC-01 after discarding KD
10
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

__all__ = [
    "ACE_MODES",
    "CACHE_LIMIT",
    "HIGH_VALUES",
    "LOW_VALUES",
    "arrangements",
    "best_layoffs",
    "best_melds",
    "can_lay_off",
    "candidate_melds",
    "cards_of",
    "clear_cache",
    "mask_of",
    "meld_kind",
    "min_deadwood",
]

ACE_MODES = ("low", "high_low", "round_the_corner")
LOW_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Gin / basic low: A = 1, 2..9 pip, T J Q K = 10."""
HIGH_VALUES: tuple[int, ...] = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Basic ``high_low`` / ``round_the_corner``: A = 15."""
CACHE_LIMIT = 200_000
"""A configuration's memo dict is cleared when it reaches this many entries."""

_SUIT = 0x1FFF  # the 13 rank bits of one suit


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some cards (0..51); duplicates collapse."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- meld tables -------------------------------------------------------------------------------


def _rank_runs(ace_mode: str) -> tuple[int, ...]:
    """Every valid run of one suit as a 13-bit rank mask."""
    runs: set[int] = set()
    if ace_mode == "low":
        for start in range(13):
            for end in range(start + 3, 14):
                runs.add(((1 << (end - start)) - 1) << start)
    elif ace_mode == "high_low":
        # positions 0..13, where 13 is the ace again (Q-K-A); a window never holds both aces.
        for start in range(14):
            for end in range(start + 3, min(start + 13, 14) + 1):
                runs.add(sum(1 << (p % 13) for p in range(start, end)))
    elif ace_mode == "round_the_corner":
        for start in range(13):
            for length in range(3, 14):
                runs.add(sum(1 << ((start + i) % 13) for i in range(length)))
    else:
        raise ValueError(f"unknown ace_mode {ace_mode!r}; expected one of {ACE_MODES}")
    return tuple(sorted(runs))


def _set_melds() -> tuple[int, ...]:
    out: list[int] = []
    for rank in range(13):
        cards = [suit * 13 + rank for suit in range(4)]
        for size in (3, 4):
            out.extend(mask_of(combo) for combo in combinations(cards, size))
    return tuple(sorted(out))


_SETS: tuple[int, ...] = _set_melds()
_SET_MASKS: frozenset[int] = frozenset(_SETS)


class _Mode:
    """Meld tables of one ace mode (independent of card values)."""

    __slots__ = ("by_low", "melds", "rank_runs", "runs", "valid")

    def __init__(self, ace_mode: str) -> None:
        self.rank_runs = _rank_runs(ace_mode)
        self.runs: frozenset[int] = frozenset(r << (13 * s) for s in range(4) for r in self.rank_runs)
        self.melds: tuple[int, ...] = tuple(sorted(self.runs | _SET_MASKS))
        self.valid: frozenset[int] = self.runs | _SET_MASKS
        by_low: list[list[int]] = [[] for _ in range(52)]
        for meld in self.melds:
            by_low[(meld & -meld).bit_length() - 1].append(meld)
        self.by_low: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in by_low)


_MODES: dict[str, _Mode] = {}


def _mode(ace_mode: str) -> _Mode:
    mode = _MODES.get(ace_mode)
    if mode is None:
        if ace_mode not in ACE_MODES:
            raise ValueError(f"unknown ace_mode {ace_mode!r}; expected one of {ACE_MODES}")
        mode = _MODES[ace_mode] = _Mode(ace_mode)
    return mode


def _suit_deadwood_table(rank_runs: tuple[int, ...], values: tuple[int, ...]) -> list[int]:
    """``table[m]`` = least deadwood of the 13-bit suit mask ``m`` using runs only (exact DP)."""
    by_low: list[list[int]] = [[] for _ in range(13)]
    for run in rank_runs:
        by_low[(run & -run).bit_length() - 1].append(run)
    table = [0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        bit = low.bit_length() - 1
        best = values[bit] + table[m ^ low]  # the lowest card stays deadwood ...
        for run in by_low[bit]:  # ... or starts a run (every run holding it has it lowest)
            if run & m == run:
                rest = table[m ^ run]
                if rest < best:
                    best = rest
        table[m] = best
    return table


class _Config:
    """Per (ace mode, values): the suit table, the card values by card and the memo dict."""

    __slots__ = ("cache", "card_values", "mode", "positive", "suit_values", "table", "values")

    def __init__(self, ace_mode: str, values: tuple[int, ...]) -> None:
        if len(values) != 13 or not all(isinstance(v, int) for v in values):
            raise ValueError("values must be a tuple of 13 ints indexed by rank (A..K)")
        self.mode = _mode(ace_mode)
        self.values = values
        self.table = _suit_deadwood_table(self.mode.rank_runs, values)
        self.card_values = tuple(values[c % 13] for c in range(52))
        self.suit_values = [sum(values[r] for r in range(13) if m >> r & 1) for m in range(1 << 13)]
        self.positive = all(v > 0 for v in values)  # then every meld strictly lowers deadwood
        self.cache: dict[int, int] = {}


# Configurations by content, and a fast front door by the identity of the values tuple (hashing a
# 13-tuple on every call would cost as much as the search itself). Each _BY_ID entry keeps its tuple
# alive, so an id is never reused while its entry exists; _BY_ID is bounded for callers that keep
# making fresh tuples. The default tuple skips even that look-up.
_CONTENT: dict[tuple[str, tuple[int, ...]], _Config] = {}
_BY_ID: dict[int, tuple[tuple[int, ...], dict[str, _Config]]] = {}
_LOW_CONFIGS: dict[str, _Config] = {}


def _config(ace_mode: str, values: tuple[int, ...]) -> _Config:
    """The configuration for (ace_mode, values), built on first use; raises on bad arguments."""
    if values is LOW_VALUES:
        configs = _LOW_CONFIGS
    else:
        entry = _BY_ID.get(id(values))
        if entry is not None and entry[0] is values:
            configs = entry[1]
        else:
            if not isinstance(values, tuple):
                raise TypeError("values must be a tuple of 13 ints indexed by rank (A..K)")
            if len(_BY_ID) >= 256:
                _BY_ID.clear()
            configs = {}
            _BY_ID[id(values)] = (values, configs)
    config = configs.get(ace_mode)
    if config is None:
        config = _CONTENT.get((ace_mode, values))
        if config is None:
            config = _CONTENT[ace_mode, values] = _Config(ace_mode, values)
        configs[ace_mode] = config
    return config


def clear_cache() -> None:
    """Empty every memo dict (the tables stay). Benchmarks use it to time uncached searches."""
    for config in _CONTENT.values():
        config.cache.clear()


# --- deadwood ----------------------------------------------------------------------------------


def min_deadwood(mask: int, ace_mode: str = "low", values: tuple[int, ...] = LOW_VALUES) -> int:
    """Least deadwood value over every partition of the hand into disjoint melds and deadwood."""
    config = _LOW_CONFIGS.get(ace_mode) if values is LOW_VALUES else None
    if config is None:
        config = _config(ace_mode, values)
    cache = config.cache
    result = cache.get(mask)
    if result is not None:
        return result
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    table = config.table
    triples = (a & b & (c | d)) | (c & d & (a | b))  # ranks held at least 3 times
    result = _with_sets(table, a, b, c, d, triples) if triples else table[a] + table[b] + table[c] + table[d]
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[mask] = result
    return result


def meldable_cards(mask: int) -> int:
    """Mask of the cards of ``mask`` that belong to at least one candidate meld (ace low)."""
    covered = 0
    for shift in (0, 13, 26, 39):
        m = (mask >> shift) & _SUIT
        starts = m & (m >> 1) & (m >> 2)  # lowest card of every three-card run
        covered |= (starts | starts << 1 | starts << 2) << shift
    a, b, c, d = mask & _SUIT, (mask >> 13) & _SUIT, (mask >> 26) & _SUIT, (mask >> 39) & _SUIT
    triples = (a & b & (c | d)) | (c & d & (a | b))
    return covered | (mask & (triples | triples << 13 | triples << 26 | triples << 39))


def deadwood_after_each_discard(
    mask: int, ace_mode: str = "low", values: tuple[int, ...] = LOW_VALUES
) -> list[tuple[int, int]]:
    """``(deadwood, card)`` for each card of ``mask``: what discarding it leaves (rules.md §2.3).

    A card in no candidate meld is deadwood in every partition, so discarding it lowers the least
    deadwood by exactly its value; only meldable cards need a search of their own.
    """
    out: list[tuple[int, int]] = []
    if ace_mode != "low":
        for card in cards_of(mask):
            out.append((min_deadwood(mask ^ (1 << card), ace_mode, values), card))
        return out
    base = min_deadwood(mask, ace_mode, values)
    meldable = meldable_cards(mask)
    card_values = _config(ace_mode, values).card_values
    m = mask
    while m:
        low = m & -m
        card = low.bit_length() - 1
        out.append((min_deadwood(mask ^ low, ace_mode, values) if low & meldable else base - card_values[card], card))
        m ^= low
    return out


def _with_sets(table: list[int], a: int, b: int, c: int, d: int, triples: int) -> int:
    """Least deadwood trying every set choice on the ranks in ``triples`` (suit masks a, b, c, d).

    For the lowest such rank: no set, the whole rank as one set (3 or 4 cards), or, with 4 held,
    each 3-subset; the other ranks recurse; runs fill the rest exactly from the suit table.
    """
    bit = triples & -triples
    rest = triples ^ bit
    keep = ~bit
    a2, b2, c2, d2 = a & keep, b & keep, c & keep, d & keep
    if rest:
        best = _with_sets(table, a, b, c, d, rest)
        options = [_with_sets(table, a2, b2, c2, d2, rest)]
        if a & b & c & d & bit:
            options += (
                _with_sets(table, a, b2, c2, d2, rest),
                _with_sets(table, a2, b, c2, d2, rest),
                _with_sets(table, a2, b2, c, d2, rest),
                _with_sets(table, a2, b2, c2, d, rest),
            )
        return min(best, *options)
    best = table[a] + table[b] + table[c] + table[d]
    whole = table[a2] + table[b2] + table[c2] + table[d2]
    if whole < best:
        best = whole
    if a & b & c & d & bit:
        best = min(
            best,
            table[a] + table[b2] + table[c2] + table[d2],
            table[a2] + table[b] + table[c2] + table[d2],
            table[a2] + table[b2] + table[c] + table[d2],
            table[a2] + table[b2] + table[c2] + table[d],
        )
    return best


# --- melds -------------------------------------------------------------------------------------


def candidate_melds(mask: int, ace_mode: str = "low") -> tuple[int, ...]:
    """Every valid meld inside the hand, ascending: all runs (and sub-runs) of 3+ cards, all sets."""
    by_low = _mode(ace_mode).by_low
    out = []
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        for meld in by_low[low.bit_length() - 1]:
            if meld & mask == meld:
                out.append(meld)
    out.sort()
    return tuple(out)


def meld_kind(meld: int, ace_mode: str = "low") -> str | None:
    """``"run"``, ``"set"``, or None when the mask is no valid meld in that ace mode."""
    if meld in _SET_MASKS:
        return "set"
    if meld in _mode(ace_mode).runs:
        return "run"
    return None


def can_lay_off(card: int, meld: int, ace_mode: str = "low") -> bool:
    """Whether ``card`` extends the valid meld ``meld`` (a run end or a set's fourth card)."""
    bit = 1 << card
    valid = _mode(ace_mode).valid
    return not meld & bit and meld in valid and (meld | bit) in valid


def _search(
    mask: int, bound: int, config: _Config, ace_mode: str, values: tuple[int, ...]
) -> Iterator[tuple[int, list[int]]]:
    """Yield (deadwood, chosen melds) for every disjoint meld family with deadwood <= bound.

    Cards are decided lowest first: the lowest undecided card is deadwood or starts one of the melds
    having it as lowest card, so each family is reached exactly once. A branch is entered only when
    its deadwood so far plus the exact ``min_deadwood`` of the undecided cards fits the bound, so
    every leaf reached is an answer.
    """
    by_low = config.mode.by_low
    card_values = config.card_values
    suit_values = config.suit_values
    positive = config.positive
    chosen: list[int] = []

    def walk(rest: int, dead: int) -> Iterator[tuple[int, list[int]]]:
        if positive:  # no meld lowers the deadwood of ``rest``: it holds no meld at all
            total = (
                suit_values[rest & _SUIT]
                + suit_values[(rest >> 13) & _SUIT]
                + suit_values[(rest >> 26) & _SUIT]
                + suit_values[(rest >> 39) & _SUIT]
            )
            if min_deadwood(rest, ace_mode, values) == total:
                yield dead + total, chosen
                return
        elif not rest:
            yield dead, chosen
            return
        low = rest & -rest
        card = low.bit_length() - 1
        after = rest ^ low
        dead_here = dead + card_values[card]
        if dead_here + min_deadwood(after, ace_mode, values) <= bound:
            yield from walk(after, dead_here)
        for meld in by_low[card]:
            if meld & rest == meld:
                after = rest ^ meld
                if dead + min_deadwood(after, ace_mode, values) <= bound:
                    chosen.append(meld)
                    yield from walk(after, dead)
                    chosen.pop()

    if min_deadwood(mask, ace_mode, values) <= bound:
        yield from walk(mask, 0)


def arrangements(
    mask: int, max_deadwood: int, ace_mode: str = "low", values: tuple[int, ...] = LOW_VALUES
) -> list[tuple[int, tuple[int, ...]]]:
    """Every set of pairwise-disjoint valid melds in the hand whose deadwood is <= ``max_deadwood``.

    Each entry is ``(deadwood, melds ascending)``; the empty set is included when it qualifies. No
    duplicates; the list is sorted by deadwood, then melds. The gin knocker chooses among these.
    """
    config = _config(ace_mode, values)
    found = [(dead, tuple(sorted(melds))) for dead, melds in _search(mask, max_deadwood, config, ace_mode, values)]
    found.sort()
    return found


def best_melds(mask: int, ace_mode: str = "low", values: tuple[int, ...] = LOW_VALUES) -> tuple[int, tuple[int, ...]]:
    """``(deadwood, melds)`` of one optimal partition, melds ascending.

    Tie-break among partitions of equal (least) deadwood: the one whose ascending tuple of meld
    masks compares lowest (Python tuple order), so the result is deterministic.
    """
    config = _config(ace_mode, values)
    best = min_deadwood(mask, ace_mode, values)
    melds = min(tuple(sorted(m)) for _, m in _search(mask, best, config, ace_mode, values))
    return best, melds


# --- layoffs -----------------------------------------------------------------------------------


def _layoff_options(card_pool: int, meld: int, valid: frozenset[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every set of pool cards that can be laid off on ``meld`` (chains included), with a valid order.

    Breadth-first over the grown meld: from each reachable meld, any pool card that keeps it valid.
    Cards are tried ascending, so each set's order is the first one found, deterministically.
    """
    order: dict[int, tuple[int, ...]] = {meld: ()}
    frontier = [meld]
    while frontier:
        grown = []
        for current in frontier:
            for card in cards_of(card_pool & ~current):
                bigger = current | (1 << card)
                if bigger not in order and bigger in valid:
                    order[bigger] = (*order[current], card)
                    grown.append(bigger)
        frontier = grown
    return [(grown ^ meld, cards) for grown, cards in order.items()]


def best_layoffs(
    defender: int,
    knocker_melds: tuple[int, ...],
    ace_mode: str = "low",
    values: tuple[int, ...] = LOW_VALUES,
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The gin defender's best layoffs onto the knocker's melds, by exhaustive search.

    Every combination of layable card sets (one per knocker meld, pairwise disjoint, chains
    included) is tried, and what stays in hand is scored by ``min_deadwood``, so the defender
    may break their own melds. Returns ``(deadwood left, ((card, meld_index), ...))`` in a valid
    order (meld by meld, each meld's cards in the order they can be laid). Among optimal
    solutions: fewest layoffs first, then the lowest sequence of (card, meld_index) pairs.
    """
    mode = _mode(ace_mode)
    seen = 0
    for meld in knocker_melds:
        if meld not in mode.valid:
            raise ValueError(f"knocker meld {cards_of(meld)} is not a valid meld in {ace_mode}")
        if meld & (seen | defender):
            raise ValueError("knocker melds must be disjoint from each other and from the defender's hand")
        seen |= meld
    options = [_layoff_options(defender, meld, mode.valid) for meld in knocker_melds]
    best: tuple[int, int, tuple[tuple[int, int], ...]] | None = None
    steps: list[tuple[int, int]] = []

    def walk(index: int, used: int) -> None:
        nonlocal best
        if index == len(options):
            key = (min_deadwood(defender & ~used, ace_mode, values), len(steps), tuple(steps))
            if best is None or key < best:
                best = key
            return
        for cards_mask, order in options[index]:
            if not cards_mask & used:
                steps.extend((card, index) for card in order)
                walk(index + 1, used | cards_mask)
                del steps[len(steps) - len(order) :]

    walk(0, 0)
    assert best is not None
    return best[0], best[2]
