"""The computer player (``bot.robot``): always a legal move, and whole games end.

What a player would notice if these failed: a bot seat that freezes the game (no move, or an
illegal one the engine refuses), a bot that never goes out so a game never ends, a bot that plays
worse than picking moves at random.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import PLAYERS, VARIANTS, DealResult, new_game
from bot.engine.cards import parse_card
from bot.robot import LEVELS, choose

OPTIONS = {"basic": "", "wrotham": "", "gin": "target=50", "rami": "", "tradicional": "", "dummy": ""}


def play(variant: str, seats: int, seed: str, *, random_seats: tuple[str, ...] = (), deals: int = 3,
         rnd: random.Random | None = None, results: list[DealResult | None] | None = None) -> tuple[object, int]:
    """Play up to ``deals`` deals; ``results`` (if given) receives each finished deal's result."""
    game = new_game(variant, [f"p{i + 1}" for i in range(seats)], seed=seed, options=OPTIONS[variant])
    moves = 0
    played = 1
    while True:
        if game.hand_over:
            if results is not None:
                results.append(game.result)
            if game.game_over or played >= deals:
                break
            game.next_deal()
            played += 1
            continue
        seat = game.actors[0]
        if seat in random_seats and rnd is not None:
            move = rnd.choice(game.legal_moves(seat))
        else:
            move = choose(game, seat)
            assert move in game.legal_moves(seat)
        game.play(seat, move)
        moves += 1
        assert moves < 5000, f"{variant}: the deal does not end"
    return game, played


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_whole_deals_of_every_variant(variant: str) -> None:
    lo, hi = PLAYERS[variant]
    for seats, seed in ((lo, "a"), (hi, "b"), (min(hi, lo + 1), "c")):
        results: list[DealResult | None] = []
        game, played = play(variant, seats, f"{variant}-{seed}", results=results)
        assert len(results) == played and (played == 3 or game.game_over), (variant, seats, played)
        for res in results:
            # Someone went out (or knocked): the bots finish their deals themselves; a deal they
            # could not finish ends blocked or void at the safety cap (rules.md §0.4).
            assert res is not None and res.winner is not None, (variant, seats, res)
            assert res.outcome not in ("blocked", "void"), (variant, seats, res.outcome)


def test_a_bot_beats_a_random_player_at_gin() -> None:
    wins = 0
    for k in range(30):
        game, _ = play("gin", 2, f"duel-{k}", random_seats=("p2",), deals=1, rnd=random.Random(k))
        res = game.result
        if res is not None and res.outcome != "void":
            wins += game.hand_points.get("p1", 0) > game.hand_points.get("p2", 0)
    assert wins >= 20


def test_counting_deadwood_makes_the_gin_bot_stronger_than_the_plain_heuristic() -> None:
    wins = {"counting": 0, "plain": 0}
    points = {"counting": 0, "plain": 0}
    for k in range(400):
        game = new_game("gin", ["p1", "p2"], seed=f"count-{k}", options="target=50")
        style = {"p1": "counting", "p2": "plain"} if k % 2 == 0 else {"p1": "plain", "p2": "counting"}
        while not game.hand_over:
            seat = game.actors[0]
            game.play(seat, choose(game, seat, level="easy" if style[seat] == "plain" else "normal"))
        got = {style[s]: game.hand_points.get(s, 0) for s in ("p1", "p2")}
        for name in wins:
            points[name] += got[name]
            wins[name] += got[name] > max(v for n, v in got.items() if n != name)
    assert wins["counting"] >= 0.55 * (wins["counting"] + wins["plain"]), wins
    assert points["counting"] >= 1.3 * points["plain"], points


