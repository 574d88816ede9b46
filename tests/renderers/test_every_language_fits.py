"""Every picture, drawn in every language (es, en, fr), keeps its texts in their boxes.

What it measures is the ink the scenes really drew (``Scene.texts``, Pillow's own bounds): no text
leaves the image; none runs past the room it was given (its ``max_width`` span, its pill); none that
starts inside a panel, pill or badge (every rounded rectangle the scene drew) runs out of it; no two
texts overlap. French words are the longest, so a French gallery that passes is the one to look at.

What it is not: the layout of any one picture (tests/renderers/test_<picture>.py) nor its words
(tests/test_i18n.py).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest

from bot.words.i18n import LOCALES
from renderers import LobbyInfo, draw_hand, draw_lobby, draw_result, draw_table
from renderers.draft import draft_scene
from renderers.draft_samples import built_draft
from renderers.draw import Box, Scene
from renderers.ladder import ChartInfo, LadderInfo, draw_chart, draw_ladder
from renderers.samples import built_hand, built_result, built_view
from renderers.settings import draw_settings
from renderers.settings_samples import sample_settings
from renderers.standings import StandingsInfo, draw_standings
from renderers.theme import CLASSIC, Palette
from renderers.tournament import BracketInfo, EventStandingsInfo, draw_bracket, draw_event_standings
from tests.renderers.helpers import overlaps

NAMES = ("Ana", "Begoña", "Cristóbal", "Dolores")
VARIANTS = ("rami", "gin", "basic", "dummy", "wrotham", "tradicional")
SLACK = 1  # px: antialiasing at an edge


def _gallery() -> dict[str, Callable[[str], Scene]]:
    out: dict[str, Callable[[str], Scene]] = {}
    for v in VARIANTS:
        seats = 2 if v == "gin" else 4
        out[f"lobby-{v}"] = lambda loc, v=v: draw_lobby(
            LobbyInfo(v, (("target", "250"),), NAMES[:3], "Ana", 2, 6, 2, "open"), locale=loc)
        out[f"table-{v}"] = lambda loc, v=v, n=seats: draw_table(built_view(v, n, 5), locale=loc)
        out[f"deal-end-{v}"] = lambda loc, v=v, n=seats: draw_result(built_result(built_view(v, n, 5)), locale=loc)
    for status in ("started", "cancelled", "expired"):
        out[f"lobby-{status}"] = lambda loc, s=status: draw_lobby(LobbyInfo("rami", (), NAMES[:2], "Ana", 2, 6, 0, s),
                                                                  locale=loc)
    rows = tuple((i + 1, f"Player {i + 1}", 30 - i, 5 - i, 40 + i) for i in range(5))
    ladder = tuple((i + 1, f"Player {i + 1}", 1200 - 10 * i, 90 + i, 3 + i) for i in range(5))
    out |= {
        "hand": lambda loc: draw_hand(built_hand(), locale=loc),
        "hand-by-rank": lambda loc: draw_hand(built_hand(), sort="rank", locale=loc),
        "settings": lambda loc: draw_settings(sample_settings(), locale=loc),
        "standings": lambda loc: draw_standings(StandingsInfo(3, 57, rows, None, True, 2), locale=loc),
        "ladder": lambda loc: draw_ladder(LadderInfo(ladder, 3, "rami", 2), locale=loc),
        "chart": lambda loc: draw_chart(ChartInfo("ana", (1000, 1010, 990, 1030), 88, 2, 9), locale=loc),
        "tournament": lambda loc: draw_event_standings(EventStandingsInfo("Swiss", 2, False, ("Buchholz", "Median"), (
            (1, "Ana", "6", "3–0", ("7.5", "30"), False), (2, "Bea", "4", "2–1", ("6.5", "20"), True))), locale=loc),
        "bracket": lambda loc: draw_bracket(BracketInfo("Cup", ((("Ana", "Bea", 0), ("Cris", "Dolo", 1)),
                                                                (("Ana", "Dolo", None),))), locale=loc),
        "rearrange": lambda loc: draft_scene(built_draft(), locale=loc),
    }
    return out


GALLERY = _gallery()


def _inside(inner: Box, outer: Box) -> bool:
    return (outer[0] - SLACK <= inner[0] and outer[1] - SLACK <= inner[1]
            and inner[2] <= outer[2] + SLACK and inner[3] <= outer[3] + SLACK)


def leaks(scene: Scene) -> list[tuple[object, ...]]:
    """Every text that leaves its box, and why."""
    out: list[tuple[object, ...]] = []
    for t in scene.texts:
        if not _inside(t.box, (0, 0, scene.width, scene.height)):
            out.append(("leaves the image", t.text, t.box))
        if t.room and not (t.room[0] - SLACK <= t.box[0] and t.box[2] <= t.room[2] + SLACK):
            out.append(("runs past its room", t.text, t.box, t.room))
        middle = (t.box[1] + t.box[3]) / 2
        holders = [p for p in scene.panels if p[0] <= t.box[0] < p[2] and p[1] <= middle < p[3]]
        if holders:
            panel = min(holders, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            if not _inside(t.box, panel):
                out.append(("runs out of its panel", t.text, t.box, panel))
    out += [("overlaps", a.text, b.text) for a, b in combinations(scene.texts, 2) if overlaps(a.box, b.box)]
    return out


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("picture", sorted(GALLERY))
def test_no_text_leaves_its_box(picture: str, locale: str) -> None:
    scene = GALLERY[picture](locale)
    assert scene.texts, picture
    assert leaks(scene) == [], (picture, locale)


def test_the_french_gallery_is_in_french() -> None:
    said = {loc: " ".join(t.text for t in GALLERY["lobby-rami"](loc).texts) for loc in LOCALES}
    assert "Salle d'attente" in said["fr"] and "Sala de espera" not in said["fr"] and "Lobby" not in said["fr"]
    table = " ".join(t.text for t in GALLERY["table-rami"]("fr").texts)
    assert "Pioche" in table and "Défausse" in table


def test_the_measure_sees_a_text_leave_its_box() -> None:
    long = "Une étiquette bien trop longue pour sa pastille"
    scene = Scene.new(300, 80, CLASSIC)
    scene.rrect((10, 10, 110, 40), 8, Palette.felt)
    scene.text(14, 14, long, 16, Palette.felt)
    assert [leak[0] for leak in leaks(scene)] == ["leaves the image", "runs out of its panel"]
    fitted = Scene.new(300, 80, CLASSIC)
    fitted.rrect((10, 10, 110, 40), 8, Palette.felt)
    fitted.text(14, 14, long, 16, Palette.felt, max_width=90)
    assert leaks(fitted) == [] and fitted.texts[0].text.endswith("…")
    fitted.pill(150, 10, "Pioche", 14, Palette.felt, Palette.felt)
    assert leaks(fitted) == [] and fitted.texts[-1].room is not None
    fitted.text(14, 50, "A", 16, Palette.felt)
    fitted.text(16, 52, "B", 16, Palette.felt)
    assert [leak[0] for leak in leaks(fitted)] == ["overlaps"]
