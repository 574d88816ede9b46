"""Fixtures for every test package: a real PostgreSQL server for the session (``tests/postgres.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests import postgres


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    srv = postgres.server()
    yield srv
    srv.cleanup()


@pytest.fixture
def pg_url(pg_server: Any) -> str:
    """The URL of an empty database of its own for this test."""
    return postgres.fresh_database(pg_server)


# The bot-process tests in two groups of about equal time (tests/e2e with --durations, 2026-12-02,
# rebalanced 2026-12-04 with the Activity's browser tests: 675 s against 524 s before), so that no
# group alone sets the run's length: one group of every e2e test once ran alone for 12 of CI's 13
# minutes while the other worker finished early.
SECOND_E2E_GROUP = frozenset({
    "test_bot.py", "test_robot_variants.py", "test_robots_and_hints.py", "test_builder.py", "test_taps_rami.py",
    "test_twenty_games.py", "test_strangers.py", "test_ops.py", "test_screens.py", "test_public_work.py",
    "test_threads.py", "test_taps_gin.py", "test_taps_dummy.py", "test_benches.py", "test_commit_failure.py",
    "test_farming.py", "test_french_rami.py", "test_activity_browser.py",
})


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core and one more. The two e2e groups spend most of their time
    waiting for the bot's timers and Discord's windows (an idle two-core CI held a load average
    under 1, 2026-12-04), so the third worker runs the rest of the suite beside them instead of
    waiting for a group to finish; each group still runs one bot at a time."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each bot-process test (tests/e2e, or marked ``e2e``, or a bench that starts the bot) runs
    on one of two workers (``--dist loadgroup``): within a group one game at a time, so a test that
    watches for answers within Discord's 3 seconds shares the machine with one other bot at most;
    the rest of the suite fills the workers around them."""
    for item in items:
        path = item.nodeid.split("::")[0]
        grouped = item.get_closest_marker("xdist_group")
        if "e2e" in path.split("/") or item.get_closest_marker("e2e") is not None \
                or (grouped is not None and grouped.args == ("e2e",)):
            group = "e2e-b" if path.rsplit("/", 1)[-1] in SECOND_E2E_GROUP else "e2e-a"
            item.add_marker(pytest.mark.xdist_group(group), append=False)
