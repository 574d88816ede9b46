"""Options in words (issue 12): every option of every variant has a phrase in both languages,
suggestions complete the last word typed and stay within Discord's 100 characters, and the notes
say where one option rules out another.

What a user would notice if these failed: an option shown as its bare key (a missing phrase), a
suggestion Discord rejects (too long) or one that drops what was typed before, a lobby silent
about option 5 ruling out the Rummy double (rules.md §4.7.5).
"""

from __future__ import annotations

import pytest

from bot.engine import make_rules
from bot.engine.options import OPTION_SPECS
from bot.words.i18n import LOCALES, has_key
from bot.words.options import option_lines, option_notes, option_suggestions, option_words


@pytest.mark.parametrize("locale", LOCALES)
def test_every_option_has_a_phrase(locale):
    for variant, specs in OPTION_SPECS.items():
        for spec in specs:
            assert has_key(f"option.{spec.name}", locale), (variant, spec.name)
        assert len(option_lines(variant, locale)) >= len(specs)


@pytest.mark.parametrize("variant", list(OPTION_SPECS))
def test_suggestions_are_valid_options_within_discords_limits(variant):
    for typed in ["", "a", "c", "g", "o", *(f"{spec.name}=" for spec in OPTION_SPECS[variant])]:
        for shown, value in option_suggestions(variant, typed, "es"):
            assert len(shown) <= 100 and len(value) <= 100
            make_rules(variant, value)  # each suggestion is a valid option text as it stands
    kept = option_suggestions("rami", "ace_wrap=true first_meld_min=3", "en")
    assert [v for _, v in kept] == ["ace_wrap=true first_meld_min=30"]
    assert option_suggestions("rami", "ace_wrap=true ace", "en") == []  # already chosen: not offered again


def test_words_and_notes():
    assert option_words("jokers_per_deck=0 ace_wrap=true", "en") == (
        "Jokers per deck: 0 · Runs may wrap round the ace (K-A-2): yes")
    assert option_words("", "es") == ""
    assert "Option 5 rules out the Rummy double" in option_notes("tradicional", "opt5_two_turns=true", "en")[0]
    assert option_notes("tradicional", "opt5_two_turns=false", "en") == []
    assert option_notes("rami", "opt5_two_turns=true", "en") == []


def test_every_named_value_reads_in_words_in_both_languages():
    """The lobby, the settings card and the presets show a choice as words, never as the value
    typed (``winner_collects``): every value of every choice, and each form of a pattern with a
    number (``target:N``), has its words in Spanish and in English."""
    from bot.words.i18n import has_key

    for variant, specs in OPTION_SPECS.items():
        for spec in specs:
            if spec.kind not in ("choice", "pattern"):
                continue
            for value in spec.choices:
                head = value.split(":")[0]
                if head in ("N", "R"):  # a number or card values of one's own: shown as typed
                    continue
                for loc in ("es", "en"):
                    assert has_key(f"option.value.{spec.name}.{head}", loc), (variant, spec.name, value, loc)
    assert option_words("scoring_mode=settle game_end=target:250", "es") == (
        "Cómo se puntúa cada mano: los perdedores pagan al ganador · Cuándo termina la partida: al llegar a 250 puntos")
    assert option_words("rounds_per_game=3 stock_exhaustion=limit:2", "en") == (
        "Rounds in a game: 3 · What happens when the stock runs out: blocked once the stock "
        "has run out 2 times")
