"""What comes back from a hand message is bounded by what that message offered (issue 15, hole 4).

What a user would notice if this failed: a forged select whose values are huge numbers, used as
bit positions unchecked, stalls the bot for seconds and takes hundreds of MB, so another player's
click goes unanswered ("This interaction failed"); a forged mask or meld number picks cards or
melds no message offered.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.engine import new_game
from bot.service import Refusal
from bot.service.changes import Seated
from cogs.guard import Guard
from cogs.hand import (
    PAGE,
    TABLE_TEXT_MAX,
    HandState,
    check_offered,
    hand_button,
    hand_message,
    hand_select,
    picked_mask,
    rearrange,
)
from tests.cogs.doubles import SERVER_MEMBER
from tests.cogs.test_hand_message import row_for

HUGE = ["2000000000", "1999999999", "2147483647"]


def offered(size: int) -> list[list[str]]:
    """The option values of each page of the select of a real hand message of ``size`` cards."""
    game = new_game("rami", ["p1", "p2"], seed=1, options="discard_mode=multiple")
    seat = "p1"
    game.hands[seat] = game.hands[seat][:size] if size <= len(game.hands[seat]) else game.hands[seat]
    while len(game.hands[seat]) < size:  # grow the hand from the stock (a rami hand can pass 25 cards)
        game.hands[seat].append(game.stock.pop())
    _, view = hand_message(row_for(game, "rami"), game, seat, HandState(1, 7), "en")
    pages = [c for c in view.children if getattr(c, "custom_id", "").startswith("rummy:s")]
    return [[o.value for o in page.item.options] for page in pages]  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [1, 7, 14, 25, 26, 40])
def test_every_value_the_select_offered_is_accepted(size: int) -> None:
    pages = offered(size)
    assert sum(len(p) for p in pages) == size
    for page, values in enumerate(pages):
        assert picked_mask(values, page, size) == sum(1 << int(v) for v in values)
        assert picked_mask([], page, size) == 0
        assert picked_mask(values[:1], page, size) == 1 << (page * PAGE)


@pytest.mark.parametrize("values", [
    HUGE, ["1" + "0" * 40], ["-1"], ["²"], ["1e3"], [" 1"], ["0x1"], [""], ["01"], ["0", "11"],
    [str(i) for i in range(11)] + ["0"],  # more values than the page has options
])
def test_values_the_select_did_not_offer_are_refused(values: list[str]) -> None:
    """An 11-card hand: its one page offers "0" to "10"."""
    with pytest.raises(Refusal) as info:
        picked_mask(values, 0, 11)
    assert info.value.code == "not_offered"


@pytest.mark.parametrize(("page", "values", "size"), [
    (1, ["3"], 30),  # page 1 offers 25..29
    (1, ["30"], 30),
    (1, ["25"], 25),  # a 25-card hand has no page 1
    (2, ["50"], 60),  # there are two pages at most
    (9, ["225"], 300),
])
def test_a_value_of_another_page_or_of_a_page_that_does_not_exist_is_refused(page: int, values: list[str],
                                                                              size: int) -> None:
    with pytest.raises(Refusal):
        picked_mask(values, page, size)


def test_huge_values_are_refused_before_they_become_numbers() -> None:
    """The probe's 2·10⁹ became ``1 << 2000000000`` (864 MB); the check reads the text first, so
    no such number is ever made (speed is bench work: this checks what is refused and why)."""
    with pytest.raises(Refusal) as refused:
        picked_mask(HUGE, 0, 11)
    assert refused.value.code == "not_offered"


def test_a_mask_or_meld_number_no_message_offered_is_refused() -> None:
    check_offered(HandState(1, 7, (1 << 11) - 1, 2), 11)  # every card of an 11-card hand
    check_offered(HandState(1, 7, 1, 0), 11, "layoff", 3, melds=3)
    check_offered(HandState(1, 7, 1, 0), 11, "swap", 1, melds=1)
    check_offered(HandState(1, 7, 1, 0), 11, "discard", None, melds=0)
    for state, verb, arg, melds in [
        (HandState(1, 7, 1 << 11, 0), None, None, 0),  # a card past the hand
        (HandState(1, 7, 2 ** 63, 0), "discard", None, 0),
        (HandState(1, 7, 0, 3), None, None, 0),  # no fourth sort
        (HandState(1, 7, 1, 0), "layoff", 4, 3),  # no meld 4 on the table
        (HandState(1, 7, 1, 0), "layoff", 0, 3),
        (HandState(1, 7, 1, 0), "layoff", 999, 3),
        (HandState(1, 7, 1, 0), "discard", 1, 3),  # a discard takes no meld number
    ]:
        with pytest.raises(Refusal) as info:
            check_offered(state, 11, verb, arg, melds)
        assert info.value.code == "not_offered"


REFUSED = "That choice was not offered on this message: nothing was done."


def fake_interaction(service: Any) -> tuple[discord.Interaction, list[tuple[str, bool]]]:
    """An interaction the guard takes, answered into ``sent``; ``service`` is the client's."""
    sent: list[tuple[str, bool]] = []

    async def defer(**_: Any) -> None:
        response.done = True

    async def send(text: str, *, ephemeral: bool = False, **_: Any) -> None:
        sent.append((text, ephemeral))

    response = SimpleNamespace(done=False, defer=defer)
    response.is_done = lambda: response.done
    client = SimpleNamespace(stopping=False, guard=Guard(None), service=service, **SERVER_MEMBER)

    class FakeInteraction(discord.Interaction):  # what the guard looks for; only what the handlers read
        client = response = followup = user = locale = id = extras = guild_id = channel_id = None  # type: ignore[assignment]

        def __init__(self) -> None:
            self.__dict__.update(client=client, user=SimpleNamespace(id=1000), locale=discord.Locale("en-US"),
                                 id=99, extras={}, response=response, followup=SimpleNamespace(send=send),
                                 guild_id=1, channel_id=5)

    return FakeInteraction(), sent


