"""The lobby message's seat line: a variant played by a fixed number of people says "2 of 2",
not a range from 2 to 2 (issue 36)."""

from __future__ import annotations

from bot.engine import PLAYERS
from bot.service import GameRow, GameStatus, SeatRow
from cogs.lobby import lobby_message


def lobby(variant: str, locale: str) -> GameRow:
    seats = (SeatRow(0, 100, "p1", "Ana"), SeatRow(1, 101, "p2", "Bea"))
    return GameRow(id=7, guild_id=1, channel_id=55, host_id=100, variant=variant, options="", timer_minutes=0.0,
                   locale=locale, status=GameStatus.LOBBY, version=1, record=None, created_at=0.0, updated_at=0.0,
                   lobby_expires_at=None, turn_deadline=None, turn_reminded=False, window_deadline=None,
                   next_deal_at=None, table_message_id=None, table_posted_at=None, turn_message_id=None,
                   lobby_message_id=None, finished_at=None, seats=seats)


def test_a_fixed_number_of_seats_is_not_a_range() -> None:
    fixed = next(v for v, (lo, hi) in PLAYERS.items() if lo == hi)
    lo, hi = PLAYERS[fixed]
    es, _ = lobby_message(lobby(fixed, "es"), "es")
    en, _ = lobby_message(lobby(fixed, "en"), "en")
    assert f"Jugadores (2 de {hi}): Ana (" in es and f"de {lo} a {hi}" not in es
    assert f"Players (2 of {hi}): Ana (" in en


def test_a_range_of_seats_is_said_as_one() -> None:
    ranged = next(v for v, (lo, hi) in PLAYERS.items() if lo < hi)
    lo, hi = PLAYERS[ranged]
    es, _ = lobby_message(lobby(ranged, "es"), "es")
    assert f"Jugadores (2; de {lo} a {hi}): Ana (" in es
