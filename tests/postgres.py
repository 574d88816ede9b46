"""A real PostgreSQL 16 for the tests: ``pgserver`` (from PyPI) ships the server in its wheel and
starts it on a Unix socket in a temporary directory, in about half a second, even as root; the
directory is deleted with the server when the session ends.

What it is: ``server()`` starts one server per test session (or fails the session under ``CI=true``
when it cannot, and skips the PostgreSQL half of the tests elsewhere); ``fresh_database(server)``
creates an empty database for one test and returns its URL. What it is not: no mocks, no schema:
the bot migrates each database itself, as it does in production.
"""

from __future__ import annotations

import atexit
import itertools
import os
import re
import shutil
import tempfile
from typing import Any

import pytest

_counter = itertools.count(1)


def required() -> bool:
    """Under CI a missing PostgreSQL is a failure, never a skip (the tests must run everywhere)."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def server() -> Any:
    # pgserver keeps its lock files in the user's runtime directory; give it one of its own.
    if "XDG_RUNTIME_DIR" not in os.environ:
        runtime = tempfile.mkdtemp(prefix="rummy-run-")
        os.environ["XDG_RUNTIME_DIR"] = runtime
        atexit.register(shutil.rmtree, runtime, ignore_errors=True)
    try:
        import pgserver

        # "delete": the data directory goes with the server. With "stop" every run left its
        # databases behind in /tmp (up to a gigabyte each), until the disk filled.
        return pgserver.get_server(tempfile.mkdtemp(prefix="rummy-pg-"), cleanup_mode="delete")
    except Exception as exc:  # not installed, or the server would not start
        if required():
            pytest.fail(f"CI needs a real PostgreSQL and pgserver could not start one: {exc!r}")
        pytest.skip(f"no PostgreSQL here ({exc!r}); install the test extras")


def fresh_database(srv: Any) -> str:
    """An empty database on ``srv``; returns its URL."""
    base = srv.get_uri()
    name = f"rummy_test_{os.getpid()}_{next(_counter)}"
    srv.psql(f'CREATE DATABASE "{name}";')
    return re.sub(r"/postgres(\?|$)", rf"/{name}\1", base, count=1)
