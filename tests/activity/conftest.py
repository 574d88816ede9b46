"""Fixtures of the Activity server's tests: ``fake``, a fake Discord with Activities on, and
``world``, a real ``GameService`` on SQLite with a real ``ActivityServer`` over it
(``server_world.World``); a test ends with no Discord rule broken."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.activity.server_world import World
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord()
    await f.start()
    f.enable_activities()
    try:
        yield f
    finally:
        await f.stop()


@pytest.fixture
async def world(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[World]:
    w = World(fake, tmp_path)
    await w.start()
    try:
        yield w
    finally:
        await w.stop()
    assert fake.violations == []
