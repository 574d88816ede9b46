"""``python -m scripts.play``: a game in the terminal against the computer players, moves typed in RGN.

What a player would notice if this failed: the practice game does not start, refuses a legal
move, accepts an illegal one, or the computer players do not answer.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.robot import choose
from scripts.play import HUMAN, main, make_game


def script_for(variant: str, seed: str, level: str, turns: int) -> list[str]:
    """The first legal move the human has at each of their next ``turns`` decisions, found by
    playing the same game beside the one under test."""
    game = make_game(variant, 2, seed)
    lines: list[str] = []
    while len(lines) < turns and not game.hand_over:
        seat = game.actors[0]
        if seat == HUMAN:
            move = game.legal_moves(HUMAN)[0]
            lines.append(move)
        else:
            move = choose(game, seat, level=level)
        game.play(seat, move)
    return lines


def test_a_scripted_player_plays_a_few_moves_against_the_computer() -> None:
    moves = script_for("gin", "7", "strong", 5)
    assert len(moves) == 5
    stdin = io.StringIO("?\ndiscard ZZ\n" + "\n".join(moves) + "\nquit\n")
    out = io.StringIO()
    assert main(["gin", "--vs", "strong", "--seed", "7"], stdin, out) == 0
    text = out.getvalue()
    assert "your moves: " in text
    assert "not allowed:" in text  # the bad card was refused and the game went on
    for move in moves:
        assert f"{HUMAN} {move}\n" in text
    assert "bot1 " in text and "your hand: " in text
    assert text.rstrip().endswith("bye")


def test_the_module_runs_from_the_command_line_without_a_token() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scripts.play", "rami", "--vs", "easy", "--seats", "3", "--seed", "5"],
        input="?\n", capture_output=True, text=True, timeout=120,
        cwd=Path(__file__).resolve().parents[1], env={"PATH": "", "PYTHONPATH": "."},
    )
    assert done.returncode == 0, done.stderr
    assert "rami against 2 computer player(s) at level easy" in done.stdout
    assert "bye" in done.stdout
