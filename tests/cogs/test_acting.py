"""The wing's one way to act on a game (issue 35, ``cogs.acting``), on a real service.

What a user would notice if this failed: a move played in another server's game from a forged
button, an engine refusal that names seats by their ids ("it is p2's turn"), the table announced
before the player's own hand is redrawn, or a move announced that was refused.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.engine import Move, Verb
from bot.service import Change, GameService
from bot.store import Database
from cogs import acting
from cogs.guard import Guard
from tests.bot.helpers import GUILD, Clock, started, uid
from tests.cogs.doubles import SERVER_MEMBER


@pytest.fixture
async def svc(tmp_path: Path):
    db = await Database.open(tmp_path / "rummy.db")
    yield GameService(db, clock=Clock())
    await db.close()


def clicked(svc: GameService, user: int, *, guild: int = GUILD) -> Any:
    """An interaction of ``user`` in server ``guild`` (one the bot is a member of), answered into ``sent``."""
    done: list[str] = []
    sent: list[tuple[str, bool]] = []

    async def announce(change: Change) -> None:
        done.append(f"announce {change.move}")

    async def send(text: str, *, ephemeral: bool = False, **_: Any) -> None:
        sent.append((text, ephemeral))

    response = SimpleNamespace(is_done=lambda: True)
    client = SimpleNamespace(service=svc, guard=Guard(None), stopping=False,
                             announcer=SimpleNamespace(announce=announce), **SERVER_MEMBER)
    return SimpleNamespace(client=client, user=SimpleNamespace(id=user), guild_id=guild, channel_id=100, id=4242,
                           locale=discord.Locale("en-US"), extras={}, response=response,
                           followup=SimpleNamespace(send=send), done=done, sent=sent)


async def test_a_move_is_answered_then_announced(svc: GameService) -> None:
    row = await started(svc, "gin", 2, seed="wing")
    game = svc.core.engine(row)
    move = game.legal_moves(game.actors[0])[0]
    me = uid(row, game.actors[0])
    it = clicked(svc, me)

    async def answer(change: Change) -> None:
        it.done.append(f"answer {change.move} by {change.seated.seat.user_id}")

    change = await acting.act(it, row.id, move, version=row.version, answer=answer)
    assert it.done == [f"answer {move} by {me}", f"announce {move}"]
    assert change.game.version == row.version + 1


async def test_an_engine_refusal_names_the_seats_and_nothing_is_announced(svc: GameService) -> None:
    row = await started(svc, "gin", 2, seed="wing")
    game = svc.core.engine(row)
    waiting = next(s for s in row.seats if s.seat not in game.actors)
    it = clicked(svc, waiting.user_id)

    async def answer(_: Change) -> None:
        raise AssertionError("a refused move is not answered as played")

    await it.client.guard.run(it, acting.act(it, row.id, Move.of(Verb.DRAW), answer=answer))
    assert it.extras == {} and it.done == []  # the service's own "not your turn": no seat named
    await it.client.guard.run(it, acting.act(it, row.id, Move.of(Verb.DRAW, ["ZZ"]), answer=answer))
    assert it.done == [] and len(it.sent) == 2 and all(private for _, private in it.sent)
    # The engine's refusal of a malformed move, by the player on turn, names seats by their names.
    me = uid(row, game.actors[0])
    it = clicked(svc, me)
    await it.client.guard.run(it, acting.act(it, row.id, Move.of(Verb.DISCARD, ["KS"]), answer=answer))
    assert it.extras.get("names") == row.names and it.done == []
    assert (await svc.core.get(row.id)).version == row.version


async def test_a_game_of_another_server_is_no_game_and_is_not_touched(svc: GameService) -> None:
    row = await started(svc, "gin", 2, seed="wing")
    me = uid(row, svc.core.engine(row).actors[0])
    it = clicked(svc, me, guild=GUILD + 1)

    async def answer(_: Change) -> None:
        raise AssertionError("nothing is played elsewhere")

    await it.client.guard.run(it, acting.act(it, row.id, Move.of(Verb.DRAW), answer=answer))
    assert it.sent == [("There is no lobby or game in this channel.", True)] and it.extras == {}
    assert (await svc.core.get(row.id)).version == row.version
