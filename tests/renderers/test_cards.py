"""Card sprites: codes read as notation.md writes them, suits drawn as shapes, cached, two decks."""

from __future__ import annotations

import pytest

from renderers.cards import card_back, card_sprite, parse_code, suit_mask
from renderers.theme import CLASSIC, FOUR_COLOUR


@pytest.mark.parametrize(
    ("code", "rank", "suit", "as_rank", "as_suit"),
    [
        ("7H", "7", 1, None, None),
        ("TH", "T", 1, None, None),
        ("10h", "T", 1, None, None),
        ("JK", None, None, None, None),
        ("JK=8H", None, None, "8", 1),
        ("JK=7", None, None, "7", None),
        ("2C=7", "2", 3, "7", None),
        ("2C=10D", "2", 3, "T", 2),
    ],
)
def test_codes_are_read_like_the_notation(code, rank, suit, as_rank, as_suit):
    face = parse_code(code)
    assert (face.rank, face.suit, face.as_rank, face.as_suit) == (rank, suit, as_rank, as_suit)


@pytest.mark.parametrize("bad", ["", "1H", "7X", "JK=", "JK=8X", "XX=7"])
def test_bad_codes_are_refused(bad):
    with pytest.raises(ValueError):
        parse_code(bad)


def test_sprites_are_drawn_once():
    assert card_sprite("7H", 70, CLASSIC) is card_sprite("7H", 70, CLASSIC)
    assert card_back(70) is card_back(70)
    assert card_sprite("7H", 70, CLASSIC).image.size == card_back(70).image.size


def test_every_suit_is_its_own_shape():
    masks = {s: suit_mask(s, 40).tobytes() for s in "SHDC"}
    assert len(set(masks.values())) == 4
    for data in masks.values():
        covered = sum(1 for b in data if b > 128) / len(data)
        assert 0.3 < covered < 0.8  # a solid shape, neither empty nor a filled square


def _has_colour(image, colour, tol=30) -> bool:
    data = image.convert("RGBA").tobytes()
    return any(data[i + 3] > 250 and all(abs(data[i + k] - colour[k]) <= tol for k in range(3))
               for i in range(0, len(data), 4))


def test_four_colour_deck_paints_diamonds_blue_and_clubs_green():
    blue, green, red = FOUR_COLOUR.suits[2], FOUR_COLOUR.suits[3], CLASSIC.suits[2]
    assert _has_colour(card_sprite("7D", 60, FOUR_COLOUR).image, blue)
    assert not _has_colour(card_sprite("7D", 60, FOUR_COLOUR).image, red)
    assert _has_colour(card_sprite("7D", 60, CLASSIC).image, red)
    assert _has_colour(card_sprite("7C", 60, FOUR_COLOUR).image, green)
    assert not _has_colour(card_sprite("7C", 60, CLASSIC).image, green)


def test_a_joker_in_a_meld_shows_the_card_it_stands_for():
    # JK=8H carries a red heart in its corner (what it stands for); a bare joker has no red at all.
    corner = (5, 5, 30, 60)
    stands = card_sprite("JK=8H", 70, CLASSIC).image.crop(corner)
    bare = card_sprite("JK", 70, CLASSIC).image.crop(corner)
    assert _has_colour(stands, CLASSIC.suits[1])
    assert not _has_colour(bare, CLASSIC.suits[1])
    assert card_sprite("JK=8H", 70, CLASSIC).image.tobytes() != card_sprite("JK=8S", 70, CLASSIC).image.tobytes()
