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


def _row(game):  # a playing row of this game, for the hand message
    from bot.store import GameRow
    from bot.store.repo import SeatRow

    seats = tuple(SeatRow(i, 1000 + i, s, f"P{i}") for i, s in enumerate(game.seats))
    return GameRow(1, 1, 1, 1000, "rami", "", 5, "es", "playing", 7, None, 0, 0, None, None, False, None, None,
                   None, None, None, None, None, seats)


def test_the_hand_shows_the_opening_points_and_offers_layoff_targets_by_what_they_show() -> None:
    from cogs.hand import HandState, hand_message, hand_order, mask_of

    game = load_game(POSITION)
    order = hand_order(game, "p1", 0)
    text, _ = hand_message(_row(game), game, "p1", HandState(1, 7, mask_of(order, ["JH", "QH", "KH"])), "es")
    assert "Apertura: 30 de 50 puntos" in text
    game = load_game(POSITION.replace('"JH QH KH 4S 4H 4C 5S 6S 7S 9D"', '"JH QH KH 4S 4H 4C 5S 6S 7S 9D 8S"'))
    game.play("p1", meld_move_of(game.legal_moves("p1"), ["JH", "QH", "KH", "4S", "4H", "4C", "5S", "6S", "7S"]))
    order = hand_order(game, "p1", 0)
    _, view = hand_message(_row(game), game, "p1", HandState(1, 7, mask_of(order, ["8S"])), "es")
    labels = [str(getattr(getattr(i, "item", i), "label", "")) for i in view.children]
    assert "Añadir a la 3 · 5♠ 6♠ 7♠" in labels, labels


def test_a_dummy_contract_of_two_sets_is_one_meld_tap() -> None:
    game = load_game("""[Variant "dummy"]
[Seats "p1 p2"]
[Hand "p1" "7H 7S 7C 9D 9S 2C KD 5H 6H 3S"]
[Turn "p1"]
[Phase "play"]
""")
    move = meld_move_of(game.legal_moves("p1"), ["7H", "7S", "7C", "9D", "9S", "2C"])
    assert move is not None and len(move.melds) == 2 and "2C=9" in move.cards
    game.play("p1", move)
    assert "p1" in game.opened


def test_an_opened_seat_lays_two_melds_in_one_tap_even_with_manipulation() -> None:
    import asyncio

    from bot.service.builder import INVALID
    from cogs.hand import _whole_meld_move

    game = load_game(POSITION.replace('[Variant "rami"]', '[Variant "rami"]\n[Options "table_manipulation=true"]')
                     .replace("[Turn", '[Table "p2: 8D 9D TD"]\n[Opened "p1 p2"]\n[Turn'))
    cards = ["JH", "QH", "KH", "4S", "4H", "4C"]
    move = asyncio.run(_whole_meld_move(None, game, "p1", cards, INVALID))  # type: ignore[arg-type]
    assert move is not None and len(move.melds) == 2
    game.play("p1", move)
    assert len(game.table) == 3
