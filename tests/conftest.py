"""Fixtures for every test package: a real PostgreSQL server for the session (``tests/postgres.py``)."""

from __future__ import annotations

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The e2e games run one at a time on one worker (``--dist loadgroup``): each starts a bot
    process against a fake Discord and some watch for answers within Discord's 3 seconds, so they
    are not crowded by each other; the rest of the suite shares the other cores."""
    for item in items:
        if "e2e" in item.nodeid.split("::")[0].split("/"):
            item.add_marker(pytest.mark.xdist_group("e2e"))
