"""Issue 15, holes 2 and 6, and reliability R18: games end with their place, and nothing said is lost.

The real bot against the fake Discord. What a user would notice if these failed: a game whose
channel was deleted auto-played to a rated result, the bot hammering a channel that no longer
exists, a lobby opened where the bot cannot post, "the disk is full" said in the channel, a game
whose end was never posted because the bot crashed after committing it, a move lost or doubled
when Discord answers 40060 or 403.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import boot
from tests.e2e.helpers import Table, answers, custom_ids, new_lobby

pytestmark = pytest.mark.e2e


def requests_to(table: Table, channel: int, after: int = 0) -> list[Any]:
    return [r for r in table.fake.requests[after:] if r.path.startswith(f"/channels/{channel}/")]


async def bot_game(table: Table, channel: int) -> Table:
    """Ana against a computer player in ``channel``, on a one-minute timer: the clock would play the
    bot's turns and time Ana out on its own, so only the bot's listeners can stop it."""
    game = Table(table.fake, table.bot, table.db_path, table.users[:1], channel=channel)
    game.lobby = await new_lobby(table.fake, table.users[0], {"variant": "gin", "timer": 1}, channel)
    game.game_id = int(custom_ids(game.lobby)[0].split(":")[2])
    await (await table.fake.click(table.users[0], game.lobby, f"rummy:bot:{game.game_id}")).settled(timeout=15)
    await (await table.fake.click(table.users[0], game.lobby, f"rummy:start:{game.game_id}")).settled(timeout=15)
    await game.wait_until(lambda: game.row()["status"] == "playing")
    await game.wait_table()
    return game


async def assert_abandoned(game: Table, reason: str) -> None:
    await game.wait_until(lambda: game.row()["status"] == "abandoned", timeout=20)
    row = game.row()
    assert row["end_reason"] == reason
    assert row["turn_deadline"] is None and row["next_deal_at"] is None and row["window_deadline"] is None
    assert game.query("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.game_id,))[0][0] == 0  # unscored
    audit = game.query("SELECT user_id, detail FROM audit WHERE action = 'abandon' AND game_id = ?", (game.game_id,))
    assert [tuple(a) for a in audit] == [(0, reason)]


async def test_a_deleted_channel_or_thread_ends_its_game_unscored_and_is_left_alone(table: Table) -> None:
    fake = table.fake
    channel = fake.add_channel("mesa-borrada")
    game = await bot_game(table, channel)
    thread = fake.add_thread(fake.channel_id, "partida-en-hilo")
    in_thread = await bot_game(table, thread)
    other = await bot_game(table, fake.add_channel("mesa-viva"))

    fake.delete_channel(channel)
    await assert_abandoned(game, "channel_gone")
    fake.delete_channel(thread)
    await assert_abandoned(in_thread, "channel_gone")
    seen = len(fake.requests)
    version = game.row()["version"]
    await asyncio.sleep(5)  # bot turns every ~2 s and a one-minute timer: the clock would be at it
    assert requests_to(table, channel, seen) == [] and requests_to(table, thread, seen) == []
    assert game.row()["version"] == version  # nothing played on in the dark
    assert other.row()["status"] == "playing"  # the game next door goes on

    # The audit list says what happened, in the manager's language.
    manager = fake.add_user("Marta", locale="es-ES", manage_guild=True)
    rec = await (await fake.slash(manager, "rummy-admin audit", {})).settled(timeout=15)
    text = answers(rec)[-1].content
    assert f"terminó la partida {game.game_id} sin puntuar (se borró su canal)" in text
    assert "el bot" in text


async def test_the_bot_removed_from_a_server_ends_that_servers_games(table: Table) -> None:
    fake = table.fake
    first = await bot_game(table, fake.channel_id)
    second = await bot_game(table, fake.add_channel("mesa-2"))
    elsewhere = fake.add_guild("Otro servidor")
    host = fake.add_user("Olga", guild=elsewhere)
    away = Table(fake, table.bot, table.db_path, [host], channel=elsewhere.system_channel_id)
    away.lobby = await new_lobby(fake, host, {"variant": "basic"}, elsewhere.system_channel_id)
    away.game_id = int(custom_ids(away.lobby)[0].split(":")[2])

    fake.remove_bot(fake.guild)
    await assert_abandoned(first, "guild_gone")
    await assert_abandoned(second, "guild_gone")
    assert away.row()["status"] == "lobby"  # another server's lobby is untouched


# The bot's own posts (the players' interaction tokens carry none of the news here, issue 37:
# tests/e2e/test_budget.py refuses those): Discord refusing the bot in a channel.
@pytest.mark.bot_env({"RUMMY_FORBIDDEN_GRACE": "0", "RUMMY_NEWS_BY_TOKEN": "off"})
async def test_posts_refused_for_good_end_the_game_and_a_passing_refusal_does_not(table: Table) -> None:
    fake = table.fake
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("basic", timer=0)
    cid = table.place  # where the game is played: its own thread (issue 12)
    # R18: one refused edit of the table (a manager's passing edit of the roles) loses nothing.
    fake.fail_next("PATCH", rf"/channels/{cid}/messages/\d+", 403, 50013)
    game = table.game()
    user = table.user_of(game.actors[0])
    version = table.row()["version"]
    tables = len([m for m in fake.public_messages(cid) if table.is_table(m)])
    await table.play(user, "draw")
    await table.wait_until(lambda: table.row()["version"] == version + 1)
    # The refused edit is followed by a fresh table: the move is shown, and the game goes on.
    await table.wait_until(lambda: len([m for m in fake.public_messages(cid) if table.is_table(m)]) == tables + 1,
                           timeout=20)
    assert table.row()["status"] == "playing"

    # Refused for good (the bot lost Send Messages here): the game ends unscored.
    fake.fail_next("*", rf"/channels/{cid}/.*", 403, 50013, times=10**6)
    for _ in range(3):
        if table.row()["status"] != "playing":
            break
        game = table.game()
        user = table.user_of(game.actors[0])
        move = next(m for m in game.legal_moves(game.actors[0]) if m.startswith(("draw", "discard")))
        rec = await table.play(user, move)
        assert answers(rec)[-1].ephemeral  # the player is still answered privately
    await assert_abandoned(table, "forbidden")
    log = table.bot.log_text()
    assert f"game {table.game_id} abandoned: forbidden" in log


async def test_new_names_the_permission_the_bot_lacks_privately_and_opens_nothing(table: Table) -> None:
    fake = table.fake
    roles = [fake.guild.roles[fake.guild.id], fake.guild.roles[fake.guild.bot_role_id]]  # @everyone, the bot's
    full = [r.permissions for r in roles]

    def take_away(bit: int) -> None:
        for role, value in zip(roles, full, strict=True):
            role.permissions = value & ~(1 << bit)

    take_away(15)  # no Attach Files: nobody would see the table
    seen = len(fake.public_messages())
    rec = await (await fake.slash(table.users[0], "rummy new", {"variant": "basic"})).settled(timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == table.users[0].id
    assert "Adjuntar archivos" in reply.content
    rec = await (await fake.slash(table.users[1], "rummy new", {"variant": "basic"})).settled(timeout=15)
    assert "Attach Files" in answers(rec)[-1].content  # Bea reads English
    assert len(fake.public_messages()) == seen
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 0
    take_away(11)  # no Send Messages
    rec = await (await fake.slash(table.users[0], "rummy new", {"variant": "basic"})).settled(timeout=15)
    assert "Enviar mensajes" in answers(rec)[-1].content
    for role, value in zip(roles, full, strict=True):
        role.permissions = value
    lobby = await new_lobby(fake, table.users[0], {"variant": "basic"})
    assert not lobby.ephemeral


@pytest.mark.failure_logged("sqlite3.IntegrityError: disk full")
async def test_an_error_of_new_is_private(table: Table) -> None:
    """Errors are never said in the channel, even one the host cannot fix (hole 6)."""
    fake = table.fake
    with sqlite3.connect(table.db_path) as conn:  # every new lobby fails to be written: a full disk
        conn.execute("CREATE TRIGGER full BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    seen = len(fake.public_messages())
    rec = await (await fake.slash(table.users[0], "rummy new", {"variant": "basic"})).settled(timeout=15)
    reply = answers(rec)[-1]
    assert reply.ephemeral and reply.visible_to == table.users[0].id
    assert len(fake.public_messages()) == seen
    assert table.query("SELECT COUNT(*) FROM games")[0][0] == 0


async def test_an_end_committed_but_never_posted_is_posted_on_start_once(table: Table, tmp_path: Path) -> None:
    fake = table.fake
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    await table.open("basic", timer=0)
    cid = table.place  # where the game is played: its own thread (issue 12)
    # Bea resigns and the game ends; the final message never reaches the channel (the bot dies
    # before posting it: here Discord refuses it and the bot is killed right after).
    fault = fake.fail_next("POST", rf"/channels/{cid}/messages", 403, 50013, times=10**6)
    rec = await (await fake.slash(bea, "rummy resign", {})).settled(timeout=15)
    assert answers(rec)[-1].ephemeral
    await table.wait_until(lambda: table.row()["status"] == "finished")
    rematch = f"rummy:rematch:{table.game_id}"
    await asyncio.sleep(1)
    assert not [m for m in fake.public_messages(cid) if rematch in custom_ids(m)]
    assert table.row()["final_announced_at"] is None  # owed
    await table.bot.kill()
    fake._faults.remove(fault)

    table.bot = await boot(fake, table.db_path, tmp_path / "bot2.log", {"RUMMY_FLOOD": "off"})
    final = await fake.wait_for_message(lambda m: rematch in custom_ids(m), timeout=30)
    assert "Ana" in final.content and not final.ephemeral
    await table.wait_until(lambda: table.row()["final_announced_at"] is not None)
    await table.bot.terminate()
    table.bot = await boot(fake, table.db_path, tmp_path / "bot3.log", {"RUMMY_FLOOD": "off"})
    await asyncio.sleep(3)
    assert len([m for m in fake.public_messages(cid) if rematch in custom_ids(m)]) == 1  # said once


async def test_an_already_acknowledged_interaction_changes_nothing_and_the_retry_plays(table: Table) -> None:
    """R18: Discord answers 40060 to the acknowledgement (another process or a retry got there
    first): nothing was committed before it, so the move is not played twice nor half."""
    fake = table.fake
    table.users = table.users[:2]
    await table.open("basic", timer=0)
    game = table.game()
    user = table.user_of(game.actors[0])
    version = table.row()["version"]
    fault = fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 400, 40060)
    await fake.slash(user, "rummy play", {"move": "draw"}, channel=table.channel)
    await table.wait_until(lambda: fault not in fake._faults)  # the acknowledgement was refused
    await asyncio.sleep(1)
    assert table.row()["version"] == version
    rec = await table.play(user, "draw")
    assert answers(rec)[-1].ephemeral
    await table.wait_until(lambda: table.row()["version"] == version + 1)
    assert table.game().log[-1].split()[-1] == "draw"
    assert "Traceback" not in table.bot.log_text()
