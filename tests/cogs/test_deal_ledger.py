"""The end of a Rami or Tradicional deal says where every seat's points came from (issue 12,
rules.md §6.1: the bot explains every point).

What a user would notice if this failed: the end-of-deal message of a rami deal shows "Ana: +65"
and nothing else, so nobody can tell which melds, laid-off cards, bonuses or loser's cards made
those 65 points. Each deal here is played by the engine's seeded driver, loaded back from its
record as the bot loads it, and announced by the real announcer; the test reads the posted embed.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from bot.engine import load_game
from bot.service import Change, ChangeKind
from bot.words.refusals import ledger_text
from cogs.ui import nm
from scripts.played import played_game
from tests.cogs.test_game_end import announcer, row_for

# (rami, 3 seats, seed 2 retrieves a joker: a debit line, written with a minus sign)
DEALS = [("rami", 3, 5, None), ("rami", 3, 2, None), ("rami", 4, 8, None),
         ("rami", 2, 1, {"scoring_mode": "elimination"}),
         ("tradicional", 3, 2, None), ("tradicional", 4, 6, None), ("tradicional", 2, 9, None)]


def number(text: str, locale: str) -> Fraction:
    """``+12,5`` (es) / ``+12.5`` (en) back to a number."""
    text = text.lstrip("+").replace("\u2212", "-")  # the catalog writes a true minus sign
    text = text.replace(".", "").replace(",", ".") if locale == "es" else text.replace(",", "")
    return Fraction(text)


async def posted_deal_end(variant: str, seats: int, seed: int, options: dict[str, Any] | None,
                          locale: str) -> tuple[Any, dict[str, Any]]:
    game = load_game(played_game(variant, seats, seed=seed, options=options).record())
    assert game.hand_over and game.public_view().result is not None
    row = replace(row_for(game, variant), locale=locale)
    change = Change(ChangeKind.MOVE, row, game, seat=game.seats[0], move="discard", events=[], turn_changed=True,
                    deal_over=True, game_over=game.game_over)
    ann, channel = announcer()
    await ann.announce(change)
    ends = [m for m in channel.sent if "file" in m]
    assert len(ends) == 1
    return game, ends[0]


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize(("variant", "seats", "seed", "options"), DEALS)
async def test_every_point_of_the_deal_is_explained_line_by_line(variant: str, seats: int, seed: int,
                                                                 options: dict[str, Any] | None,
                                                                 locale: str) -> None:
    game, message = await posted_deal_end(variant, seats, seed, options, locale)
    embed = message.get("embed")
    assert embed is not None, "no points ledger under the end of the deal"
    row = row_for(game, variant)
    names = {s.seat: nm(s.name) for s in row.seats}
    fields = {f.name.rsplit(": ", 1)[0]: f for f in embed.fields}
    assert set(fields) == {names[s] for s in game.active}
    for seat in game.active:
        field = fields[names[seat]]
        shown = number(field.name.rsplit(": ", 1)[1], locale)
        assert shown == game.hand_points.get(seat, 0)  # the deal's score, as the picture shows it
        lines = field.value.split("\n")
        expected = [e for e in game.ledger if e[0] == seat]
        for entry in expected:  # every ledger line, with its points and its reason
            assert any(line.endswith(" · " + ledger_text(entry, locale, names))
                       and number(line.split(" · ")[0], locale) == entry[1] for line in lines), (entry, lines)
        if expected:
            assert len(lines) == len(expected)
            assert sum(number(line.split(" · ")[0], locale) for line in lines) == shown
        else:
            assert shown == 0
    assert "Sin detallar" not in str(embed.to_dict()) and "Not itemised" not in str(embed.to_dict())
    assert len(embed) <= 6000 and all(len(f.value) <= 1024 for f in embed.fields)


async def test_a_gin_deal_end_has_no_ledger_embed() -> None:
    _, message = await posted_deal_end("gin", 2, 42, None, "es")
    assert "embed" not in message


def test_a_seat_with_more_lines_than_fit_still_adds_up() -> None:
    from cogs.ledger import _field_text
    lines = [(5 * (i % 7) - 10, f"Combinación bajada número {i}: " + "A♠ " * 12) for i in range(60)]
    text = _field_text(lines, "es", 600)
    assert len(text) <= 600 and text.splitlines()[-1].endswith("más")
    assert sum(number(line.split(" · ")[0], "es") for line in text.splitlines()) == sum(p for p, _ in lines)
