"""Each player's one private hand that stays current (issue 36): which message it is, and its sort.

What it is: ``HandBook``, per (game, user), the interaction whose token made or last edited that
player's hand message (an ephemeral message: the token is the only way to edit it, for
Discord's 15 minutes, used here only for ``LIVE_FOR``), the message's id and the signature of
what it shows (a hand is edited only when what it shows changed: interaction
webhooks are rate limited per token), and the sort the player chose last (kept for every hand
shown them in that game). ``BOOK`` is the process's book; ``cogs.hand`` writes it whenever it
shows a hand, ``cogs.hand_refresh`` reads it after every committed change. A restart forgets
it: the table's My hand button is the one-tap way back (a new hand, which is live from then on).
What it is not: no drawing and no Discord call (``cogs.hand``, ``cogs.hand_refresh``).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.engine import SORTS

TOKEN_LIFETIME: Final = 15 * 60.0  # Discord: an interaction token may edit its messages for 15 minutes
LIVE_FOR: Final = 14 * 60.0  # used only while this young: an edit in flight never meets the end
KEPT_GAMES: Final = 4096  # (game, user) entries kept at most; the oldest go first


@dataclass
class LiveHand:
    """One player's hand message and the token that may edit it."""

    interaction: Any = field(repr=False)  # a discord.Interaction: its followup webhook edits the message
    message_id: int
    since: float  # when its token was issued (the earlier of its snowflake time and our clock)
    signature: Hashable = None  # what it shows, without the version its custom_ids carry

    def alive(self, now: float) -> bool:
        return now - self.since < LIVE_FOR


class HandBook:
    """The live hand message and the chosen sort of each (game, user)."""

    def __init__(self, clock: Any = time.time) -> None:
        self.clock = clock
        self._hands: dict[tuple[int, int], LiveHand] = {}
        self._sorts: dict[tuple[int, int], int] = {}

    def live(self, game_id: int, user_id: int) -> LiveHand | None:
        """The player's hand message while its token may still edit it."""
        entry = self._hands.get((game_id, user_id))
        if entry is None:
            return None
        if not entry.alive(self.clock()):
            del self._hands[(game_id, user_id)]
            return None
        return entry

    def players(self, game_id: int) -> list[int]:
        """The users of ``game_id`` with a live hand message."""
        return [u for (g, u) in list(self._hands) if g == game_id and self.live(g, u) is not None]

    def shown(self, game_id: int, user_id: int, interaction: Any, message_id: int, signature: Hashable,
              issued: float | None = None) -> None:
        """A hand message was sent or edited with ``interaction``'s token: it is the live one."""
        since = self.clock() if issued is None else min(self.clock(), issued)
        self._hands.pop((game_id, user_id), None)
        self._hands[(game_id, user_id)] = LiveHand(interaction, message_id, since, signature)
        while len(self._hands) > KEPT_GAMES:
            del self._hands[next(iter(self._hands))]

    def edited(self, game_id: int, user_id: int, signature: Hashable) -> None:
        """The live hand was edited through its token: it shows ``signature`` now."""
        entry = self._hands.get((game_id, user_id))
        if entry is not None:
            entry.signature = signature

    def forget(self, game_id: int, user_id: int) -> None:
        self._hands.pop((game_id, user_id), None)

    def sort(self, game_id: int, user_id: int, default: int) -> int:
        return self._sorts.get((game_id, user_id), default)

    def chose_sort(self, game_id: int, user_id: int, sort: int) -> None:
        self._sorts.pop((game_id, user_id), None)
        self._sorts[(game_id, user_id)] = sort
        while len(self._sorts) > KEPT_GAMES:
            del self._sorts[next(iter(self._sorts))]


BOOK = HandBook()


def default_sort(row: Any) -> int:
    """The sort a player's first hand of a game shows: gin's by melds (``bot.engine.SORTS``), so
    the deadwood shows."""
    return SORTS.index("melds") if row.variant == "gin" else 0


def hand_signature(content: str, view: Any) -> tuple[str, ...]:
    """What a hand message shows, without the version its custom_ids carry."""
    ids = [str(getattr(item, "custom_id", "")).rsplit(":", 4)[0] for item in view.children]
    opts = [o.value + str(o.default) for item in view.children for o in getattr(item, "options", [])]
    return (content, *ids, *opts)
