"""The *Open the table* button (issue 38): on the lobby and the table message only when the bot
serves the Activity, labelled in the message's language, and never on a finished game's table.

What a user would notice if this failed: a button that opens nothing on a bot without the
Activity, or no way into the Activity from chat where it is served.
"""

from __future__ import annotations

from typing import Any

from bot.engine import new_game
from cogs.lobby import lobby_message
from cogs.table import table_message
from tests.cogs.test_lobby_text import lobby
from tests.cogs.test_table_message import row_for


def launch_buttons(view: Any) -> list[tuple[str, str]]:
    items = [getattr(c, "item", c) for c in view.children]  # a DynamicItem wraps its button
    return [(i.custom_id, i.label) for i in items if i.custom_id.startswith("rummy:activity:")]


def test_the_lobby_offers_the_activity_only_when_it_is_served() -> None:
    row = lobby("gin", "es")
    assert launch_buttons(lobby_message(row, "es")[1]) == []
    assert launch_buttons(lobby_message(row, "es", activity=True)[1]) == [("rummy:activity:7", "Abrir la mesa")]
    assert launch_buttons(lobby_message(row, "en", activity=True)[1]) == [("rummy:activity:7", "Open the table")]


def test_the_table_offers_it_while_the_game_goes_on() -> None:
    game = new_game("gin", ["p1", "p2"], seed="clock")
    row = row_for(game, "gin")
    assert launch_buttons(table_message(row, game, "es")[1]) == []
    assert launch_buttons(table_message(row, game, "es", activity=True)[1]) == [("rummy:activity:1", "Abrir la mesa")]
