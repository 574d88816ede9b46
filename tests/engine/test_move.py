"""The typed ``Move``: it reads and writes every move the engine lists or records, and its verb
answers are the ones the hand buttons and the clock rely on (notation.md "Moves")."""

from __future__ import annotations

import random

import pytest

from bot.engine import HAND_VERBS, VARIANTS, IllegalMove, Move, Verb, keeps_ledger, log_moves, new_game, parse_line


def _games(variant: str, deals: int = 4) -> list[tuple[list[str], list[str]]]:
    """Random play of a few deals: every legal-move listing seen and the record lines written."""
    out = []
    for n in range(deals):
        seats = ["ana", "bea"] if variant == "gin" else ["ana", "bea", "cris"]
        game = new_game(variant, seats, seed=f"m{variant}{n}")
        rng = random.Random(n)
        listed: list[str] = []
        for _ in range(400):
            if game.game_over or game.hand_over:
                break
            seat = game.actors[0]
            moves = game.legal_moves(seat)
            listed += moves
            game.play(seat, Move.parse(rng.choice(moves)))  # play takes a Move
        out.append((listed, list(game.log)))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_listed_and_recorded_move_reads_and_writes_back_the_same(variant):
    for listed, log in _games(variant):
        for text in listed:
            assert str(Move.parse(text)) == text
        for line in log:
            seat, move = parse_line(line)
            assert f"{seat} {move}" == line


def test_parts_of_moves():
    assert Move.parse("layoff 7H 8H to 3") == Move(Verb.LAYOFF, ("7H", "8H"), 3)
    assert Move.parse("meld 5C 6C 7C | 9D 9S 9H").melds == (("5C", "6C", "7C"), ("9D", "9S", "9H"))
    assert Move.parse("meld 5C 6C 7C | 9D 9S 9H").cards == ("5C", "6C", "7C", "9D", "9S", "9H")
    knock = Move.parse("knock KD : 5S 5C 5D | 6S 6C 6D")
    assert (knock.verb, knock.card, len(knock.melds)) == (Verb.KNOCK, "KD", 2)
    assert str(Move.parse("KNOCK KD")) == "knock KD"
    assert Move.parse("discard JK").card == "JK"
    assert str(Move.of("layoff", ["7H"], to=2)) == "layoff 7H to 2"
    assert str(Move.of(Verb.MELD, ["5C", "6C", "7C"])) == "meld 5C 6C 7C"
    assert str(Move.table_of([["5C", "6C", "7C"], ["9D", "9S", "9H"]])) == "table 5C 6C 7C | 9D 9S 9H"
    assert str(Move.table_typed("5C 6C 7C\n\n 9D 9S 9H | KS KH KD ")) == "table 5C 6C 7C | 9D 9S 9H | KS KH KD"


@pytest.mark.parametrize("text,code", [
    ("", "bad_move"), ("   ", "bad_move"), ("fly KS", "unknown_move"), ("layoff 7H", "bad_move"),
    ("layoff 7H to x", "bad_move"), ("meld 5C 6C | ", "bad_move"), ("table 5C 6C 7C || 9D 9S 9H", "bad_move"),
])
def test_unreadable_moves_are_refused_with_a_code(text, code):
    with pytest.raises(IllegalMove) as err:
        Move.parse(text)
    assert err.value.code == code


@pytest.fixture(scope="module")
def played_moves() -> list[Move]:
    """Every move listed or recorded over a few random deals of every variant."""
    out: list[Move] = []
    for variant in VARIANTS:
        for listed, log in _games(variant, deals=2):
            out += [Move.parse(m) for m in listed]
            out += [move for _, move in log_moves(log)]
    return out


