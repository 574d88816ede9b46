"""The store's own errors: what callers catch instead of a driver's exceptions.

What it is: ``Duplicate`` (a unique key refused the write: the same click delivered twice),
``VersionConflict`` (another writer moved the game on), ``DatabaseTooNew`` (the schema is newer
than this code). What it is not: no driver types; SQLite's and PostgreSQL's errors are mapped here.
"""

from __future__ import annotations


class Duplicate(RuntimeError):
    """A unique key refused the write (e.g. an interaction id seen before)."""


class VersionConflict(RuntimeError):
    """Another writer changed the game since it was read; the transaction rolls back."""


class DatabaseTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refuse to touch it."""
