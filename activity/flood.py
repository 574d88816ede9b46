"""The sockets' flood limit: one token bucket per user, as the chat's clicks have (reliability.md
R20, ``cogs.ratelimit.FloodGate``: the same rate and burst by default, the same arithmetic).

What it is: ``Bucket``, asked before any work is done for a frame: a frame beyond the limit is
answered ``refused`` with ``slow_down`` and changes nothing. Pure and clock-injected.
What it is not: shared between processes or kept across a restart (a restart forgets every
bucket), nor a replacement for Discord's limits on the bot's own requests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

RATE = 2.0  # frames a second, sustained: the guard's CLICK_RATE
BURST = 8  # the guard's CLICK_BURST: a drag and a drop, a check or two, then the move
MAX_USERS = 10_000  # buckets kept before the full ones are dropped


class Bucket:
    """``burst`` tokens per user, refilled at ``rate`` a second; one per frame."""

    def __init__(self, rate: float = RATE, burst: int = BURST, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a flood limit needs a positive rate and a burst of at least one")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}  # user id -> (tokens, when counted)

    def allow(self, user_id: int) -> bool:
        """Take a token for ``user_id``; False (and nothing taken) when none is left."""
        now = self.clock()
        tokens, then = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_USERS:
            # A bucket that has refilled is the same as none.
            self._buckets = {u: (t, w) for u, (t, w) in self._buckets.items()
                             if t + (now - w) * self.rate < self.burst}
        return True

    def retry_after(self, user_id: int) -> float:
        """Seconds until ``user_id`` may send a frame again (0 when one may be sent now)."""
        if user_id not in self._buckets:
            return 0.0
        tokens, then = self._buckets[user_id]
        tokens = min(self.burst, tokens + (self.clock() - then) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)