def test_verb_answers_hold_for_every_move_the_engine_lists_or_writes(played_moves):
    """Each verb's answer is checked against the moves themselves, not restated: a verb that
    ``needs_one_card`` is listed with exactly one card, ``needs_target`` exactly when a move names
    a meld ``to``, ``takes_cards`` exactly when the move carries hand cards (``table`` moves carry
    the whole table instead), and the clock's verb is never offered to a person."""
    seen = {m.verb for m in played_moves}
    assert {Verb.DISCARD, Verb.LAYOFF, Verb.MELD, Verb.DRAW, Verb.TAKE, Verb.PASS} <= seen  # not vacuous
    for m in played_moves:
        if m.verb.needs_one_card:
            assert len(m.cards) == 1, m
        assert m.verb.needs_target == (m.target is not None), m
        if m.verb is not Verb.TABLE:
            assert m.verb.takes_cards == bool(m.cards), m
    listed = [m for v in VARIANTS for listed, _ in _games(v, deals=1) for m in map(Move.parse, listed)]
    assert not any(m.verb.clock_only or not m.verb.from_hand for m in listed)  # resign, timeout: never listed


def test_every_verb_the_hand_offers_is_a_move_some_variant_lists(played_moves):
    """The hand's buttons (``HAND_VERBS``) cover every verb a person plays, and offer none that
    no variant ever lists; ``resign`` (the table's button) and ``timeout`` (the clock's) stay off it."""
    seen = {m.verb for m in played_moves}
    assert seen - {Verb.TIMEOUT} <= set(HAND_VERBS)
    assert Verb.RESIGN not in HAND_VERBS and Verb.TIMEOUT not in HAND_VERBS
    assert len(set(HAND_VERBS)) == len(HAND_VERBS)


def test_a_move_is_its_canonical_text_with_typed_parts():
    """notation.md: ``legal_moves`` lists ``str`` and ``play`` takes text; a ``Move`` is both."""
    move = Move.parse("  layoff 7H   8H to 3 ")
    assert move == "layoff 7H 8H to 3" and isinstance(move, str)
    assert (move.verb, move.cards, move.target) == (Verb.LAYOFF, ("7H", "8H"), 3)
    assert Move.parse(move) is move  # a Move is not read twice
    with pytest.raises(AttributeError):
        move.verb = Verb.DRAW  # type: ignore[misc]


def test_keeps_ledger_follows_the_rules():
    assert {v for v in VARIANTS if keeps_ledger(v)} == {"rami", "tradicional"}


def test_hand_after_is_the_seats_own_knowledge():
    game = new_game("basic", ["ana", "bea", "cris"], seed="after1")
    seat = game.current_seat
    assert seat is not None and {"draw", "take"} <= set(game.legal_moves(seat))
    record, before, top = game.record(), game.hand(seat), game.discard_pile[-1]
    assert sorted(game.hand_after(seat, "take")) == sorted([*before, top])
    assert game.hand_after(seat, Move.parse("draw")) is None  # an unseen card
    assert game.record() == record and game.hand(seat) == before  # the game itself is unchanged
    game.play(seat, "draw")
    card = game.hand(seat)[0]
    assert card not in game.hand_after(seat, f"discard {card}") or game.hand(seat).count(card) > 1
    assert len(game.hand_after(seat, f"discard {card}")) == len(game.hand(seat)) - 1
    with pytest.raises(IllegalMove):
        game.hand_after(seat, "take")  # already drew: refused, as play would


def test_rami_opening_draft_and_minimum():
    game = new_game("rami", ["ana", "bea"], seed="draft1", options={"table_manipulation": "true"})
    seat = game.current_seat
    assert seat is not None
    assert not game.may_build(seat)  # before the draw: not the play phase
    game.play(seat, "draw")
    assert game.may_build(seat) and not game.may_build(next(s for s in game.seats if s != seat))
    assert game.opening_minimum(seat) == int(game.rules["first_meld_min"])
    plain = new_game("rami", ["ana", "bea"], seed="draft1", options={"table_manipulation": "false"})
    s = plain.current_seat
    assert s is not None
    plain.play(s, "draw")
    assert not plain.may_build(s)


def test_log_moves_pass_over_the_deal_lines():
    lines = ["ana draw", "ana discard KS", '[Deal "2"]', "bea timeout"]
    assert [(s, str(m)) for s, m in log_moves(lines)] == [("ana", "draw"), ("ana", "discard KS"), ("bea", "timeout")]
