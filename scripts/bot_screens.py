"""Play a few turns with the real bot under the fake Discord and save what it posted.

``python scripts/bot_screens.py`` starts ``python -m bot`` against ``tests/fakediscord`` on
127.0.0.1 (a temporary database), opens a 3-player basic game, plays some turns through the
buttons and ``/rummy play``, and writes the pictures the bot posted, exactly as posted, to
``docs/images/bot-*.png``: the lobby, the table, a hand (with a card selected), the end of a deal.
``--group-dm`` plays a gin game in a group DM instead, through three users' own installs of the
app (issue 24, docs/anywhere.md), and writes ``docs/images/bot-gdm-*.png`` (the lobby that is the
reply to ``/rummy new``, the table after some moves, a hand, the end of the deal) and prints the
messages of the group DM as each player sees them, for the gallery.
Nothing touches the real Discord.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import Table, answers, custom_ids  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.process import BotProcess  # noqa: E402

OUT = ROOT / "docs" / "images"


def save(name: str, message) -> None:
    images = [a for a in message.attachments if a.filename.endswith((".png", ".gif"))]
    if not images:
        print(f"  {name}: no picture on that message")
        return
    path = OUT / f"bot-{name}{Path(images[0].filename).suffix}"
    path.write_bytes(images[0].data)
    print(f"  wrote {path.relative_to(ROOT)} ({len(images[0].data)} bytes)")


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    async with FakeDiscord() as fake:
        users = [fake.add_user(n, locale="es-ES") for n in ("Ana", "Bea", "Carlos")]
        with tempfile.TemporaryDirectory() as tmp:
            bot = BotProcess(fake, db_path=Path(tmp) / "rummy.sqlite3", log_path=Path(tmp) / "bot.log",
                             patch_gateway=False, env={"RUMMY_FLOOD": "off"})  # a robot plays faster than people
            await bot.start(ready_timeout=60)
            try:
                table = Table(fake, bot, Path(tmp) / "rummy.sqlite3", users)
                rec = await (await fake.slash(users[0], "rummy new", {"variant": "basic", "timer": 5})).settled()
                save("lobby", rec.original)
                table.lobby = rec.original
                table.game_id = int(custom_ids(rec.original)[0].split(":")[2])
                for user in users[1:]:
                    await (await fake.click(user, table.lobby, f"rummy:join:{table.game_id}")).settled()
                await (await fake.click(users[0], table.lobby, f"rummy:start:{table.game_id}")).settled()
                await table.wait_table()
                rnd = random.Random(11)
                for step in range(40):
                    game = table.game()
                    if step >= 9 and game.phase == "draw":
                        break
                    user = table.user_of(game.actors[0])
                    choices = await table.suggestions(user)
                    await table.play(user, table.pick(choices, rnd)["value"])
                await asyncio.sleep(1.0)  # let the coalesced table edit land
                save("table", table.table_message())
                game = table.game()
                user = table.user_of(game.actors[0])
                version = table.row()["version"]
                rec = await (await fake.click(user, table.table_message(),
                                              f"rummy:draw:{table.game_id}:{version}")).settled()
                hand = answers(rec)[-1]
                select = next(c for c in custom_ids(hand) if c.startswith("rummy:s0:"))
                await (await fake.select(user, hand, select, ["0", "1"])).settled()
                save("hand", hand)
                print("  hand message text:", hand.content.replace("\n", " | "))
                while not table.game().hand_over:
                    game = table.game()
                    user = table.user_of(game.actors[0])
                    choices = await table.suggestions(user)
                    await table.play(user, table.pick(choices, rnd)["value"])
                deal = await fake.wait_for_message(
                    lambda m: any(a.filename.startswith("deal") for a in m.attachments), timeout=20)
                save("deal", deal)
                print("  violations:", fake.violations)
            finally:
                await bot.terminate()


async def group_dm() -> None:
    """A gin game in a group DM through user installs (issue 24): the pictures as posted there."""
    from tests.e2e.test_anywhere import Anywhere

    OUT.mkdir(parents=True, exist_ok=True)
    async with FakeDiscord() as fake:
        users = [fake.add_user(n, locale="es-ES") for n in ("Ana", "Bea")]
        for user in users:
            fake.install_for_user(user)
        channel = fake.add_group_dm(*users, name="rami")
        with tempfile.TemporaryDirectory() as tmp:
            bot = BotProcess(fake, db_path=Path(tmp) / "rummy.sqlite3", log_path=Path(tmp) / "bot.log",
                             patch_gateway=False, env={"RUMMY_FLOOD": "off", "RUMMY_DEV_GUILD": ""})
            await bot.start(ready_timeout=60)
            try:
                t = Anywhere(fake, bot, Path(tmp) / "rummy.sqlite3", users, channel=channel)
                await t.open("gin", options="target=1")
                save("gdm-lobby", fake.message(t.lobby.id))
                await t.play_until_over(random.Random(5), max_moves=8, to_end=False)
                save("gdm-table", t.newest_table())
                user = t.user_of(t.game().actors[0])
                rec = await (await fake.click(user, t.newest_table(), f"rummy:hand:{t.game_id}")).settled()
                save("gdm-hand", next(m for m in answers(rec) if m.ephemeral))
                await t.play_until_over(random.Random(5))
                deal = [m for m in fake.public_messages(channel) if any(a.filename.startswith("deal")
                                                                        for a in m.attachments)]
                if deal:
                    save("gdm-deal", deal[-1])
                shown = [m for m in fake.public_messages(channel) if not m.deleted]
                print(f"  {len(shown)} messages everybody sees in the group DM now, "
                      f"{sum(m.ephemeral for m in fake.messages if m.channel_id == channel)} private answers:")
                for m in shown:
                    print("   ", (m.content or "").replace("\n", " | ")[:110])
                print("  violations:", fake.violations)
            finally:
                await bot.terminate()


if __name__ == "__main__":
    asyncio.run(group_dm() if "--group-dm" in sys.argv[1:] else main())
