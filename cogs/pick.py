"""Which game? (issue 12: many tables in one channel, and a member seated in several at once.)

What it is: ``game_here``, "the game of this place" for a command (``cogs.base.place_games``:
the thread's game inside a game's thread; elsewhere the one game the member sits in, or the one
of this channel), and, when that is more than one game, the private question: a list of the
candidates (variant, number, where: a link to each game's thread or channel) with a select menu
(``PickSelect``, ``rummy:pick:<verb>[:<target>]``) whose answer does what the command would have
done with the game picked (``/rummy hand`` and ``/rummy play`` show the hand, with its buttons).
What it is not: no rules and no public messages (the service and the announcer).
"""

from __future__ import annotations

import math
import re
from typing import Any, Self

import discord

from bot.engine import Move, Verb
from bot.service import Change, GameRow, GameStatus, Refusal
from cogs.acting import act, place_game, seat_here
from cogs.base import Answered, client_of, place_games, user_locale
from cogs.guard import guarded
from cogs.hand import send_hand
from cogs.hints import send_hint
from cogs.items import Groups, Persistent, View
from cogs.lobby import lobby_action
from cogs.ui import t, variant_name

PICK_ID = re.compile(r"rummy:pick:(?P<verb>hand|play|hint|resign|table|join|leave|start|cancel|remove)"
                     r"(?::(?P<target>-?[0-9]{1,20}))?")
LOBBY_VERBS = ("join", "leave", "start", "cancel", "remove")
RESIGN = Move.of(Verb.RESIGN)
CHOICES = 25  # Discord's limit on a select menu's options


async def game_here(interaction: discord.Interaction, verb: str, target: int = 0) -> GameRow:
    """The game a command typed here acts on; when the member could mean several, asks privately
    which (``Answered``: the guard says nothing more) and the answer carries the command on."""
    rows = await place_games(interaction, verb)
    if not rows:
        raise Refusal("no_game")
    if len(rows) == 1:
        return rows[0]
    loc = user_locale(interaction)
    lines = [t("pick.ask", loc)]
    options = []
    for row in rows[:CHOICES]:
        label = t("pick.label", loc, variant=variant_name(row.variant, loc), game=row.id)
        status = t("pick.lobby" if row.status == GameStatus.LOBBY else "pick.playing", loc)
        lines.append(f"• {label} ({status}): <#{row.place}>")
        options.append(discord.SelectOption(label=label[:100], value=str(row.id), description=status[:100]))
    view = View()
    view.add_item(PickSelect(verb, target, options, t("pick.placeholder", loc)))
    text = "\n".join(lines)[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)
    raise Answered


class PickSelect(Persistent[discord.ui.Select[Any]], template=PICK_ID):
    """The member's pick among their games (sent to them only); the answer is the command's."""

    def __init__(self, verb: str, target: int = 0, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        cid = f"rummy:pick:{verb}" + (f":{target}" if target else "")
        super().__init__(discord.ui.Select(custom_id=cid, options=options, placeholder=placeholder))
        self.verb, self.target = verb, target

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), groups.maybe_number("target") or 0)

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.values
        game_id = int(values[0]) if values and values[0].isdigit() else 0
        await picked(interaction, self.verb, game_id, self.target)


@guarded
async def picked(interaction: discord.Interaction, verb: str, game_id: int, target: int) -> None:
    """Carry the command on with the game picked (checked as the command checks it)."""
    if verb in LOBBY_VERBS:
        await lobby_action(interaction, verb, game_id, edit=False, target=target)
        return
    if verb == "table":  # /rummy table for the game picked: its table posted again where it is played
        await repost_table(interaction, await place_game(interaction, game_id))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if verb == "hint":
        await send_hint(interaction, game_id)
    elif verb == "resign":
        await resign(interaction, game_id)
    else:  # hand, and play: the hand with the buttons of the moves that can be made now
        await send_hand(interaction, await seat_here(interaction, game_id))


async def resign(interaction: discord.Interaction, game_id: int) -> None:
    """``/rummy resign`` (acknowledged already): the user's own seat in game ``game_id`` resigns."""
    loc = user_locale(interaction)

    async def said(_: Change) -> None:
        await interaction.followup.send(t("resign.done", loc), ephemeral=True)

    await act(interaction, game_id, RESIGN, answer=said)


async def repost_table(interaction: discord.Interaction, row: GameRow) -> None:
    """Post the table of ``row`` again (one re-post per place per cooldown)."""
    client = client_of(interaction)
    if row.status != GameStatus.PLAYING:
        raise Refusal("not_playing")
    wait = client.guard.repost_wait(row.place)
    if wait > 0:
        raise Refusal("table_cooldown", seconds=max(1, math.ceil(wait)))
    await interaction.response.send_message(t("table.reposting", user_locale(interaction)), ephemeral=True)
    await client.announcer.post_table(row.id, repost=True)
