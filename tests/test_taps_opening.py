"""A Rami opening of several melds made by taps (issue 36): the hand's Meld button finds the one
legal ``meld`` move of exactly the selected cards, counts what a selection makes towards the
opening, and names an opening the hand reaches when the selection does not."""

from __future__ import annotations

from bot.engine import Verb, load_game
from bot.service.builder import meld_move_of, opening_reaching, selection_points, split_melds

POSITION = """[Variant "rami"]
[Seats "p1 p2"]
[Hand "p1" "JH QH KH 4S 4H 4C 5S 6S 7S 9D"]
[Hand "p2" "AD 3D 9S 8H 4C 4S 7D"]
[Turn "p1"]
[Phase "play"]
"""


def test_three_melds_selected_are_one_opening_move() -> None:
    game = load_game(POSITION)
    legal = game.legal_moves("p1")
    move = meld_move_of(legal, ["JH", "QH", "KH", "4S", "4H", "4C", "5S", "6S", "7S"])
    assert move is not None and move.verb is Verb.MELD and len(move.melds) == 3
    assert selection_points(game, move.cards) == 60
    game.play("p1", move)
    assert "p1" in game.opened


def test_a_short_selection_counts_its_points_and_names_an_opening_that_reaches() -> None:
    game = load_game(POSITION)
    legal = game.legal_moves("p1")
    assert meld_move_of(legal, ["JH", "QH", "KH"]) is None
    assert selection_points(game, ["JH", "QH", "KH"]) == 30
    assert selection_points(game, ["JH", "QH", "KH", "4S", "4H", "4C"]) == 45
    reach = opening_reaching(legal, ["JH", "QH", "KH"])
    assert reach is not None and {"JH", "QH", "KH"} <= set(reach.cards)
    assert game.opening_points(reach.melds) >= 50


def test_cards_of_several_melds_split_into_one_move() -> None:
    game = load_game(POSITION)
    move = split_melds(game, ["JH", "QH", "KH", "4S", "4H", "4C"])
    assert move is not None and sorted(map(sorted, move.melds)) == [["4C", "4H", "4S"], ["JH", "KH", "QH"]]
    assert split_melds(game, ["JH", "QH", "9D"]) is None
