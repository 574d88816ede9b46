"""The rows the store hands out and the service passes on: frozen dataclasses and the names of
their stored values.

What it is: the typed contract between ``bot.store`` (which fills these from SQL), ``bot.service``
(which decides with them) and the cogs (which show them): a lobby or game (``GameRow`` with its
``SeatRow``\\ s), a season, a result, a season schedule, an audit entry, the rows the standings and
records are worked out from, a line of a season's standings (``Standing``, stored once the season
closes), a manager's adjustment, a stored skill rating (``RatingRow``: mu, sigma, games); and
``GameStatus``, ``ActionKind``, ``AuditAction``, the words those rows store. Reading a field is
``row.field``; ``row["field"]`` also works (a few callers, and the pure arithmetic in
``bot.service.seasons``, read rows and plain dicts alike).
What it is not: no SQL, no driver, no rules, no Discord, no arithmetic (standings are worked out by
``bot.service.seasons``, the rating people read by ``bot.service.skill``). Nothing here does any I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar


class GameStatus(StrEnum):
    """``games.status``: a lobby, a game being played, or how it ended."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"  # a lobby nobody started in time
    ABANDONED = "abandoned"  # its channel, its server or the bot's access went away: unscored


ACTIVE = (GameStatus.LOBBY, GameStatus.PLAYING)  # at most one of these per channel
ENDED = (GameStatus.FINISHED, GameStatus.CANCELLED)  # a game a rematch may follow


class ActionKind(StrEnum):
    """``actions.kind``: what one logged change to a game was."""

    NEW = "new"  # a lobby was opened
    JOIN = "join"
    LEAVE = "leave"
    BOT = "bot"  # a computer player sat down (in a lobby) or moved (in a game)
    CANCEL = "cancel"
    START = "start"
    MOVE = "move"
    RESIGN = "resign"
    DEAL = "deal"
    EXPIRE = "expire"
    ABANDON = "abandon"  # only computer players were left, or its channel, server or access went away
    WINDOW = "window"  # the clock closed a claim or cut-in window
    TIMEOUT = "timeout"
    RESUME = "resume"  # the bot came back up and gave the turn a whole timer again
    HINTS = "hints"  # the host turned a lobby's hints off or on again (issue 11)
    OPTIONS = "options"  # the host changed a lobby's options before the start (issue 12)
    PRACTICE = "practice"  # the host made a lobby a practice game (unrated) or a normal one again


class AuditAction(StrEnum):
    """``audit.action``: what a server manager (or the season schedule) did."""

    NEW_SEASON = "new_season"
    KICK = "kick"
    CANCEL = "cancel"
    VOID = "void"
    RESTORE = "restore"
    SCHEDULE = "schedule"
    ABANDON = "abandon"  # the bot ended a game whose channel, server or access went away
    RESET_RATINGS = "reset_ratings"  # a manager forgot the server's skill ratings (issue 12)
    SETTINGS = "settings"  # a manager changed a server setting (detail: what, as ``name=value``)
    BAN = "ban"  # a member may no longer host or join games (detail: the user id, then the reason)
    UNBAN = "unban"
    ADJUST = "adjust"  # a manager added or took points in the season (detail: "<adjustment> <user> <±points> <reason>")
    UNDO = "undo"  # a manager undid an adjustment (detail: "<audit entry> <user> <±points>")
    TOURNAMENT = "tournament"  # a manager's tournament action (detail: "<event> <what> [<whom or game>]", issue 22)


class _Fields:
    """``row["name"]`` for a dataclass field (and only for one: a typo is a ``KeyError``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __getitem__(self, name: str) -> Any:
        if name not in self.__dataclass_fields__:
            raise KeyError(name)
        return getattr(self, name)


@dataclass(frozen=True)
class SeatRow(_Fields):
    position: int
    user_id: int
    seat: str
    name: str
    timeouts: int = 0
    resigned: bool = False
    robot_level: str | None = None  # a computer player's strength: 'easy', 'normal' or 'strong'

    @property
    def is_bot(self) -> bool:
        """A computer player's seat: its user id is negative (-1, -2, … within its game)."""
        return self.user_id < 0


