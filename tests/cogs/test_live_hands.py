"""Each player's one private hand (issue 36, ``cogs.live``): which message it is while its token
may edit it, and the sort the player chose.

What a user would notice if these failed: a hand edited after Discord stopped accepting its
token (an error instead of the My hand button's fresh one), hands of one game shown in another,
or the order of the cards going back to suits on every new hand.
"""

from __future__ import annotations

from types import SimpleNamespace

from cogs.live import LIVE_FOR, TOKEN_LIFETIME, HandBook, default_sort, hand_signature


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_live_hand_is_used_only_while_its_token_is_younger_than_the_margin() -> None:
    clock = Clock()
    book = HandBook(clock)
    assert LIVE_FOR < TOKEN_LIFETIME
    book.shown(1, 7, "interaction", 55, ("x",), issued=clock.now - 60)  # the token came a minute ago
    live = book.live(1, 7)
    assert live is not None and live.message_id == 55 and book.players(1) == [7]
    assert book.live(2, 7) is None and book.live(1, 8) is None  # per game and per user
    clock.now += LIVE_FOR - 61
    assert book.live(1, 7) is not None
    clock.now += 2
    assert book.live(1, 7) is None and book.players(1) == []  # past the margin: My hand is the way back


def test_a_newer_hand_replaces_the_older_and_an_edit_keeps_the_token() -> None:
    clock = Clock()
    book = HandBook(clock)
    book.shown(1, 7, "first", 55, ("a",))
    book.shown(1, 7, "second", 56, ("b",))
    live = book.live(1, 7)
    assert live is not None and (live.interaction, live.message_id) == ("second", 56)
    book.edited(1, 7, ("c",))
    live = book.live(1, 7)
    assert live is not None and (live.interaction, live.signature) == ("second", ("c",))
    book.forget(1, 7)
    assert book.live(1, 7) is None


def test_the_chosen_sort_is_kept_per_game_and_gin_starts_by_melds() -> None:
    book = HandBook(Clock())
    gin, rami = SimpleNamespace(variant="gin"), SimpleNamespace(variant="rami")
    assert default_sort(gin) == 2 and default_sort(rami) == 0
    assert book.sort(1, 7, default_sort(gin)) == 2
    book.chose_sort(1, 7, 0)
    assert book.sort(1, 7, 2) == 0 and book.sort(2, 7, 2) == 2


def test_a_hands_signature_leaves_out_the_version() -> None:
    def view(version: int) -> SimpleNamespace:
        return SimpleNamespace(children=[SimpleNamespace(custom_id=f"rummy:s0:1:{version}:0:2", options=[]),
                                         SimpleNamespace(custom_id=f"rummy:h:draw:1:{version}:0:2")])

    assert hand_signature("Te toca", view(3)) == hand_signature("Te toca", view(9))
    assert hand_signature("Te toca", view(3)) != hand_signature("Turno de Ana.", view(3))
