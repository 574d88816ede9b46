"""``python -m scripts.play``: a game in the terminal against the computer players, moves typed in RGN.

What a player would notice if this failed: the practice game does not start, refuses a legal
move, accepts an illegal one, or the computer players do not answer.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

from bot.robot import choose
from bot.robot.heuristic import deadwood
from bot.words.moves import normalize_move
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


SPANISH = {"draw": "robar", "take": "tomar", "pass": "pasar", "discard": "descartar", "knock": "cerrar",
           "meld": "bajar", "layoff": "añadir"}


def test_the_spanish_verbs_it_advertises_are_the_moves_it_names() -> None:
    from scripts.play import HOW

    examples = re.findall(r"([a-z]+(?: [0-9A-Z]{2})*(?: to \d)?) / ([a-zñ]+(?: [0-9A-Za-z]{2})*(?: a \d)?)", HOW)
    assert len(examples) >= 5, HOW
    for rgn, spanish in examples:
        assert normalize_move(spanish) == rgn, (spanish, rgn)


def test_a_game_played_with_spanish_verbs_and_lower_case_cards() -> None:
    moves = script_for("gin", "7", "strong", 6)
    typed = []
    for move in moves:
        verb, *rest = move.split(" ")
        typed.append(" ".join([SPANISH[verb], *(card.lower() for card in rest)]))
    assert typed != moves
    out = io.StringIO()
    assert main(["gin", "--vs", "strong", "--seed", "7"], io.StringIO("?\n" + "\n".join(typed) + "\nsalir\n"), out) == 0
    text = out.getvalue()
    assert "not allowed" not in text
    for move in moves:
        assert f"{HUMAN} {move}\n" in text  # each Spanish move was played as its RGN
    assert "in Spanish: " in text and text.rstrip().endswith("bye")


def test_gin_shows_the_hand_in_melds_with_its_deadwood_and_the_best_discard() -> None:
    moves = script_for("gin", "3", "normal", 8)
    out = io.StringIO()
    assert main(["gin", "--vs", "normal", "--seed", "3"], io.StringIO("\n".join(moves) + "\nquit\n"), out) == 0
    lines = out.getvalue().splitlines()
    shown = [(hand, dead) for hand, dead in pairwise(lines)
             if hand.strip().startswith("your hand:") and dead.strip().startswith("melds:")]
    hands = [hand for hand in lines if hand.strip().startswith("your hand:")]
    assert shown and len(shown) == len(hands)  # under every hand of a gin game
    for hand, line in shown:
        cards = hand.split(":", 1)[1].split()
        value = int(re.search(r"deadwood: [^=]* = (\d+)", line)[1])
        assert value == deadwood(cards), (hand, line)
        found = re.search(r"discarding (\w\w) leaves (\d+)", line)
        if found:  # a card to throw: the discard that leaves the least deadwood
            assert len(cards) == 11 and found[1] in cards
            assert int(found[2]) == min(deadwood([c for c in cards if c != out_]) for out_ in cards)
    assert any("discarding" in line for _, line in shown)


def test_other_variants_show_no_deadwood_line() -> None:
    out = io.StringIO()
    assert main(["basic", "--vs", "easy", "--seed", "4"], io.StringIO("quit\n"), out) == 0
    assert "your hand: " in out.getvalue() and "deadwood" not in out.getvalue()
