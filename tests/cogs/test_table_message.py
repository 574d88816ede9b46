"""The public table's text line: whose turn it is and, while a person's turn timer or a claim
window runs, a countdown Discord shows in each reader's own language.

What a user would notice if this failed: no way to see how long the player to move has left (a
recurring ask of card-game players), or a countdown on a computer player's short pause.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine import new_game
from bot.store import GameRow
from bot.store.repo import SeatRow
from cogs.table import table_message

DEADLINE = 1_795_000_000


def row_for(game, variant: str, *, timer: float = 5, bot_seat: str | None = None) -> GameRow:
    seats = tuple(SeatRow(i, -1 if s == bot_seat else 1000 + i, s, f"P{i}") for i, s in enumerate(game.seats))
    return GameRow(1, 1, 1, 1000, variant, "", timer, "es", "playing", 7, None, 0, 0, None, DEADLINE, False, None,
                   None, None, None, None, None, None, seats)


def test_a_persons_turn_shows_a_countdown_in_the_readers_language() -> None:
    game = new_game("gin", ["p1", "p2"], seed="clock")
    row = row_for(game, "gin")
    for locale, words in (("es", "se acaba el tiempo"), ("en", "time's up")):
        content, _ = table_message(row, game, locale)
        assert f"{words} <t:{DEADLINE}:R>" in content.splitlines()[0]


def test_no_countdown_without_a_timer_or_on_a_computer_players_turn() -> None:
    game = new_game("gin", ["p1", "p2"], seed="clock")
    untimed = row_for(game, "gin", timer=0)
    assert "<t:" not in table_message(replace(untimed, turn_deadline=None), game, "en")[0]
    bot_turn = row_for(game, "gin", bot_seat=game.actors[0])  # its deadline is only its pause
    assert "<t:" not in table_message(bot_turn, game, "en")[0]


def test_a_claim_window_shows_the_windows_own_deadline() -> None:
    game = new_game("tradicional", ["p1", "p2", "p3"], seed="clock", options="opt2_rummy_call=true")
    for _ in range(40):
        if game.phase == "window":
            break
        seat = game.actors[0]
        moves = game.legal_moves(seat)
        game.play(seat, next((m for m in moves if m.startswith("discard")), moves[0]))
    assert game.phase == "window"
    row = replace(row_for(game, "tradicional"), window_deadline=DEADLINE + 9)
    assert f"<t:{DEADLINE + 9}:R>" in table_message(row, game, "en")[0]


def _turn_buttons(view) -> list[str]:
    return [item.custom_id.split(":")[1] for item in view.children
            if item.custom_id.split(":")[1] in ("draw", "take", "pass")]


def test_the_table_offers_only_the_turn_moves_the_phase_accepts() -> None:
    """Issue 36: gin's upcard phase is Take or Pass (a Draw there could only be refused); after
    both passed, Draw alone; in every variant the buttons are the acting seat's legal verbs."""
    game = new_game("gin", ["p1", "p2"], seed="a1")
    row = row_for(game, "gin", timer=0)
    assert _turn_buttons(table_message(row, game, "es")[1]) == ["take", "pass"]
    labels = [item.item.label for item in table_message(row, game, "es")[1].children]
    assert "Pasar" in labels and "Robar" not in labels
    game.play(game.current_seat, "pass")
    game.play(game.current_seat, "pass")
    assert _turn_buttons(table_message(row, game, "en")[1]) == ["draw"]
    game.play(game.current_seat, "draw")  # the rest of the turn is in the hand: no turn button on the table
    assert _turn_buttons(table_message(row, game, "en")[1]) == []
    for variant, seats in (("rami", 3), ("tradicional", 3), ("dummy", 2), ("basic", 2)):
        other = new_game(variant, [f"p{i}" for i in range(1, seats + 1)], seed="b2")
        offered = {m.verb for m in other.legal_moves(other.actors[0])} if len(other.actors) == 1 else set()
        assert set(_turn_buttons(table_message(row_for(other, variant, timer=0), other, "en")[1])) == (
            offered & {"draw", "take", "pass"})
