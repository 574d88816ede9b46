"""GameService: the one place lobbies and games change.

What it is: every change follows the same path: take the game's lock, load the row (and the
engine's ``Game``, cached by version), check who may do it, apply the engine move, then commit the
new record, the next version, the deadlines and the action-log row (unique interaction id) in one
transaction. Only then does the caller say anything on Discord. The clock (turn timers, reminders,
claim windows, lobby expiry, the pause between deals) is served by ``tick``; ``resume`` is the
restart's recovery.
What it is not: no Discord and no pixels. Refusals raise ``Refusal`` (ours) or ``IllegalMove``
(the engine's); the cogs translate both by code.

The package, by job (``GameService`` is all of them together):

- ``changes``: what the service answers (``Change``, ``ChangeKind``, ``Refusal``, ``Stale``);
- ``core``: the shared state, the one transaction helper and the commit of a changed game;
- ``games``: lobbies, moves, kicks and the message ids the cogs keep;
- ``clock``: ``tick``, ``due``, ``next_deadline`` and ``resume``;
- ``deadlines``: the arithmetic of those deadlines (pure);
- ``endings``: games abandoned with their channel, server or access, and posts still owed;
- ``reading``: a game's engine and legal moves, worked out off the event loop and cached;
- ``records``: seasons, standings, records, history, voiding and the audit log (never a game lock);
- ``history``: managers' point adjustments and their undoing, closed seasons' stored standings;
- ``ratings``, ``ratings_update``: skill ratings (openskill), their ladder, replay and reset;
- ``settings``: a server's defaults, presets, open variants, computer players, language, bans;
- ``options``: what people type into a lobby, checked and cleaned;
- ``drafts``: the rearrange builder's drafts, stored per game and seat (issue 13).
- ``threads``: games in threads of their own, and finding the game of a thread, member or channel.
- ``tournament``: Swiss, knockout and league events (issue 22): pairing, standings, rounds.
"""

from __future__ import annotations

from bot.store.rows import (
    AuditAction,
    AuditRow,
    GameRow,
    GameStatus,
    ResultRow,
    ScheduleRow,
    SeasonRow,
    SeatRow,
    ServerConfig,
)

from .changes import Change, ChangeKind, Refusal, Stale
from .clock import MAX_TIMEOUTS, ClockJobs
from .core import BOT_DELAY, DEAL_PAUSE, LOBBY_TTL
from .deadlines import REMIND_AT, WINDOW_SECONDS
from .drafts import Drafts, DraftState
from .endings import END_REASONS, Endings
from .games import MESSAGE_COLUMNS, Games
from .history import MAX_ADJUST, AdjustmentRow, FrozenStandings, History, SeasonView
from .options import BOT_OPTIONS, MIN_TIMER, REASON_LENGTH, clean_name, clean_text, lobby_options, split_options
from .ratings import LadderLine, PlayerRating, Ratings
from .reading import Reading
from .records import FinishedGame, Records
from .settings import DEFAULT_TIMER, FORGET, LobbyPlan, ServerSettings, SettingsChange, merge_options
from .threads import THREAD_ARCHIVE_AFTER, Threads
from .tokens import TokenRow, Tokens
from .tournament import Tournaments

__all__ = [
    "BOT_DELAY",
    "BOT_OPTIONS",
    "DEAL_PAUSE",
    "DEFAULT_TIMER",
    "END_REASONS",
    "FORGET",
    "LOBBY_TTL",
    "MAX_ADJUST",
    "MAX_TIMEOUTS",
    "MESSAGE_COLUMNS",
    "MIN_TIMER",
    "REASON_LENGTH",
    "REMIND_AT",
    "THREAD_ARCHIVE_AFTER",
    "WINDOW_SECONDS",
    "AdjustmentRow",
    "AuditAction",
    "AuditRow",
    "Change",
    "ChangeKind",
    "DraftState",
    "FinishedGame",
    "FrozenStandings",
    "GameRow",
    "GameService",
    "GameStatus",
    "LadderLine",
    "LobbyPlan",
    "PlayerRating",
    "Refusal",
    "ResultRow",
    "ScheduleRow",
    "SeasonRow",
    "SeasonView",
    "SeatRow",
    "ServerConfig",
    "ServerSettings",
    "SettingsChange",
    "Stale",
    "TokenRow",
    "clean_name",
    "clean_text",
    "lobby_options",
    "merge_options",
    "split_options",
]


class GameService(Tournaments, Games, ClockJobs, History, Records, Ratings, ServerSettings, Reading, Endings, Drafts,
                  Threads, Tokens):
    """Lobbies, moves and timers, serialized per game and committed before announced; seasons,
    history and the audit log beside them."""
