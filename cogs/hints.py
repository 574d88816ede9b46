"""Hints in Discord (issue 11): the private answer to ``/rummy hint`` and to the hand's Hint
button, and the button that plays the hinted move.

What it is: ``send_hint`` (the strong level's move and why, worked out in a worker thread on a
game loaded from the record, sent only to the asker; ``cogs.hand``'s Hint button answers with
it too; in gin with the hand as the move leaves it, melds grouped, and for a rearrangement of the
table with the table after it: ``bot.service.hints.hint_picture``, drawn in the announcer's render slots)
and the persistent ``HintButton``
(``rummy:hp:<game>:<version>:<seat>:<index>``: the move is the index of the seat's legal moves
at that version, so it is a normal versioned move: played through ``cogs.acting`` for
``interaction.user``'s stored seat only, and only if that is the seat the hint was for, which
the service checks).
What it is not: no hint logic (``bot.service.hints``), no rules (the service plays the move).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any, Self

import discord

from bot.engine import load_game
from bot.engine.views import PublicView, SeatView
from bot.service import Change, GameRow, Refusal
from bot.service.hints import Hint, check_hint, hint, hint_picture
from bot.words.moves import describe_move
from cogs.acting import act, seat_here
from cogs.base import RummyClient, client_of, user_locale
from cogs.guard import guarded
from cogs.items import Groups, Persistent, View
from cogs.ui import file_of, t
from renderers import HintMark, Rendered, render_hand, render_table

HINT_ID = re.compile(r"rummy:hp:(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<seat>p[0-9]{1,2}):"
                     r"(?P<index>[0-9]{1,5})")
LABEL_MAX = 80  # Discord: a button's label
# The index of a hint whose move is not among the listed ones: a rearrangement of the table
# (``table ...``), which the engine accepts but does not list. Pressed, the hint is worked out
# again at the same version: the strong level is deterministic given the game (``bot.robot``), so
# it is the same move; the service checks it like any typed move.
OWN_MOVE = 99999


class HintButton(Persistent[discord.ui.Button[Any]], template=HINT_ID):
    def __init__(self, game_id: int, version: int, seat: str, index: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "hint", style=discord.ButtonStyle.success,
                                           custom_id=f"rummy:hp:{game_id}:{version}:{seat}:{index}"))
        self.game_id, self.version, self.seat, self.index = game_id, version, seat, index

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("game"), groups.number("version"), groups.text("seat"), groups.number("index"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await play_hint(interaction, self.game_id, self.version, self.seat, self.index)


def _work_out(record: str, seat: str) -> tuple[Hint, int, SeatView | PublicView | None, HintMark | None]:
    """In a worker thread: the hint, its move's index among the seat's legal moves, what its
    picture shows (None: no picture) and the mark that picture carries (``renderers.HintMark``:
    the move, and the hand or the table as they are before it, so that what changes is marked)."""
    game = load_game(record)
    found = hint(game, seat)
    legal = game.legal_moves(seat)
    index = legal.index(found.move) if found.move in legal else OWN_MOVE
    move = f"{seat} {found.move}"  # the move as a record line
    hand, table = game.view(seat).hand, game.public_view().table  # before the move
    shown = hint_picture(game, seat, found.move)
    if isinstance(shown, SeatView):
        return found, index, shown, HintMark(move, hand_before=hand)
    if isinstance(shown, PublicView):
        return found, index, shown, HintMark(move, table_before=table)
    return found, index, shown, None


async def hint_message(client: RummyClient, row: GameRow, user_id: int, locale: str) -> tuple[
        str, discord.ui.View, Rendered | None]:
    """The hint for ``user_id``'s seat (``Refusal`` when there is none to give), worked out off
    the event loop: its text, the button that plays it and its picture (drawn in the announcer's
    render slots), if it has one."""
    seat = check_hint(row, user_id)
    found, index, shown, mark = await asyncio.to_thread(_work_out, row.record or "", seat.seat)
    label = t("button.play_hint", locale, move=describe_move(found.move, locale))
    if len(label) > LABEL_MAX:
        label = label[: LABEL_MAX - 1] + "…"
    view = View()
    view.add_item(HintButton(row.id, row.version, seat.seat, index, label=label))
    content, image = found.text(locale), None
    if isinstance(shown, SeatView):
        image = await client.announcer.render(render_hand, shown, sort="melds", locale=locale, hint=mark)
        content += "\n" + t("hint.picture.hand", locale)
    elif isinstance(shown, PublicView):
        image = await client.announcer.render(render_table, shown, locale=locale, names=row.names, hint=mark)
        content += "\n" + t("hint.picture.table", locale)
    return content[:2000], view, image


async def send_hint(interaction: discord.Interaction, game_id: int) -> None:
    """The asker's hint in game ``game_id`` of this place, privately (the interaction is already
    acknowledged). Nothing is written."""
    seated = await seat_here(interaction, game_id)
    content, view, image = await hint_message(client_of(interaction), seated.row, interaction.user.id,
                                              user_locale(interaction))
    if image is None:
        await interaction.followup.send(content, view=view, ephemeral=True)
    else:
        await interaction.followup.send(content, view=view, file=file_of(image), ephemeral=True)


@guarded
async def play_hint(interaction: discord.Interaction, game_id: int, version: int, seat_name: str,
                    index: int) -> None:
    """The hint's move, played for the presser's own seat at the hint's version; the hint message
    then says what was played and, while it is still their turn, gives the next hint."""
    await interaction.response.defer()  # type 6: the hint message is edited in place
    client = client_of(interaction)
    # The seat the hint was for (another one's reached the presser only forged: hints are
    # private) and its version (an older hint is out of date): checked by the service.
    seated = await seat_here(interaction, game_id, version=version, stale="hint_changed", seat=seat_name)
    check_hint(seated.row, interaction.user.id)  # hints in this game at all: unrated, not turned off
    seat = seated.seat.seat
    legal = client.service.core.engine(seated.row).legal_moves(seat)
    if index == OWN_MOVE:  # a rearrangement: the same hint again, from the record at this version
        move = (await asyncio.to_thread(_work_out, seated.row.record or "", seat))[0].move
    elif index < len(legal):
        move = legal[index]
    else:
        raise Refusal("not_offered")
    loc = user_locale(interaction)

    async def played(change: Change) -> None:
        content, view, image = t("hint.played", loc, move=describe_move(move, loc)), None, None
        with contextlib.suppress(Refusal):  # no next hint: not their turn any more, or the game is over
            more, view, image = await hint_message(client, change.game, interaction.user.id, loc)
            content = f"{content}\n{more}"
        # The old hint's picture goes; the next hint's, if any, takes its place.
        await interaction.edit_original_response(content=content[:2000], view=view,
                                                 attachments=[file_of(image)] if image else [])

    await act(interaction, game_id, move, version=version, answer=played)
