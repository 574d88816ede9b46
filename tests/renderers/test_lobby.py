"""The lobby image: stable bytes, both languages, every seat count and status, nothing clipped."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image

from renderers import LobbyInfo, draw_lobby, render_lobby
from renderers.lobby import STATUSES, WIDTH
from renderers.theme import Palette

from .helpers import close, inside, overlaps

NAMES = ("Ana", "Begoña", "Cristóbal", "Dolores", "Íñigo", "María José", "Álvaro", "Zoë")


def lobby(seated: int = 2, *, variant: str = "rami", lo: int = 2, hi: int = 8, status: str = "open",
          options: tuple[tuple[str, str], ...] = (), timer: float = 2, host: int = 0) -> LobbyInfo:
    seats = NAMES[:seated]
    return LobbyInfo(variant, options, seats, seats[host] if seats else "", lo, hi, timer, status)


def texts(info: LobbyInfo, locale: str = "es") -> set[str]:
    return {t.text for t in draw_lobby(info, locale=locale).texts}


def assert_tidy(info: LobbyInfo, locale: str = "es") -> None:
    """Every text inside the picture, no two texts overlapping, each seat's words inside its slot."""
    scene = draw_lobby(info, locale=locale)
    frame = (0, 0, scene.width, scene.height)
    for text in scene.texts:
        assert inside(text.box, frame), text
    for a, b in combinations(scene.texts, 2):
        assert not overlaps(a.box, b.box), (a, b)
    slots = scene.found("seat") + scene.found("empty")
    for a, b in combinations(slots, 2):
        assert not overlaps(a.box, b.box), (a, b)
    for slot in slots:
        assert inside(slot.box, frame), slot
        drawn = [t for t in scene.texts if overlaps(t.box, slot.box)]
        assert drawn, slot
        assert all(inside(t.box, slot.box) for t in drawn), (slot, drawn)


def test_the_same_lobby_gives_the_same_bytes_and_the_languages_differ():
    info = lobby(3, options=(("first_meld_min", "40"), ("jokers_per_deck", "3")))
    first = render_lobby(info)
    assert render_lobby(info).data == first.data
    assert first.format == "png" and first.filename == "lobby.png" and first.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert render_lobby(info, locale="en").data != first.data
    assert "3 de 2–8 jugadores" in texts(info) and "3 of 2–8 players" in texts(info, "en")
    assert "Rami" in texts(info) and "Gin Rummy" in texts(lobby(1, variant="gin", lo=2, hi=2))


@pytest.mark.parametrize(("variant", "seated", "hi", "status", "options"), [
    ("gin", 1, 2, "open", ()),
    ("basic", 4, 6, "started", (("multiple_melds_per_turn", "true"), ("game_end", "target:250"))),
    ("rami", 8, 8, "open", (("first_meld_min", "40"),)),
    ("tradicional", 2, 4, "cancelled", tuple((f"opt{i}_x", "true") for i in range(1, 9))),
])
def test_sizes_stay_within_bounds(variant, seated, hi, status, options):
    image = render_lobby(lobby(seated, variant=variant, hi=hi, status=status, options=options))
    assert image.width == WIDTH
    assert 300 <= image.height <= 420
    assert len(image.data) < 100 * 1024
    decoded = Image.open(io.BytesIO(image.data))
    assert decoded.size == (image.width, image.height) and decoded.mode == "P"


@pytest.mark.parametrize("seated", [2, 3, 4, 5, 6, 7, 8])
def test_every_seat_and_every_empty_slot_up_to_the_maximum(seated):
    info = lobby(seated, hi=8)
    scene = draw_lobby(info)
    assert [r.key for r in scene.found("seat")] == list(NAMES[:seated])
    assert len(scene.found("empty")) == 8 - seated
    words = {t.text for t in scene.texts}
    for name in NAMES[:seated]:
        assert name in words or any(t.endswith("…") for t in words), name
    assert_tidy(info)
    assert_tidy(info, "en")


@pytest.mark.parametrize("hi", [2, 4, 6, 8])
def test_an_empty_lobby_shows_every_slot(hi):
    info = lobby(0, hi=hi)
    scene = draw_lobby(info)
    assert len(scene.found("empty")) == hi and not scene.found("seat")
    words = [t.text for t in scene.texts]
    assert words.count("Hace falta") == 2 and words.count("Libre") == hi - 2
    assert_tidy(info)


