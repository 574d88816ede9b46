"""The server settings card (issue 12).

What a manager would notice if these failed: a rummy missing from the card, a closed one that
looks open, a preset or a barred member left out, an option shown as ``name=value`` instead of in
words, a long reason running off the card, a card in the wrong language, or a card that changes
each time nothing changed.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine import VARIANTS
from renderers.settings import BANNED, MARGIN, PRESETS, WIDTH, SettingsInfo, draw_settings, render_settings
from renderers.settings_samples import sample_settings
from renderers.theme import Palette
from tests.renderers.helpers import close, inside


def texts_of(info: SettingsInfo, locale: str) -> list[str]:
    return [t.text for t in draw_settings(info, locale=locale).texts]


def test_every_rummy_is_a_pill_and_the_closed_ones_are_dimmed_and_marked() -> None:
    info = sample_settings()  # wrotham and dummy closed
    scene = draw_settings(info, locale="en")
    assert [r.key for r in scene.found("variant")] == list(VARIANTS)
    assert {r.key for r in scene.found("closed")} == {"wrotham", "dummy"}
    image = scene.image.convert("RGB")
    for region in scene.found("variant"):
        x0, y0, _, y1 = region.box
        fill = image.getpixel((x0 + 10, (y0 + y1) // 2))  # inside the pill, before its text
        expected = Palette.panel_resigned if region.key in info.closed else Palette.chip
        assert close(fill, expected, 6), (region.key, fill)
    texts = [t for t in scene.texts if t.text == "CLOSED"]
    assert len(texts) == 2
    for word, region in zip(texts, scene.found("closed"), strict=True):
        assert inside(word.box, region.box)  # the word sits in its own rummy's pill
    es = texts_of(info, "es")
    assert es.count("CERRADO") == 2 and "Rummy Wrotham" in es and "Rami" in es


def test_defaults_and_every_preset_show_their_options_in_words() -> None:
    scene = draw_settings(sample_settings(), locale="en")
    texts = [t.text for t in scene.texts]
    assert [r.key for r in scene.found("preset")] == ["basic:rapida", "rami:casa", "tradicional:abuela"]
    assert {"rapida · Basic Rummy", "casa · Rami", "abuela · Rummy tradicional"} <= set(texts)
    assert [r.key for r in scene.found("default")] == ["gin", "rami"]  # in the variants' order
    assert "Points of new melds needed to open: 40" in texts and "Points of new melds needed to open: 51" in texts
    assert "Jokers per deck: 3" in texts and "Opened players may rearrange the table: yes" in texts
    assert not [t for t in texts if "=" in t or "first_meld_min" in t]
    es = texts_of(sample_settings(), "es")
    assert "Puntos de combinaciones nuevas para abrir: 40" in es and "Comodines por baraja: 3" in es


def test_barred_members_are_listed_with_their_reason_and_one_who_left_by_a_neutral_form() -> None:
    scene = draw_settings(sample_settings(), locale="en")
    texts = [t.text for t in scene.texts]
    assert [r.key for r in scene.found("banned")] == ["412233445566778899", "998877665544332211"]
    assert "Tramposo Total" in texts and "Miraba las cartas de los demás en la partida 12" in texts
    assert "member 9988…" in texts and "no reason given" in texts  # left the server, no reason
    assert "miembro 9988…" in texts_of(sample_settings(), "es")
    emoji = replace(sample_settings(), banned=((5, "Eva", "spam 🤬"), (6, "Gus", "🤬")))
    assert {"spam", "no reason given"} <= set(texts_of(emoji, "en"))  # what the font cannot draw is dropped


def test_the_general_settings_in_both_languages() -> None:
    en = texts_of(sample_settings(), "en")
    assert {"Settings", "Peña del Casino", "5 min (the bot's default)", "in Spanish", "hosts may add them"} <= set(en)
    info = replace(sample_settings(), timer_minutes=0.5, language=None, bots=False)
    es = texts_of(info, "es")
    assert {"Ajustes", "30 s", "no se permiten"} <= set(es)
    assert "en el idioma del anfitrión" in " ".join(es)  # "auto": each game in its host's language
    assert "sin límite" in texts_of(replace(info, timer_minutes=0), "es")


def test_an_empty_card_says_none_and_long_lists_stop_with_how_many_more() -> None:
    empty = texts_of(SettingsInfo("Nuevo"), "es")
    assert empty.count("ninguna") == 2 and "nadie" in empty
    many = replace(sample_settings(),
                   presets=tuple(("rami", f"p{i:02}", (("jokers_per_deck", "2"),)) for i in range(PRESETS + 3)),
                   banned=tuple((1000 + i, f"Jugador {i}", "x " * 200) for i in range(BANNED + 2)))
    scene = draw_settings(many, locale="en")
    texts = [t.text for t in scene.texts]
    assert len(scene.found("preset")) == PRESETS and "and 3 more (in the text)" in texts
    assert len(scene.found("banned")) == BANNED and "and 2 more (in the text)" in texts
    assert all(t.box[2] <= WIDTH - MARGIN for t in scene.texts)  # a long reason wraps inside the card
    assert all(t.box[3] <= scene.height for t in scene.texts)


def test_the_card_is_the_same_png_each_time() -> None:
    first, second = render_settings(sample_settings()), render_settings(sample_settings())
    assert first.data[:8] == b"\x89PNG\r\n\x1a\n" and first.filename == "settings.png"
    assert first.data == second.data
    assert render_settings(sample_settings(), locale="en").data != first.data
