"""The translation catalog: es and en complete and in step, every key the renderers use present."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from bot.words.i18n import LOCALES, catalog, format_number, has_key, locale_of, placeholders, translate

ROOT = Path(__file__).resolve().parents[1]


def test_both_catalogs_have_the_same_keys_and_placeholders():
    es, en = catalog("es"), catalog("en")
    assert set(es) == set(en), set(es) ^ set(en)
    for key in es:
        assert placeholders(es[key]) == placeholders(en[key]), key


def test_translate_fills_placeholders_and_falls_back():
    assert translate("table.stock", count=3) == "Mazo: 3"
    assert translate("table.stock", "en", count=3) == "Stock: 3"
    assert translate("table.stock", "fr", count=3) == "Mazo: 3"  # unknown locale: Spanish
    assert translate("table.stock", "en-GB", count=3) == "Stock: 3"
    assert translate("no.such.key", "en") == "no.such.key"
    assert translate("table.stock", "en") == "Stock: {count}"  # a missing parameter stays visible
    assert locale_of(None) == "es" and locale_of("EN_us") == "en"


@pytest.mark.parametrize(("value", "es", "en"), [
    (0, "0", "0"), (42, "42", "42"), (Fraction(25, 2), "12,5", "12.5"), (-10, "\u221210", "\u221210"),
    (1250, "1250", "1,250"), (12500, "12.500", "12,500"), (Fraction(-3, 2), "\u22121,5", "\u22121.5"),
])
def test_numbers_are_written_the_local_way(value, es, en):
    assert format_number(value, "es") == es and format_number(value, "en") == en


def test_every_key_the_renderers_name_exists():
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "renderers").glob("*.py"))
    literal = set(re.findall(r'translate\(\s*"([a-z_.]+)"', source))
    literal |= set(re.findall(r'translate\("([a-z_.]+)" if', source))
    assert literal, "the scan found no keys"
    for key in literal:
        for locale in LOCALES:
            assert has_key(key, locale), (key, locale)
    # Keys built from view data: every value the engine or a variant can produce.
    families = {
        "variant": ["basic", "wrotham", "gin", "rami", "tradicional", "dummy"],
        "phase": ["upcard", "draw", "play", "layoff", "window"],
        "move": ["draw", "take", "take_card", "pass", "meld", "layoff", "swap", "table", "discard", "knock", "done",
                 "auto", "cut", "allow", "claim", "timeout", "resign"],
        "result.outcome": ["gin", "knock", "undercut", "tie", "void", "out", "blocked", "resigned"],
        "hand.group": ["run", "set", "deadwood"],
        "hand.sort": ["suit", "rank", "melds"],
        "seat.opened": ["rami", "dummy"],
    }
    for prefix, values in families.items():
        for value in values:
            for locale in LOCALES:
                assert has_key(f"{prefix}.{value}", locale), (prefix, value, locale)


PLURALS = r"(puntos|cartas|partidas|manos|rondas|días|veces|points|cards|games|deals|rounds|days|times)"
SINGULARS = r"(punto|carta|partida|mano|ronda|día|vez|point|card|game|deal|round|day|time)"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_count_of_one_takes_the_singular_noun(locale):
    # Every text with a one/other choice, filled with 1, with 2 and with a formatted 1.5.
    words = catalog(locale)
    chosen = [key for key, text in words.items() if re.search(r"\{\w+\|", text)]
    assert len(chosen) >= 20
    for key in chosen:
        names = placeholders(words[key])
        one = translate(key, locale, **dict.fromkeys(names, 1))
        two = translate(key, locale, **dict.fromkeys(names, 2))
        half = translate(key, locale, **dict.fromkeys(names, format_number(Fraction(3, 2), locale)))
        assert "{" not in one + two + half, key
        assert not re.search(rf"\b1 {PLURALS}\b", one), (key, one)
        assert not re.search(rf"\b2 {SINGULARS}\b", two), (key, two)
        assert not re.search(rf"\b1[,.]5 {SINGULARS}\b", half), (key, half)


def test_the_singular_reads_naturally_in_the_texts_players_see():
    assert translate("hint.why.knock", "es", after=1) == "Te queda 1 punto suelto: puedes cerrar."
    assert translate("hint.why.knock", "es", after=7) == "Te quedan 7 puntos sueltos: puedes cerrar."
    assert translate("hand.count", "es", count=1) == "1 carta"
    assert translate("hand.count", "en", count=1) == "1 card"
    assert translate("hand.count", "en", count=0) == "0 cards"
    assert translate("tournament.rounds", "es", count=1) == "1 ronda"
    assert translate("game.idle_ended", "es", days=1).endswith("nadie jugó en 1 día.")


@pytest.mark.parametrize(("locale", "expected"), [("es", "1 punto"), ("en", "1 point")])
def test_a_ledger_line_of_one_point_is_written_out(locale, expected):
    # The ledger goes through the refusal formatter, which checks the placeholders it can fill.
    from bot.words.refusals import ledger_text

    text = ledger_text(("ana", 1, "hand_left", {"count": 1}), locale)
    assert text.endswith(expected), text
    assert ledger_text(("ana", 1, "hand_left", {"count": -1}), locale).endswith(expected.replace("1", "\u22121"))
