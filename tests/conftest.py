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
