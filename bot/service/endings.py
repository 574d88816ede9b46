"""How games end when their place goes away, and which endings are still owed a message.

What it is: ``Endings``, the ``endings`` part of ``GameService`` (the runs of refused posts per
channel are its own state). ``abandon`` ends a lobby or game unscored (status ``abandoned``, audited
as done by the bot) when its channel or thread was deleted, the bot left the server, or the bot lost
its access to the channel for good (issue 15, hole 2): its deadlines are cleared, so the clock stops
serving it, and nothing more is posted there.
``owed_announcements`` lists what a crash between a commit and its post left unsaid (a game's final
message, a quarantine notice: hole 6), which the client posts on start; ``mark_announced`` records
a post once it went out.
The announcer reports what became of its posts (``Outcome``: through, a passing error, the
channel gone, access refused) and the service decides what that means: ``delivered`` marks a
change's final message or quarantine notice said, ``delivery_failed`` gives a channel up (its
games abandoned) when it is gone or refuses the bot for good (``FORBIDDEN_STRIKES`` refusals in a
row over at least ``forbidden_grace`` seconds), and ``channel_reached`` ends a run of refusals.
What it is not: no Discord (the client's listeners and the announcer call these, and the
announcer reads Discord's errors as an ``Outcome``), no SQL (``bot.store.repo``).
"""

from __future__ import annotations

import logging
from enum import StrEnum

from bot.store import repo
from bot.store.rows import ACTIVE, ActionKind, AuditAction, GameStatus

from .changes import Change, ChangeKind
from .core import Core

# Why a game was abandoned (games.end_reason; ``end.<reason>`` in the audit list).
CHANNEL_GONE = "channel_gone"
GUILD_GONE = "guild_gone"
FORBIDDEN = "forbidden"
IDLE = "idle"  # no timer and nobody moved for RUMMY_IDLE_DAYS: the clock ends it, and says so
END_REASONS = (CHANNEL_GONE, GUILD_GONE, FORBIDDEN)
ANNOUNCED = frozenset({"final_announced_at", "quarantine_announced_at"})
FORBIDDEN_STRIKES = 3  # refused posts in a row, over at least ``forbidden_grace`` seconds, end the channel's games
FORBIDDEN_GRACE = 600.0
CLOSING = (ChangeKind.CANCEL, ChangeKind.EXPIRE)  # a lobby or game that ended without a result

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    """What became of the announcer's posts for a change or in a channel, in the service's words."""

    OK = "ok"  # nothing failed (which may be nothing posted at all)
    FAILED = "failed"  # a passing error (a server error, the network, a message gone): it says nothing of the channel
    GONE = "gone"  # the channel or thread no longer exists
    NO_ACCESS = "no_access"  # the bot may not see or post in the channel (for now, or for good)


def settled_by(change: Change, outcome: Outcome) -> str | None:
    """The ``ANNOUNCED`` column the announcer's report on ``change`` settles, if any: its
    quarantine notice, or the final message of a game that ended (with a result, closed without
    one, or idle), once said (nothing failed) or once its place is gone (nobody is left to tell)."""
    if outcome not in (Outcome.OK, Outcome.GONE):
        return None
    if change.kind == ChangeKind.QUARANTINE:
        return "quarantine_announced_at"
    if change.kind in CLOSING or change.game_over or change.kind == ChangeKind.IDLE:
        return "final_announced_at"
    return None


