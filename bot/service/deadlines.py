"""The clock's arithmetic: when each game next needs the clock, worked out from its row and game.

What it is: pure functions. After every committed change the service asks ``deadlines`` which
deadline columns to write: a person's turn timer (and its reminder), a computer player's short
pause, a claim or cut-in window, the pause between deals. Also who is left to play.
What it is not: no I/O, no lock, no clock of its own (``now`` is passed in); serving the
deadlines is ``bot.service.clock``.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Game, Phase, Verb, make_rules
from bot.store.rows import GameRow

from .options import split_options

WINDOW_SECONDS = 10  # claim / cut-in windows (bot option ``window=``)
REMIND_AT = 0.8  # the turn reminder at 80% of the timer
REMIND_LEAD = 1 - REMIND_AT  # ... that is, this much of the timer before the deadline


def deadlines(row: GameRow, before_seat: str | None, game: Game, now: float, *, deal_pause: float,
              bot_delay: float, renew: bool = False) -> dict[str, Any]:
    """When the clock next has something to do for this game (``games`` columns and values).
    ``before_seat``: whose turn it was before the change; ``renew``: the last deadline was a
    computer player's, so a person's turn gets its whole timer."""
    values = _human_deadlines(row, before_seat, game, now, deal_pause=deal_pause, renew=renew)
    if not game.game_over and not game.hand_over and bot_actors(row, game):
        # A computer player moves after a short pause, through the same clock as timeouts
        # (so after a restart it carries on by itself); it gets no reminder.
        values["turn_deadline"] = now + bot_delay
        values["turn_reminded"] = 1
    return values


def _human_deadlines(row: GameRow, before_seat: str | None, game: Game, now: float, *, deal_pause: float,
                     renew: bool) -> dict[str, Any]:
    values: dict[str, Any] = {"window_deadline": None, "next_deal_at": None}
    _, bot_opts = split_options(row.options)
    if game.game_over or (game.hand_over and not game.game_over):
        values["turn_deadline"] = None
        if game.hand_over and not game.game_over:
            values["next_deal_at"] = now + deal_pause
        return values
    if game.phase == Phase.WINDOW and can_pass(game):
        # The window's deadline runs from the discard that opened it (answers do not renew it),
        # and the next turn's timer starts when it closes: nobody times out while waiting.
        if row.window_deadline is not None:
            values["window_deadline"] = row.window_deadline
        else:
            values["window_deadline"] = now + window_seconds(row, bot_opts)
        values["turn_deadline"] = None
        values["turn_reminded"] = 0
        return values
    if renew or game.current_seat != before_seat or row.turn_deadline is None:
        values["turn_deadline"] = now + row.timer_minutes * 60 if row.timer_minutes > 0 else None
        values["turn_reminded"] = 0
    return values


def resumed_turn(row: GameRow, game: Game, now: float, *, bot_delay: float) -> dict[str, Any]:
    """After a restart: a running turn timer starts again, whole (a computer player's short
    pause likewise). Nothing else moves: a window or the pause between deals keeps its deadline."""
    if row.turn_deadline is None:
        return {}
    if bot_actors(row, game):
        return {"turn_deadline": now + bot_delay, "turn_reminded": True}
    if row.timer_minutes > 0:
        return {"turn_deadline": now + row.timer_minutes * 60, "turn_reminded": False}
    return {}


def remind_at(row: GameRow) -> float | None:
    """When this turn's reminder is due (``REMIND_AT`` of the timer), if the turn has a timer."""
    if row.turn_deadline is None:
        return None
    return row.turn_deadline - row.timer_minutes * 60 * REMIND_LEAD


def people_playing(row: GameRow, game: Game) -> list[str]:
    """The seats of people still in the game (not resigned, not eliminated)."""
    return [s.seat for s in row.seats if not s.is_bot and s.seat not in game.seats_out]


def bot_actors(row: GameRow, game: Game) -> list[str]:
    """The computer players among the seats to act now."""
    return [a for a in game.actors if (s := row.by_seat(a)) is not None and s.is_bot]


def can_pass(game: Game) -> bool:
    """A claim or cut-in window some seat may still pass on (the clock closes those)."""
    return any(m.verb is Verb.PASS for seat in game.actors for m in game.legal_moves(seat))


def window_seconds(row: GameRow, bot_opts: dict[str, int]) -> float:
    """The bot's ``window=`` if given, else the rule set's own window (tradicional
    ``claim_window_s``, dummy ``cut_window_s``), else ``WINDOW_SECONDS``."""
    if "window" in bot_opts:
        return bot_opts["window"]
    own = make_rules(row.variant, split_options(row.options)[0]).window_seconds
    return WINDOW_SECONDS if own is None else own
