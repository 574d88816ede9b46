"""Per-user flood control for interactions (reliability.md R20): one token bucket per user id;
and a cooldown per key for expensive public work (``/rummy table`` re-posts, per channel).

What it is: pure, clock-injected limiters the guard asks before doing any work for a click or
command, so one user clicking 50 times a second gets a quick "slow down" while everybody else's
games keep their speed, and a channel's table is re-posted at most once per ``REPOST_COOLDOWN``.
Both wings ask it: the chat's guard (``cogs.guard``) for clicks and commands, the Activity's
sockets (``activity.sockets``) for frames, with the same gate settings; ``RUMMY_FLOOD``
(``bot.config``) sets them, and its default there is ``CLICK_RATE``/``CLICK_BURST``.
What it is not: a replacement for Discord's own rate limits (discord.py handles those on our
outgoing requests), and it stores nothing: a restart forgets every bucket and every cooldown.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# A player's busiest moment (pick cards in the hand select, press a button, open the hand again)
# is a handful of interactions within a second or two; the burst covers that, the rate covers play.
CLICK_RATE = 2.0  # interactions per second, sustained
CLICK_BURST = 8
TYPING_RATE = 5.0  # autocomplete requests per second: one per keystroke pause
TYPING_BURST = 15
MAX_USERS = 10_000  # buckets kept before the idle ones are dropped
REPOST_COOLDOWN = 30.0  # seconds between two /rummy table re-posts in one channel


class FloodGate:
    """A token bucket per user: ``burst`` tokens, refilled at ``rate`` a second; one per request."""

    def __init__(
        self, rate: float = CLICK_RATE, burst: int = CLICK_BURST, *, clock: Callable[[], float] = time.monotonic,
        max_users: int = MAX_USERS,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a flood gate needs a positive rate and a burst of at least one")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.max_users = max_users
        self._buckets: dict[int, tuple[float, float]] = {}  # user id -> (tokens, when counted)
        self._sweep_at = max_users

    def allow(self, user_id: int) -> bool:
        """Take a token for ``user_id``; False (and nothing taken) when the bucket is empty."""
        now = self.clock()
        tokens, then = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1.0, now)
        if len(self._buckets) > self._sweep_at:
            self._forget_idle(now)
            # Many users busy at once: sweep again only when the table has doubled (amortised).
            self._sweep_at = max(self.max_users, 2 * len(self._buckets))
        return True

    def retry_after(self, user_id: int) -> float:
        """Seconds until ``user_id`` may act again (0 when a token is there now)."""
        if user_id not in self._buckets:
            return 0.0
        tokens, then = self._buckets[user_id]
        tokens = min(self.burst, tokens + (self.clock() - then) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)

    def _forget_idle(self, now: float) -> None:
        # A bucket that has refilled completely is the same as no bucket at all.
        full = [u for u, (tokens, then) in self._buckets.items() if tokens + (now - then) * self.rate >= self.burst]
        for user_id in full:
            del self._buckets[user_id]


class Cooldown:
    """One use per key (a channel id) within ``seconds``; the ones asked sooner are told how long
    to wait, and nothing is taken from them."""

    def __init__(self, seconds: float = REPOST_COOLDOWN, *, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = MAX_USERS) -> None:
        if seconds <= 0:
            raise ValueError("a cooldown needs a positive number of seconds")
        self.seconds = seconds
        self.clock = clock
        self.max_keys = max_keys
        self._used: dict[int, float] = {}  # key -> when it was last used
        self._sweep_at = max_keys

    def take(self, key: int) -> float:
        """Use ``key`` now and return 0.0, or, within the cooldown of its last use, return the
        seconds still to wait (the cooldown is not restarted)."""
        now = self.clock()
        last = self._used.get(key)
        if last is not None and now - last < self.seconds:
            return self.seconds - (now - last)
        self._used[key] = now
        if len(self._used) > self._sweep_at:
            # A key whose cooldown is over is the same as no key at all; sweep again only when
            # the table has doubled (amortised), as ``FloodGate`` does.
            self._used = {k: t for k, t in self._used.items() if now - t < self.seconds}
            self._sweep_at = max(self.max_keys, 2 * len(self._used))
        return 0.0
