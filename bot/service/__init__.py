"""GameService: the one place lobbies and games change.

What it is: every change follows the same path: take the game's lock, load the row (and the
engine's ``Game``, cached by version), check who may do it, apply the engine move, then commit the
new record, the next version, the deadlines and the action-log row (unique interaction id) in one
transaction. Only then does the caller say anything on Discord. The clock (turn timers, reminders,
claim windows, lobby expiry, the pause between deals) is served by ``clock.tick``;
``clock.resume`` is the restart's recovery.
What it is not: no Discord and no pixels. Refusals raise ``Refusal`` (ours) or ``IllegalMove``
(the engine's); the cogs translate both by code.

``GameService`` is a small front: it builds the one ``Core`` (the shared state) and the parts,
each a plain class that takes the core and the other parts it calls (named in its ``__init__``),
keeps its own state, and reads alone. Callers name the part: ``service.acting.act(...)``,
``service.games.join(...)``, ``service.core.get(game_id)``. The package, by job; a part is the
front's attribute of its module's name (``tournament/`` is ``tournaments``):

- ``core``: the shared state (database, time source ``now``, shards, limits, the games' locks and
  engine cache, ``on_deadline``), a game's row and engine, the one transaction helper and the
  commit of a changed game;
- ``acting``: the one way to act on a game (``act``, ``play``, the next deal) and the checks of a
  place, a seat and a version;
- ``games`` (calls ``acting``): lobbies, kicks, resignations and the message ids the cogs keep;
- ``clock`` (``ClockJobs``): ``tick``, ``due``, ``next_deadline``, ``check_records``, ``resume``;
- ``deadlines``: the arithmetic of those deadlines (pure);
- ``endings``: games abandoned with their channel, server or access, and posts still owed (its
  state: the runs of refused posts, ``forbidden_grace``);
- ``reading``: a channel's game, a game's results, the games being played; a game's engine and
  legal moves worked out off the event loop (its state: the legal moves' cache);
- ``records``: seasons, standings, records, history, voiding and the audit log (never a game lock);
- ``history`` (calls ``records``): managers' point adjustments and their undoing, closed seasons'
  stored standings;
- ``ratings``, ``ratings_update``: skill ratings (openskill), their ladder, replay and reset;
- ``settings`` (``ServerSettings``): a server's defaults, presets, open variants, computer players,
  language, bans;
- ``options``: what people type into a lobby, checked and cleaned;
- ``drafts`` (calls ``acting``): the rearrange builder's drafts, stored per game and seat (issue
  13);
- ``threads``: games in threads of their own, and finding the game of a thread, member or channel
  (its state: ``thread_archive_after``);
- ``tokens``: interaction tokens kept while they live (issue 24);
- ``tournament``: Swiss, knockout and league events (issue 22): pairing, standings, and the part
  ``tournaments`` (calls ``acting``, ``games``) with the clock's ``tournaments.rounds`` (calls
  ``acting``, ``reading``; its state: the events' locks);
- ``changes``: what the service answers (``Change``, ``ChangeKind``, ``Refusal``, ``Stale``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.store import Store, repo
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

from .acting import Acting
from .changes import Change, ChangeKind, Refusal, Stale
from .clock import MAX_TIMEOUTS, ClockJobs
from .core import BOT_BUDGET, BOT_DELAY, DEAL_PAUSE, IDLE_DAYS, LOBBY_TTL, MEMBER_GAMES, SERVER_GAMES, Core
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
from .tournament import TournamentRounds, Tournaments

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


class GameService:
    """Lobbies, moves and timers, serialized per game and committed before announced; seasons,
    history and the audit log beside them: the core and the parts, built once and wired here."""

    def __init__(
        self, db: Store, *, clock: Callable[[], float] = time.time, deal_pause: float = DEAL_PAUSE,
        lobby_ttl: float = LOBBY_TTL, bot_delay: float = BOT_DELAY, shards: repo.Shards | None = None,
        member_games: int = MEMBER_GAMES, server_games: int = SERVER_GAMES, idle_days: float = IDLE_DAYS,
        bot_budget: float = BOT_BUDGET,
    ) -> None:
        # ``clock`` is the time source (tests pass a fake one); the core calls it ``now``, since
        # ``clock`` is the name of the part that serves the deadlines.
        self.core = core = Core(db, now=clock, deal_pause=deal_pause, lobby_ttl=lobby_ttl, bot_delay=bot_delay,
                                shards=shards, member_games=member_games, server_games=server_games,
                                idle_days=idle_days, bot_budget=bot_budget)
        self.acting = Acting(core)
        self.reading = Reading(core)
        self.games = Games(core, self.acting)
        self.clock = ClockJobs(core)
        self.drafts = Drafts(core, self.acting)
        self.endings = Endings(core)
        self.records = Records(core)
        self.history = History(core, self.records)
        self.ratings = Ratings(core)
        self.settings = ServerSettings(core)
        self.threads = Threads(core)
        self.tokens = Tokens(core)
        self.tournaments = Tournaments(core, TournamentRounds(core, self.acting, self.reading), self.acting,
                                       self.games)
