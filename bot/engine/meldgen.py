"""Melds that can be made from a hand with several decks and wild cards, for ``legal_moves``.

``hand_meld_candidates`` lists every distinct meld *shape* a multiset of cards allows under a
``MeldRules`` (which wild card fills a gap is chosen in a fixed order, since equal wilds are
interchangeable); ``combos_reaching`` and ``combos_matching`` put candidates together into
multi-meld moves (an opening, a contract). The single-deck, wild-free exact search used for
deadwood is ``search.py``; this module does not score anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from .cards import JOKER
from .melds import MeldRules, Placed, Reading, Stand, read_meld

MAX_COMBOS = 200


def _wild_order(cards: Iterable[int], rules: MeldRules) -> list[int]:
    """The wild cards of a hand in the order they are used: jokers first, then twos by suit."""
    return sorted((c for c in cards if rules.is_wild(c)), key=lambda c: (c != JOKER, c))


def hand_meld_candidates(cards: Sequence[int], rules: MeldRules, must: int | None = None) -> list[Reading]:
    """Every meld (one canonical reading each) makeable from the multiset ``cards``."""
    counts = Counter(c for c in cards if not rules.is_wild(c))
    wilds = _wild_order(cards, rules)
    max_w = len(wilds) if rules.max_wilds is None else min(rules.max_wilds, len(wilds))
    out: dict[tuple[str, tuple[int, ...], tuple[Stand, ...]], Reading] = {}

    def add(placed: list[Placed], kind: str) -> None:
        for r in read_meld(placed, rules, kind):
            keep(r)

    def keep(r: Reading) -> None:
        key = (r.kind, r.cards, r.stands)
        if key not in out and (must is None or must in r.cards):
            out[key] = r

    def add_run(placed: list[Placed], start: int, suit: int | None) -> None:
        """A window's run needs no reading: its order and every card's stand are the window's."""
        stands = tuple(
            ((start + i) % 13, suit) if rules.is_wild(p.card) else (p.card % 13, p.card // 13)
            for i, p in enumerate(placed)
        )
        keep(Reading("run", tuple(p.card for p in placed), stands))

    # Sets: naturals of one rank (distinct suits, or any copies where suits may repeat) plus wilds.
    by_rank: dict[int, list[int]] = {}
    for c in sorted(counts):
        by_rank.setdefault(c % 13, []).extend([c] * counts[c])
    for r, nat in by_rank.items():
        pools: list[list[int]] = []
        if rules.set_distinct_suits:
            suits = sorted({c for c in nat})
            for mask in range(1, 1 << len(suits)):
                pools.append([suits[i] for i in range(len(suits)) if mask >> i & 1])
        else:
            pools = [nat[:k] for k in range(1, len(nat) + 1)]
        for pool in pools:
            if len(pool) < rules.min_natural:
                continue
            for w in range(0, max_w + 1):
                size = len(pool) + w
                if size < 3 or (rules.set_max is not None and size > rules.set_max):
                    continue
                add([Placed(c) for c in pool] + [Placed(x, (r, None)) for x in wilds[:w]], "set")
    # Runs: a window of consecutive ranks, naturals where the hand has them, wilds in the gaps.
    line = 14 if rules.ace_mode == "high_low" else 13
    wraps = rules.ace_mode == "round_the_corner"
    suit_groups: list[tuple[int | None, dict[int, int]]] = []
    if rules.run_mixed_suits:
        rep: dict[int, int] = {}
        for c in sorted(counts):
            rep.setdefault(c % 13, c)
        suit_groups.append((None, rep))
    else:
        for s in range(4):
            rep = {c % 13: c for c in counts if c // 13 == s}
            if rep:
                suit_groups.append((s, rep))
    for suit, rep in suit_groups:
        for start in range(13 if wraps else line):
            placed: list[Placed] = []
            gaps = 0
            for length in range(1, rules.run_max + 1):
                if not wraps and start + length > line:
                    break
                rk = (start + length - 1) % 13
                if length > 13:
                    break
                if rk in rep:
                    placed.append(Placed(rep[rk]))
                else:
                    gaps += 1
                    if gaps > max_w:  # gaps only grow as the window does
                        break
                    placed.append(Placed(wilds[gaps - 1], (rk, suit)))
                if length >= 3 and length - gaps >= rules.min_natural:
                    add_run(placed, start, suit)
                    # The same run with wilds in place of naturals (kept in hand) is legal too: every
                    # choice while a hand holds few wilds, one at a time beyond that (dummy).
                    spare = max_w - gaps
                    naturals_at = [i for i, p in enumerate(placed) if not rules.is_wild(p.card)]
                    for k in range(1, (spare if len(wilds) <= 3 else min(spare, 1)) + 1):
                        if len(naturals_at) - k < max(rules.min_natural, 1):
                            break
                        for chosen in combinations(naturals_at, k):
                            alt = list(placed)
                            for j, i in enumerate(chosen):
                                alt[i] = Placed(wilds[gaps + j], ((start + i) % 13, suit))
                            add_run(alt, start, suit)
    # Identities (rami §3.11): copies of one card, with at most the allowed wilds.
    if rules.identities:
        for c, n in counts.items():
            for k in range(2, min(n, 4) + 1):
                for w in range(0, max_w + 1):
                    if 3 <= k + w <= 4:
                        add([Placed(c)] * k + [Placed(x, (c % 13, c // 13)) for x in wilds[:w]], "identity")
    return list(out.values())


def _fits(have: Counter[int], reading: Reading) -> bool:
    need = Counter(reading.cards)
    return all(have[c] >= n for c, n in need.items())


def combos_reaching(
    cands: list[Reading], hand: Sequence[int], value: Callable[[Reading], int], minimum: int
) -> list[list[Reading]]:
    """Sets of disjoint candidates (as a multiset of the hand) worth at least ``minimum`` in total,
    best first, at most ``MAX_COMBOS``; a combination is listed once, not in every order."""
    values = [value(r) for r in cands]
    order = sorted(range(len(cands)), key=lambda i: -values[i])
    found: list[tuple[int, list[int]]] = []
    have = Counter(hand)

    def dfs(pos: int, chosen: list[int], total: int) -> None:
        if len(found) >= MAX_COMBOS:
            return
        if total >= minimum and chosen:
            found.append((total, list(chosen)))
        for k in range(pos, len(order)):
            i = order[k]
            if _fits(have, cands[i]):
                have.subtract(cands[i].cards)
                chosen.append(i)
                dfs(k + 1, chosen, total + values[i])
                chosen.pop()
                have.update(cands[i].cards)

    dfs(0, [], 0)
    found.sort(key=lambda t: -t[0])
    return [[cands[i] for i in combo] for _, combo in found]


def combos_matching(
    cands: list[Reading], hand: Sequence[int], accepts: Callable[[list[Reading]], bool], size: int
) -> list[list[Reading]]:
    """Sets of exactly ``size`` disjoint candidates that ``accepts`` (a dummy contract)."""
    found: list[list[Reading]] = []
    have = Counter(hand)

    def dfs(pos: int, chosen: list[Reading]) -> None:
        if len(found) >= MAX_COMBOS:
            return
        if len(chosen) == size:
            if accepts(chosen):
                found.append(list(chosen))
            return
        for k in range(pos, len(cands)):
            if _fits(have, cands[k]):
                have.subtract(cands[k].cards)
                chosen.append(cands[k])
                dfs(k + 1, chosen)
                chosen.pop()
                have.update(cands[k].cards)

    dfs(0, [])
    return found