class Endings:
    """Abandoning games whose channel, server or access went away; announcements still owed."""

    def __init__(self, core: Core) -> None:
        self.core = core
        # How long refusals must persist in a channel before its games end
        # (``RUMMY_FORBIDDEN_GRACE``, set by the client), so a manager's passing edit of the roles
        # ends nothing.
        self.forbidden_grace = FORBIDDEN_GRACE
        # Channel: (the first refusal, refusals in a row) of the runs of refused posts going on.
        self._refused: dict[int, tuple[float, int]] = {}

    async def abandon(self, game_id: int, reason: str) -> Change | None:
        """End one lobby or game unscored because ``reason`` (``END_REASONS``); None when it had
        already ended. Nothing is owed to its channel: its final message counts as said."""
        if reason not in END_REASONS:
            raise ValueError(f"unknown end reason {reason!r}")
        async with self.core.lock(game_id):
            row = await self.core.get(game_id)
            if row is None or row.status not in ACTIVE:
                return None
            now = self.core.now()
            async with self.core.transaction(row) as tx:
                version = await repo.bump(
                    tx, row, now, status=GameStatus.ABANDONED, end_reason=reason, lobby_expires_at=None,
                    turn_deadline=None, window_deadline=None, next_deal_at=None, finished_at=now,
                    final_announced_at=now)
                await repo.log_action(tx, game_id, version, None, ActionKind.ABANDON, reason, None, now)
                # The bot did it, not a manager: user 0, as for the season schedule.
                await repo.add_audit(tx, row.guild_id, 0, AuditAction.ABANDON, now, game_id=game_id, detail=reason)
            self.core.cache.pop(game_id, None)
            return Change(ChangeKind.ABANDON, await self.core.row(game_id))

    async def abandon_channel(self, channel_id: int, reason: str = CHANNEL_GONE) -> list[Change]:
        """Every lobby and game of a channel or thread that is gone (or out of the bot's reach)."""
        return await self._abandon_all(await repo.active_ids(self.core.db, channel_id=channel_id), reason)

    async def abandon_guild(self, guild_id: int) -> list[Change]:
        """Every lobby and game of a server the bot left (or was removed from)."""
        return await self._abandon_all(await repo.active_ids(self.core.db, guild_id=guild_id), GUILD_GONE)

    async def _abandon_all(self, game_ids: list[int], reason: str) -> list[Change]:
        out = []
        for game_id in game_ids:
            change = await self.abandon(game_id, reason)
            if change is not None:
                out.append(change)
        return out

    async def owed_announcements(self) -> list[Change]:
        """What was committed but never said (of this process's shards): the end of each game whose
        final message was not posted (``game_over`` set, so the announcer posts it from the record
        as it stands), each lobby or game cancelled or expired whose messages were not closed, and
        each quarantine not yet announced. Oldest first."""
        out = []
        for game_id in await repo.unannounced(self.core.db, self.core.shards):
            row = await self.core.row(game_id)
            if row.quarantined_at is not None and row.quarantine_announced_at is None:
                out.append(Change(ChangeKind.QUARANTINE, row))
            elif row.status == GameStatus.FINISHED and row.final_announced_at is None:
                out.append(Change(ChangeKind.END, row, game_over=True, deal_over=True))
            elif row.status == GameStatus.CANCELLED and row.final_announced_at is None:
                out.append(Change(ChangeKind.CANCEL, row))
            elif row.status == GameStatus.EXPIRED and row.final_announced_at is None:
                out.append(Change(ChangeKind.EXPIRE, row))
            elif row.status == GameStatus.ABANDONED and row.end_reason == IDLE and row.final_announced_at is None:
                out.append(Change(ChangeKind.IDLE, row))
        return out

    async def delivered(self, change: Change, outcome: Outcome) -> bool:
        """The announcer's report on saying ``change``: a failure counts as ``delivery_failed`` in
        the change's place, then what the report settles is marked (``settled_by``). True when
        the place was given up (nothing more is to be posted there)."""
        given_up = outcome is not Outcome.OK and await self.delivery_failed(change.game.place, outcome)
        column = settled_by(change, outcome)
        if column is not None:
            await self.mark_announced(change.game.id, column)
        return given_up

    async def delivery_failed(self, channel_id: int, outcome: Outcome) -> bool:
        """A post in this channel failed. A channel gone ends its games at once; refusals end them
        when they persist (``FORBIDDEN_STRIKES`` in a row over at least ``forbidden_grace``
        seconds): they end unscored, and nothing more is posted there (issue 15, hole 2). True
        when the channel was given up."""
        reason = None
        if outcome is Outcome.GONE:
            reason = CHANNEL_GONE
        elif outcome is Outcome.NO_ACCESS:
            now = self.core.now()
            first, count = self._refused.get(channel_id, (now, 0))
            self._refused[channel_id] = (first, count + 1)
            if count + 1 >= FORBIDDEN_STRIKES and now - first >= self.forbidden_grace:
                reason = FORBIDDEN
        if reason is None:
            return False
        self._refused.pop(channel_id, None)
        for change in await self.abandon_channel(channel_id, reason):
            log.warning("game %s abandoned: %s", change.game.id, reason)
        return True

    def channel_reached(self, channel_id: int) -> None:
        """A post in this channel went through: its run of refusals, if any, is over."""
        self._refused.pop(channel_id, None)

    async def mark_announced(self, game_id: int, column: str) -> None:
        """Record that a game's final message (or quarantine notice) was posted: views only, no
        version bump, so no click goes out of date."""
        if column not in ANNOUNCED:
            raise TypeError(f"mark_announced sets only {sorted(ANNOUNCED)}, not {column!r}")
        async with self.core.transaction() as tx:
            await repo.update_game(tx, game_id, **{column: self.core.now()})
