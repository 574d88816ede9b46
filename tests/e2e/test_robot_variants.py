"""Every computer-player level plays whole games, seated through the lobby (issue 11).

The real bot against the fake Discord: the host seats bots with the lobby's level buttons, starts,
and plays her own turns with ``/rummy play`` (the first suggestion of the preferred kinds); the
clock plays the bots' turns at their levels. Each game must reach its end with every bot having
moved, unrated, with an action log that replays to the record.

What a user would notice if these failed: a level that stalls or breaks a variant (a refused
move, a turn that never comes), a bot game counted in the standings.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import load_game
from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, scan_for_leaks

pytestmark = pytest.mark.e2e

# Short games: one deal where the variant allows it, and a cap on each deal's turns. Wrotham's
# six deals and Dummy's twelve contracts are whole games (neither has a shorter one).
GAMES = [
    ("gin", "target=1", ("easy",)),
    ("gin", "target=1", ("normal",)),
    ("gin", "target=1", ("strong",)),
    ("basic", "game_end=hands:1 hand_turn_limit=40", ("easy", "normal", "strong")),
    ("rami", "rounds_per_game=1 hand_turn_limit=40 table_manipulation=true", ("easy", "normal", "strong")),
    ("wrotham", "hand_turn_limit=20", ("easy", "normal", "strong")),
    ("tradicional", "game_end=hands:1 hand_turn_limit=40", ("easy", "normal", "strong")),
    ("dummy", "", ("easy", "normal", "strong")),
]
# Ana's moves before a game is taken not to end. Dummy's twelve contracts, with her random picks
# and a shuffle nobody fixes, once took more than 400 (CI, 2026-11-27); no deal cap can shorten it
# (a capped dummy deal is void and dealt again, rules.md §0.4).
MOVE_CAP = {"dummy": 2000}


def seat_user(table: Table, seat: str) -> int:
    return table.query("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (table.game_id, seat))[0][0]


async def wait_for_the_bots(table: Table, version: int) -> None:
    await table.wait_until(lambda: table.row()["version"] > version or table.row()["status"] != "playing",
                           timeout=30)


@pytest.mark.parametrize(("variant", "options", "levels"), GAMES,
                         ids=[f"{v}-{'-'.join(lv)}" for v, _, lv in GAMES])
# No pause before a computer player's move: the bots play their runs as fast as the clock serves them.
@pytest.mark.bot_env({"RUMMY_BOT_DELAY": "0"})
async def test_each_level_plays_a_whole_game_seated_from_the_lobby(table: Table, variant: str, options: str,
                                                                  levels: tuple[str, ...]) -> None:
    fake = table.fake
    ana = table.users[0]
    table.users = [ana]
    args = {"variant": variant, "timer": 0, **({"options": options} if options else {})}
    table.lobby = await new_lobby(fake, ana, args)
    gid = table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
    for level in levels:
        cid = f"rummy:bot:{gid}" if level == "normal" else f"rummy:bot:{gid}:{level}"
        await (await fake.click(ana, fake.message(table.lobby.id), cid)).settled(timeout=15)
    stored = table.query("SELECT robot_level FROM seats WHERE game_id = ? ORDER BY position", (gid,))
    assert [r[0] for r in stored] == [None, *levels]
    await (await fake.click(ana, fake.message(table.lobby.id), f"rummy:start:{gid}")).settled(timeout=15)
    await table.wait_table()

    def moved() -> set[str]:  # the levels that made a move of their own (the host's "bot" adds one)
        return {r[0] for r in table.query(
            "SELECT DISTINCT s.robot_level FROM actions a JOIN seats s ON s.game_id = a.game_id "
            "AND s.user_id = a.user_id WHERE a.game_id = ? AND a.kind = 'bot' AND a.user_id < 0", (gid,))}

    rnd = random.Random(variant)
    while table.row()["status"] == "playing":
        assert table.moves < MOVE_CAP.get(variant, 400), "the game did not end"
        row = table.row()
        game = load_game(row["record"])  # the position of that version (the bots move on meanwhile)
        if game.hand_over:
            await table.press_next_deal()
            continue
        mine = [s for s in game.actors if seat_user(table, s) == ana.id]
        if not mine:  # the bots' turn (or their claim window): the clock plays it
            await wait_for_the_bots(table, row["version"])
            continue
        choices = await table.suggestions(ana)
        assert choices, "Ana is to act but got no suggestion"
        if variant == "gin" and not moved():
            # Ana, the non-dealer, may take the upcard and knock at once; when the bot then has
            # nothing to lay off the deal ends with it never having moved (rules.md §2.4), and a
            # one-deal game tests nothing of its level. Until it has moved she keeps playing.
            choices = [c for c in choices if c["value"].split()[0] != "knock"] or choices
        rec = await table.play(ana, table.pick(choices, rnd)["value"])
        reply: Any = answers(rec)[-1]
        assert reply.ephemeral and reply.visible_to == ana.id

    assert table.row()["status"] == "finished"
    if variant == "rami":  # the deal's end says where every point came from, each seat's lines summing up
        def ledgers() -> list[dict[str, Any]]:
            return [e for m in fake.public_messages() for e in m.embeds if "mano" in e.get("title", "")]
        await table.wait_until(lambda: ledgers(), timeout=30)
        for field in ledgers()[-1]["fields"]:
            def number(text: str) -> int:
                return int(text.replace("\u2212", "-"))  # the catalog writes a true minus sign
            points = [number(line.split(" · ")[0]) for line in field["value"].split("\n") if " · " in line]
            assert sum(points) == number(field["name"].rsplit(": ", 1)[1]), field
    assert moved() == set(levels), moved()  # every level moved, through the clock
    # Never rated: a computer player sat (the standings and ratings read only rated results).
    rec = await (await fake.slash(ana, "rummy scores", {})).settled(timeout=15)
    assert "Ana" not in answers(rec)[-1].content
    table.check_action_log()
    scan_for_leaks(fake, [ana])
    assert fake.violations == []