@dataclass(frozen=True)
class GameRow(_Fields):
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    options: str
    timer_minutes: float
    locale: str
    status: GameStatus
    version: int
    record: str | None
    created_at: float
    updated_at: float
    lobby_expires_at: float | None
    turn_deadline: float | None
    turn_reminded: bool
    window_deadline: float | None
    next_deal_at: float | None
    table_message_id: int | None
    table_posted_at: float | None
    turn_message_id: int | None
    lobby_message_id: int | None
    finished_at: float | None
    seats: tuple[SeatRow, ...] = field(default=())
    # Set when the record would not load (skipped by the clock, moves refused). Last, so rows
    # built by position keep their meaning.
    quarantined_at: float | None = None
    end_reason: str | None = None  # why an abandoned game ended ('channel_gone', 'guild_gone', 'forbidden')
    final_announced_at: float | None = None  # NULL on an ended game: its final message is owed
    quarantine_announced_at: float | None = None
    idle_warned_at: float | None = None  # a game with no timer, warned it will end for idleness
    hints_off: bool = False  # the host turned hints off in the lobby (issue 11)
    practice: bool = False  # an unrated practice game: hints on, no standings
    rematch_of: int | None = None  # the finished game this lobby is the rematch of
    # The game's own thread (issue 12, many tables in one channel): None, played in ``channel_id``
    # itself; 0 while the thread is being made. ``thread_archived_at``: the bot archived it.
    thread_id: int | None = None
    thread_archived_at: float | None = None
    # A rematch lobby's invitations (issue 15 hole 3): the previous game's players who have not
    # taken their seat (pressed Join) nor left. Not seats: Start counts only who accepted.
    invited: tuple[SeatRow, ...] = ()

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def by_seat(self, seat: str) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def names(self) -> dict[str, str]:
        return {s.seat: s.name for s in self.seats}

    @property
    def place(self) -> int:
        """Where the game's table, turn calls and results are posted: its thread, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeasonRow(_Fields):
    guild_id: int
    number: int
    started_at: float | None  # None: season 1, open since the bot first scored a game here
    ended_at: float | None
    started_by: int | None


@dataclass(frozen=True)
class ResultRow(_Fields):
    """One seat's result in a finished game, written once when the game ended."""

    game_id: int
    guild_id: int
    variant: str
    user_id: int
    score: str  # the variant's own final score, as text
    place: int  # 1 for every winner
    finished_at: float
    season: int
    rated: bool = True  # False: decided by an opponent who never moved (issue 15 hole 3)


@dataclass(frozen=True)
class ScheduleRow(_Fields):
    """A server whose seasons roll over by themselves."""

    guild_id: int
    every: str  # one of ``bot.service.seasons.SCHEDULES``
    channel_id: int  # where the closing standings are posted
    locale: str
    next_at: float  # the next boundary (UTC)
    set_by: int
    set_at: float


@dataclass(frozen=True)
class AuditRow(_Fields):
    """One thing a server manager did with their powers; ``user_id`` 0 is the season schedule."""

    id: int
    guild_id: int
    user_id: int
    action: AuditAction
    game_id: int | None
    detail: str  # kick: the user id; void: the reason; schedule: the choice; new_season: "1->2"
    at: float


@dataclass(frozen=True)
class StandingRow(_Fields):
    """A rated result of a season with the name the player had in that game."""

    game_id: int
    variant: str
    user_id: int
    place: int
    score: str
    finished_at: float
    name: str


@dataclass(frozen=True)
class RecordRow(_Fields):
    """One player's rated result with how many opponents they finished ahead of."""

    game_id: int
    variant: str
    place: int
    season: int
    finished_at: float
    beaten: int


@dataclass(frozen=True)
class Standing:
    """One line of a season's standings: worked out by ``bot.service.seasons.standings`` and, once
    the season closes, stored as it was (``bot.store.history.freeze``) and read back as this."""

    rank: int  # equal points, wins and games share a rank
    user_id: int
    name: str  # the name the player had in their latest game of the season
    points: int
    wins: int
    games: int
    adjusted: int = 0  # points a manager added (or took away, below 0) this season, in ``points``


@dataclass(frozen=True, slots=True)
class AdjustmentRow:
    """A manager's point adjustment of a season (issue 12), as stored."""

    id: int
    guild_id: int
    season: int
    user_id: int
    name: str
    points: int
    reason: str
    manager_id: int
    at: float
    undone_at: float | None
    entry: int | None = None  # its audit log entry

    def __getitem__(self, name: str) -> object:  # read by field name, as ``bot.service.seasons`` reads rows
        return getattr(self, name)


@dataclass(frozen=True, slots=True)
class FrozenStandings:
    """A closed season's standings as stored: ``version`` 0 when it closed, then one more for each
    amendment (with the manager's ``reason`` and the voided or restored ``game_id``)."""

    season: int
    version: int
    lines: tuple[Standing, ...]
    games: int
    reason: str
    game_id: int | None
    at: float


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A stored skill rating (issue 12): openskill's ``mu`` and ``sigma`` and the rated games behind
    it. The number people read is worked out from it above the store (``bot.service.skill.Rating``,
    a ``RatingRow`` with ``value`` and ``spread``)."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One player's stored rating with the name they had in their latest game in the server."""

    user_id: int
    name: str
    rating: RatingRow


@dataclass(frozen=True)
class FinishedSeatRow(_Fields):
    """One seat of a finished game as the history lists it."""

    game_id: int
    variant: str
    finished_at: float
    user_id: int
    place: int
    name: str
    voided: bool
    rated: bool = True  # False: decided by an absent opponent (kept for the history, never counted)
    practice: bool = False  # a practice game (issue 11): kept for the history, never counted


@dataclass(frozen=True)
class BanRow(_Fields):
    """A member who may not host or join games in a server, and the manager's reason."""

    user_id: int
    reason: str
    banned_by: int
    at: float


@dataclass(frozen=True)
class ServerConfig:
    """A server's settings (issue 12). ``timer_minutes`` and ``language`` None: the bot's default
    (5 minutes; the server's Discord language). ``defaults``: options per variant; ``presets``:
    options per (variant, name)."""

    guild_id: int
    timer_minutes: float | None = None
    language: str | None = None
    bots: bool = True
    closed: frozenset[str] = frozenset()
    defaults: dict[str, str] = field(default_factory=dict)
    presets: dict[tuple[str, str], str] = field(default_factory=dict)
    banned: tuple[BanRow, ...] = ()

    def preset_names(self, variant: str) -> list[str]:
        return sorted(name for v, name in self.presets if v == variant)
