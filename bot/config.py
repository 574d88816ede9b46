"""The process configuration (``Config``) from the environment and an optional ``.env`` file.

What it is: ``load_config()`` reads DISCORD_TOKEN (required), RUMMY_DB (the SQLite file) or
RUMMY_DATABASE_URL (PostgreSQL, for several processes), RUMMY_SHARD_COUNT and RUMMY_SHARD_IDS (this
process's shards of a cluster, docs/deploy.md), RUMMY_DEV_GUILD,
RUMMY_LOG_LEVEL, RUMMY_FLOOD (per-user click limit), RUMMY_BOT_DELAY (a computer player's pause),
RUMMY_FORBIDDEN_GRACE (how long posts refused for missing access may last before a channel's games end),
RUMMY_MEMBER_GAMES and RUMMY_SERVER_GAMES (games at once per member and per server), RUMMY_IDLE_DAYS
(when a game with no turn timer ends for idleness), RUMMY_THREAD_ARCHIVE_AFTER (seconds from a game's
end to the archiving of its thread), RUMMY_NEWS_BY_TOKEN (on by default: a game's table and turn
calls ride on the players' interaction tokens, outside the bot token's request budget; off: the
bot's token, as before issue 37),
RUMMY_METRICS_PORT / RUMMY_METRICS_HOST (where /metrics, /healthz and /readyz are served; off without a port),
RUMMY_ACTIVITY_PORT / RUMMY_ACTIVITY_HOST and DISCORD_CLIENT_SECRET (the Activity, docs/activity.md;
off without a port), RUMMY_LOG_FORMAT (text or json), RUMMY_LANGUAGE (es, en or fr: the language of what the bot
tells the person starting it, ``operator_locale``; else the system's LC_ALL, LC_MESSAGES or LANG; Spanish by default),
and RUMMY_DISCORD_API / RUMMY_DISCORD_GATEWAY (tests only: where the fake Discord listens). Values already
in the environment win over ``.env``. What it is not: no Discord and no secrets in logs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.words.i18n import DEFAULT_LOCALE, LOCALES, locale_of, translate

DEFAULT_DB = "data/rummy.sqlite3"
# RUMMY_FLOOD's default: clicks a second, sustained, after a burst of this many (reliability.md R20).
# The same numbers are the guard's own defaults (``cogs.ratelimit``), a test keeps them equal;
# config imports nothing of the Discord wing.
DEFAULT_FLOOD: tuple[float, int] = (2.0, 8)
# What the person starting the bot reads is in the catalogs (keys operator.*),
# bot/words/locales/<locale>/LC_MESSAGES/rummy.po.
LOCALE_SETTINGS = ("RUMMY_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # the first one set decides


class ConfigError(Exception):
    """A setting is missing or wrong: one sentence for the person starting the bot, in their language
    (``say(operator_locale())``; ``str()`` is the Spanish one). ``key`` names the catalog text
    ``operator.<key>``; ``params`` fill it in."""

    def __init__(self, key: str, **params: str) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def say(self, locale: str = DEFAULT_LOCALE) -> str:
        return translate(f"operator.{self.key}", locale, **self.params)

    def __str__(self) -> str:
        return self.say()


def operator_locale(env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> str:
    """The language of what the bot tells the person starting it (a refused token, a wrong setting):
    ``RUMMY_LANGUAGE`` (``es``, ``en`` or ``fr``), else the system's locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: ``en_GB.UTF-8`` is English), else Spanish. It never fails: it is asked when something
    else already has."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update({k: v for k, v in (os.environ if env is None else env).items() if v != ""})
    for name in LOCALE_SETTINGS:
        code = values.get(name, "").strip()
        if code:
            return locale_of(code.split(".", 1)[0])
    return DEFAULT_LOCALE


