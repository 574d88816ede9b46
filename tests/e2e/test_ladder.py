"""Skill ratings (issue 12), against the real bot and our fake Discord.

Ana and Bea play three quick rated games of gin (each makes a move of their own, then one
resigns): Ana wins twice, Bea once. Before the third, the ladder says nobody has the minimum of
games yet; after it, ``/rummy ladder`` lists Ana above Bea with the ratings the database holds,
as a picture and as text, in each reader's language, and ``/rummy stats`` adds Bea's rating, her
rank and a chart of her rating over her games. A manager then resets the ratings (confirmed,
audited): the ladder is empty again and the season standings are untouched.

What a user would notice if these failed: a ladder that does not move after games, lists
newcomers, or disagrees with the stored ratings; stats without the rating or the chart.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.helpers import Table, answers, custom_ids, scan_for_leaks

pytestmark = pytest.mark.e2e


async def quick_game(table: Table, loser: Any, rnd: random.Random) -> None:
    """A gin game both players move in (so it is rated), which ``loser`` then resigns."""
    await table.open("gin")
    ana, bea = table.users
    moved: set[int] = set()
    while moved != {ana.id, bea.id}:
        user = table.user_of(table.game().actors[0])
        choices = [c for c in await table.suggestions(user) if c["value"].split()[0] not in ("knock", "gin")]
        await table.play(user, rnd.choice(choices)["value"])
        moved.add(user.id)
    await (await table.fake.slash(loser, "rummy resign", {})).settled(timeout=15)
    await table.wait_until(lambda: table.row()["status"] == "finished")
    # The final message is posted before the next lobby opens in the channel.
    await table.fake.wait_for_message(
        lambda m: any(c.startswith(f"rummy:rematch:{table.game_id}") for row in m.components
                      for c in [x.get("custom_id", "") for x in row.get("components", [])]), timeout=20)


async def private_answer(table: Table, user: Any, command: str, args: dict[str, Any], picture: str | None) -> Any:
    """The private answer to a command, once it carries ``picture`` (rendered off the loop)."""
    rec = await (await table.fake.slash(user, command, args)).settled(timeout=30)

    def ready() -> bool:
        return bool(answers(rec)) and (picture is None or any(
            a.filename == picture for m in answers(rec) for a in m.attachments))

    await table.wait_until(ready, timeout=30)
    reply = [m for m in answers(rec) if picture is None or any(a.filename == picture for a in m.attachments)][-1]
    assert reply.ephemeral and reply.visible_to == user.id
    return reply


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """The number the README documents: 1000 + 40·(mu − 3·sigma), ± 40·sigma."""
    return round(1000 + 40 * (mu - 3 * sigma)), round(40 * sigma)


async def test_the_ladder_and_stats_show_the_ratings_of_rated_games(table: Table) -> None:
    ana, bea = table.users[:2]
    table.users = [ana, bea]
    rnd = random.Random(5)
    await quick_game(table, bea, rnd)
    await quick_game(table, ana, rnd)
    assert {r[0] for r in table.query("SELECT rated FROM results")} == {1}
    reply = await private_answer(table, ana, "rummy ladder", {}, "ladder.png")
    assert "Nadie tiene aún 3 partidas puntuables" in reply.content  # Ana reads Spanish

    await quick_game(table, bea, rnd)
    stored = {r["user_id"]: (*shown(r["mu"], r["sigma"]), r["games"]) for r in table.query(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE variant = '*'")}
    assert stored[ana.id][0] > stored[bea.id][0] and stored[ana.id][2] == stored[bea.id][2] == 3
    reply = await private_answer(table, ana, "rummy ladder", {}, "ladder.png")
    lines = reply.content.splitlines()
    first = next(i for i, line in enumerate(lines) if "Ana" in line)
    second = next(i for i, line in enumerate(lines) if "Bea" in line)
    assert first < second
    rating, spread, games = stored[ana.id]
    assert f"**{rating}** ± {spread}" in lines[first] and f"partidas: {games}" in lines[first]
    # The same ladder in gin alone, in Bea's language.
    reply = await private_answer(table, bea, "rummy ladder", {"variant": "gin"}, "ladder.png")
    assert "Skill ladder" in reply.content and "Gin" in reply.content.splitlines()[0]
    assert reply.content.index("Ana") < reply.content.index("Bea")
    # Shared with the channel: in the server's language (Spanish here).
    await (await table.fake.slash(bea, "rummy ladder", {"share": True})).settled(timeout=30)
    shared = await table.fake.wait_for_message(
        lambda m: m.public and any(a.filename == "ladder.png" for a in m.attachments), timeout=30)
    assert "Nivel de juego" in shared.content and shared.content.index("Ana") < shared.content.index("Bea")

    reply = await private_answer(table, bea, "rummy stats", {}, "rating.png")
    rating, spread, _ = stored[bea.id]
    assert f"rating: **{rating}** ± {spread} · rank 2 of 2" in reply.content
    chart = next(a for a in reply.attachments if a.filename == "rating.png")
    assert chart.data[:8] == b"\x89PNG\r\n\x1a\n"

    # A manager resets the server's ratings, after confirming: audited, the ladder empty again,
    # the season standings as they were.
    mod = table.fake.add_user("Mod", locale="en-US", manage_guild=True)
    ask = answers(await (await table.fake.slash(mod, "rummy-admin reset-ratings", {})).settled(timeout=15))[-1]
    assert ask.ephemeral and ask.visible_to == mod.id and "everybody's skill rating" in ask.content
    assert table.query("SELECT COUNT(*) FROM ratings")[0][0] == 4  # nothing before the confirmation
    button = next(c for c in custom_ids(ask) if c.startswith("rummy:ratings-reset:"))
    await (await table.fake.click(mod, ask, button)).settled(timeout=15)
    await table.wait_until(lambda: table.query("SELECT COUNT(*) FROM ratings")[0][0] == 0)
    assert [r[0] for r in table.query("SELECT action FROM audit")] == ["reset_ratings"]
    reply = await private_answer(table, ana, "rummy ladder", {}, "ladder.png")
    assert "Nadie tiene aún 3 partidas puntuables" in reply.content
    rec = await (await table.fake.slash(bea, "rummy scores", {})).settled(timeout=15)
    assert "games: 3" in answers(rec)[-1].content
    table.check_action_log()
    scan_for_leaks(table.fake, table.users)
    assert table.fake.violations == []
