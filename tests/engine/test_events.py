"""``events = game.play(seat, move)`` returns everything the move caused (notation.md), including
the end of the deal and of the game when they come from the turn itself: the hand safety cap of
rules.md §0.4 (``hand_turn_limit``) is reached as the turn passes, after the discard (or rami's
``done``), so those events come out of ``end_turn``, not out of the move handler's own checks.

Two parts: one RGN position per variant where the next move reaches the cap, and seeded random
playouts of every variant (with the cap lowered so it is reached often) checking after every
move that a deal never ends, nor a game, without its event.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import EventKind
from tests.engine.playout import VARIANTS, random_options, random_setup
from tests.engine.rgn_helpers import load, roundtrip

K = EventKind
# The events that end a deal, per variant (a resignation that ends the game reports game_over).
DEAL_ENDS: dict[str, frozenset[EventKind]] = {
    "basic": frozenset({K.WENT_OUT, K.BLOCKED}),  # §1.4 exhaustion and the §0.4 cap: blocked
    "wrotham": frozenset({K.WENT_OUT, K.BLOCKED}),
    "gin": frozenset({K.DEAL_OVER, K.DEAL_VOID}),  # knock or gin; dead hand, wall, §0.4 cap: void
    "rami": frozenset({K.WENT_OUT, K.BLOCKED, K.DEAL_VOID}),  # §3.7 blocked; §0.4 cap: void
    "tradicional": frozenset({K.WENT_OUT, K.DEAL_VOID}),  # §0.4 cap and a restock with no cards: void
    "dummy": frozenset({K.WENT_OUT, K.DEAL_VOID}),  # no cards left to draw, §0.4 cap: void
}


def shuttle(first: str, second: str, cards: str) -> str:
    """RGN moves: ``first`` and ``second`` in turn draw the top stock card and discard it, one
    turn per card of ``cards`` (the stock from the top)."""
    seats = (first, second)
    return "\n".join(f"{seats[i % 2]} draw\n{seats[i % 2]} discard {c}" for i, c in enumerate(cards.split()))


def kinds(events: list) -> list[EventKind]:
    return [e.kind for e in events]


def param(events: list, kind: EventKind, name: str) -> object:
    (event,) = [e for e in events if e.kind == kind]
    return event.params.get(name)


# Positions with hand_turn_limit=20 (the lowest allowed): ana and bea draw the top stock card and
# discard it for 19 turns (NINETEEN), then bea draws AC; bea's discard ends the 20th turn.
NINETEEN = "8H 9H TH JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"

TWO_SEATS_TEN = """
    [Variant "{variant}"]
    [Options "hand_turn_limit=20{options}"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 3S 5S 7S 9S JS KS 2H 4H 6H"]
    [Hand "bea" "2S 4S 6S 8S TS QS AH 3H 5H 7H"]
    [Stock "{stock} AC 2C 3C 4C 5C 6C"]
    [Discard "7C"]
    [Turn "ana"]
"""


def at_the_cap(position: str, history: str) -> Any:
    """The game after ``history``: one turn short of the cap, nothing ended yet."""
    game = load(position + history + "\nbea draw\n")
    assert not game.hand_over and game.actors == ["bea"]
    return game


# ---------------------------------------------------------------------------------------------
# basic (§0.4: the cap scores the deal as blocked), with and without ending the game
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_end", ["", " game_end=hands:1"])
def test_basic_turn_cap_reports_blocked_and_game_over(game_end):
    position = TWO_SEATS_TEN.format(variant="basic", options=game_end, stock=NINETEEN)
    g = at_the_cap(position, shuttle("ana", "bea", NINETEEN))
    events = g.play("bea", "discard AC")
    assert g.hand_over and g.public_view().result.outcome == "blocked"
    if game_end:
        assert kinds(events) == [K.DISCARDED, K.BLOCKED, K.GAME_OVER] and g.game_over
        assert param(events, K.GAME_OVER, "winners") == g.winners
    else:
        assert kinds(events) == [K.DISCARDED, K.BLOCKED] and not g.game_over
    assert param(events, K.BLOCKED, "reason") == "turn_limit"
    roundtrip(g)


def test_basic_timeout_at_the_turn_cap_reports_blocked():
    # rules.md §0.4: the timeout rule plays the draw and a discard; the discard reaches the cap.
    position = TWO_SEATS_TEN.format(variant="basic", options="", stock=NINETEEN)
    g = load(position + shuttle("ana", "bea", NINETEEN) + "\n")
    events = g.timeout("bea")
    assert kinds(events) == [K.TIMED_OUT, K.DREW, K.DISCARDED, K.BLOCKED]
    assert g.hand_over
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# Wrotham deal 6 (§1.9): the cap blocks the last deal, which ends the game
# ---------------------------------------------------------------------------------------------
WROTHAM_DEAL_6 = """
    [Variant "wrotham"]
    [Options "hand_turn_limit=20"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Deal "6"]
    [Totals "ana=10 bea=4"]
    [Hand "ana" "AS 3S 5S 7S 9S JS KS 2H"]
    [Hand "bea" "2S 4S 6S 8S TS QS AH"]
    [Stock "3H 4H 5H 6H 7H {stock} AC 2C 3C"]
    [Discard ""]
    [Turn "ana"]
    [Phase "play"]
"""


def test_wrotham_turn_cap_in_the_last_deal_reports_game_over():
    # ana begins deal 6 holding eight cards and discarding (turn 1); 18 draw-and-discard turns
    # follow, then bea's 20th turn reaches the cap.
    cards = "3H 4H 5H 6H 7H " + " ".join(NINETEEN.split()[:13])
    g = at_the_cap(WROTHAM_DEAL_6.format(stock=NINETEEN), "ana discard 2H\n" + shuttle("bea", "ana", cards))
    events = g.play("bea", "discard 8D")
    assert kinds(events) == [K.DISCARDED, K.BLOCKED, K.GAME_OVER]
    assert param(events, K.BLOCKED, "reason") == "turn_limit"
    assert g.game_over and param(events, K.GAME_OVER, "winners") == g.winners
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# gin, tradicional, dummy, rami: the cap voids the deal (§0.4); a void deal never ends a game
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "options"),
    [("gin", ""), ("tradicional", ""), ("tradicional", " opt2_rummy_call=true"), ("dummy", " deal_size=10")],
)
def test_turn_cap_reports_the_void_deal(variant, options):
    position = TWO_SEATS_TEN.format(variant=variant, options=options, stock=NINETEEN)
    g = at_the_cap(position, shuttle("ana", "bea", NINETEEN))
    events = g.play("bea", "discard AC")
    assert kinds(events) == [K.DISCARDED, K.DEAL_VOID]
    assert g.hand_over and not g.game_over and g.public_view().result.outcome == "void"
    assert g.hand_points == {"ana": 0, "bea": 0}
    roundtrip(g)


RAMI = """
    [Variant "rami"]
    [Options "hand_turn_limit=20{options}"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "AS 3S 5S 7S 9S JS KS 2H 4H 6H 8H TH QH AD"]
    [Hand "bea" "2S 4S 6S 8S TS QS AH 3H 5H 7H 9H JH KH 2D"]
    [Stock "{stock} AC 2C 3C 4C 5C 6C"]
    [Discard ""]
    [Turn "ana"]
"""
RAMI_NINETEEN = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD 7C 8C 9C TC JC QC KC AS"


def test_rami_turn_cap_after_a_discard_reports_the_void_round():
    g = at_the_cap(RAMI.format(options="", stock=RAMI_NINETEEN), shuttle("ana", "bea", RAMI_NINETEEN))
    events = g.play("bea", "discard AC")
    assert kinds(events) == [K.DISCARDED, K.DEAL_VOID]
    assert param(events, K.DEAL_VOID, "reason") == "turn_limit"
    assert g.hand_over and not g.game_over and g.public_view().result.outcome == "void"
    roundtrip(g)


def test_rami_turn_cap_after_done_reports_the_void_round():
    # discard_mode=none (§3.7): a turn ends with done; the 20th done reaches the cap.
    history = "\n".join(f"{('ana', 'bea')[i % 2]} draw\n{('ana', 'bea')[i % 2]} done" for i in range(19))
    g = at_the_cap(RAMI.format(options=" discard_mode=none", stock=RAMI_NINETEEN), history)
    events = g.play("bea", "done")
    assert kinds(events) == [K.TURN_ENDED, K.DEAL_VOID]
    assert g.hand_over and g.public_view().result.outcome == "void"
    roundtrip(g)


# ---------------------------------------------------------------------------------------------
# seeded random playouts: no deal and no game ends without its event
# ---------------------------------------------------------------------------------------------
PLAYOUT_DEALS = 50  # deals per variant
MAX_DEALS_PER_GAME = 6
LOW_CAP = 0.75  # share of games with the cap lowered to 20-60 turns (the others keep 400)


def _wrong_events(variant: str, game: Any, events: list, hand_before: bool, game_before: bool) -> str | None:
    """What is wrong with the events of a move that left ``game`` as it is, or None."""
    found = kinds(events)
    ends = [k for k in found if k in DEAL_ENDS[variant]]
    if game.hand_over and not hand_before:
        if len(ends) != 1:
            return f"the deal ended with events {found}"
    elif ends:
        return f"{found}, but the deal did not end now"
    ended_game = game.game_over and not game_before
    if (K.GAME_OVER in found) != ended_game:
        return f"game_over became {game.game_over}, events {found}"
    if ended_game and (found[-1] != K.GAME_OVER or found.count(K.GAME_OVER) != 1):
        return f"the game ended with events {found}"
    return None


def _playout(variant: str, rng: random.Random, stats: dict[str, int]) -> int:
    """One game (random options, seats, start; mostly a low turn cap) with random listed moves and
    timeouts, checking every move's events; returns the number of deals played."""
    options = random_options(variant, rng)
    if rng.random() < LOW_CAP:
        options["hand_turn_limit"] = str(rng.randint(20, 60))
    setup = random_setup(variant, rng, options=options)
    game = setup.create()
    greed = rng.choice((0.2, 0.6, 0.9))  # chance of the first ("most useful") listed move
    deals = 0
    while deals < MAX_DEALS_PER_GAME:
        while not game.hand_over:
            seat = rng.choice(game.actors)
            hand_before, game_before = game.hand_over, game.game_over
            if rng.random() < 0.05:
                move, events = "timeout", game.timeout(seat)
            else:
                moves = game.legal_moves(seat)
                move = moves[0] if rng.random() < greed else rng.choice(moves)
                events = game.play(seat, move)
            wrong = _wrong_events(variant, game, events, hand_before, game_before)
            assert wrong is None, f"{variant} {setup.options_text()!r}: {seat} {move}: {wrong}\n{game.record()}"
            if game.hand_over and not hand_before:
                capped = any(
                    e.params.get("reason") == "turn_limit" or (variant == "tradicional" and e.kind == K.DEAL_VOID)
                    for e in events
                )
                stats["cap"] += capped
                stats["cap_game_over"] += capped and game.game_over
        deals += 1
        if game.game_over:
            stats["games_over"] += 1
            break
        events = game.next_deal()
        assert kinds(events) == [K.DEAL_STARTED]
    return deals


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_report_every_deal_and_game_end(variant):
    rng = random.Random(f"events:{variant}")
    stats = {"cap": 0, "cap_game_over": 0, "games_over": 0}
    deals = 0
    while deals < PLAYOUT_DEALS:
        deals += _playout(variant, random.Random(rng.randrange(2**63)), stats)
    # The playouts reach the cap, the end of a game (not dummy's: that takes twelve contracts),
    # and the end of a game at the cap where the variant has one (a blocked deal can end it).
    assert stats["cap"] > 0, stats
    assert stats["games_over"] > 0 or variant == "dummy", stats
    assert stats["cap_game_over"] > 0 or variant not in ("basic", "wrotham"), stats
