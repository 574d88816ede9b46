"""``cogs.ratelimit``: one user's flood is refused quickly, everybody else is untouched; a channel's
table is re-posted at most once per cooldown.

What a user would notice if these failed: a player selecting cards and pressing a button at a
normal pace told to slow down, or one user clicking 50 times a second slowing everybody's games.
"""

from __future__ import annotations

import pytest

from bot.config import DEFAULT_FLOOD, load_config
from bot.ops.ratelimit import CLICK_BURST, CLICK_RATE, Cooldown, FloodGate


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_a_normal_turn_is_never_refused() -> None:
    clock = Clock()
    gate = FloodGate(clock=clock)
    # A busy turn: open the hand, pick cards three times, meld, pick, discard; then think a while.
    for _turn in range(50):
        for _ in range(7):
            assert gate.allow(1)
            clock.t += 0.3
        clock.t += 5


def test_fifty_clicks_a_second_get_the_burst_then_the_rate() -> None:
    clock = Clock()
    gate = FloodGate(clock=clock)
    allowed = 0
    for _ in range(500):  # 50 a second for 10 seconds
        allowed += gate.allow(1)
        clock.t += 0.02
    assert allowed == pytest.approx(CLICK_BURST + 10 * CLICK_RATE, abs=1)
    assert 0 < gate.retry_after(1) <= 1 / CLICK_RATE
    # Other users are not affected by one user's flood.
    assert all(gate.allow(u) for u in range(2, 50))


def test_the_bucket_refills_after_a_pause() -> None:
    clock = Clock()
    gate = FloodGate(clock=clock)
    while gate.allow(1):
        pass
    assert not gate.allow(1)
    clock.t += gate.retry_after(1)
    assert gate.allow(1)
    clock.t += CLICK_BURST / CLICK_RATE
    assert sum(gate.allow(1) for _ in range(CLICK_BURST + 5)) == CLICK_BURST


def test_idle_buckets_are_forgotten_when_there_are_many() -> None:
    clock = Clock()
    gate = FloodGate(clock=clock, max_users=100)
    for u in range(100):
        gate.allow(u)
    clock.t += 60
    gate.allow(1000)
    gate.allow(1001)
    assert len(gate._buckets) <= 2
    # A user still flooding keeps their (empty) bucket across the clean-up.
    flood = FloodGate(clock=clock, max_users=3)
    while flood.allow(7):
        pass
    for u in range(10):
        flood.allow(u)
    assert not flood.allow(7)


def test_a_gate_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError):
        FloodGate(0, 5)
    with pytest.raises(ValueError):
        FloodGate(1, 0)


# ---------------------------------------------------------------------- the re-post cooldown
def test_a_second_repost_in_a_channel_within_the_cooldown_waits_and_others_do_not() -> None:
    clock = Clock()
    cooldown = Cooldown(30, clock=clock)
    assert cooldown.take(7) == 0.0  # the first re-post of channel 7 goes
    clock.t += 10
    assert cooldown.take(7) == pytest.approx(20)  # refused: 20 s still to wait
    assert cooldown.take(8) == 0.0  # another channel is not concerned
    clock.t += 5
    assert cooldown.take(7) == pytest.approx(15)  # a refused ask does not restart the cooldown
    clock.t += 15
    assert cooldown.take(7) == 0.0  # 30 s after the first: allowed again, and the cooldown restarts
    clock.t += 29.5
    assert cooldown.take(7) == pytest.approx(0.5)


def test_the_cooldown_forgets_channels_whose_time_is_over() -> None:
    clock = Clock()
    cooldown = Cooldown(30, clock=clock, max_keys=100)
    for channel in range(100):
        cooldown.take(channel)
    clock.t += 31
    for channel in range(100, 160):
        assert cooldown.take(channel) == 0.0
    assert len(cooldown._used) <= 100  # the 100 channels whose cooldown ended were dropped
    assert cooldown.take(5) == 0.0 and cooldown.take(150) > 0



def test_the_default_flood_setting_is_the_gates_default():
    """RUMMY_FLOOD unset limits clicks exactly as the flood gate's defaults say (``bot.config``
    keeps its own copy of the numbers so that it imports nothing of the Discord wing)."""
    assert DEFAULT_FLOOD == (CLICK_RATE, CLICK_BURST)
    assert load_config({"DISCORD_TOKEN": "t"}, None).flood == (CLICK_RATE, CLICK_BURST)
