"""Every way a game can end posts its final message, drawn from the position as it stands
(issue 15, hole 7).

What a user would notice if this failed: a two-player game in which one player resigned (or
timed out three times, or was kicked by a manager) before the deal was over ends in silence: the
end-of-deal picture refuses a deal with no result, and neither the final message nor its Rematch
button is ever posted.

Each position is built by loading a record (RGN) of a deal in progress and playing ``resign`` the
way the service does for that ending; the announcer then announces the committed change.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.engine import VARIANTS, Game, load_game
from bot.service import Change, ChangeKind
from bot.service.endings import Outcome, settled_by
from bot.store.rows import GameRow, GameStatus, SeatRow
from cogs.announcer import Announcer, has_deal_result
from renderers import render_table
from scripts.played import played_game

WAYS = ("resign", "kick", "timeouts", "between_deals")


class Channel:
    """A channel that records what is sent to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str = "", **kwargs: Any) -> SimpleNamespace:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=1000 + len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        async def nothing(**_: Any) -> None:
            return None
        return SimpleNamespace(delete=nothing, edit=nothing)


def row_for(game: Game, variant: str) -> GameRow:
    seats = tuple(SeatRow(i, 100 + i, s.name, s.name.title()) for i, s in enumerate(game.public_view().seats))
    return GameRow(id=7, guild_id=1, channel_id=55, host_id=100, variant=variant, options="", timer_minutes=0.0,
                   locale="en", status=GameStatus.FINISHED, version=9, record=game.record(), created_at=0.0,
                   updated_at=0.0, lobby_expires_at=None, turn_deadline=None, turn_reminded=False,
                   window_deadline=None, next_deal_at=None, table_message_id=None, table_posted_at=None,
                   turn_message_id=None, lobby_message_id=None, finished_at=0.0, seats=seats)


def ended(variant: str, way: str) -> tuple[Game, Change]:
    """A two-player game of ``variant`` ended in ``way``, and the change the service commits for it."""
    dealt = played_game(variant, 2, seed=3, moves=None if way == "between_deals" else 5)
    game = load_game(dealt.record())  # the position comes from its record, as the bot loads it
    assert game.hand_over == (way == "between_deals") and not game.game_over
    to_move = game.current_seat or game.public_view().seats[0].name
    other = next(s.name for s in game.public_view().seats if s.name != to_move)
    if way == "timeouts":  # the third timeout in a row: the engine's timeout move, then the resignation
        events = game.timeout(to_move) + game.play(to_move, "resign")
        kind, seat = ChangeKind.TIMEOUT, to_move
    else:  # a resignation of the player to move, a manager's kick of the other (out of turn)
        seat = other if way == "kick" else to_move
        events, kind = game.play(seat, "resign"), ChangeKind.RESIGN
    assert game.game_over
    change = Change(kind, row_for(game, variant), game, seat=seat, move="resign", events=events,
                    turn_changed=True, deal_over=game.hand_over, game_over=True,
                    resigned_by_timeouts=seat if way == "timeouts" else None)
    return game, change


def announcer() -> tuple[Announcer, Channel]:
    channel = Channel()
    client: Any = SimpleNamespace(get_partial_messageable=lambda _: channel, user=SimpleNamespace(id=1))

    async def results(_: int) -> list[Any]:
        return []

    async def set_messages(_: int, **__: Any) -> None:
        return None

    marked: list[tuple[int, str]] = []

    async def delivered(change: Change, outcome: Outcome) -> bool:  # what the service marks of the report
        column = settled_by(change, outcome)
        if column is not None:
            marked.append((change.game.id, column))
        return False

    service: Any = SimpleNamespace(reading=SimpleNamespace(results=results),
                                   games=SimpleNamespace(set_messages=set_messages),
                                   core=SimpleNamespace(deal_pause=30.0), endings=SimpleNamespace(delivered=delivered),
                                   marked=marked)
    ann = Announcer(client, service)
    ann.request_table = lambda row, **_: None  # type: ignore[method-assign]  # the table edit is tested below
    return ann, channel


def rematch_ids(message: dict[str, Any]) -> list[str]:
    view = message.get("view")
    if not isinstance(view, discord.ui.View):
        return []
    return [str(getattr(i, "custom_id", "")) for i in view.children if "rematch" in str(getattr(i, "custom_id", ""))]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_end_of_a_game_posts_its_final_message_with_a_rematch_button(variant: str, way: str) -> None:
    game, change = ended(variant, way)
    ann, channel = announcer()
    await ann.announce(change)
    finals = [m for m in channel.sent if rematch_ids(m)]
    assert len(finals) == 1, [m["content"] for m in channel.sent]
    assert rematch_ids(finals[0]) == ["rummy:rematch:7"]
    assert ann.service.marked == [(7, "final_announced_at")]  # said: not owed at the next start
    winners = [change.game.names[w].replace("_", "\\_") for w in game.winners]
    assert all(w in finals[0]["content"] for w in winners)
    # The end of a deal that has a result is shown; a deal cut short by a resignation has none.
    deal_ends = [m for m in channel.sent if "file" in m]
    assert len(deal_ends) == (1 if way == "between_deals" else 0)
    assert has_deal_result(game) == (way == "between_deals")
    if way == "timeouts":
        assert any("time" in m["content"].lower() for m in channel.sent)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_draws_a_game_ended_mid_deal_as_it_stands(variant: str) -> None:
    game, _ = ended(variant, "resign")
    image = render_table(game.public_view(), locale="en")
    assert image.data


async def test_a_failing_deal_picture_does_not_lose_the_final_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong drawing the end of the deal, the game's end is still posted."""
    _, change = ended("gin", "between_deals")
    ann, channel = announcer()

    async def broken(*_: Any, **__: Any) -> None:
        raise ValueError("drawing failed")

    monkeypatch.setattr(ann, "_post_deal_end", broken)
    await ann.announce(change)
    assert [m for m in channel.sent if rematch_ids(m)]