def service_for(game: Any, row: Any, asked: list[str]) -> Any:
    """The service as the hand's handlers see it: they open the game with ``seat_at`` (the
    player's seat, checked by the service) and play with ``act``."""
    async def seat_at(place: int | None, user_id: int, game_id: int, **_: Any) -> Seated:
        asked.append("seat_at")
        return Seated(row, row.seat_of(user_id))

    async def play(*_: Any, **__: Any) -> None:
        asked.append("play")
        raise AssertionError("a refused value must not be played")

    return SimpleNamespace(acting=SimpleNamespace(seat_at=seat_at, act=play, play=play),
                           core=SimpleNamespace(engine=lambda _: game))


async def test_the_hand_handlers_refuse_values_no_message_offered_and_play_nothing() -> None:
    game = new_game("gin", ["p1", "p2"], seed=2)
    row = replace(row_for(game, "gin"), version=7)
    asked: list[str] = []
    service = service_for(game, row, asked)
    it, sent = fake_interaction(service)
    await hand_select(it, 0, HUGE, HandState(1, 7))
    it2, sent2 = fake_interaction(service)
    await hand_button(it2, "layoff", 99, HandState(1, 7, 1, 0))
    it3, sent3 = fake_interaction(service)
    await hand_button(it3, "discard", None, HandState(1, 7, 1 << 40, 0))
    assert sent == sent2 == sent3 == [(REFUSED, True)]
    assert "play" not in asked


async def test_a_rearrangement_longer_than_the_modal_offered_is_refused_without_asking_the_service() -> None:
    asked: list[int] = []

    async def get(game_id: int) -> None:
        asked.append(game_id)

    it, sent = fake_interaction(SimpleNamespace(core=SimpleNamespace(get=get)))
    await rearrange(it, 1, 7, "x" * (TABLE_TEXT_MAX + 1))
    assert asked == []
    assert sent == [(REFUSED, True)]
