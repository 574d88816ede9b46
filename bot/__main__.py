"""``python -m bot`` / ``rummy-bot``: read the config, set up logging, run the client.

``--sync`` forces a command sync (whoever can start the bot is its owner). ``--backup FILE`` copies
the database (``RUMMY_DB``) to a new file, safely while the bot runs, and exits; no token needed.
``--copy-to URL`` copies the SQLite database (``RUMMY_DB``) into an empty PostgreSQL database and
exits (docs/deploy.md, "Moving from SQLite"); no token needed either.

A start that cannot go on says why in one sentence on stderr, in the operator's language
(``bot.config.operator_locale``), and exits 2: a missing or wrong setting, or a token Discord
refuses (a 401 on login). Nothing else is printed before that sentence.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading

from bot.config import ConfigError, db_path, load_config, operator_locale
from bot.words.i18n import translate


def setup_logging(level: str, fmt: str = "text", secrets: tuple[str, ...] = ()) -> None:
    """Text or JSON lines on stderr (``bot.ops.logs``), ``secrets`` (the token) scrubbed."""
    from bot.ops.logs import setup

    setup(level, fmt, secrets)
    # discord.py logs gateway payloads and interaction tokens at DEBUG, aiosqlite logs SQL parameters
    # (hands) at DEBUG: never below INFO, whatever the bot's own level (reliability.md §4.1).
    for name in ("discord", "aiosqlite", "asyncpg"):
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLevelName(level)))
    # discord.client's only INFO line is "logging in using static token", said before the token is
    # checked: a refused token's one sentence (``main``) would not be alone on stderr.
    logging.getLogger("discord.client").setLevel(max(logging.WARNING, logging.getLevelName(level)))


def run_backup(target: str) -> int:
    from bot.store import BackupError, backup

    source = db_path()
    try:
        games = backup(source, target)
    except BackupError as exc:
        print(f"No backup made: {exc}.", file=sys.stderr)
        return 2
    print(f"Backed up {source} to {target} ({games} games); it passed SQLite's integrity check.")
    return 0


def run_copy(url: str) -> int:
    from bot.store.copy import CopyError, copy_to_postgres

    source = db_path()
    try:
        counts = asyncio.run(copy_to_postgres(source, url))
    except CopyError as exc:
        print(f"Nothing copied: {exc}.", file=sys.stderr)
        return 2
    rows = ", ".join(f"{table} {n}" for table, n in counts.items())
    print(f"Copied {source} into PostgreSQL ({rows}); every table has as many rows on both sides.")
    return 0


def setup_failed(sentence: str) -> int:
    """Say why the start cannot go on; in a container, wait for the stop signal; then exit code 2."""
    print(sentence, file=sys.stderr, flush=True)
    if os.environ.get("RUMMY_ON_SETUP_ERROR", "exit").strip().lower() == "wait":
        stopped = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stopped.set())
        while not stopped.wait(3600):
            pass
    return 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot", description="Rummy for Discord")
    ap.add_argument("--sync", action="store_true", help="sync the slash commands now, changed or not")
    ap.add_argument("--backup", metavar="FILE", help="copy the database to FILE (safe while the bot runs) and exit")
    ap.add_argument("--copy-to", metavar="URL", help="copy the SQLite database into an empty PostgreSQL one and exit")
    args = ap.parse_args(argv)
    if args.backup:
        return run_backup(args.backup)
    if args.copy_to:
        return run_copy(args.copy_to)
    try:
        config = load_config()
    except ConfigError as exc:
        return setup_failed(exc.say(operator_locale()))
    setup_logging(config.log_level, config.log_format, (config.token,))
    # imported late: discord.py is only needed once configured
    import discord

    from bot.client import RummyBot

    bot = RummyBot(config, force_sync=args.sync)
    refused: list[discord.LoginFailure] = []  # Discord answered the login with 401: a wrong token

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stops: list[asyncio.Task[None]] = []

        def stop() -> None:
            if not stops:
                stops.append(loop.create_task(bot.close(), name="rummy-stop"))

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop)
        try:
            async with bot:
                await bot.start(config.token)
        except discord.LoginFailure as exc:
            refused.append(exc)
        finally:
            # discord.py's start() returns once the gateway is closed, before the rest of our close
            # (the database) has run. Left pending, asyncio.run would cancel it mid-close and the
            # database's worker thread would answer into a closed event loop.
            await asyncio.gather(*stops, return_exceptions=True)
            await bot.close()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    if refused:
        return setup_failed(translate("operator.token_refused", operator_locale()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
