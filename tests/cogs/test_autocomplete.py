"""``/rummy play`` suggestions: at most 25, in the user's language, none out of turn, and a move
longer than Discord's 100-character value limit offered as a short token the bot resolves."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.config import Config
from bot.engine import new_game
from bot.service import GameService, Refusal
from bot.store import Database
from bot.store.repo import update_game
from cogs.guard import Guard
from cogs.rummy import RummyCog
from cogs.suggest import resolve_token
from tests.cogs.doubles import SERVER_MEMBER


def long_move_position():
    """A rami game (table manipulation) where the player to move has a move over 100 characters."""
    for seed in range(200):
        game = new_game("rami", ["p1", "p2"], seed=f"long{seed}", options="table_manipulation=true")
        rnd = random.Random(seed)
        for _ in range(400):
            if game.hand_over:
                break
            seat = game.actors[0]
            legal = game.legal_moves(seat)
            if any(len(m) > 100 for m in legal):
                return game
            game.play(seat, rnd.choice(legal))
    raise AssertionError("no position with a long move")


def interaction(user_id: int, channel_id: int, locale: str = "es-ES"):
    return SimpleNamespace(channel_id=channel_id, guild_id=1, user=SimpleNamespace(id=user_id),
                           locale=discord.Locale(locale), client=SimpleNamespace(**SERVER_MEMBER))


@pytest.fixture
async def env(tmp_path: Path):
    db = await Database.open(tmp_path / "rummy.sqlite3")
    svc = GameService(db)
    settings = Config(token="t")
    cog = RummyCog(SimpleNamespace(service=svc, settings=settings, guard=Guard(settings.flood), **SERVER_MEMBER))
    yield svc, cog, db
    await db.close()


async def test_long_moves_become_tokens_that_resolve_and_play(env):
    svc, cog, db = env
    game = long_move_position()
    change = await svc.games.open_lobby(guild_id=1, channel_id=5, host_id=10, host_name="Ana", variant="rami",
                                        options="table_manipulation=true")
    await svc.games.join(change.game.id, 11, "Bea")
    row = (await svc.games.start(change.game.id, 10)).game
    async with db.transaction() as tx:  # put the game in the position found above
        await update_game(tx, row.id, record=game.record(), version=row.version + 1)
    row = await svc.core.get(row.id)
    actor = row.by_seat(game.actors[0])
    other = next(s for s in row.seats if s.user_id != actor.user_id)

    choices = await cog.play_autocomplete(interaction(actor.user_id, 5), "")
    assert 0 < len(choices) <= 25
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in choices)
    legal = game.legal_moves(game.actors[0])
    tokens = [c for c in await cog.play_autocomplete(interaction(actor.user_id, 5), "table") if
              c.value.startswith("#")]
    assert tokens, "a move over 100 characters is offered as a token"
    move = await resolve_token(svc, row, actor.user_id, tokens[0].value)
    assert len(move) > 100 and move in legal
    assert (await svc.acting.play(row.id, actor.user_id, move)).game.version == row.version + 1
    # The token was for that version only.
    after = await svc.core.get(row.id)
    with pytest.raises(Refusal, match="stale_suggestion"):
        await resolve_token(svc, after, actor.user_id, tokens[0].value)
    # Whoever may not act now gets no suggestion.
    for seat in after.seats:
        if seat.seat not in svc.core.engine(after).actors:
            assert await cog.play_autocomplete(interaction(seat.user_id, 5), "") == []
    assert other.user_id != actor.user_id

async def test_suggestions_are_in_the_users_language_and_none_for_onlookers(env):
    svc, cog, _ = env
    change = await svc.games.open_lobby(guild_id=1, channel_id=6, host_id=10, host_name="Ana", variant="gin")
    await svc.games.join(change.game.id, 11, "Bea")
    row = (await svc.games.start(change.game.id, 10)).game
    actor = row.by_seat(svc.core.engine(row).actors[0])
    es = await cog.play_autocomplete(interaction(actor.user_id, 6, "es-ES"), "")
    en = await cog.play_autocomplete(interaction(actor.user_id, 6, "en-US"), "")
    assert [c.value for c in es] == [c.value for c in en] and [c.name for c in es] != [c.name for c in en]
    waiting = next(s for s in row.seats if s.user_id != actor.user_id)
    assert await cog.play_autocomplete(interaction(waiting.user_id, 6), "") == []
    assert await cog.play_autocomplete(interaction(999, 6), "") == []
