"""A sample server's settings for the gallery and the tests (issue 12): two rummies closed, default
options for two, three presets, two barred members (one of whom left the server)."""

from __future__ import annotations

from .settings import SettingsInfo

__all__ = ["sample_settings"]


def sample_settings() -> SettingsInfo:
    return SettingsInfo(
        server="Peña del Casino",
        timer_minutes=None,
        language="es",
        bots=True,
        closed=frozenset({"wrotham", "dummy"}),
        defaults=(("rami", (("first_meld_min", "40"), ("table_manipulation", "true"))),
                  ("gin", (("target", "150"), ("undercut_bonus", "20")))),
        presets=(("rami", "casa", (("first_meld_min", "51"), ("identities", "true"), ("jokers_per_deck", "3"))),
                 ("basic", "rapida", (("game_end", "target:250"), ("multiple_melds_per_turn", "true"))),
                 ("tradicional", "abuela", (("opt1_pozo_visible", "true"), ("opt4_continuous", "true")))),
        banned=((412233445566778899, "Tramposo Total", "Miraba las cartas de los demás en la partida 12"),
                (998877665544332211, None, "")),
    )
