"""The public table's picture lists this deal's moves since the acting seat's last turn (issue 36:
``render_table(..., recent=since_last_turn(game))``), drawn by the real announcer.

What a user would notice if this failed: coming back to the table after the others played, a
player sees the melds as they are now but not who drew, took or discarded what since their turn.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.engine import Game, load_game
from bot.service.reading import since_last_turn
from bot.store.rows import GameRow, GameStatus, SeatRow
from cogs.announcer import Announcer
from renderers import render_table
from scripts.played import played_game
from tests.cogs.test_game_end import Channel


def playing_row(game: Game) -> GameRow:
    seats = tuple(SeatRow(i, 100 + i, s, s.title()) for i, s in enumerate(game.seats))
    return GameRow(id=7, guild_id=1, channel_id=55, host_id=100, variant=game.variant, options="",
                   timer_minutes=0.0, locale="es", status=GameStatus.PLAYING, version=9, record=game.record(),
                   created_at=0.0, updated_at=0.0, lobby_expires_at=None, turn_deadline=None, turn_reminded=False,
                   window_deadline=None, next_deal_at=None, table_message_id=None, table_posted_at=None,
                   turn_message_id=None, lobby_message_id=None, finished_at=None, seats=seats)


def service_for(row: GameRow) -> Any:
    """The service as the announcer reads a table: the row, its engine, where the ids go."""
    async def get(_: int) -> GameRow:
        return row

    def engine(_: GameRow) -> Game:
        return load_game(row.record or "")

    async def set_messages(_: int, **__: Any) -> None:
        return None

    def reached(_: int) -> None:
        return None

    return SimpleNamespace(get=get, engine=engine, set_messages=set_messages, channel_reached=reached,
                           core=SimpleNamespace(get=get, engine=engine),
                           games=SimpleNamespace(set_messages=set_messages),
                           endings=SimpleNamespace(channel_reached=reached))


async def test_the_table_picture_shows_the_moves_since_the_actors_last_turn() -> None:
    game = load_game(played_game("basic", 4, seed=3, moves=37, options={"multiple_melds_per_turn": True}).record())
    recent = since_last_turn(game)
    assert len({line.split()[0] for line in recent}) == 4  # the three others' turns and the actor's own so far
    row = playing_row(game)
    channel = Channel()
    client: Any = SimpleNamespace(get_partial_messageable=lambda _: channel, user=SimpleNamespace(id=1))
    ann = Announcer(client, service_for(row))
    await ann.post_table(row.id, repost=True)
    [posted] = [m for m in channel.sent if "file" in m]
    data = posted["file"].fp.read()
    names = row.names
    assert data == render_table(game.public_view(), locale="es", names=names, recent=recent).data
    assert data != render_table(game.public_view(), locale="es", names=names).data
