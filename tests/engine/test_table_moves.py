"""Table-manipulation suggestions (``TableManipulation.table_moves``) stay cheap (issue 15, hole 8).

What a user would notice if these failed: on a large Rami table, autocomplete, hand messages and
computer turns slow down for everyone, or a table move that could be suggested is not.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import bot.engine.table as table_module
from bot.engine import load_game
from bot.engine.cards import JOKER
from bot.engine.melds import Placed, read_meld

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def position(variant: str, options: str, seats: list[str], decks: int, melds: int, hand: int, seed: int) -> str:
    """A record with ``melds`` runs and sets of four on the table and ``seats[0]`` to play."""
    rng = random.Random(seed)
    used: Counter[str] = Counter()
    table: list[str] = []
    for _ in range(10_000):
        if len(table) == melds:
            break
        if rng.random() < 0.6:
            length = rng.choice((4, 5)) if decks == 1 else 4
            suit, start = rng.choice(SUITS), rng.randint(0, 13 - length)
            cards = [RANKS[start + k] + suit for k in range(length)]
        else:
            rank = rng.choice(RANKS)
            cards = [rank + s for s in SUITS]
        if all(used[c] + n <= decks for c, n in Counter(cards).items()):
            used.update(cards)
            table.append(" ".join(cards))
    left = [r + s for r in RANKS for s in SUITS for _ in range(decks - used[r + s])]
    rng.shuffle(left)
    hands = [f'[Hand "{seats[0]}" "{" ".join(left[:hand])}"]']
    hands += [f'[Hand "{s}" "{left[hand + 2 * i]} {left[hand + 2 * i + 1]}"]' for i, s in enumerate(seats[1:])]
    return "\n".join([f'[Variant "{variant}"]', f'[Options "{options}"]', f'[Seats "{" ".join(seats)}"]',
                      f'[Dealer "{seats[-1]}"]', f'[Table "{" | ".join(table)}"]', *hands,
                      f'[Opened "{" ".join(seats)}"]' if variant == "rami" else "",
                      f'[Turn "{seats[0]}"]', '[Phase "play"]']) + "\n"


def every_table_move(game, seat: str) -> list[str]:
    """The suggestions as first written: every pair of hand cards against every freeable card."""
    out: list[str] = []
    hand = game.hands[seat]
    naturals = sorted({c for c in hand if c != JOKER})
    rules = game.meld_rules
    texts = [" ".join(r) for r in game.table]
    for i, m in enumerate(game.on_table):
        n = len(m.cards)
        free = []
        if m.kind == "run" and n >= 4:
            free = [(0, m.placed(rules)[1:]), (n - 1, m.placed(rules)[:-1])]
        elif m.kind == "set" and n >= 4:
            free = [(k, [p for j, p in enumerate(m.placed(rules)) if j != k]) for k in range(n)]
        for k, rest in free:
            card = m.cards[k]
            if card == JOKER or not read_meld(rest, rules, m.kind):
                continue
            for a in range(len(naturals)):
                for b in range(a, len(naturals)):
                    if a == b and hand.count(naturals[a]) < 2:
                        continue
                    found = read_meld([Placed(card), Placed(naturals[a]), Placed(naturals[b])], rules)
                    if len(found) == 1:
                        rest_text = " ".join(read_meld(rest, rules, m.kind)[0].codes(rules))
                        out.append("table " + " | ".join([*texts[:i], rest_text, *texts[i + 1:],
                                                          " ".join(found[0].codes(rules))]))
        if m.kind == "run" and n >= 5:
            for k in range(2, n - 2):
                card = m.cards[k]
                if card != JOKER and card in hand:
                    ra = read_meld(m.placed(rules)[: k + 1], rules, "run")
                    rb = read_meld([Placed(card), *m.placed(rules)[k + 1:]], rules, "run")
                    if len(ra) == 1 and len(rb) == 1:
                        out.append("table " + " | ".join([*texts[:i], " ".join(ra[0].codes(rules)),
                                                          " ".join(rb[0].codes(rules)), *texts[i + 1:]]))
    return list(dict.fromkeys(out))


RAMI_SEATS = ["ana", "bea", "cai", "dan", "eva", "fer", "gil", "hugo"]
CASES = [
    ("rami", "table_manipulation=true", RAMI_SEATS, 4),
    ("rami", "table_manipulation=true identities=true", RAMI_SEATS, 4),
    ("tradicional", "", ["ana", "bea", "cai"], 1),
    ("tradicional", "opt3_ace_high_low=true", ["ana", "bea", "cai"], 1),
    ("tradicional", "opt4_continuous=true", ["ana", "bea", "cai"], 1),
]


@pytest.mark.parametrize(("variant", "options", "seats", "decks"), CASES)
def test_the_suggestions_are_every_table_move_of_the_exhaustive_search(variant, options, seats, decks, monkeypatch):
    monkeypatch.setattr(table_module, "MAX_TABLE_MOVES", 100_000)
    checked = 0
    for seed in range(30):
        melds = 30 if decks == 4 else 6
        game = load_game(position(variant, options, seats, decks, melds, 20 if decks == 4 else 8, seed))
        expected = every_table_move(game, "ana")
        assert game.table_moves("ana") == expected
        checked += len(expected)
    assert checked > 10  # the positions do offer table moves


def test_generation_stops_at_the_cap(monkeypatch):
    """The cap bounds the work, not only the output: with a cap of 3 far fewer melds are read."""
    game = load_game(position("rami", "table_manipulation=true", RAMI_SEATS, 4, 40, 25, 41))
    calls = Counter()
    real = table_module.read_meld

    def counted(*args, **kwargs):
        calls["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(table_module, "read_meld", counted)
    everything = game.table_moves("ana")
    assert len(everything) > 20
    uncapped, calls["n"] = calls["n"], 0
    monkeypatch.setattr(table_module, "MAX_TABLE_MOVES", 3)
    assert game.table_moves("ana") == everything[:3]
    assert calls["n"] < uncapped / 4, (calls["n"], uncapped)
