"""``since_last_turn``: what the table picture lists as the recent moves (issue 36): this deal's
record lines since the acting seat's previous turn, oldest first."""

from __future__ import annotations

from bot.engine import log_moves
from bot.service.reading import since_last_turn
from scripts.played import played_game


def test_the_other_seats_turns_since_the_actor_last_moved() -> None:
    game = played_game("basic", 4, seed=3, moves=37)
    recent = since_last_turn(game)
    seats = [seat for seat, _ in log_moves(recent)]
    actor = game.actors[0]
    assert recent and recent == [line for line in game.log if line.strip()][-len(recent):]
    # every other seat's turn since the actor's last one, then the actor's own moves of this turn
    first_own = seats.index(actor) if actor in seats else len(seats)
    assert actor not in seats[:first_own] and set(seats[first_own:]) <= {actor}
    assert len(set(seats[:first_own])) == len(game.seats) - 1


def test_only_this_deal() -> None:
    game = played_game("rami", 3, seed=3, moves=5)
    assert all(not line.lstrip().startswith("[") for line in since_last_turn(game))
    assert since_last_turn(played_game("rami", 3, seed=3, moves=0)) == []
