"""No peeking (issue 11): every level reads a game only through what its seat could see.

What a player would notice if this failed: a computer player that discards around the cards you
hold, or knows which card the stock will give, i.e. one that cheats. The test builds a twin of a
game in play that differs only in hidden cards (the other hands and the stock, shuffled among
themselves; never a card anyone has seen) and requires every level to make the same move in
both. A level that read another hand or the stock order would sooner or later move differently.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from bot.engine import PLAYERS, VARIANTS, Game, Move, Verb, new_game
from bot.engine.cards import card_code
from bot.robot import LEVELS, choose, rummy, see
from bot.robot.sight import BLANK, Seen

LEVELS_OF = {v: (*LEVELS, "yardstick") if v == "gin" else LEVELS for v in VARIANTS}
MOVES = {"gin": 90, "basic": 50, "wrotham": 40, "rami": 30, "tradicional": 30, "dummy": 30}


def seen_codes(game: Game, seat: str) -> set[str]:
    """Every card code ``seat`` has seen: its hand, the pile, the table, spread hands and every
    card named in the public moves (all copies of a code count as seen, to stay on the safe side)."""
    codes = set(game.hand(seat)) | set(game.discard_pile) | {card_code(c) for c in game.dealt_pile}
    for meld in game.table:
        codes |= {entry.split("=")[0] for entry in meld}
    for cards in game.revealed.values():
        codes |= {card_code(c) for c in cards}
    for line in game.log:
        codes |= {word.split("=")[0].upper() for word in line.split()}
    return codes


def twin_with_hidden_cards_shuffled(game: Game, seat: str, rnd: random.Random) -> Game:
    """A deep copy where the cards ``seat`` has never seen, in other hands and in the stock, are
    dealt out again at random among those same places."""
    twin = copy.deepcopy(game)
    seen = seen_codes(game, seat)
    places: list[tuple[list[int], int]] = []
    for other, hand in twin.hands.items():
        if other != seat:
            places += [(hand, i) for i, c in enumerate(hand) if card_code(c) not in seen]
    places += [(twin.stock, i) for i, c in enumerate(twin.stock) if card_code(c) not in seen]
    cards = [where[i] for where, i in places]
    rnd.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    return twin


def hidden_differs(a: Game, b: Game, seat: str) -> bool:
    return a.stock != b.stock or any(a.hands[s] != b.hands[s] for s in a.seats if s != seat)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_moves_the_same_whatever_the_hidden_cards(variant: str) -> None:
    rnd = random.Random(variant)
    checked = differing = 0
    for g in range(2 if variant == "gin" else 1):
        seats = PLAYERS[variant][0]
        game = new_game(variant, [f"p{i + 1}" for i in range(seats)], seed=f"peek-{variant}-{g}")
        for n in range(MOVES[variant]):
            if game.hand_over:
                if game.game_over:
                    break
                game.next_deal()
            seat = game.actors[0]
            if variant == "gin" or n % 3 == 0:
                twin = twin_with_hidden_cards_shuffled(game, seat, rnd)
                differing += hidden_differs(game, twin, seat)
                assert see(twin, seat) == see(game, seat)
                for level in LEVELS_OF[variant]:
                    assert choose(twin, seat, level=level) == choose(game, seat, level=level), (level, n)
                    checked += 1
            game.play(seat, choose(game, seat, level=LEVELS[n % 3]))
    assert checked > 20 and differing > checked // (2 * len(LEVELS_OF[variant]))


@pytest.mark.parametrize(("variant", "options"), [("rami", {"table_manipulation": True}), ("tradicional", None)])
def test_the_strong_table_search_moves_the_same_whatever_the_hidden_cards(variant: str, options: dict | None) -> None:
    """The rummy levels decide from the seat's ``Sight`` alone, the strong table rearrangement
    too: its legality check runs on a copy with every hidden card blanked out."""
    rnd = random.Random(variant)
    game = new_game(variant, ["p1", "p2", "p3"], seed=f"peek-table-{variant}", options=options)
    checked = tables = 0
    for _ in range(160):
        if game.hand_over:
            if game.game_over:
                break
            game.next_deal()
        seat = game.actors[0]
        move = choose(game, seat, level="strong")
        if game.can_rearrange(seat):
            twin = twin_with_hidden_cards_shuffled(game, seat, rnd)
            sight = see(twin, seat, judge=True)
            assert rummy.choose(sight, strong=True) == move
            trial = pickle.loads(sight.judge._data)  # type: ignore[union-attr]
            assert all(set(hand) <= {BLANK} for s, hand in trial.hands.items() if s != seat)
            assert set(trial.stock) <= {BLANK} and trial.seed is None and not trial.header
            start = getattr(trial, "turn_start", None)  # rami's timeout rollback
            assert not start or set(start["stock"]) <= {BLANK}
            checked += 1
            tables += move.startswith("table ")
        game.play(seat, move)
    assert checked > 10 and tables > 0, (checked, tables)


def test_the_sight_names_the_discards_taken_and_passed() -> None:
    game = new_game("gin", ["ana", "bea"], seed="sight-names")
    upcard = game.discard_pile[-1]
    first = game.actors[0]
    game.play(first, "pass")
    second = game.actors[0]
    game.play(second, "pass")
    game.play(first, "draw")
    discard = next(m for m in game.legal_moves(first) if m.startswith("discard "))
    game.play(first, discard)
    game.play(second, "take")
    sight = see(game, first)
    assert sight.history[:2] == (Seen(first, Move(Verb.PASS), upcard), Seen(second, Move(Verb.PASS), upcard))
    assert sight.history[-1] == Seen(second, Move(Verb.TAKE), discard.split()[1])
    assert sight.hand == tuple(game.hand(first)) and sight.card_counts[second] == 11
    # Nothing of the other hand or the stock is in the sight.
    hidden = {card_code(c) for c in game.hands[second] + game.stock} - {discard.split()[1], upcard}
    assert not hidden & (set(sight.hand) | set(sight.discard_pile))


def test_the_first_upcard_taken_before_the_seat_moved_is_named() -> None:
    """The dealer saw the first upcard turned face up (rules.md §2.3.1); when the non-dealer takes
    it at once, the dealer's sight still names it, as the player at the table would know it."""
    game = new_game("gin", ["ana", "bea"], seed="sight-first-take")
    upcard = game.discard_pile[-1]
    first = game.actors[0]
    game.play(first, "take")
    discard = next(m for m in game.legal_moves(first) if m.startswith("discard "))
    game.play(first, discard)
    dealer = game.actors[0]
    assert dealer != first and upcard not in game.discard_pile
    sight = see(game, dealer)
    assert sight.history[0] == Seen(first, Move(Verb.TAKE), upcard)
    assert sight.history[1] == Seen(first, Move.parse(discard), discard.split()[1])


def test_a_timed_out_upcard_offer_is_a_pass_in_the_sight() -> None:
    game = new_game("gin", ["ana", "bea"], seed="sight-timeout")
    upcard = game.discard_pile[-1]
    first = game.actors[0]
    game.timeout(first)  # on the upcard offer the timeout rule passes
    second = game.actors[0]
    game.play(second, "pass")
    game.play(first, "draw")
    discard = next(m for m in game.legal_moves(first) if m.startswith("discard "))
    game.play(first, discard)
    game.play(second, "take")
    sight = see(game, second)
    assert sight.history[:2] == (Seen(first, Move(Verb.PASS), upcard), Seen(second, Move(Verb.PASS), upcard))
    assert sight.history[-1] == Seen(second, Move(Verb.TAKE), discard.split()[1])