def test_the_host_is_marked_and_only_the_host():
    info = lobby(5, host=3)
    scene = draw_lobby(info)
    assert [r.key for r in scene.found("host")] == [NAMES[3]]
    host_box = next(r.box for r in scene.found("seat") if r.key == NAMES[3])
    assert inside(scene.found("host")[0].box, host_box)
    assert "Anfitrión" in {t.text for t in scene.texts}
    for seat in scene.found("seat"):  # a gold frame round the host's slot only
        x0, y0, _x1, y1 = seat.box
        assert close(scene.image.getpixel((x0, (y0 + y1) // 2)), Palette.gold) == (seat.key == NAMES[3]), seat.key
    assert not draw_lobby(replace(info, host="somebody else")).found("host")


@pytest.mark.parametrize("names", [
    ("Ana 🃏", "🎲🎲🎲", "Bea"),
    ("שלום עולם", "مرحبا", "Ana עברית"),
    ("Maximiliano Alejandro de la Santísima Trinidad", "W" * 60, "x"),
    ("", "   ", "Zoë\u200b\u202eevil"),
])
@pytest.mark.parametrize("hi", [4, 8])
def test_odd_names_do_not_crash_and_stay_inside(names, hi):
    info = LobbyInfo("rami", (), names, names[1], 2, hi, 0)
    for locale in ("es", "en"):
        assert_tidy(info, locale)
    scene = draw_lobby(info)
    assert [r.key for r in scene.found("seat")] == list(names)
    assert [r.key for r in scene.found("host")] == [names[1]]
    words = {t.text for t in scene.texts}
    if names[0] == "Ana 🃏":
        assert {"Ana", "Jugador 2", "Bea"} <= words  # emoji dropped; nothing left: "Player n"
    if names[0] == "שלום עולם":
        assert {"Jugador 1", "Jugador 2", "Ana"} <= words
        assert "Player 1" in texts(info, "en")
    if names[0].startswith("Maximiliano"):
        assert any(t.startswith("Maxim") and t.endswith("…") for t in words)


@pytest.mark.parametrize("status", STATUSES)
def test_each_status_has_its_ribbon(status):
    info = lobby(3, hi=6, status=status)
    scene = draw_lobby(info)
    ribbon = scene.found("status")
    assert [r.key for r in ribbon] == [status]
    assert ribbon[0].box[2] == scene.width  # hung from the right edge, inside the header
    labels = {"open": "ABIERTA", "started": "EMPEZADA", "cancelled": "CANCELADA", "expired": "CADUCADA"}
    words = {t.text for t in scene.texts}
    assert labels[status] in words
    assert all(v not in words for k, v in labels.items() if k != status)
    assert {"open": "OPEN", "started": "STARTED", "cancelled": "CANCELLED", "expired": "EXPIRED"}[status] in texts(
        info, "en")
    # A started game shows who plays; the other lobbies keep their empty slots.
    assert len(scene.found("empty")) == (0 if status == "started" else 3)
    assert_tidy(info)


def test_the_statuses_look_different_and_an_unknown_one_is_refused():
    images = {render_lobby(lobby(3, status=s)).data for s in STATUSES}
    assert len(images) == len(STATUSES)
    with pytest.raises(ValueError, match="status"):
        draw_lobby(lobby(3, status="playing"))


def test_options_show_as_the_tables_chips_then_in_words():
    options = (("first_meld_min", "40"), ("table_manipulation", "true"), ("jokers_per_deck", "3"),
               ("going_rummy", "plus10"))
    scene = draw_lobby(lobby(3, options=options))
    assert [r.key for r in scene.found("option")] == ["Apertura ≥ 40", "Mesa manipulable", "Comodines por baraja: 3",
                                                      "Salir de una vez: puntos dobles o +10: 10 puntos más"]
    en = [r.key for r in draw_lobby(lobby(3, options=options), locale="en").found("option")]
    assert en[:3] == ["Opening ≥ 40", "Table manipulation", "Jokers per deck: 3"]
    assert not any("=" in chip or "_" in chip for chip in en)
    assert "Las reglas de siempre" in texts(lobby(3)) and "Standard rules" in texts(lobby(3), "en")
    assert not draw_lobby(lobby(3)).found("option")


def test_many_options_wrap_without_overlap():
    options = tuple((f"some_long_option_name_{i}", "a_rather_long_value") for i in range(9))
    options += (("card_values", "A:15,JK:20,2:20,K:10," * 12),)  # wider than the picture: cut with an ellipsis
    info = lobby(4, variant="dummy", hi=4, options=options)
    scene = draw_lobby(info)
    chips = scene.found("option")
    assert len(chips) == len(options)
    assert len({r.box[1] for r in chips}) >= 3  # several rows
    for a, b in combinations(chips, 2):
        assert not overlaps(a.box, b.box)
    for chip in chips:
        assert inside(chip.box, (0, 0, scene.width, scene.height))
    assert chips[-1].key.endswith("…")
    assert_tidy(info)


@pytest.mark.parametrize(("minutes", "es", "en"), [
    (2, "2 min por turno", "2 min per turn"),
    (1.5, "1,5 min por turno", "1.5 min per turn"),
    (0, "Sin tiempo por turno", "No turn timer"),
])
def test_the_turn_timer(minutes, es, en):
    info = lobby(2, timer=minutes)
    assert es in texts(info) and en in texts(info, "en")


def test_a_fixed_size_variant_says_how_many_it_needs():
    info = lobby(1, variant="gin", lo=2, hi=2)
    words = texts(info)
    assert "1 de 2 jugadores" in words and "Hace falta" in words
    assert "1 of 2 players" in texts(info, "en")


def test_a_short_turn_timer_reads_in_seconds():
    from bot.words.i18n import timer_text

    assert timer_text(0.5, "es") == "30 s" and timer_text(0.25, "en") == "15 s"
    assert timer_text(1.5, "es") == "1,5 min" and timer_text(5, "en") == "5 min"
