"""What the service answers: a committed ``Change`` (and its ``ChangeKind``), a ``Seated`` player, or a refusal.

What it is: the values every operation of ``GameService`` returns or raises, for the cogs to
announce or to translate by code (``refusal.<code>`` in the locales). ``Seated`` is what the one
check of ``bot.service.acting`` found: the game, the caller's seat in it and, after a move, the
engine at that version, so that no cog looks a seat up or compares a version itself.
What it is not: no decisions and no I/O; the engine's own refusals are ``IllegalMove``
(``bot.engine``), raised as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine import Event, Game
from bot.store.rows import GameRow, SeatRow


class ChangeKind(StrEnum):
    """What a ``Change`` did, for the cogs to announce."""

    LOBBY = "lobby"  # a lobby was opened (also a rematch's)
    JOIN = "join"  # a person or a computer player sat down
    LEAVE = "leave"  # someone left a lobby, was kicked from it, or a computer player was taken out
    CANCEL = "cancel"  # the host or a manager cancelled, or only computer players were left
    EXPIRE = "expire"  # a lobby nobody started in time
    START = "start"
    MOVE = "move"
    RESIGN = "resign"
    DEAL = "deal"  # the next deal was dealt
    TIMEOUT = "timeout"
    WINDOW = "window"  # the clock closed a claim or cut-in window
    BOT = "bot"  # a computer player moved
    REMIND = "remind"  # the turn timer is at its reminder point
    RESUME = "resume"  # after a restart: the turn timer started again, whole
    QUARANTINE = "quarantine"  # the game's record would not load: set aside (issue 15, R23)
    ABANDON = "abandon"  # its channel, server or access went away: ended unscored, nothing posted
    END = "end"  # on start: a game's end that was committed but never posted (issue 15, hole 6)
    IDLE_WARNING = "idle_warning"  # a game with no turn timer: nobody moved for long; it ends soon
    IDLE = "idle"  # ... and then nobody moved: ended unscored ('abandoned', end reason 'idle')


class Refusal(Exception):
    """A request the bot refuses before the engine is asked; ``code`` names a ``refusal.*`` key."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Stale(Refusal):
    """A turn button from an older table: nothing happens, the player gets a fresh table."""

    def __init__(self, game: GameRow) -> None:
        super().__init__("stale")
        self.game = game


@dataclass(frozen=True)
class Seated:
    """A player in a game, as the one check (``bot.service.acting``) found them: the row, their
    seat in it, and the engine at that row's version when the caller holds it (a change's)."""

    row: GameRow
    seat: SeatRow
    engine: Game | None = None

    def shows(self, version: int) -> bool:
        """Whether a message of ``version`` (a hand, a hint) shows the game as it is now."""
        return version == self.row.version


@dataclass
class Change:
    """What one committed change did, for the cogs to announce."""

    kind: ChangeKind
    game: GameRow
    engine: Game | None = None
    seat: str | None = None
    move: str | None = None
    events: list[Event] = field(default_factory=list)
    turn_changed: bool = False
    deal_over: bool = False
    game_over: bool = False
    resigned_by_timeouts: str | None = None

    @property
    def seated(self) -> Seated:
        """The seat that made this change, in the game as the change left it (``act``'s answer:
        the player's hand is shown from it)."""
        seat = self.game.by_seat(self.seat) if self.seat is not None else None
        if seat is None:
            raise ValueError(f"a {self.kind} change made by no seat")
        return Seated(self.game, seat, self.engine)
