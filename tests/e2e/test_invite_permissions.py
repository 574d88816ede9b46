"""A game in a channel where the bot has exactly the README's invite permissions (issue 36).

The README's invite asks for View Channels, Send Messages, Attach Files, Create Public Threads and
Send Messages in Threads, not Embed Links, and Discord drops a bot's embeds without it (the fake
does too: ``FakeDiscord.suppressed_embeds``). The end of a Rami deal therefore itemises every
seat's points in its picture, which Attach Files lets the bot post; the ledger's embed, where it is
dropped, takes nothing with it.

What a user would notice if this failed: on a server that gave the bot just what the invite asks
for, the end of a Rami deal says "Ana: +65" and nobody sees where those points came from.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import load_game
from renderers import render_result
from tests.e2e.helpers import Table
from tests.fakediscord import payloads

pytestmark = pytest.mark.e2e

README_PERMISSIONS = 309237681152  # README.md, "Installation": the invite's permission integer
EMBED_LINKS = 1 << 14


async def test_a_rami_deal_shows_its_ledger_with_only_the_invites_permissions(table: Table) -> None:
    fake = table.fake
    everyone, bot_role = fake.guild.roles[fake.guild.id], fake.guild.roles[fake.guild.bot_role_id]
    everyone.permissions &= README_PERMISSIONS  # @everyone gives the bot nothing the invite does not
    bot_role.permissions = README_PERMISSIONS
    assert payloads.permissions_for(fake, None) == README_PERMISSIONS and not README_PERMISSIONS & EMBED_LINKS
    table.users = table.users[:2]
    await table.open("rami", "rounds_per_game=1")  # one deal, played to its end (no cap: a capped deal is void)
    await table.play_until_over(random.Random(36))

    def deal_ends() -> list:
        return [m for m in fake.public_messages() if any(a.filename.startswith("deal.") for a in m.attachments)]

    await table.wait_until(lambda: bool(deal_ends()), timeout=30)
    end = deal_ends()[-1]  # the deal the game ended with: its ledger is the record's
    assert end.embeds == [] and fake.suppressed_embeds, "the ledger's embed was not dropped"
    [picture] = [a for a in end.attachments if a.filename.startswith("deal.")]
    # The picture is the result with every ledger line drawn in it, not the bare result.
    game = load_game(table.row()["record"])
    assert game.ledger and game.public_view().result is not None
    seats = table.query("SELECT seat, name FROM seats WHERE game_id = ?", (table.game_id,))
    names, locale = {r["seat"]: r["name"] for r in seats}, table.row()["locale"]
    bare = render_result(game.public_view(), locale=locale, names=names)
    itemised = render_result(game.public_view(), locale=locale, names=names, ledger=game.ledger,
                             final_scores=game.final_scores)
    assert picture.data == itemised.data != bare.data
    assert Image.open(io.BytesIO(picture.data)).height > bare.height  # the ledger's lines take room
    assert fake.violations == []
