"""``Game.play``'s door (issue 35): a typed move end to end. ``legal_moves`` lists ``Move``s built
from their parts; text is read once (``Move.read``) and the move is dispatched on its verb; the
refusals keep their codes in notation.md's order (whose turn, then the variant's verbs, then the
handler's rules, and the shape last); a deal's state is one ``Deal``, new every deal."""

from __future__ import annotations

import pickle
import random

import pytest

from bot.engine import VARIANTS, IllegalMove, Move, Verb, load_game, log_moves, new_game
from bot.engine.state import Deal, DummyDeal, GinDeal, RamiDeal, TradicionalDeal


def _parts(move: Move) -> tuple[object, ...]:
    return (move.verb, move.cards, move.target, move.melds)


def _played(variant: str, deals: int = 2) -> tuple[list[Move], list[str]]:
    listed: list[Move] = []
    lines: list[str] = []
    for n in range(deals):
        seats = ["ana", "bea"] if variant == "gin" else ["ana", "bea", "cris"]
        game = new_game(variant, seats, seed=f"door{variant}{n}")
        rng = random.Random(n)
        for _ in range(300):
            if game.hand_over:
                break
            seat = game.actors[0]
            moves = game.legal_moves(seat)
            listed += moves
            game.play(seat, rng.choice(moves))
        lines += game.log
    return listed, lines


@pytest.mark.parametrize("variant", VARIANTS)
def test_listed_moves_are_moves_whose_parts_their_text_reads_back(variant):
    listed, lines = _played(variant)
    assert listed and all(isinstance(m, Move) for m in listed)
    for move in listed:
        assert _parts(Move.parse(str(move))) == _parts(move), move
    for _, move in log_moves(lines):  # and the record's lines read at the door as parse reads them
        read = Move.read(str(move))
        assert _parts(read) == _parts(move) and read.refusal is None, move


def test_read_keeps_what_parse_refuses_for_the_game_to_judge():
    layoff = Move.read("layoff 7H")  # no ``to``: no target, and no cards before a ``to``
    assert (layoff.verb, layoff.cards, layoff.target) == (Verb.LAYOFF, (), None)
    assert layoff.refusal is not None and layoff.refusal.code == "bad_move"
    meld = Move.read("meld 5C  6C |")
    assert meld.melds == (("5C", "6C"), ()) and meld.refusal is not None
    assert meld.refusal.params == {"text": "5C  6C |"}  # as written, as parse reports it
    knock = Move.read("knock KD :")  # the knocker's own arrangement, of no meld
    assert knock.melds == ((),) and knock.refusal is None
    assert Move.parse("knock KD :").melds == ()  # parse: the engine arranges
    for text, code in (("", "bad_move"), ("fly KS", "unknown_move")):
        with pytest.raises(IllegalMove) as err:
            Move.read(text)
        assert err.value.code == code


def _refusal(game, seat, move) -> tuple[str, dict[str, object]]:
    with pytest.raises(IllegalMove) as err:
        game.play(seat, move)
    return err.value.code, err.value.params


def test_whose_turn_and_the_phase_come_before_the_shape():
    game = new_game("basic", ["ana", "bea", "cris"], seed="door-order")
    seat = game.current_seat
    other = next(s for s in game.seats if s != seat)
    assert _refusal(game, other, "meld |")[0] == "not_your_turn"
    assert _refusal(game, seat, "layoff 7H")[0] == "wrong_phase"  # phase draw: written wrongly, or not
    code, params = _refusal(game, seat, "fly 7H")
    assert code == "unknown_move" and params == {"verb": "fly", "valid": ("draw", "take", "meld", "layoff", "discard")}
    assert all(type(v) is str for v in params["valid"])  # plain words, as the refusal's params always were
    assert _refusal(game, seat, Move.of(Verb.KNOCK, ["KS"]))[0] == "unknown_move"  # not a basic verb


def test_a_move_built_with_the_wrong_shape_is_refused_as_its_text_is():
    game = new_game("basic", ["ana", "bea", "cris"], seed="door-shape")
    seat = game.current_seat
    assert seat is not None
    card = game.hand(seat)[0]
    assert _refusal(game, seat, Move.of(Verb.DRAW, [card])) == _refusal(game, seat, f"draw {card}")
    assert _refusal(game, seat, f"draw {card}") == ("bad_move", {"verb": "draw"})
    game.play(seat, Move.of(Verb.DRAW))
    two = game.hand(seat)[:2]
    assert _refusal(game, seat, Move.of(Verb.DISCARD, two)) == _refusal(game, seat, "discard " + " ".join(two))
    assert _refusal(game, seat, Move(Verb.DISCARD, two))[0] == "bad_move"
    assert _refusal(game, seat, Move(Verb.LAYOFF, (card,)))[0] == "bad_move"  # no meld to go to
    assert _refusal(game, seat, Move(Verb.MELD))[0] == "bad_move"
    before = game.record()
    for move in (Move(Verb.DISCARD, two), f"layoff {card}"):
        with pytest.raises(IllegalMove):
            game.play(seat, move)
    assert game.record() == before  # refused: nothing changed


def test_the_record_gets_the_canonical_move_the_handler_returns():
    game = new_game("basic", ["ana", "bea", "cris"], seed="door-record")
    seat = game.current_seat
    assert seat is not None
    game.play(seat, "DRAW")
    card = next(c for c in game.hand(seat) if game.legal_moves(seat).count(Move.of(Verb.DISCARD, [c])))
    game.play(seat, Move.of(Verb.DISCARD, [card.lower()]))  # as a person might build it
    assert game.log[-2:] == [f"{seat} draw", f"{seat} discard {card}"]
    assert game.last_move == f"{seat} discard {card}"
    assert load_game(game.record()).record() == game.record()


@pytest.mark.parametrize("variant,kind", [
    ("basic", Deal), ("wrotham", Deal), ("gin", GinDeal), ("rami", RamiDeal),
    ("tradicional", TradicionalDeal), ("dummy", DummyDeal),
])
def test_every_deal_is_one_new_deal_state(variant, kind):
    seats = ["ana", "bea"] if variant == "gin" else ["ana", "bea", "cris"]
    game = new_game(variant, seats, seed=f"door-deal-{variant}")
    assert type(game.deal) is kind
    first = game.deal
    # The names the floors above read are the deal's (notation.md ``phase``, ``opened`` ...).
    assert game.hands is first.hands and game.stock is first.stock and game.phase is first.phase
    assert game.opened is first.opened and game.ledger is first.ledger and game.hand_over is first.hand_over
    copy = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))  # ``accepts`` tries moves on such a copy
    assert type(copy.deal) is kind and copy.deal == first and copy.deal is not first
    rng = random.Random(7)
    while not game.hand_over:
        seat = game.actors[0]
        game.play(seat, rng.choice(game.legal_moves(seat)))
    if not game.game_over:
        game.next_deal()
        assert type(game.deal) is kind and game.deal is not first
        assert not game.deal.ledger and game.deal.result is None and not game.deal.hand_over
