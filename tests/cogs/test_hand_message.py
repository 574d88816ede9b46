"""The private hand message keeps Discord's component rules for every variant and hand size.

Built with the real ``cogs.ui.hand_message`` from positions reached by random play (including
rami's "take many" discard mode and dummy's cut-ins, where hands grow past 21 cards, and decks
with duplicate cards)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import new_game
from bot.store import GameRow
from cogs.hand import PAGE, HandState, hand_message, hand_order, mask_of, selected_cards

CASES = [
    ("basic", 4, ""), ("wrotham", 3, ""), ("gin", 2, ""), ("rami", 6, "discard_mode=multiple"),
    ("tradicional", 4, ""), ("dummy", 4, "cut_ins=true"),
]


def row_for(game, variant: str) -> GameRow:
    from bot.store.repo import SeatRow

    seats = tuple(SeatRow(i, 1000 + i, s, f"P{i}") for i, s in enumerate(game.seats))
    return GameRow(1, 1, 1, 1000, variant, "", 5, "es", "playing", 7, None, 0, 0, None, None, False, None, None,
                   None, None, None, None, None, seats)


def check_components(view) -> None:
    rows = view.to_components()
    assert len(rows) <= 5
    ids = []
    for row in rows:
        comps = row["components"]
        assert 1 <= len(comps) <= 5
        for c in comps:
            assert len(c["custom_id"]) <= 100
            ids.append(c["custom_id"])
            if c["type"] == 3:
                assert len(comps) == 1  # a select is alone in its row
                values = [o["value"] for o in c["options"]]
                assert len(values) <= PAGE and len(set(values)) == len(values)
                assert all(len(o["label"]) <= 100 for o in c["options"])
                assert 1 <= c["max_values"] <= len(values)
            else:
                assert len(c.get("label") or "") <= 80
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(("variant", "seats", "options"), CASES)
def test_hand_message_respects_discord_limits_in_random_games(variant: str, seats: int, options: str) -> None:
    rnd = random.Random(variant)
    biggest = 0
    for game_no in range(2):
        game = new_game(variant, [f"p{i + 1}" for i in range(seats)], seed=f"ui{game_no}", options=options)
        row = row_for(game, variant)
        for step in range(250):
            if game.hand_over:
                break
            for seat in game.seats:
                if step % 7 and seat not in game.actors:
                    continue
                hand = game.hand(seat)
                biggest = max(biggest, len(hand))
                state = HandState(1, 7, mask=rnd.getrandbits(min(len(hand), 50)), sort=step % 3)
                content, view = hand_message(row, game, seat, state, "es")
                assert len(content) <= 2000
                check_components(view)
                # Every card of the hand can be picked (paging past 25 when needed).
                picked = sum(len(c["options"]) for r in view.to_components() for c in r["components"]
                             if c["type"] == 3 and c["custom_id"].startswith("rummy:s"))
                assert picked == min(len(hand), 2 * PAGE)
                # A one-pick discard (issue 36) offers every card a discard move names, and no button does it too.
                legal = game.legal_moves(seat)
                ids = [c.get("custom_id", "") for r in view.to_components() for c in r["components"]]
                discards = {m.cards[0] for m in legal if m.verb == "discard"}
                if discards and len(hand) <= PAGE:
                    assert any(i.startswith("rummy:hv:discard:") for i in ids), ids
                    assert not any(i.startswith("rummy:h:discard") for i in ids), ids
            seat = game.actors[0]
            game.play(seat, rnd.choice(game.legal_moves(seat)))
    assert biggest >= {"basic": 7, "wrotham": 7, "gin": 11, "rami": 15, "tradicional": 8, "dummy": 14}[variant]


def test_selection_survives_a_change_of_sort_with_duplicate_cards() -> None:
    game = new_game("rami", ["p1", "p2"], seed="dups", options="")
    order = hand_order(game, "p1", 0)
    cards = order[:3]
    state = HandState(1, 1, mask_of(order, cards), 0)
    assert sorted(selected_cards(game, "p1", state)) == sorted(cards)
    for sort in (1, 2):
        new = replace(state, sort=sort, mask=mask_of(hand_order(game, "p1", sort), cards))
        assert sorted(selected_cards(game, "p1", new)) == sorted(cards)