@dataclass(frozen=True)
class Config:
    token: str
    db_path: str = DEFAULT_DB
    dev_guild: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway: str | None = None
    flood: tuple[float, int] | None = DEFAULT_FLOOD  # clicks a second, burst; None: no limit
    bot_delay: float = 2.0  # seconds a computer player waits before each move
    database_url: str | None = None  # postgresql://...; None: the SQLite file ``db_path``
    shard_count: int | None = None  # None: Discord's recommended count, every shard in this process
    shard_ids: tuple[int, ...] | None = None  # this process's shards of a cluster; None: all of them
    forbidden_grace: float = 600.0  # seconds of refused posts in a channel before its games end
    member_games: int = 3  # lobbies and games one member sits in at once
    server_games: int = 25  # lobbies and games one server runs at once
    idle_days: float = 7.0  # a game with no turn timer ends after this long with no move
    thread_archive_after: float = 600.0  # seconds from a game's final message to archiving its thread
    token_lifetime: float = 900.0  # Discord's interaction token lifetime (issue 24; tests shorten it)
    news_by_token: bool = True  # a game's news rides on players' interaction tokens (issue 37); off: bot token
    metrics_port: int | None = None  # /metrics, /healthz, /readyz (docs/deploy.md, Watching it); None: off
    metrics_host: str = "127.0.0.1"  # the image sets 0.0.0.0, so the container's port can be published
    log_format: str = "text"  # or "json": one object per line
    activity_port: int | None = None  # the Activity's page, token exchange and sockets (docs/activity.md); None: off
    activity_host: str = "127.0.0.1"
    client_secret: str = ""  # DISCORD_CLIENT_SECRET: the OAuth2 secret the Activity's code exchange needs

    @property
    def database(self) -> str:
        """Where the games are: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, this process's shards) when it is one process of a cluster, else None."""
        if self.shard_count is None or self.shard_ids is None or len(self.shard_ids) == self.shard_count:
            return None
        return self.shard_count, self.shard_ids

    def __repr__(self) -> str:  # never print the token
        shards = f", shards={self.shard_ids!r}/{self.shard_count!r}" if self.shard_count else ""
        where = "database_url=<set>" if self.database_url else f"db_path={self.db_path!r}"
        return f"Config({where}, dev_guild={self.dev_guild!r}, log_level={self.log_level!r}{shards})"


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; ``#`` comments and blank lines skipped; optional quotes stripped."""
    out: dict[str, str] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[key.strip()] = value
    return out


def parse_flood(text: str) -> tuple[float, int] | None:
    """``RATE/BURST`` (``2/8``: two clicks a second after a burst of eight), ``off``, or empty for the default."""
    if not text:
        return DEFAULT_FLOOD
    if text.lower() == "off":
        return None
    rate, _, burst = text.partition("/")
    try:
        value = (float(rate), int(burst))
    except ValueError:
        value = (0.0, 0)
    if not (value[0] > 0 and value[1] >= 1):
        raise ConfigError("flood", value=repr(text))
    return value


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``RUMMY_SHARD_COUNT`` and ``RUMMY_SHARD_IDS`` (``0,1``, ``0-3`` or ``4-7,9``)."""
    if not count_text:
        if ids_text:
            raise ConfigError("shard_ids_alone")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError("shard_count", value=repr(count_text))
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError("shard_ids_form", value=repr(ids_text))
        ids += range(int(first), int(last if dash else first) + 1)
    if not ids or len(set(ids)) != len(ids) or max(ids) >= count:
        raise ConfigError("shard_ids_range", last=str(count - 1), value=repr(ids_text))
    return count, tuple(sorted(ids))


def parse_limit(values: dict[str, str], name: str, default: str, kind: type, low: float, high: float,
                what: str) -> Any:
    """A number setting within [``low``, ``high``]; empty or missing is ``default``. ``what`` says what
    kind of number in the refusal (``operator.what.<what>``: port, games, days, seconds)."""
    text = values.get(name, "").strip() or default
    try:
        value = kind(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ConfigError(f"limit.{what}", name=name, low=f"{low:g}", high=f"{high:g}", value=repr(text))
    return value


def parse_switch(values: dict[str, str], name: str, default: bool) -> bool:
    """An on/off setting; empty or missing is ``default``."""
    text = values.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("on", "1", "true", "yes"):
        return True
    if text in ("off", "0", "false", "no"):
        return False
    raise ConfigError("switch", name=name, value=repr(text))


def database_url(values: dict[str, str]) -> str | None:
    url = values.get("RUMMY_DATABASE_URL", "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("database_url")
    return url or None


def db_path(env: dict[str, str] | None = None, env_file: Path | None = Path(".env")) -> str:
    """``RUMMY_DB`` alone (for ``--backup``, which needs no token)."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update({k: v for k, v in (os.environ if env is None else env).items() if v != ""})
    return values.get("RUMMY_DB", "").strip() or DEFAULT_DB