def test_the_normal_gin_bot_takes_a_discard_only_for_a_meld_or_a_clear_gain() -> None:
    """Issue 11: it took any upcard that lowered its deadwood, even one that made no meld."""
    from bot.engine.search import best_melds, mask_of
    from bot.robot import connections, deadwood

    taken = passed = 0
    for k in range(60):
        game = new_game("gin", ["p1", "p2"], seed=f"take-{k}", options="target=50")
        for _ in range(40):
            if game.hand_over:
                break
            seat = game.actors[0]
            move = choose(game, seat, level="normal")
            moves = game.legal_moves(seat)
            if "take" in moves and ("draw" in moves or "pass" in moves) and game.discard_pile:
                hand, up = game.hand(seat), game.discard_pile[-1]
                now = deadwood(hand)
                after, rest = min(
                    (deadwood([*hand[:i], *hand[i + 1:], up]), [*hand[:i], *hand[i + 1:], up]) for i in range(len(hand))
                )
                melds = best_melds(mask_of(parse_card(c) for c in rest))[1]
                in_meld = any(m >> parse_card(up) & 1 for m in melds)
                clear_gain = after <= now - 4 and connections(up, hand) >= 1
                if move == "take":
                    assert after < now and (in_meld or clear_gain), (hand, up)
                    taken += 1
                else:
                    passed += 1
            game.play(seat, move)
    assert taken > 10 and passed > 10


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_whole_deals_of_every_variant(variant: str, level: str) -> None:
    lo, hi = PLAYERS[variant]
    seats = min(hi, lo + 1)
    game = new_game(variant, [f"p{i + 1}" for i in range(seats)], seed=f"{variant}-{level}", options=OPTIONS[variant])
    moves = deals = 0
    while deals < 2 and not game.game_over:
        if game.hand_over:
            assert game.result is not None and game.result.outcome not in ("blocked",), game.result
            deals += 1
            if deals < 2 and not game.game_over:
                game.next_deal()
            continue
        seat = game.actors[0]
        move = choose(game, seat, level=level)
        # legal_moves lists at most 200 table rearrangements; strong may find one beyond them.
        assert move in game.legal_moves(seat) or game.accepts(seat, move), (variant, level, move)
        game.play(seat, move)
        moves += 1
        assert moves < 5000, f"{variant} at {level}: the deal does not end"


def duel(a: str, b: str, deals: int, prefix: str) -> tuple[int, int]:
    """Single gin deals between two levels, seats swapped every deal: (deals a won, deals b won)."""
    won = {a: 0, b: 0}
    for k in range(deals):
        game = new_game("gin", ["p1", "p2"], seed=f"{prefix}-{k}")
        level = {"p1": a, "p2": b} if k % 2 == 0 else {"p1": b, "p2": a}
        while not game.hand_over:
            seat = game.actors[0]
            game.play(seat, choose(game, seat, level=level[seat]))
        assert game.result is not None
        if game.result.winner is not None:
            won[level[game.result.winner]] += 1
    return won[a], won[b]


def test_the_strong_gin_bot_beats_the_yardstick_and_the_normal_bot() -> None:
    """Loose floors on small samples (the bench measures the real rates, docs/performance.md)."""
    strong, simple = duel("strong", "yardstick", 200, "floor-y")
    assert strong > simple, (strong, simple)
    strong, normal = duel("strong", "normal", 120, "floor-n")
    assert strong > normal, (strong, normal)


EAAI = {"gin_bonus": 25, "undercut_bonus": 25, "layoff_on_gin": False, "line_bonus": 0, "game_bonus": 0,
        "shutout_bonus": 0}


def test_the_strong_gin_bot_outscores_the_yardstick_under_the_eaai_scoring() -> None:
    """Loose floor (issue 23; the bench measures matches, docs/performance.md): where gin and
    undercuts score 25, strong plays on for them and wins fewer deals than the yardstick, which
    knocks at once, but scores half as many points again over 80 deals."""
    points = {"strong": 0, "yardstick": 0}
    for k in range(80):
        game = new_game("gin", ["p1", "p2"], seed=f"floor-e-{k}", options=EAAI)
        level = {"p1": "strong", "p2": "yardstick"} if k % 2 == 0 else {"p1": "yardstick", "p2": "strong"}
        while not game.hand_over:
            seat = game.actors[0]
            game.play(seat, choose(game, seat, level=level[seat]))
        for seat, scored in game.hand_points.items():
            points[level[seat]] += scored
    # 2.1 times on these seeds; the normal level, which knocks at once too, scores 1.03 times.
    assert points["strong"] >= 1.5 * points["yardstick"], points


KNOCK_AT_FIVE = """[Variant "gin"]
[Options "{options}"]
[Seats "ana bea"]
[Dealer "bea"]
[Hand "ana" "2C 3C 4C 7H 7S 7D 9S TS JS 5D KH"]
[Hand "bea" "AS 4S 6D 8D QD 3H 5H 8C TC KC"]
[Turn "ana"]
[Phase "play"]
"""


def test_the_strong_gin_bot_knocks_by_the_rules_in_force() -> None:
    """Issue 23: with the seed's scoring (10 for an undercut) strong knocks at 5 early in the deal;
    where an undercut costs 25 (the EAAI scoring) it keeps playing for gin rather than risk one."""
    from bot.engine import load_game

    seed = load_game(KNOCK_AT_FIVE.format(options=""))
    assert choose(seed, "ana", level="strong") == "knock KH"
    eaai = load_game(KNOCK_AT_FIVE.format(options="undercut_bonus=25 gin_bonus=25 layoff_on_gin=false"))
    assert choose(eaai, "ana", level="strong") == "discard KH"
    assert choose(eaai, "ana", level="normal") == "knock KH"  # normal does not read the bonus

