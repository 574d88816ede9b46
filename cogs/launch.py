"""The *Open the table* button: the chat's way into the Activity (issue 38, docs/activity.md).

What it is: ``LaunchButton`` (``rummy:activity:<game>``), put on the lobby and the table message
only when the bot serves the Activity (``RUMMY_ACTIVITY_PORT``; ``with_launch``), and its handler,
which answers the click with Discord's LAUNCH_ACTIVITY callback (type 12): Discord opens the
Activity in the channel the button is in, and the page finds the game there (the launch's
``custom_id`` where Discord passes one, else the game of that channel or its thread).
What it is not: no game is read beyond checking that it is one of this place, and nothing is
played: the Activity's own wing (``activity/``) serves the page, and the service plays its moves.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.service import GameRow
from cogs.acting import place_game
from cogs.guard import guarded
from cogs.items import Groups, Persistent
from cogs.ui import t

LAUNCH_ID = re.compile(r"rummy:activity:(?P<game>[0-9]{1,12})")


class LaunchButton(Persistent[discord.ui.Button[Any]], template=LAUNCH_ID):
    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Activity", custom_id=f"rummy:activity:{game_id}",
                                           style=discord.ButtonStyle.secondary, emoji="\N{FLOWER PLAYING CARDS}"))
        self.game_id = game_id

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("game"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await open_the_table(interaction, self.game_id)


def with_launch(view: discord.ui.View, row: GameRow, locale: str, activity: bool) -> discord.ui.View:
    """``view`` with the *Open the table* button when the Activity is served (``activity``) and the
    view has room for it (Discord allows 25 components a message, five rows of five)."""
    if activity and len(view.children) < 25:
        view.add_item(LaunchButton(row.id, t("button.activity", locale)))
    return view


@guarded
async def open_the_table(interaction: discord.Interaction, game_id: int) -> None:
    """The Activity opens in this channel for whoever pressed (LAUNCH_ACTIVITY must be the
    interaction's first answer, within its three seconds: one read of the game comes before it)."""
    await place_game(interaction, game_id)
    await interaction.response.launch_activity()
