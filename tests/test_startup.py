"""Starting the bot: settings from the environment and ``.env``, and the clear refusal without a token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_token_the_bot_says_how_to_get_one_and_exits_2(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "discord.com/developers" in lines[0]
    assert not (tmp_path / "data").exists()  # nothing was created


def test_settings_read_env_file_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='from-file'\nRUMMY_DB=x.sqlite3\nRUMMY_DEV_GUILD=123\n")
    s = load_settings({"RUMMY_DB": "env.sqlite3"}, env_file)
    assert (s.token, s.db_path, s.dev_guild, s.log_level) == ("from-file", "env.sqlite3", 123, "INFO")
    assert "from-file" not in repr(s)  # the token never shows in logs
    s = load_settings({"DISCORD_TOKEN": "t"}, None)
    assert s.db_path == "data/rummy.sqlite3" and s.dev_guild is None


@pytest.mark.parametrize(("env", "word"), [
    ({}, "DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "t", "RUMMY_DEV_GUILD": "my server"}, "RUMMY_DEV_GUILD"),
    ({"DISCORD_TOKEN": "t", "RUMMY_LOG_LEVEL": "loud"}, "RUMMY_LOG_LEVEL"),
])
def test_bad_settings_are_refused_with_one_sentence(env: dict[str, str], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_settings(env, None)


def test_backup_command_needs_no_token_and_never_overwrites(tmp_path: Path) -> None:
    import sqlite3

    from bot.store.schema import MIGRATIONS

    db = tmp_path / "live.sqlite3"
    with sqlite3.connect(db) as c:
        for script in MIGRATIONS:
            c.executescript(script)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "RUMMY_DB": str(db)}
    cmd = [sys.executable, "-m", "bot", "--backup", str(tmp_path / "copy.sqlite3")]
    first = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "integrity check" in first.stdout, first.stderr
    assert (tmp_path / "copy.sqlite3").is_file()
    again = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "already exists" in again.stderr and "Traceback" not in again.stderr
