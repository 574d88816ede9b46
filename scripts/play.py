"""Practice from the terminal: ``python -m scripts.play VARIANT [--vs LEVEL] [--seats N] [--seed S]``.

What it is: one game on the rules engine against computer players (``bot.robot``), the moves
typed in RGN (``draw``, ``discard KS``, ``meld 5C 6C 7C``...) or as in ``/rummy play``, with
Spanish verbs (``robar``, ``descartar KS``, ``bajar 5C 6C 7C``, ``añadir 7H a 3``: read by
``bot.words.moves.normalize_move``), the table printed as text after each move; in gin your hand
is also shown in its best melds with its deadwood. ``?`` lists your legal moves (with their
Spanish verbs), ``quit`` (or the end of input) leaves. Handy to try the rules and to watch the
levels play. You are seat ``you``; the others are ``bot1``, ``bot2``...
What it is not: Discord. It needs no token, no database and no network.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TextIO

from bot.engine import PLAYERS, VARIANTS, Game, IllegalMove, Move, Verb, group_hand, new_game, new_seed
from bot.engine.views import SeatView
from bot.robot import LEVELS, choose
from bot.words.i18n import translate
from bot.words.moves import normalize_move

HUMAN = "you"
HOW = ("Type a move in the game notation or in Spanish: draw / robar, discard KS / descartar KS, "
       "meld 5C 6C 7C / bajar 5C 6C 7C, layoff 7H to 3 / añadir 7H a 3, knock 9D / cerrar 9D. "
       "'?' lists your moves, 'quit' leaves.")
QUIT = ("quit", "exit", "salir")
HELP = ("?", "help", "ayuda")


def make_game(variant: str, seats: int, seed: str) -> Game:
    names = [HUMAN, *(f"bot{i}" for i in range(1, seats))]
    return new_game(variant, names, seed=seed)


def table_text(game: Game) -> str:
    """The table as a person in seat ``you`` sees it."""
    view = game.view(HUMAN)
    pub = view.public
    lines = [f"-- {pub.variant}, deal {pub.deal_number}, stock {pub.stock_count}, discard "
             f"{pub.discard_top or '(empty)'} ({pub.discard_count})"]
    for s in pub.seats:
        mark = "*" if s.is_acting else " "
        dealer = "  dealer" if s.is_dealer else ""
        lines.append(f" {mark} {s.name:<6} {s.card_count:>2} cards  total {s.total}{dealer}")
    for meld in pub.table:
        owner = f"{meld.owner}: " if meld.owner else ""
        lines.append(f"   [{meld.number}] {owner}{' '.join(meld.cards)}")
    lines.append(f"   your hand: {' '.join(view.hand)}")
    if pub.variant == "gin":  # what a knock is judged on (rules.md §2): shown as the hand picture groups it
        groups, dead = group_hand(view, "melds")
        melds = " · ".join(" ".join(g.cards) for g in groups if g.kind in ("run", "set")) or "none"
        loose = next((" ".join(g.cards) for g in groups if g.kind == "deadwood"), "none")
        lines.append(f"   melds: {melds}; deadwood: {loose} = {dead}" + best_discard(game, view))
    return "\n".join(lines)


def best_discard(game: Game, view: SeatView) -> str:
    """With a card to discard (11 in hand), the discard that leaves the least deadwood: a knock
    is judged on the hand after its discard."""
    if HUMAN not in game.actors:
        return ""
    left: list[tuple[int, str]] = []
    for move in game.legal_moves(HUMAN):
        typed = Move.parse(str(move))
        if typed.verb is not Verb.DISCARD:
            continue
        hand = game.hand_after(HUMAN, typed)
        dead = group_hand(replace(view, hand=hand), "melds")[1] if hand is not None else None
        if dead is not None:
            left.append((dead, typed.cards[0]))
    if not left:
        return ""
    dead, card = min(left)
    return f" (discarding {card} leaves {dead})"


def spanish_verbs(moves: list[str]) -> str:
    """The Spanish verb of each kind of move listed, as ``/rummy play`` reads it (``robar = draw``)."""
    pairs: dict[str, str] = {}
    for move in moves:
        verb = str(Move.parse(move).verb)
        word = translate(f"verb.{verb}", "es").lower()
        if verb not in pairs and normalize_move(word).split(" ", 1)[0] == verb:
            pairs[verb] = word
    return ", ".join(f"{word} = {verb}" for verb, word in pairs.items())


def result_text(game: Game) -> str:
    res = game.result
    if res is None:
        return "-- the deal is over"
    lines = [f"-- deal over: {res.outcome}" + (f", {res.winner} wins it" if res.winner else "")]
    for s in res.seats:
        lines.append(f"   {s.name:<6} {' '.join(s.hand) or '-'}  counts {s.count}, scores {s.points}")
    lines.append("   totals: " + ", ".join(f"{k} {v}" for k, v in game.totals.items()))
    return "\n".join(lines)


def run(variant: str, level: str, seats: int, seed: str, stdin: TextIO, stdout: TextIO) -> int:
    game = make_game(variant, seats, seed)

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(f"{variant} against {seats - 1} computer player(s) at level {level}; seed {seed}. '?' lists your moves.")
    say(HOW)
    say(table_text(game))
    while True:
        if game.hand_over:
            say(result_text(game))
            if game.game_over:
                say("-- game over: " + ", ".join(game.winners) + " wins")
                return 0
            game.next_deal()
            say(table_text(game))
            continue
        actors = game.actors
        if HUMAN in actors:
            stdout.write("move> ")
            stdout.flush()
            line = stdin.readline()
            if not line or line.strip().lower() in QUIT:
                say("bye")
                return 0
            move = normalize_move(line)  # RGN as typed, or Spanish verbs, suit symbols, any case
            if move in HELP:
                legal = [str(m) for m in game.legal_moves(HUMAN)]
                say("your moves: " + " / ".join(legal[:40]))
                say("in Spanish: " + spanish_verbs(legal))
                continue
            try:
                game.play(HUMAN, move)
            except IllegalMove as err:
                say(f"not allowed: {err.message}")
                continue
            say(f"{HUMAN} {move}")
        else:
            seat = actors[0]
            move = choose(game, seat, level=level)
            game.play(seat, move)
            say(f"{seat} {move}")
        if not game.hand_over:
            say(table_text(game))


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.play", description="Play rummy against the computer.")
    parser.add_argument("variant", choices=VARIANTS)
    parser.add_argument("--vs", choices=LEVELS, default="normal", help="the computer players' level")
    parser.add_argument("--seats", type=int, default=None, help="seats, you included")
    parser.add_argument("--seed", default=None, help="the game's seed (a new one if absent)")
    args = parser.parse_args(argv)
    lo, hi = PLAYERS[args.variant]
    seats = args.seats or lo
    if not lo <= seats <= hi:
        parser.error(f"{args.variant} takes {lo} to {hi} seats")
    return run(args.variant, args.vs, seats, args.seed or new_seed(), stdin or sys.stdin, stdout or sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
