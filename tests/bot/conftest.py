"""Fixtures shared by the service tests: ``env`` (a temporary database, a fake clock, a service)."""

from tests.bot.test_service import env  # noqa: F401 (a pytest fixture, used by name)
