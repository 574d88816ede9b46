"""The token delivery of places the bot is not in (issue 24, ``cogs.anywhere``), without Discord.

What it is: the choices a user would notice — where a game counts (a place of its own, never a
server), who is refused (``/rummy-admin`` outside a server, a member whose answers Discord makes
private), which token shows a change (the newest living one with follow-ups left, never a sixth
follow-up, never a token past its margin, never one whose private reply is still to be filled),
that a message is edited only with the token that made it, and that a token never shows in a repr.
What it is not: the HTTP of it (tests/e2e/test_anywhere.py plays whole games against the fake).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.service import Refusal
from cogs.anywhere import (
    FOLLOWUP_BUDGET,
    FOLLOWUP_LIMIT,
    SERVER_FOLLOWUP_BUDGET,
    NoLiveToken,
    TokenBook,
    TokenDelivery,
    check_admin,
    check_new_game,
    place_key,
)

SERVER, STRANGER, GROUP_DM = 10, 20, 30


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def interaction(ident: int, *, guild: int | None = None, channel: int = GROUP_DM, external: bool = True,
                kind: discord.InteractionResponseType | None = discord.InteractionResponseType.deferred_message_update
                ) -> Any:
    client = SimpleNamespace(get_guild=lambda gid: object() if gid == SERVER else None)
    return SimpleNamespace(id=ident, token=f"secret-{ident}", application_id=1, guild_id=guild, channel_id=channel,
                           client=client, permissions=discord.Permissions(use_external_apps=external),
                           is_guild_integration=lambda: False,
                           response=SimpleNamespace(type=kind))


def test_standings_are_kept_per_place_never_under_a_server():
    assert place_key(interaction(1, guild=SERVER, channel=5)) == SERVER
    assert place_key(interaction(2, guild=STRANGER, channel=5)) == -5  # a server without the bot
    assert place_key(interaction(3)) == -GROUP_DM
    assert all(place_key(interaction(4, guild=g)) != g for g in (STRANGER,))


def test_refusals_outside_a_server_and_for_forced_private_answers():
    with pytest.raises(Refusal) as refused:
        check_admin(interaction(1))
    assert refused.value.code == "admin_outside"
    check_admin(interaction(2, guild=SERVER))  # a server that added the bot: allowed
    with pytest.raises(Refusal) as refused:
        check_new_game(interaction(3, guild=STRANGER, external=False))
    assert refused.value.code == "external_apps"
    check_new_game(interaction(4, guild=STRANGER))
    check_new_game(interaction(5))  # a group DM: app_permissions there never hold Send Messages


async def test_the_newest_living_token_posts_and_never_a_sixth_follow_up():
    clock = Clock()
    book = TokenBook(clock=clock)
    assert book.hold(interaction(1, guild=SERVER, channel=5)) is None  # the bot's own server: channels
    first = book.hold(interaction(1))
    assert first is not None
    assert await book.for_post(GROUP_DM) is first
    second = book.hold(interaction(2))
    assert await book.for_post(GROUP_DM) is second
    second.sent = FOLLOWUP_BUDGET
    assert FOLLOWUP_BUDGET < FOLLOWUP_LIMIT  # the handler keeps some for its private answers
    assert await book.for_post(GROUP_DM) is first  # the newest has none left
    clock.now += 13 * 60  # past the margin: neither is used, though Discord would still take them
    assert await book.for_post(GROUP_DM) is None


async def test_a_servers_tokens_carry_news_only_once_answered_and_are_never_written_down():
    """RUMMY_NEWS_BY_TOKEN (issue 37): in a server that added the bot, a player's living token
    may carry the game's news, but only after its own handler answered (the news is not taken for
    the player's answer), up to SERVER_FOLLOWUP_BUDGET, and it is never stored in the database."""
    clock = Clock()
    book = TokenBook(clock=clock, servers=True)
    kept: list[Any] = []

    class Keeper:
        async def keep_token(self, row: Any, message_id: int) -> None:
            kept.append(row)

    book.keeper = Keeper()  # type: ignore[assignment]
    click = interaction(1, guild=SERVER, channel=5)
    token = book.hold(click)
    assert token is not None and not token.limited and 5 not in book.places  # still the bot's channel
    assert await book.for_post(5) is None  # its handler has not answered yet
    book.settle(click)
    assert await book.for_post(5) is token
    await book.keep(token, 99)
    assert kept == []
    token.sent = SERVER_FOLLOWUP_BUDGET
    assert SERVER_FOLLOWUP_BUDGET > FOLLOWUP_LIMIT and await book.for_post(5) is None
    assert await book.for_post(GROUP_DM) is None  # one place's token never posts in another


async def test_a_private_thinking_reply_is_not_filled_by_a_public_post():
    book = TokenBook(clock=Clock())
    thinking = interaction(1, kind=discord.InteractionResponseType.deferred_channel_message)
    book.hold(thinking)
    assert await book.for_post(GROUP_DM) is None
    book.settle(thinking)  # its hand was sent: a follow-up is a message of its own now
    assert await book.for_post(GROUP_DM) is not None


async def test_without_a_token_nothing_is_sent_and_the_place_is_owed():
    clock = Clock()
    book = TokenBook(clock=clock)
    sent: list[str] = []

    class Hook:
        async def send(self, content: str, **_: Any) -> Any:
            sent.append(content)
            return SimpleNamespace(id=77)

        async def edit_message(self, message_id: int, **_: Any) -> None:
            sent.append(f"edit {message_id}")

    delivery = TokenDelivery(SimpleNamespace(), book)
    delivery.webhook = lambda token: Hook()  # type: ignore[method-assign]
    with pytest.raises(NoLiveToken):
        await delivery.post(GROUP_DM, "table")
    assert sent == [] and book.take_owed(GROUP_DM)
    book.hold(interaction(1))
    assert await delivery.post(GROUP_DM, "table") == 77
    await delivery.edit(GROUP_DM, 77, content="moved")  # with the token that made it
    clock.now += 13 * 60
    book.hold(interaction(2))  # a fresh token does not edit another token's message
    with pytest.raises(NoLiveToken):
        await delivery.edit(GROUP_DM, 77, content="moved again")
    assert sent == ["table", "edit 77"]


def test_a_token_never_shows_in_a_repr():
    book = TokenBook(clock=Clock())
    token = book.hold(interaction(1))
    assert token is not None and "secret-1" not in repr(token)
