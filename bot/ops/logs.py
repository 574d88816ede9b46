"""Log lines an operator's log stack can query: JSON, with the game, guild and shard they concern.

What it is: the context (``bind_interaction`` at the guard, ``bind_game`` at the service's game
lock) kept in ``contextvars``, so every line logged while a click or a game's tick is handled
carries ``game_id``, ``guild_id`` and ``shard`` without passing them around; ``setup`` installs
the handler: plain text (the default) or ``RUMMY_LOG_FORMAT=json``, one JSON object per line
(python-json-logger). Both formats scrub secrets: the bot token and interaction tokens (in a
webhook or callback URL an error message might quote) never reach the log.
What it is not: no metric (``bot.ops.metrics``), no Discord, no domain import.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

_GAME: ContextVar[int | None] = ContextVar("rummy_game_id", default=None)
_GUILD: ContextVar[int | None] = ContextVar("rummy_guild_id", default=None)
_SHARD: ContextVar[int | None] = ContextVar("rummy_shard", default=None)
_CLICK: ContextVar[bool] = ContextVar("rummy_in_interaction", default=False)  # the guard bound guild and shard
_SHARD_COUNT: list[int | None] = [None]  # the process's, set by the client once connected

# An interaction token or webhook token in a Discord URL: /interactions/<id>/<token>/...,
# /webhooks/<application id>/<token>...
_URL_TOKENS = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_\-.]+")
PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def bind_interaction(guild_id: int | None, shard: int | None) -> None:
    """The guard starts an interaction's handling (a task of its own): its guild and shard."""
    _GUILD.set(guild_id)
    _SHARD.set(shard)
    _GAME.set(None)
    _CLICK.set(True)


def set_shard_count(count: int | None) -> None:
    """The client's shard count, once known: a guild's shard is ``(guild_id >> 22) % count``."""
    _SHARD_COUNT[0] = count


def bind_game(game_id: int | None, guild_id: int | None = None) -> None:
    """The service works on this game now (in this task), of ``guild_id`` when given. Outside an
    interaction (the clock's task serves one game after another) a game bound without its guild
    forgets the previous game's guild and shard."""
    _GAME.set(game_id)
    if guild_id is None and not _CLICK.get():
        _GUILD.set(None)
        _SHARD.set(None)
    if guild_id is not None:
        _GUILD.set(guild_id)
        count = _SHARD_COUNT[0]
        _SHARD.set(None if count is None else (guild_id >> 22) % count)


def current_shard() -> int | None:
    return _SHARD.get()


class ContextFilter(logging.Filter):
    """Adds ``game_id``, ``guild_id`` and ``shard`` to a record when they are known."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in (("game_id", _GAME), ("guild_id", _GUILD), ("shard", _SHARD)):
            value = var.get()
            if value is not None and not hasattr(record, name):
                setattr(record, name, value)
        return True


class _Scrub:
    """Removes the secrets from a formatted line."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = [s for s in secrets if s]

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return _URL_TOKENS.sub(r"\1<token>", text)


class ScrubbedText(logging.Formatter):
    """The plain format (as before issue 21), secrets scrubbed."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__(PLAIN)
        self.scrub = _Scrub(secrets)

    def format(self, record: logging.LogRecord) -> str:
        return self.scrub(super().format(record))


class ScrubbedJson(JsonFormatter):
    """One JSON object per line: time, level, logger, message, the context, and the exception."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s",
                         rename_fields={"levelname": "level", "name": "logger", "asctime": "time"})
        self.scrub = _Scrub(secrets)

    def format(self, record: logging.LogRecord) -> str:
        return self.scrub(super().format(record))


def setup(level: str, fmt: str = "text", secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level`` in ``fmt`` (``text`` or ``json``), ``secrets`` scrubbed."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ScrubbedJson(secrets) if fmt == "json" else ScrubbedText(secrets))
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
