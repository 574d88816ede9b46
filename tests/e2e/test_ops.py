"""What an operator sees of a running bot (issue 21): metrics, health, readiness and JSON logs.

The real bot against the fake Discord with ``RUMMY_METRICS_PORT`` and ``RUMMY_LOG_FORMAT=json``:
``/healthz`` answers while the gateway's READY is held back and ``/readyz`` says not ready until
READY; a game against a computer player moves the counters and histograms it should (read with
Prometheus's own text parser); every log line is one JSON object, carries the game, guild and
shard where it concerns one, and no line holds the bot token or any interaction token.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess
from tests.http_probe import free_port, get

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]




async def poll(url: str, status: int, timeout: float = 30.0) -> str:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        code, body = await get(url)
        if code == status:
            return body
        assert loop.time() < end, f"{url} never answered {status} (last {code})"
        await asyncio.sleep(0.1)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def total(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= ls)


async def test_health_readiness_metrics_and_json_logs_of_a_game(fake: FakeDiscord, tmp_path: Path) -> None:
    ana = fake.add_user("Ana", locale="es-ES")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path / "rummy.sqlite3"
    fake.hold_identify = asyncio.Event()
    bot = BotProcess(fake, db_path=db, log_path=tmp_path / "bot.log", patch_gateway=False,
                     env={"RUMMY_FLOOD": "off", "RUMMY_BOT_DELAY": "0.5", "RUMMY_METRICS_PORT": str(port),
                          "RUMMY_LOG_FORMAT": "json"})
    started = asyncio.ensure_future(bot.start(ready_timeout=60))
    try:
        # Before READY: alive (its database answers), not ready.
        await poll(f"{base}/healthz", 200, timeout=60)
        assert (await get(f"{base}/readyz"))[0] == 503
        fake.hold_identify.set()
        await started
        await poll(f"{base}/readyz", 200, timeout=30)

        table = Table(fake, bot, db, [ana])
        table.lobby = await new_lobby(fake, ana, {"variant": "gin", "options": "target=1", "timer": 0})
        table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
        await (await fake.click(ana, table.lobby, f"rummy:bot:{table.game_id}")).settled(timeout=15)
        await (await fake.click(ana, fake.message(table.lobby.id), f"rummy:start:{table.game_id}")).settled(
            timeout=15)
        await table.wait_table()
        rnd = random.Random(8)
        while table.row()["status"] == "playing":
            assert table.moves < 400
            game = table.game()
            if game.hand_over:
                await table.press_next_deal()
                continue
            uid = table.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?",
                              (table.game_id, game.actors[0]))[0][0]
            if uid < 0:  # the computer's turn: it moves by itself, on the clock
                version = table.row()["version"]
                await table.wait_until(lambda v=version: table.row()["version"] > v, timeout=20)
                continue
            await table.play(ana, table.pick(await table.suggestions(ana), rnd)["value"])
        rec = await (await fake.slash(ana, "rummy scores", {})).settled(timeout=15)
        assert answers(rec)
        # The game's changes after its start (a lobby's "add a computer player" is logged as 'bot' too).
        kinds = {k: n for k, n in table.query(
            "SELECT kind, COUNT(*) FROM actions WHERE game_id = ? AND version > (SELECT version FROM actions "
            "WHERE game_id = ? AND kind = 'start') GROUP BY kind", (table.game_id, table.game_id))}
        status, text = await get(f"{base}/metrics")
        assert status == 200
        found = samples(text)

        # Every interaction the fake sent and the bot handled under its guard, by kind and outcome.
        guarded = [r for r in fake.interactions if r.kind != "autocomplete"]
        assert total(found, "rummy_interactions_total") == len(guarded)
        assert total(found, "rummy_interactions_total", kind="application_command", outcome="ok", shard="0") >= 1
        assert total(found, "rummy_interactions_total", kind="component", outcome="ok", shard="0") >= 2
        assert total(found, "rummy_turn_seconds_count", shard="0") == len(guarded)
        # Each accepted callback (the acknowledgement; autocomplete answers too) was timed.
        callbacks = sum(1 for r in fake.interactions if r.response is not None)
        assert total(found, "rummy_ack_seconds_count") == callbacks > 0
        # The moves committed are the action log's rows of those kinds.
        for kind in ("move", "bot"):
            assert total(found, "rummy_moves_committed_total", kind=kind, variant="gin") == kinds.get(kind, 0)
        assert kinds.get("bot", 0) >= 1
        # The computer player's turns were served by the clock: how late each was is recorded.
        assert total(found, "rummy_clock_lag_seconds_count") >= kinds["bot"]
        assert total(found, "rummy_db_transaction_seconds_count", outcome="committed") >= sum(kinds.values())
        assert total(found, "rummy_render_seconds_count", picture="render_table") >= 1
        assert total(found, "rummy_games", status="finished", variant="gin") == 1
        assert total(found, "rummy_games_quarantined") == 0
        assert total(found, "rummy_shard_ready", shard="0") == 1
        assert ("rummy_gateway_latency_seconds", frozenset({("shard", "0")})) in found
        families = {f.name for f in text_string_to_metric_families(text)}
        assert {"rummy_discord_http_errors", "rummy_discord_rate_limits", "rummy_db_conflicts"} <= families
        # Every metric the dashboard and the alert rules (docs/ops) name is one this bot serves.
        ops = "".join(f.read_text() for f in (ROOT / "docs" / "ops").iterdir())
        named = {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in re.findall(r"\brummy_[a-z_]+", ops)}
        assert named and named <= families, named - families
        scan_for_leaks(fake, [ana])
        assert fake.violations == []
    finally:
        if not started.done():
            started.cancel()
        if bot.proc is not None and bot.returncode is None:
            await bot.terminate()

    # JSON logs: every line one object; a game's lines say which game, guild and shard; no token.
    lines = [json.loads(line) for line in bot.log_text().splitlines() if line.strip()]
    assert lines and all(isinstance(line, dict) and {"time", "level", "logger", "message"} <= line.keys()
                         for line in lines)
    assert not [line for line in lines if "Traceback" in line.get("exc_info", "")], lines
    assert any(line.get("game_id") == table.game_id and line.get("guild_id") == fake.guild_id
               and line.get("shard") == 0 for line in lines), [line for line in lines if "game_id" in line]
    text = bot.log_text()
    assert fake.token not in text
    tokens = [r.token for r in fake.interactions]
    assert tokens and not [t for t in tokens if t in text]
