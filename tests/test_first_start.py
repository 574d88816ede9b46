"""A newcomer's first start (issue 36): the real ``python -m bot`` against the fake Discord.

What a newcomer would notice if this failed: a wrong token answered with a page of traceback (and
a container restarting on it), or the slash commands once copied to a dev server (RUMMY_DEV_GUILD)
staying there, twice in the command list beside the global ones, after the setting is removed.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import LOCALE_SETTINGS
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import REPO_ROOT, BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]  # bot processes: one at a time, as tests/e2e


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def start_refused(fake: FakeDiscord, tmp_path: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """``python -m bot`` with a token the fake Discord does not know: (exit code, stdout, stderr)."""
    spawn = BotProcess(fake, db_path=tmp_path / "rummy.sqlite3", patch_gateway=False,
                       env={"DISCORD_TOKEN": "MTIz.not-the-token.at-all", **env})
    proc = await asyncio.create_subprocess_exec(*spawn.cmd, cwd=str(REPO_ROOT), env=spawn.environment(),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize(("env", "words"), [
    ({}, "Discord no acepta el token"),  # Spanish unless the operator's settings say otherwise
    ({"LANG": "en_GB.UTF-8"}, "Discord does not accept the token"),
    ({"RUMMY_LANGUAGE": "en", "LANG": "es_ES.UTF-8"}, "Discord does not accept the token"),
])
async def test_a_refused_token_is_one_sentence_in_the_operators_language_and_exit_2(
        fake: FakeDiscord, tmp_path: Path, env: dict[str, str], words: str) -> None:
    code, out, err = await start_refused(fake, tmp_path, {**dict.fromkeys(LOCALE_SETTINGS, ""), **env})
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err  # no traceback, no log line, no warning: the one sentence
    assert lines[0].startswith(words) and "DISCORD_TOKEN" in lines[0] and "Reset Token" in lines[0]
    assert lines[0].endswith(".") and out == ""
    refused = [r for r in fake.requests if r.path.endswith("/users/@me")]
    assert refused and all(r.status == 401 for r in refused)  # it was Discord's answer, not a guess
    assert fake.identify_count == 0 and not fake.violations


async def test_in_a_container_a_refused_token_waits_for_its_stop_instead_of_being_restarted(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """The image's RUMMY_ON_SETUP_ERROR=wait: Docker would restart an exit for ever (compose's
    ``unless-stopped``), so the bot says its sentence and stays down, then exits 2 on SIGTERM."""
    spawn = BotProcess(fake, db_path=tmp_path / "rummy.sqlite3", patch_gateway=False,
                       env={"DISCORD_TOKEN": "MTIz.not-the-token.at-all", "RUMMY_ON_SETUP_ERROR": "wait",
                            **dict.fromkeys(LOCALE_SETTINGS, ""), "RUMMY_LANGUAGE": "en"})
    proc = await asyncio.create_subprocess_exec(*spawn.cmd, cwd=str(REPO_ROOT), env=spawn.environment(),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stderr is not None
    try:
        line = await asyncio.wait_for(proc.stderr.readline(), 60)
        assert line.decode().startswith("Discord does not accept the token")
        logins = sum(r.path.endswith("/users/@me") for r in fake.requests)
        with pytest.raises(TimeoutError):  # still there, not exited: nothing for Docker to restart
            await asyncio.wait_for(proc.wait(), 2)
        assert sum(r.path.endswith("/users/@me") for r in fake.requests) == logins  # and not retrying
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 10) == 2
        assert (await proc.stderr.read()) == b""  # the one sentence, nothing after it
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def commands_in(fake: FakeDiscord, guild: int | None) -> set[str]:
    return {c["name"] for c in fake.commands(guild)}


def stored_hashes(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [k for (k,) in conn.execute("SELECT key FROM meta WHERE key LIKE 'commands_hash:%' ORDER BY key")]


async def test_commands_copied_to_a_dev_server_are_removed_when_it_is_unset(fake: FakeDiscord, tmp_path: Path) -> None:
    db, log = tmp_path / "rummy.sqlite3", tmp_path / "bot.log"
    guild = fake.guild_id

    async def run(dev_guild: str) -> BotProcess:
        bot = BotProcess(fake, db_path=db, log_path=log, patch_gateway=False, env={"RUMMY_DEV_GUILD": dev_guild})
        await bot.start(ready_timeout=60)
        await bot.wait_for_log(r"slash commands (synced|unchanged)", timeout=30)
        await bot.terminate()
        return bot

    await run(str(guild))
    assert {"rummy", "rummy-admin"} <= commands_in(fake, guild)  # copied to the dev server at once
    assert stored_hashes(db) == [f"commands_hash:{guild}"]

    bot = await run("")
    assert commands_in(fake, guild) == set()  # the copies are gone: no command shows twice there
    assert {"rummy", "rummy-admin"} <= commands_in(fake, None)
    assert stored_hashes(db) == ["commands_hash:global"]
    assert f"slash commands removed from former dev server {guild}" in bot.log_text()

    bot = await run("")  # nothing left to remove: no request for the old server again
    puts = [r for r in fake.requests if r.method == "PUT" and r.path.endswith(f"/guilds/{guild}/commands")]
    assert len(puts) == 2  # the first start's copy and the second's []
    assert bot.log_text().count("removed from former dev server") == 1

    await run(str(guild))  # set again: synced afresh, although the same tree was synced there before
    assert {"rummy", "rummy-admin"} <= commands_in(fake, guild)
    assert "Traceback" not in bot.log_text() and not fake.violations
