"""Every refusal the tournaments can give is in both catalogs, with the placeholders it is given."""

from __future__ import annotations

import re
from pathlib import Path

from bot.words.i18n import catalog

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*sorted((ROOT / "bot/service/tournament").glob("*.py")), ROOT / "cogs/tournament.py",
           ROOT / "cogs/tournament_news.py"]


def test_every_tournament_refusal_is_translated():
    codes = set()
    for path in SOURCES:
        codes |= set(re.findall(r'Refusal\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    codes |= set(re.findall(r'duplicate="([a-z_]+)"', "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)))
    assert {"tournament_full", "tournament_closed", "tournament_already_in", "managers_only"} <= codes
    for locale in ("es", "en"):
        words = catalog(locale)
        missing = [c for c in codes if f"refusal.{c}" not in words]
        assert not missing, (locale, missing)


def test_every_action_and_stage_has_words():
    from cogs.tournament import ACTIONS

    for locale in ("es", "en"):
        words = catalog(locale)
        for action in ACTIONS:
            assert f"tournament.action.{action}" in words and f"tournament.done.{action}" in words
        for stage in ("signup", "checkin", "running", "between", "finished", "cancelled"):
            assert f"tournament.stage.{stage}" in words
        for name in ("buchholz", "sonneborn_berger", "game_points", "head_to_head", "round_reached"):
            assert f"tournament.tiebreak.{name}" in words
