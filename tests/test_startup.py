"""Starting the bot: settings from the environment and ``.env``, and the clear refusal without a token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config, operator_locale

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


@pytest.mark.parametrize(("env", "sentence"), [
    ({}, "RUMMY_DEV_GUILD debe ser el id de un servidor (solo cifras), no 'my server'."),
    ({"LANG": "en_US.UTF-8"}, "RUMMY_DEV_GUILD must be a server id (digits only), not 'my server'."),
    ({"RUMMY_LANGUAGE": "en"}, "RUMMY_DEV_GUILD must be a server id (digits only), not 'my server'."),
])
def test_a_wrong_setting_is_one_sentence_in_the_operators_language_and_exit_2(
        tmp_path: Path, env: dict[str, str], sentence: str) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nRUMMY_DEV_GUILD=my server\n")
    run_env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), **env}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=run_env, capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stderr, proc.stdout) == (2, sentence + "\n", "")
    assert not (tmp_path / "data").exists()


def test_the_operators_language_comes_from_rummy_language_then_the_system_locale() -> None:
    assert operator_locale({}, None) == "es"
    assert operator_locale({"LANG": "C.UTF-8"}, None) == "es"  # a container's usual locale: the default
    assert operator_locale({"LANG": "en_GB.UTF-8"}, None) == "en"
    assert operator_locale({"LANG": "en_GB.UTF-8", "LC_ALL": "es_MX.UTF-8"}, None) == "es"
    assert operator_locale({"LC_ALL": "en_US", "RUMMY_LANGUAGE": "es"}, None) == "es"
    with pytest.raises(ConfigError, match="RUMMY_LANGUAGE"):
        load_config({"DISCORD_TOKEN": "t", "RUMMY_LANGUAGE": "de"}, None)
    # every refusal has its sentence in both languages, naming the setting in both
    for env in ({}, {"DISCORD_TOKEN": "t", "RUMMY_IDLE_DAYS": "0"}, {"DISCORD_TOKEN": "t", "RUMMY_FLOOD": "x"}):
        with pytest.raises(ConfigError) as caught:
            load_config(env, None)
        es, en = caught.value.say("es"), caught.value.say("en")
        assert es != en and "{" not in es + en
        assert {w for w in es.split() if w.startswith(("DISCORD_", "RUMMY_"))} == \
            {w for w in en.split() if w.startswith(("DISCORD_", "RUMMY_"))}


def test_settings_read_env_file_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='from-file'\nRUMMY_DB=x.sqlite3\nRUMMY_DEV_GUILD=123\n")
    s = load_config({"RUMMY_DB": "env.sqlite3"}, env_file)
    assert (s.token, s.db_path, s.dev_guild, s.log_level) == ("from-file", "env.sqlite3", 123, "INFO")
    assert "from-file" not in repr(s)  # the token never shows in logs
    s = load_config({"DISCORD_TOKEN": "t"}, None)
    assert s.db_path == "data/rummy.sqlite3" and s.dev_guild is None
    assert s.news_by_token  # issue 37: on unless the operator says off
    assert not load_config({"DISCORD_TOKEN": "t", "RUMMY_NEWS_BY_TOKEN": "Off"}, None).news_by_token


@pytest.mark.parametrize(("env", "word"), [
    ({}, "DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "t", "RUMMY_DEV_GUILD": "my server"}, "RUMMY_DEV_GUILD"),
    ({"DISCORD_TOKEN": "t", "RUMMY_LOG_LEVEL": "loud"}, "RUMMY_LOG_LEVEL"),
    ({"DISCORD_TOKEN": "t", "RUMMY_NEWS_BY_TOKEN": "sometimes"}, "RUMMY_NEWS_BY_TOKEN debe ser on u off"),
    ({"DISCORD_TOKEN": "t", "RUMMY_ACTIVITY_PORT": "8080"}, "DISCORD_CLIENT_SECRET"),
    ({"DISCORD_TOKEN": "t", "RUMMY_ACTIVITY_PORT": "web", "DISCORD_CLIENT_SECRET": "s"}, "RUMMY_ACTIVITY_PORT"),
])
def test_bad_settings_are_refused_with_one_sentence(env: dict[str, str], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_config(env, None)


def test_the_activity_is_off_without_a_port_and_on_with_port_and_secret() -> None:
    assert load_config({"DISCORD_TOKEN": "t"}, None).activity_port is None
    on = load_config({"DISCORD_TOKEN": "t", "RUMMY_ACTIVITY_PORT": "8080", "DISCORD_CLIENT_SECRET": "s"}, None)
    assert (on.activity_port, on.activity_host, on.client_secret) == (8080, "127.0.0.1", "s")


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


def test_cluster_settings_name_the_database_and_this_process_shards() -> None:
    s = load_config({"DISCORD_TOKEN": "t", "RUMMY_DATABASE_URL": "postgresql://u:secret@h/db",
                       "RUMMY_SHARD_COUNT": "4", "RUMMY_SHARD_IDS": "2-3"}, None)
    assert s.database == "postgresql://u:secret@h/db" and s.shards == (4, (2, 3))
    assert "secret" not in repr(s)
    every = load_config({"DISCORD_TOKEN": "t", "RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": "0,1"}, None)
    assert every.shards is None  # one process holding every shard serves every guild
    assert load_config({"DISCORD_TOKEN": "t"}, None).database == "data/rummy.sqlite3"


@pytest.mark.parametrize(("env", "word"), [
    ({"RUMMY_DATABASE_URL": "mysql://x"}, "RUMMY_DATABASE_URL"),
    ({"RUMMY_SHARD_IDS": "0"}, "RUMMY_SHARD_COUNT"),
    ({"RUMMY_SHARD_COUNT": "two"}, "RUMMY_SHARD_COUNT"),
    ({"RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": "2"}, "RUMMY_SHARD_IDS"),
    ({"RUMMY_SHARD_COUNT": "4", "RUMMY_SHARD_IDS": "1,1"}, "RUMMY_SHARD_IDS"),
])
def test_bad_cluster_settings_are_refused_with_one_sentence(env: dict[str, str], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_config({"DISCORD_TOKEN": "t", **env}, None)


def test_copy_to_command_needs_no_token_and_refuses_a_used_target(tmp_path: Path, pg_url: str) -> None:
    import asyncio

    from bot.store import open_database

    async def a_database_with_a_game() -> None:
        db = await open_database(str(tmp_path / "rummy.sqlite3"))
        async with db.transaction() as tx:
            await tx.insert("INSERT INTO games (guild_id, channel_id, host_id, variant, status, created_at, "
                            "updated_at) VALUES (7, 8, 9, 'gin', 'lobby', 0, 0)")
        await db.close()

    asyncio.run(a_database_with_a_game())
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
           "RUMMY_DB": str(tmp_path / "rummy.sqlite3")}
    run = [sys.executable, "-m", "bot", "--copy-to", pg_url]
    first = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "games 1" in first.stdout and "Traceback" not in first.stderr
    again = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "not empty" in again.stderr and "Traceback" not in again.stderr
