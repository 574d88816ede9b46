"""A French player's Rami, end to end on the fake Discord (issue 39): Zoé's Discord is in French
(locale ``fr``), she opens a Rami lobby with ``/rummy new`` and plays a deal by taps against Ana,
whose Discord is in Spanish (``es-ES``), in a server whose own language is Spanish and whose
managers chose no language.

Every text Zoé sees (the public lobby, table and deal-end messages, her private answers, their
buttons, selects and options, the ``/rummy play`` suggestions) is French: none holds a text only the
Spanish or the English catalog has. Ana's own answers are in Spanish. The game speaks its host's
language (no manager chose one), so the public messages are French too.

What a user would notice if this failed: a French player reading Spanish or English on a button,
in a select or in the lobby; a Spanish player answered in French because the host is French.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.words.i18n import _pieces, branches, catalog, translate
from tests.e2e.helpers import Table
from tests.e2e.test_taps_rami import Taps, discard, draw, lay_out, layoff, meld

pytestmark = pytest.mark.e2e


def _words(text: str) -> list[str]:
    """A catalog text's literal stretches (placeholders out, every plural branch in)."""
    out: list[str] = []
    for kind, body in _pieces(text):
        if kind == "text":
            out += [p.strip(" .:·,;!?()*`\u00a0") for p in re.split(r"[\n*`]", body)]
        elif (plural := branches(body)) is not None:
            for branch in plural[1].values():
                out += _words(branch)
    return [w for w in out if len(w) >= 10 and re.search(r"[a-záéíóúñ]{4}", w.lower())]


def foreign(locale: str) -> set[str]:
    """Stretches of text that only the other two languages' catalogs have: seen by a ``locale``
    player, they would be a message in the wrong language."""
    own = " ".join(catalog(locale).values())
    others = {w for loc in ("es", "en", "fr") if loc != locale for t in catalog(loc).values() for w in _words(t)}
    return {w for w in others if w not in own}


def _texts(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> list[str]:
    out = [content or ""]
    for embed in embeds or []:
        out += [str(embed.get(k, "")) for k in ("title", "description")]
        out += [str(f.get(k, "")) for f in embed.get("fields", []) for k in ("name", "value")]
        out.append(str((embed.get("footer") or {}).get("text", "")))
    for row in components or []:
        for comp in row.get("components", []):
            out += [str(comp.get("label") or ""), str(comp.get("placeholder") or "")]
            out += [str(o.get(k) or "") for o in comp.get("options", []) for k in ("label", "description")]
    return out


def seen(message: Any) -> list[str]:
    """Every text a message showed a player, now and before each edit: content, embeds, buttons,
    selects and their options, and its pictures' descriptions where the fake keeps them."""
    out = _texts(message.content, message.embeds, message.components)
    for edit in message.edits:
        before = edit.before
        out += _texts(str(before.get("content") or ""), before.get("embeds") or [], before.get("components") or [])
    out += [str(getattr(a, "description", "") or "") for a in message.attachments]
    return [t for t in out if t]


def wrong_language(texts: list[str], locale: str) -> list[tuple[str, str]]:
    bad = foreign(locale)
    return [(w, t[:120]) for t in texts for w in bad if w in t]


async def test_a_french_player_plays_rami_in_french_and_a_spanish_one_reads_spanish(table: Table) -> None:
    zoe = table.fake.add_user("Zoé", locale="fr")
    ana = table.users[0]
    table.users = [zoe, ana]
    await table.open("rami", "rounds_per_game=1")
    z, a = table.seat_of(zoe), table.seat_of(ana)
    lay_out(table, f"""[Variant "rami"]
[Options "rounds_per_game=1"]
[Seats "{z} {a}"]
[Hand "{z}" "JH QH KH 4S 4H 4C 5S 6S 7S 9D"]
[Hand "{a}" "2C 3D 5H 7C 9S JD KC AS 6H 8D"]
[Stock "2H 7D 8S 5C 3H 9C TD QS"]
[Discard "2S"]
[Turn "{z}"]
[Phase "draw"]
""")
    taps = Taps(table)
    # The suggestions of /rummy play, as Zoé's Discord shows them.
    suggestions = await table.suggestions(zoe)
    assert suggestions and any(s["name"].lower().startswith("piocher") for s in suggestions), suggestions
    # Zoé draws, opens with three melds (60 points) and discards; Ana draws and discards; Zoé draws
    # the 8♠, adds it to her run and goes out discarding the 2♥.
    await draw(taps, zoe)
    await meld(taps, zoe, ["JH", "QH", "KH", "4S", "4H", "4C", "5S", "6S", "7S"])
    await discard(taps, zoe, "9D")
    await draw(taps, ana)
    ana_hand = taps.hand_message(ana)
    await discard(taps, ana, "7D")
    await draw(taps, zoe)
    spades = next(n for n, m in enumerate(table.game().table, start=1) if "5S" in m)
    await layoff(taps, zoe, ["8S"], spades)
    await discard(taps, zoe, "2H")
    await table.wait_until(lambda: table.row()["status"] == "finished", timeout=20)
    await table.wait_until(lambda: any("rummy" in " ".join(seen(m)).lower() and m.attachments
                                       for m in table.fake.public_messages()), timeout=10)

    public = [t for m in table.fake.messages if not m.ephemeral for t in seen(m)]
    mine = [t for m in table.fake.messages if m.ephemeral and m.visible_to == zoe.id for t in seen(m)]
    assert wrong_language([translate("lobby.help", "es"), translate("lobby.help", "en")], "fr")  # it can see
    assert wrong_language(public + mine + [s["name"] for s in suggestions], "fr") == []
    everything = " ".join(public + mine)
    for french in ("Rejoindre", "Lancer", "Ma main", "Piocher", "Poser", "Défausser"):
        assert french in everything, french
    assert "salle d'attente" in everything.lower()
    # Ana's own answers are Spanish, though the game is French.
    hers = [t for m in table.fake.messages if m.ephemeral and m.visible_to == ana.id for t in seen(m)]
    assert hers and ana_hand is not None and "Robar" in " ".join(seen(ana_hand)) + " ".join(hers)
    assert wrong_language(hers, "es") == []

