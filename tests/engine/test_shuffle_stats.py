"""The shuffle deals every card to every position equally often (reliability.md R24).

What a player would notice if this failed: some cards turning up on top of the stock, or in the
first hand, more often than others over a season. 100,000 shuffles of a 52-card deck with fixed
seeds (so the result is the same on every run), then a chi-square test per card over its 52
positions and one over the whole 52 x 52 table, each at p > 0.001.
"""

from __future__ import annotations

import math

from bot.engine.rng import DealRandom

SHUFFLES = 100_000
N = 52


def chi2_critical(df: int, z: float = 3.090232) -> float:
    """Wilson-Hilferty: the chi-square value with upper tail p for ``z`` = the normal quantile of
    1 - p (3.0902 for p = 0.001); within a fraction of a percent for these degrees of freedom."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_chi2_critical_matches_known_values() -> None:
    # Tables: chi2(0.999; 50) = 86.661, chi2(0.999; 100) = 149.449.
    assert abs(chi2_critical(50) - 86.661) < 0.3
    assert abs(chi2_critical(100) - 149.449) < 0.3


def test_every_card_lands_in_every_position_evenly() -> None:
    counts = [[0] * N for _ in range(N)]  # counts[card][position]
    for k in range(SHUFFLES):
        deck = list(range(N))
        DealRandom(f"r24-{k // 1000}", k % 1000).shuffle(deck)
        for position, card in enumerate(deck):
            counts[card][position] += 1
    expected = SHUFFLES / N
    per_card = [sum((c - expected) ** 2 / expected for c in row) for row in counts]
    worst = max(per_card)
    assert worst < chi2_critical(N - 1), f"card {per_card.index(worst)}: chi2 {worst:.1f}"
    total = sum(per_card)
    assert total < chi2_critical((N - 1) * (N - 1)), f"whole table: chi2 {total:.1f}"
    # And it is not suspiciously perfect either (a rotation, say, would give zero).
    assert total > (N - 1) * (N - 1) / 2
