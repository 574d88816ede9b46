"""Play a few turns with the real bot under the fake Discord and save what it posted.

``python scripts/bot_screens.py`` starts ``python -m bot`` against ``tests/fakediscord`` on
127.0.0.1 (a temporary database), opens a 3-player basic game, plays some turns through the
buttons and ``/rummy play``, and writes the pictures the bot posted, exactly as posted, to
``docs/images/bot-*.png``: the lobby, the table, a hand (with a card selected), the end of a deal.
``--group-dm`` plays a gin game in a group DM instead, through three users' own installs of the
app (issue 24, docs/anywhere.md), and writes ``docs/images/bot-gdm-*.png`` (the lobby that is the
reply to ``/rummy new``, the table after some moves, a hand, the end of the deal) and prints the
messages of the group DM as each player sees them, for the gallery.
``--smoke`` stops each mode after its lobby, a few moves, the table and a hand (no deal's end),
and ``--out DIR`` writes the pictures to DIR instead: ``tests/test_screens.py`` runs both modes so
that, when the bot changes, the script cannot break unseen.
Nothing touches the real Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import Table, answers, custom_ids, new_lobby, shown_hand  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.process import BotProcess  # noqa: E402

OUT = ROOT / "docs" / "images"


def save(name: str, message, out: Path) -> None:
    images = [a for a in message.attachments if a.filename.endswith((".png", ".gif"))]
    if not images:
        raise SystemExit(f"  {name}: no picture on that message")
    path = out / f"bot-{name}{Path(images[0].filename).suffix}"
    path.write_bytes(images[0].data)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"  wrote {shown} ({len(images[0].data)} bytes)")


async def main(out: Path = OUT, smoke: bool = False) -> None:
    """A 3-player basic game in a server channel: the lobby is posted in the channel (the host is
    answered privately), the game is played in the lobby's thread."""
    out.mkdir(parents=True, exist_ok=True)
    async with FakeDiscord() as fake:
        users = [fake.add_user(n, locale="es-ES") for n in ("Ana", "Bea", "Carlos")]
        with tempfile.TemporaryDirectory() as tmp:
            bot = BotProcess(fake, db_path=Path(tmp) / "rummy.sqlite3", log_path=Path(tmp) / "bot.log",
                             patch_gateway=False, env={"RUMMY_FLOOD": "off"})  # a robot plays faster than people
            await bot.start(ready_timeout=60)
            try:
                table = Table(fake, bot, Path(tmp) / "rummy.sqlite3", users)
                table.lobby = await new_lobby(fake, users[0], {"variant": "basic", "timer": 5})
                table.game_id = int(custom_ids(table.lobby)[0].split(":")[2])
                await table.wait_until(lambda: any(a.filename.startswith("lobby") for a in table.lobby.attachments))
                save("lobby", table.lobby, out)
                for n, user in enumerate(users[1:], start=2):
                    await (await fake.click(user, table.lobby, f"rummy:join:{table.game_id}")).settled()
                    await table.wait_until(lambda n=n: table.seats() == n)
                await (await fake.click(users[0], table.lobby, f"rummy:start:{table.game_id}")).settled()
                await table.wait_until(lambda: table.row()["status"] == "playing")
                await table.wait_table()
                rnd = random.Random(11)
                for step in range(40):
                    game = table.game()
                    if step >= (3 if smoke else 9) and game.phase == "draw":
                        break
                    user = table.user_of(game.actors[0])
                    choices = await table.suggestions(user)
                    await table.play(user, table.pick(choices, rnd)["value"])
                await asyncio.sleep(1.0)  # let the coalesced table edit land
                save("table", table.table_message(), out)
                game = table.game()
                user = table.user_of(game.actors[0])
                version = table.row()["version"]
                rec = await (await fake.click(user, table.table_message(),
                                              f"rummy:draw:{table.game_id}:{version}")).settled()
                hand = await shown_hand(fake, rec, user, {}, table.game_id, version + 1)  # new, or the live one
                select = next(c for c in custom_ids(hand) if c.startswith("rummy:s0:"))
                await (await fake.select(user, hand, select, ["0", "1"])).settled()
                save("hand", hand, out)
                print("  hand message text:", hand.content.replace("\n", " | "))
                while not smoke and not table.game().hand_over:
                    game = table.game()
                    user = table.user_of(game.actors[0])
                    choices = await table.suggestions(user)
                    await table.play(user, table.pick(choices, rnd)["value"])
                if not smoke:
                    deal = await fake.wait_for_message(
                        lambda m: any(a.filename.startswith("deal") for a in m.attachments), timeout=20)
                    save("deal", deal, out)
                print("  violations:", fake.violations)
                if fake.violations:
                    raise SystemExit("the bot broke the rules of Discord's API")
            finally:
                await bot.terminate()


async def group_dm(out: Path = OUT, smoke: bool = False) -> None:
    """A gin game in a group DM through user installs (issue 24): the pictures as posted there."""
    from tests.e2e.test_anywhere import Anywhere

    out.mkdir(parents=True, exist_ok=True)
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
                save("gdm-lobby", fake.message(t.lobby.id), out)
                await t.play_until_over(random.Random(5), max_moves=4 if smoke else 8, to_end=False)
                save("gdm-table", t.newest_table(), out)
                user = t.user_of(t.game().actors[0])
                rec = await (await fake.click(user, t.newest_table(), f"rummy:hand:{t.game_id}")).settled()
                save("gdm-hand", next(m for m in answers(rec) if m.ephemeral), out)
                if smoke:
                    print("  violations:", fake.violations)
                    if fake.violations:
                        raise SystemExit("the bot broke the rules of Discord's API")
                    return
                await t.play_until_over(random.Random(5))
                deal = [m for m in fake.public_messages(channel) if any(a.filename.startswith("deal")
                                                                        for a in m.attachments)]
                if deal:
                    save("gdm-deal", deal[-1], out)
                shown = [m for m in fake.public_messages(channel) if not m.deleted]
                print(f"  {len(shown)} messages everybody sees in the group DM now, "
                      f"{sum(m.ephemeral for m in fake.messages if m.channel_id == channel)} private answers:")
                for m in shown:
                    print("   ", (m.content or "").replace("\n", " | ")[:110])
                print("  violations:", fake.violations)
            finally:
                await bot.terminate()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group-dm", action="store_true", help="a gin game in a group DM (user installs)")
    parser.add_argument("--smoke", action="store_true", help="a few moves only, no deal's end")
    parser.add_argument("--out", type=Path, default=OUT, help="where the pictures go (default docs/images)")
    args = parser.parse_args()
    asyncio.run((group_dm if args.group_dm else main)(args.out.resolve(), args.smoke))
