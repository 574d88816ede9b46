"""BotProcess: run a real bot (by default `python -m bot`) as a subprocess against a FakeDiscord.

What this is: spawning with the environment the bot reads (DISCORD_TOKEN, RUMMY_DISCORD_API,
RUMMY_DB, RUMMY_DEV_GUILD, RUMMY_LOG_LEVEL, plus RUMMY_DISCORD_GATEWAY), cwd = the repository,
stdout and stderr into a log file; `start()` waits until the fake saw a new IDENTIFY and sent its
GUILD_CREATE — or, with `shards=[…]`, until each of those shards has a live session identified
after the spawn (so two shard processes started together each wait for their own shards);
`kill()` (SIGKILL) and `terminate()` (SIGTERM) wait for the exit. The child gets
_boot/sitecustomize.py on PYTHONPATH: a guard that blocks any non-loopback network use (and
reports it as a violation) and, because discord.Client connects to wss://gateway.discord.gg
without asking GET /gateway/bot, points discord.py's DEFAULT_GATEWAY at the fake.

What this is not: a supervisor. It does not restart the bot, parse its logs or clean its database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
BOOT_DIR = Path(__file__).resolve().parent / "_boot"


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        *,
        db_path: str | os.PathLike[str],
        env: Mapping[str, str] | None = None,
        cmd: Sequence[str] | None = None,
        log_path: str | os.PathLike[str] | None = None,
        guard: bool = True,
        patch_gateway: bool = True,
    ) -> None:
        self.fake = fake
        self.db_path = str(db_path)
        self.extra_env = dict(env or {})
        self.cmd = list(cmd) if cmd is not None else [sys.executable, "-m", "bot"]
        self._log_path = None if log_path is None else Path(log_path)
        self.guard = guard
        self.patch_gateway = patch_gateway
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def log_path(self) -> Path:
        """Where stdout and stderr go (a temporary file unless log_path was given)."""
        if self._log_path is None:
            fd, name = tempfile.mkstemp(prefix="fakediscord-bot-", suffix=".log")
            os.close(fd)
            self._log_path = Path(name)
        return self._log_path

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        for key in ("PYTEST_CURRENT_TEST", "PYTEST_ADDOPTS"):
            env.pop(key, None)
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "RUMMY_DISCORD_API": self.fake.api_base,
                "RUMMY_DISCORD_GATEWAY": self.fake.gateway_url,
                "RUMMY_DB": self.db_path,
                "RUMMY_DEV_GUILD": str(self.fake.guild_id),
                "RUMMY_LOG_LEVEL": "INFO",
                "PYTHONUNBUFFERED": "1",
                "FAKEDISCORD_CONTROL_PORT": str(self.fake.port),
                "FAKEDISCORD_PARENT_PID": str(os.getpid()),
                "FAKEDISCORD_GUARD": "1" if self.guard else "0",
                "FAKEDISCORD_PATCH_GATEWAY": "1" if self.patch_gateway else "0",
            }
        )
        paths = [str(BOOT_DIR)]
        if env.get("PYTHONPATH"):
            paths.append(env["PYTHONPATH"])
        env["PYTHONPATH"] = os.pathsep.join(paths)
        env.update(self.extra_env)
        return env

    async def start(self, ready_timeout: float = 30.0, *, shards: Iterable[int] | None = None) -> BotProcess:
        """Spawn and wait for a new IDENTIFY + GUILD_CREATE, or (``shards``) for a new live session
        on each of those shards; raises with the log tail on failure.

        The bot learns its shards from its own environment (pass them in ``env``); ``shards`` only
        says what to wait for. discord.py IDENTIFYs a process's shards 5 s apart.
        """
        if self.proc is not None and self.proc.returncode is None:
            raise RuntimeError("bot process already running")
        before = self.fake.ready_count
        identified = self.fake.identify_count
        with open(self.log_path, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.cmd,
                cwd=str(REPO_ROOT),
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
            )
        proc = self.proc
        if shards is None:
            ready = asyncio.ensure_future(self.fake.wait_ready(ready_timeout, after=before))
        else:
            ready = asyncio.ensure_future(self.fake.wait_shards_ready(shards, ready_timeout, after=identified))
        exited = asyncio.ensure_future(proc.wait())
        done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        if ready in done and ready.exception() is None:
            exited.cancel()
            return self
        ready.cancel()
        exited.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await ready
        if proc.returncode is None:
            await self.kill()
            why = f"did not identify within {ready_timeout:.0f}s"
        else:
            why = f"exited with {proc.returncode} before identifying"
        raise RuntimeError(f"bot process {why}; log {self.log_path}:\n{self.log_tail()}")

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def _signal(self, sig: int, timeout: float) -> int | None:
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        return proc.returncode

    async def kill(self) -> int | None:
        """SIGKILL and wait: the bot gets no chance to clean up (its gateway socket just drops)."""
        return await self._signal(signal.SIGKILL, 10.0)

    async def terminate(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait up to `timeout` s (then SIGKILL)."""
        return await self._signal(signal.SIGTERM, timeout)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def wait_for_log(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        """Until the log matches `pattern` (re.search), e.g. the bot's own "ready" line after on_ready."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.log_text())
            if found:
                return found
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(
                    f"bot exited ({self.proc.returncode}) before logging {pattern!r}:\n{self.log_tail()}"
                )
            if loop.time() > deadline:
                raise TimeoutError(f"no {pattern!r} in the bot log after {timeout:.0f}s:\n{self.log_tail()}")
            await asyncio.sleep(0.1)

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.terminate()