def load_config(env: dict[str, str] | None = None, env_file: Path | None = Path(".env")) -> Config:
    values = read_env_file(env_file) if env_file is not None else {}
    values.update({k: v for k, v in (os.environ if env is None else env).items() if v != ""})
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("token_missing")
    guild = values.get("RUMMY_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError("dev_guild", value=repr(guild))
    level = values.get("RUMMY_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("log_level", value=repr(level))
    delay = values.get("RUMMY_BOT_DELAY", "2").strip() or "2"
    try:
        bot_delay = float(delay)
    except ValueError:
        bot_delay = -1.0
    if not 0 <= bot_delay <= 60:
        raise ConfigError("bot_delay", value=repr(delay))
    shard_count, shard_ids = parse_shards(values.get("RUMMY_SHARD_COUNT", "").strip(),
                                          values.get("RUMMY_SHARD_IDS", "").strip())
    log_format = values.get("RUMMY_LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in ("text", "json"):
        raise ConfigError("log_format", value=repr(log_format))
    language = values.get("RUMMY_LANGUAGE", "").strip().lower()
    if language and language not in LOCALES:
        raise ConfigError("language", value=repr(language))
    port = values.get("RUMMY_METRICS_PORT", "").strip()
    activity = values.get("RUMMY_ACTIVITY_PORT", "").strip()
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    if activity and not secret:
        raise ConfigError("client_secret_missing")
    return Config(
        activity_port=parse_limit(values, "RUMMY_ACTIVITY_PORT", "", int, 1, 65535, "port") if activity else None,
        activity_host=values.get("RUMMY_ACTIVITY_HOST", "").strip() or "127.0.0.1",
        client_secret=secret,
        metrics_port=parse_limit(values, "RUMMY_METRICS_PORT", "", int, 1, 65535, "port") if port else None,
        metrics_host=values.get("RUMMY_METRICS_HOST", "").strip() or "127.0.0.1",
        log_format=log_format,
        member_games=parse_limit(values, "RUMMY_MEMBER_GAMES", "3", int, 1, 100, "games"),
        server_games=parse_limit(values, "RUMMY_SERVER_GAMES", "25", int, 1, 10000, "games"),
        idle_days=parse_limit(values, "RUMMY_IDLE_DAYS", "7", float, 1, 365, "days"),
        thread_archive_after=parse_limit(values, "RUMMY_THREAD_ARCHIVE_AFTER", "600", float, 0, 30 * 86400,
                                         "seconds"),
        database_url=database_url(values),
        shard_count=shard_count,
        shard_ids=shard_ids,
        bot_delay=bot_delay,
        token_lifetime=parse_limit(values, "RUMMY_TOKEN_LIFETIME", "900", float, 10, 900, "seconds"),
        news_by_token=parse_switch(values, "RUMMY_NEWS_BY_TOKEN", True),
        forbidden_grace=parse_limit(values, "RUMMY_FORBIDDEN_GRACE", "600", float, 0, 7 * 86400,
                                    "seconds"),
        flood=parse_flood(values.get("RUMMY_FLOOD", "").strip()),
        token=token,
        db_path=db_path(values, None),
        dev_guild=int(guild) if guild else None,
        log_level=level,
        api_base=values.get("RUMMY_DISCORD_API") or None,
        gateway=values.get("RUMMY_DISCORD_GATEWAY") or None,
    )
