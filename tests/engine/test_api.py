"""The engine's extensions for the bot (``bot.engine`` docstring): the rules questions the cogs,
the renderers and the service ask, answered by the engine itself.

``Phase`` / ``EventKind``, ``Game.resigned`` / ``eliminated`` / ``seats_out`` / ``first_deal`` on
every game, ``Game.can_rearrange`` (rules.md §4.3, §3.10), ``Game.meld_targets`` and
``RuleSet.window_seconds`` (§4.6, §5.5).
"""

from __future__ import annotations

import random

import pytest

from bot.engine import VARIANTS, Event, EventKind, Phase, load_game, make_rules, new_game
from tests.engine.rgn_helpers import load


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_has_a_phase_seats_out_and_first_deal(variant: str) -> None:
    game = new_game(variant, ["ana", "bea"], seed=3)
    assert isinstance(game.phase, Phase) and game.phase in (Phase.DRAW, Phase.PLAY, Phase.UPCARD)
    assert game.phase == game.phase.value  # a StrEnum: equal to the plain string
    assert game.public_view().phase == game.phase
    assert game.resigned == [] and game.eliminated == [] and game.seats_out == frozenset()
    assert game.first_deal == 1
    seat = game.actors[0]
    game.play(seat, game.legal_moves(seat)[0])
    assert isinstance(game.phase, Phase)
    game.play("bea", "resign")
    assert game.resigned == ["bea"] and game.seats_out == frozenset({"bea"})
    assert game.phase == Phase.OVER and game.game_over


def test_phase_from_a_record_is_a_phase() -> None:
    game = load("""
        [Variant "gin"]
        [Seats "ana bea"]
        [Hand "ana" "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"]
        [Turn "ana"]
        [Phase "play"]
    """)
    assert game.phase is Phase.PLAY


def test_first_deal_from_the_record() -> None:
    game = load_game('[Variant "wrotham"]\n[Seats "ana bea"]\n[Seed "7"]\n[Deal "4"]\n')
    assert game.first_deal == 4 and game.deal_no == 4


def test_eliminated_seats_are_out() -> None:
    game = load("""
        [Variant "rami"]
        [Options "scoring_mode=elimination"]
        [Seats "ana bea cy"]
        [Dealer "cy"]
        [Totals "ana=20 bea=150 cy=190"]
        [Hand "ana" "8H 9H"]
        [Hand "bea" "2C 3D"]
        [Hand "cy" "KD 5C"]
        [Table "ana: 5H 6H 7H"]
        [Opened "ana"]
        [Turn "ana"]
        [Phase "play"]
        ana layoff 8H to 1
        ana discard 9H
    """)
    assert game.eliminated == ["cy"] and game.resigned == []
    assert game.seats_out == frozenset({"cy"})


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_event_kind_is_an_event_kind(variant: str) -> None:
    rnd = random.Random(variant)
    game = new_game(variant, ["ana", "bea", "cy"] if variant != "gin" else ["ana", "bea"], seed=11,
                    options={"cut_ins": True} if variant == "dummy" else None)
    seen: set[str] = set()
    for step in range(600):
        if game.game_over:
            break
        if game.hand_over:
            events = game.next_deal()
        else:
            seat = game.actors[0]
            events = game.timeout(seat) if step % 7 == 0 else game.play(seat, rnd.choice(game.legal_moves(seat)))
        assert all(isinstance(e, Event) and isinstance(e.kind, EventKind) for e in events), events
        seen |= {e.kind for e in events}
    assert {"timed_out", "discarded"} <= seen
    assert EventKind("timed_out") == "timed_out" and EventKind.GAME_OVER.value == "game_over"


# ---------------------------------------------------------------- can_rearrange (§4.3, §3.10)
TRAD = """
    [Variant "tradicional"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "4H 4C KD QH"]
    [Hand "bea" "2C 3D 9S KC"]
    [Table "bea: 4D 5D 6D 7D"]
    [Turn "ana"]
    [Phase "{phase}"]
"""


def test_tradicional_rearranges_from_the_first_turn_in_the_play_phase() -> None:
    game = load(TRAD.format(phase="play"))
    assert game.can_rearrange("ana")
    assert not game.can_rearrange("bea")  # not bea's turn
    assert not load(TRAD.format(phase="draw")).can_rearrange("ana")


RAMI = """
    [Variant "rami"]
    [Options "table_manipulation={on}"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "4H 4C KD QH"]
    [Hand "bea" "2C 3D 4S KC"]
    [Table "bea: 4D 5D 6D 7D"]
    {opened}
    [Turn "ana"]
    [Phase "play"]
"""


@pytest.mark.parametrize(
    ("on", "opened", "expected"),
    [("true", '[Opened "ana bea"]', True), ("true", '[Opened "bea"]', False), ("false", '[Opened "ana bea"]', False)],
)
def test_rami_rearranges_once_opened_with_manipulation_on(on: str, opened: str, expected: bool) -> None:
    game = load(RAMI.format(on=on, opened=opened))
    assert game.can_rearrange("ana") is expected
    assert not game.can_rearrange("bea")


def test_other_variants_never_rearrange() -> None:
    game = load("""
        [Variant "basic"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "4H 4C KD QH"]
        [Table "bea: 4D 5D 6D"]
        [Turn "ana"]
        [Phase "play"]
    """)
    assert not game.can_rearrange("ana")


# ---------------------------------------------------------------- meld_targets
def test_meld_targets_lists_every_meld_the_cards_fit() -> None:
    game = load("""
        [Variant "basic"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "8D 9D 2C KS"]
        [Hand "bea" "3C 4C 5C 6C 2H"]
        [Table "bea: 5D 6D 7D | bea: 8S 8C 8H | bea: TD JD QD | bea: 9S 9C 9H"]
        [Placed "ana"]
        [Turn "ana"]
        [Phase "play"]
    """)
    before = game.record()
    assert game.meld_targets("ana", "layoff", ["8D"]) == [1, 2]
    assert game.meld_targets("ana", "layoff", ["9D"]) == [3, 4]
    assert game.meld_targets("ana", "layoff", ["KS"]) == []
    assert game.meld_targets("bea", "layoff", ["6C"]) == []  # not bea's turn
    assert game.record() == before and len(game.hand("ana")) == 4  # tried on copies only


def test_meld_targets_for_a_swap() -> None:
    game = load("""
        [Variant "wrotham"]
        [Seats "ana bea"]
        [Dealer "bea"]
        [Hand "ana" "5S 9C 2D"]
        [Hand "bea" "2C 3D 9H TC KS 7D 8C"]
        [Table "bea: 4S JK=5S 6S | bea: TH JH QH"]
        [Turn "ana"]
        [Phase "play"]
    """)
    assert game.meld_targets("ana", "swap", ["5S"]) == [1]
    assert game.meld_targets("ana", "swap", ["9C"]) == []


# ---------------------------------------------------------------- window_seconds (§4.6, §5.5)
@pytest.mark.parametrize(
    ("variant", "options", "seconds"),
    [
        ("tradicional", None, 5.0),
        ("tradicional", "claim_window_s=12", 12.0),
        ("dummy", None, 10.0),
        ("dummy", {"cut_window_s": 30}, 30.0),
        ("gin", None, None),
        ("rami", None, None),
        ("basic", None, None),
    ],
)
def test_window_seconds(variant: str, options: object, seconds: float | None) -> None:
    assert make_rules(variant, options).window_seconds == seconds  # type: ignore[arg-type]
