"""The test command's own PostgreSQL (``tests/postgres.py``) cleans up after itself.

What a user would notice if this failed: every run of the tests left its databases in /tmp (up to
a gigabyte each) until the machine's disk filled and every later run, and everything else on the
machine, failed. It starts a second real server; nothing is mocked.
"""

from __future__ import annotations

from pathlib import Path

from tests import postgres


def test_the_test_postgres_takes_its_data_directory_with_it() -> None:
    srv = postgres.server()
    data = Path(srv.pgdata)
    assert (data / "PG_VERSION").is_file()
    srv.psql("CREATE TABLE t (x int); INSERT INTO t VALUES (1);")
    srv.cleanup()
    assert not data.exists()
