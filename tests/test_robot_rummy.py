"""The normal and strong computer players in basic, wrotham, rami, tradicional and dummy (issue 11).

What a player would notice if these failed: a bot seat that freezes the game with an illegal move
at some level; a Rami bot that draws from the stock when the discard would let it go out at once;
a bot that never takes a joker back; a Dummy bot that throws away a wild two while it holds a
plain card it could discard; a strong bot that misses a rearrangement of the table that goes out.
"""

from __future__ import annotations

import pytest

from bot.engine import load_game, new_game
from bot.robot import choose
from bot.robot.rummy import used_by

VARIANTS = ("basic", "wrotham", "rami", "tradicional", "dummy")
# Options that open every kind of move the players make: manipulation, claims, cut-ins.
OPTIONS = {
    "basic": "",
    "wrotham": "",
    "rami": "table_manipulation=true",
    "tradicional": "opt2_rummy_call=true",
    "dummy": "cut_ins=true",
}


def play_deal(variant: str, levels: dict[str, str], seed: str) -> tuple[object, dict[str, int]]:
    """One whole deal; every move must be one the engine lists (or, a table move, accepts)."""
    game = new_game(variant, list(levels), seed=seed, options=OPTIONS[variant])
    rearranged = dict.fromkeys(levels, 0)
    moves = 0
    while not game.hand_over:
        seat = game.actors[0]
        move = choose(game, seat, level=levels[seat])
        if move.startswith("table "):
            rearranged[seat] += len(used_by(move, game.table)[0])
        else:
            assert move in game.legal_moves(seat), (variant, seat, move)
        game.play(seat, move)  # IllegalMove would fail the test
        moves += 1
        assert moves < 3000, f"{variant}: the deal does not end"
    return game, rearranged


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_each_level_plays_whole_deals_and_someone_goes_out(variant: str, level: str) -> None:
    outs = 0
    for k, seats in enumerate((2, 3, 4)):
        levels = {f"p{i + 1}": level for i in range(seats)}
        game, _ = play_deal(variant, levels, f"{variant}-{level}-{k}")
        res = game.result  # type: ignore[attr-defined]
        assert res is not None
        outs += res.outcome == "out"
    assert outs >= 2, (variant, level, outs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_levels_mixed_at_one_table(variant: str) -> None:
    levels = {"p1": "easy", "p2": "normal", "p3": "strong", "p4": "normal"}
    game, _ = play_deal(variant, levels, f"{variant}-mixed")
    assert game.hand_over  # type: ignore[attr-defined]


RAMI_OUT = """[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "a b"]
[Hand "a" "4S"]
[Hand "b" "KD QD 9C 8H 3D"]
[Table "7H 8H 9H | KC KD KS"]
[Discard "4C TH"]
[Opened "a b"]
[Turn "a"]
"""


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_rami_takes_the_discard_that_lets_it_go_out(level: str) -> None:
    game = load_game(RAMI_OUT)
    assert "take" in game.legal_moves("a")
    for _ in range(4):
        if game.hand_over:
            break
        game.play("a", choose(game, "a", level=level))
    assert game.hand_over and game.result is not None and game.result.winner == "a"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_wrotham_takes_a_joker_back(level: str) -> None:
    game = load_game("""[Variant "wrotham"]
[Seats "a b"]
[Hand "a" "8H 3C 9D KS QC"]
[Hand "b" "KD QD 9C 8C 3D 4D 5D"]
[Table "6H 7H JK=8H"]
[Turn "a"]
[Phase "play"]
""")
    assert choose(game, "a", level=level) == "swap 8H to 1"


def test_dummy_normal_lays_down_with_a_wild_two() -> None:
    game = load_game("""[Variant "dummy"]
[Seats "a b"]
[Hand "a" "5S 5H 2C 9D 9H 9S QC 7D 4H JD 3S TC 8C AH"]
[Hand "b" "KD QD 9C 8H 3D 4D 5D 6C 7C 8S TD JH QH"]
[Turn "a"]
[Phase "play"]
""")
    move = choose(game, "a", level="normal")
    assert move.startswith("meld ") and "2C" in move, move


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_dummy_never_discards_a_wild_when_another_card_will_do(level: str) -> None:
    wild_discards = chances = 0
    for k in range(12):
        game = new_game("dummy", ["p1", "p2", "p3"], seed=f"wild-{level}-{k}", options="cut_ins=true")
        turns = 0
        while not game.hand_over and turns < 2000:
            seat = game.actors[0]
            move = choose(game, seat, level=level)
            legal = game.legal_moves(seat)
            discards = [m for m in legal if m.startswith("discard ")]
            wilds = [m for m in discards if m.split()[1] == "JK" or m.split()[1][0] == "2"]
            if wilds and len(wilds) < len(discards):
                chances += 1
                wild_discards += move in wilds
            game.play(seat, move)
            turns += 1
    assert chances > 10 and wild_discards == 0, (chances, wild_discards)


DUMMY_LONE_TWO = """[Variant "dummy"]
[Seats "a b"]
[Hand "a" "2C 7S 7H 8S 8H 9S 9H JD JH QD QH KD TH TS"]
[Hand "b" "KS QS 9C 8D 3D 4D 5D 6C 7C 8C TC JC QC"]
[Turn "a"]
[Phase "play"]
"""


def test_dummy_keeps_a_lone_wild_two_that_the_easy_player_throws_away() -> None:
    game = load_game(DUMMY_LONE_TWO)
    assert choose(game, "a", level="easy") == "discard 2C"  # the old mistake, still the easy level
    for level in ("normal", "strong"):
        move = choose(game, "a", level=level)
        assert move.startswith("discard ") and move != "discard 2C", (level, move)


TRADICIONAL_SPLIT = """[Variant "tradicional"]
[Seats "a b"]
[Hand "a" "6H 6D"]
[Hand "b" "KD QD 9S 8H 3D"]
[Table "3C 4C 5C 6C 7C 8C 9C"]
[Discard "4D"]
[Turn "a"]
[Phase "play"]
"""

RAMI_SPLIT = """[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "a b"]
[Hand "a" "6H 6D KS"]
[Hand "b" "KD QD 9C 8H 3D"]
[Table "3C 4C 5C 6C 7C 8C 9C | QH QD QC"]
[Opened "a b"]
[Turn "a"]
[Phase "play"]
"""


@pytest.mark.parametrize("text", [TRADICIONAL_SPLIT, RAMI_SPLIT], ids=["tradicional", "rami"])
def test_strong_splits_a_run_to_go_out_where_normal_cannot(text: str) -> None:
    for level, goes_out in (("normal", False), ("strong", True)):
        game = load_game(text)
        for _ in range(3):
            if game.hand_over or game.current_seat != "a":
                break
            game.play("a", choose(game, "a", level=level))
        out = game.hand_over and game.result is not None and game.result.winner == "a"
        assert out == goes_out, (level, game.record())


def test_strong_places_more_cards_by_rearrangement_than_normal() -> None:
    placed = {"normal": 0, "strong": 0}
    for level in placed:
        for k in range(3):
            _, rearranged = play_deal("tradicional", {f"p{i}": level for i in range(1, 5)}, f"rearr-{k}")
            placed[level] += sum(rearranged.values())
    assert placed["strong"] > placed["normal"] + 5, placed


def test_strong_sees_only_its_own_hand() -> None:
    """Another seat's hand and the stock may change without changing the strong move."""
    game = load_game(RAMI_SPLIT)
    before = choose(game, "a", level="strong")
    other = load_game(RAMI_SPLIT.replace('"KD QD 9C 8H 3D"', '"2D 5S 9S TH JC"'))
    assert choose(other, "a", level="strong") == before


@pytest.mark.parametrize(("variant", "verb"), [("tradicional", "claim"), ("dummy", "cut")])
def test_normal_claims_and_cuts_in_for_a_card_that_fits(variant: str, verb: str) -> None:
    made = 0
    for k in range(6):
        game = new_game(variant, ["p1", "p2", "p3", "p4"], seed=f"{verb}-{k}", options=OPTIONS[variant])
        while not game.hand_over:
            seat = game.actors[0]
            move = choose(game, seat, level="normal")
            made += move.split()[0] == verb
            game.play(seat, move)
    assert made >= 2, made


ALL_SEVEN = """[Variant "wrotham"]
[Seats "a b"]
[Deal "4"]
[Hand "a" "{hand}"]
[Discard "{pile}"]
[Turn "a"]
[Phase "{phase}"]
"""


def test_wrotham_strong_keeps_the_cards_that_go_down_all_seven_at_once() -> None:
    """Issue 23, rules.md §1.9: in deals 4-6 nothing goes down until all seven cards do. Strong
    throws the seven of spades and keeps ten-queen-king, so a jack or a joker next puts the hand
    down (four cards can do it); normal throws the lone ten and keeps nothing that one draw completes."""
    game = load_game(ALL_SEVEN.format(hand="3S 5S 7S TS QS KS 5H 5D", pile="AC QD", phase="play"))
    assert choose(game, "a", level="strong") == "discard 7S"
    assert choose(game, "a", level="normal") == "discard TS"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_wrotham_takes_the_discard_that_puts_all_seven_down(level: str) -> None:
    game = load_game(ALL_SEVEN.format(hand="3H 4H 5H 6H 9C 9D KS", pile="AC 9S", phase="draw"))
    assert choose(game, "a", level=level) == "take"
