"""The Activity page's words: the catalogs' ``activity.page.*`` messages are what the page carries
built in (activity/web/words.<lang>.json, written from src/words.ts by ``npm run words``), and a
viewer whose Discord is in French is sent them in French (the session keeps ``fr``).

What it is not: the page's own formatting (activity/web/test/words.test.ts, under node) or the
sockets' other frames (test_server.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from activity.sockets import page_words
from bot.words.i18n import LOCALES, catalog, locale_of, translate
from tests.activity.server_world import World

WEB = Path(__file__).resolve().parents[2] / "activity" / "web"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_pages_built_in_words_are_the_catalogs(locale):
    built_in = json.loads((WEB / f"words.{locale}.json").read_text(encoding="utf-8"))
    served = {k: v for k, v in catalog(locale).items() if k.startswith("activity.page.")}
    assert set(built_in) == set(served), sorted(set(built_in) ^ set(served))
    different = {k: (built_in[k], served[k]) for k in served if built_in[k] != served[k]}
    assert not different, "copy the catalog into activity/web/src/words.ts, then npm run words: " + repr(different)


@pytest.mark.parametrize(("discord", "hand"), [("fr", "Ta main"), ("es-419", "Tu mano"), ("en-GB", "Your hand"),
                                              ("de", "Tu mano")])
def test_a_viewer_is_sent_the_words_of_their_discord(discord, hand):
    words = page_words(locale_of(discord))
    assert words["activity.page.hand"] == hand
    assert set(words) == {k for k in catalog("es") if k.startswith("activity.page.")}


def test_the_french_words_are_rami_words_with_icu_plurals():
    words = page_words("fr")
    assert words["activity.page.stock"] == "Pioche" and words["activity.page.discard"] == "Défausse"
    assert words["activity.page.verb.draw"] == "Piocher" and words["activity.page.verb.meld"] == "Poser"
    assert "{count, plural, one {carte}" in words["activity.page.stock_count"]
    assert translate("activity.page.stock_count", "fr", count=0) == "Pioche\u00a0: 0 carte"
    assert translate("activity.card", "fr", rank=translate("activity.card.rank.Q", "fr"),
                     suit=translate("activity.card.suit.H", "fr")) == "dame de cœur"




async def test_a_french_discord_gets_a_french_session_and_french_words(world: World) -> None:
    zoe = world.fake.add_user("Zoé", locale="fr")
    inst = world.fake.launch_activity(zoe, world.fake.channel_id)
    status, body = await world.post_token(zoe, inst.instance_id)
    assert status == 200 and body["locale"] == "fr", body
    page = await world.open_socket()
    await page.send(op="hello", session=body["session"], custom_id=None)
    welcome = await page.op("welcome")
    assert welcome["locale"] == "fr"
    assert welcome["words"] == page_words("fr") and welcome["words"]["activity.page.none_title"] == "Aucune partie ici"
