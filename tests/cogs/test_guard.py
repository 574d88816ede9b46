"""The one guard (``cogs.guard``): every command and every item handler goes through it, and what
it answers for each way a handler can end.

What a user would notice if this failed: a click that says "This interaction failed" instead of
why it was refused, a refusal naming seats by their ids, a flooding user making the bot work, a
restart losing a move that was being played, or a command that escapes the flood limit.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.engine import IllegalMove
from bot.service import GameStatus, Refusal, Stale
from cogs import admin, builder, hand, hints, lobby, pick, rummy, table, tournament
from cogs.guard import Guard, guarded
from tests.cogs.doubles import SERVER_MEMBER


class FakeResponse:
    def __init__(self, sent: list[tuple[str, bool]]) -> None:
        self.sent = sent
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, ephemeral: bool = False, **_: Any) -> None:
        self.done = True
        self.sent.append((text, ephemeral))


def interaction(guard: Guard, *, user: int = 1, stopping: bool = False) -> Any:
    sent: list[tuple[str, bool]] = []
    reposted: list[int] = []

    async def post_table(game_id: int, *, repost: bool = False, note: str | None = None) -> None:
        reposted.append(game_id)

    client = SimpleNamespace(stopping=stopping, guard=guard, announcer=SimpleNamespace(post_table=post_table),
                             **SERVER_MEMBER)
    followup = SimpleNamespace(send=None)
    it = SimpleNamespace(client=client, user=SimpleNamespace(id=user), locale=discord.Locale("en-US"), id=99,
                         guild_id=1, channel_id=5, extras={}, response=FakeResponse(sent), followup=followup, sent=sent,
                         reposted=reposted)

    async def send(text: str, *, ephemeral: bool = False, **_: Any) -> None:
        sent.append((text, ephemeral))

    followup.send = send
    return it


async def raising(exc: BaseException) -> None:
    raise exc


async def test_refusals_are_answered_privately_in_the_users_language() -> None:
    guard = Guard(None)
    it = interaction(guard)
    await guard.run(it, raising(Refusal("no_game")))
    assert it.sent == [("There is no lobby or game in this channel.", True)]
    # The engine's refusals name seats by the names the handler left on the interaction.
    it = interaction(guard)
    it.extras["names"] = {"p2": "Bea"}
    await guard.run(it, raising(IllegalMove("not_your_turn", "no", {"seat": "p1", "turn": "p2"})))
    assert it.sent == [("It is not your turn: it is Bea's turn now.", True)]


async def test_an_out_of_date_click_is_told_so_and_gets_a_fresh_table() -> None:
    guard = Guard(None)
    it = interaction(guard)
    await guard.run(it, raising(Stale(SimpleNamespace(id=7))))  # type: ignore[arg-type]
    assert len(it.sent) == 1 and "out of date" in it.sent[0][0] and it.sent[0][1]
    assert it.reposted == [7]


async def test_a_failure_is_logged_and_answered_without_details(caplog: pytest.LogCaptureFixture) -> None:
    guard = Guard(None)
    it = interaction(guard)
    await guard.run(it, raising(KeyError("secret hand")))
    assert it.sent == [("Something failed on our side; nothing changed. Please try again.", True)]
    assert "interaction 99 failed" in caplog.text


async def test_flooding_and_stopping_do_no_work() -> None:
    guard = Guard((1.0, 2))
    ran: list[int] = []

    async def work() -> None:
        ran.append(1)

    for _ in range(3):
        it = interaction(guard)
        await guard.run(it, work())
    assert len(ran) == 2 and "Too many clicks" in it.sent[0][0] and it.sent[0][1]
    it = interaction(guard, user=2, stopping=True)
    await guard.run(it, work())
    assert len(ran) == 2 and "restarting" in it.sent[0][0]



async def test_a_second_table_repost_within_the_cooldown_is_refused_privately_and_posts_nothing() -> None:
    """``/rummy table`` (issue 15, hole 5): one re-post per channel per ``REPOST_COOLDOWN``, even
    with the flood limit off; the refusal says when to ask again."""
    guard = Guard(None)
    row = SimpleNamespace(id=5, guild_id=1, channel_id=10, place=10, status=GameStatus.PLAYING)

    async def in_thread(channel_id: int) -> Any:
        return None

    async def seated_games(guild_id: int, user_id: int) -> list[Any]:
        return []

    async def channel_games(channel_id: int) -> list[Any]:
        return [row] if channel_id == row.channel_id else []

    cog = rummy.RummyCog(SimpleNamespace())  # type: ignore[arg-type]
    handler = rummy.RummyCog.table.callback.__wrapped__  # type: ignore[attr-defined]  # the guard runs it here
    reposted: list[int] = []
    for user in (1, 2):
        it = interaction(guard, user=user)
        it.client.service = SimpleNamespace(threads=SimpleNamespace(in_thread=in_thread, seated_games=seated_games,
                                                                    channel_games=channel_games))
        it.guild_id, it.channel_id = row.guild_id, row.channel_id
        cog.bot = it.client
        await guard.run(it, handler(cog, it))
        reposted += it.reposted
    assert it.sent == [("The table was posted again moments ago: you can ask again in 30 s. Nothing was posted.",
                        True)]
    assert reposted == [5]  # the first re-post only
    assert guard.repost_wait(11) == 0.0  # another channel has a cooldown of its own

async def test_a_graceful_stop_waits_for_the_handlers_in_flight() -> None:
    guard = Guard(None)
    gate = asyncio.Event()

    async def slow() -> None:
        await gate.wait()

    task = asyncio.create_task(guard.run(interaction(guard), slow()))
    await asyncio.sleep(0)
    assert await guard.drain(0.05) == 1
    gate.set()
    assert await guard.drain(1.0) == 0
    await task


async def _nothing() -> None:
    return None


GUARDED = guarded(_nothing).__code__  # every guarded handler runs this wrapper's code


async def test_every_command_and_item_handler_is_guarded() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.config = Config(token="t")  # type: ignore[attr-defined]
    bot.item_patterns = []  # type: ignore[attr-defined]
    await rummy.setup(bot)
    await admin.setup(bot)
    names = set()
    for group in bot.tree.get_commands():
        for command in group.walk_commands():  # type: ignore[union-attr]
            if isinstance(command, app_commands.Group):  # a sub-group (rummy-admin tournament): its commands follow
                continue
            assert command.callback.__code__ is GUARDED, command.qualified_name
            names.add(command.qualified_name)
    assert {"rummy new", "rummy play", "rummy resign", "rummy ladder", "rummy-admin void", "rummy-admin audit",
            "rummy-admin reset-ratings", "rummy remove", "rummy-admin adjust", "rummy-admin undo",
            "rummy-admin tournament new", "rummy-admin tournament manage", "rummy tournament"} <= names
    # Items reach module-level handlers, each guarded.
    for fn in (lobby.lobby_button, lobby.remove_picked, table.table_button, hand.hand_button, hand.hand_select,
               hand.rearrange, admin.confirm_new_season, admin.confirm_reset_ratings, admin.confirm_amend,
               rummy.refuse_unknown, hints.play_hint, builder.builder_button, builder.builder_select, pick.picked,
               tournament.tournament_button):
        assert fn.__code__ is GUARDED, fn.__name__
    # Every persistent item's custom_id is known to the listener that answers unknown ones.
    assert len(bot.item_patterns) == 16  # type: ignore[attr-defined]
