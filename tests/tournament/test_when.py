"""When a manager says a tournament starts (``bot.service.tournament.when``).

What a user would notice if this failed: "2h" or a Discord timestamp copied from a generator not
understood, "1,5" read wrongly by a Spanish writer, a time already past or a month away accepted,
or a typo creating an event at some moment nobody meant.
"""

from __future__ import annotations

import pytest

from bot.service import Refusal
from bot.service.tournament import parse_when
from bot.words.i18n import translate

NOW = 1_800_000_000.0


@pytest.mark.parametrize(("text", "seconds"), [
    ("90", 90 * 60), ("0.3", 18), ("1,5", 90),  # minutes, as the option always took them
    ("2h", 7200), ("1d 3h", 27 * 3600), ("1h30m", 5400), ("1h30", 5400), ("45 min", 2700),
    ("2 horas", 7200), ("1 día 2 horas", 26 * 3600), ("3 days", 3 * 86400), ("90 minutos", 5400),
    (" 2 H 5M ", 7500),
])
def test_minutes_and_durations_count_from_now(text: str, seconds: float) -> None:
    assert parse_when(text, NOW) == NOW + seconds


@pytest.mark.parametrize("text", ["<t:1800003600>", "<t:1800003600:F>", "<t:1800003600:R>", "1800003600"])
def test_a_discord_timestamp_or_its_unix_time_is_that_moment(text: str) -> None:
    assert parse_when(text, NOW) == 1_800_003_600


@pytest.mark.parametrize("text", ["el sábado", "mañana a las 9", "1 mes", "2hx", "1d 2", "h", "", "<t:abc>",
                                  "<t:99999999999999>"])
def test_anything_else_is_refused_naming_the_forms(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_when(text, NOW)
    assert refused.value.code == "tournament_when"
    shown = translate("refusal.tournament_when", "es", **refused.value.params)
    assert "2h" in shown and "<t:" in shown and text.strip()[:40] in shown


def test_a_moment_past_or_more_than_a_week_away_is_refused() -> None:
    for text in ("<t:1700000000>", "0", "1799999999"):
        with pytest.raises(Refusal) as refused:
            parse_when(text, NOW)
        assert refused.value.code == "tournament_when_past"
    with pytest.raises(Refusal) as refused:
        parse_when("8d", NOW)
    assert refused.value.code == "tournament_when_far"
    assert "<t:1800691200:f>" in translate("refusal.tournament_when_far", "en", **refused.value.params)
    assert parse_when("7d", NOW) == NOW + 7 * 86400  # a week ahead is still allowed


def test_typed_text_is_cleaned_before_it_is_shown_back() -> None:
    with pytest.raises(Refusal) as refused:
        parse_when("mañana\u202e\x00 " + "x" * 80, NOW)
    text = refused.value.params["text"]
    assert "\u202e" not in text and "\x00" not in text and len(text) <= 40
