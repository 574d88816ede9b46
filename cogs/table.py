"""The public table's message and buttons, the end of a deal and of a game, and what those buttons do.

What it is: ``table_message`` (whose turn, the countdown, the last move; My hand always, Draw /
Take while a turn runs, Next deal between deals), ``deal_end_message`` and ``final_message``, the
persistent ``TableButton`` (``rummy:<verb>:<game>[:<version>]``) and its handler: open my hand,
draw or take, deal the next deal, or open a rematch lobby.
What it is not: no posting or editing of the table (``cogs.announcer`` does that, coalesced), no
rules and no checks (``cogs.acting``: the service checks the place, the seat and the table's
version, and plays the move).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.engine import Game, Move, Phase, Verb
from bot.service import ChangeKind, GameRow, Refusal, ResultRow
from cogs.acting import act, next_deal, place_game, seat_here
from cogs.anywhere import is_anywhere
from cogs.base import client_of, user_locale
from cogs.guard import guarded
from cogs.hand import send_hand, shown_again
from cogs.items import Groups, Persistent, View
from cogs.launch import with_launch
from cogs.live import BOOK
from cogs.ui import clock_text, last_move_text, nm, result_lines, t, variant_name

TABLE_VERBS = (Verb.DRAW, Verb.TAKE, Verb.PASS)  # the moves a turn may start with from the table
TABLE_ID = re.compile(r"rummy:(?P<verb>hand|draw|take|pass|next|rematch):(?P<game>[0-9]{1,12})"
                      r"(?::(?P<version>[0-9]{1,9}))?")


class TableButton(Persistent[discord.ui.Button[Any]], template=TABLE_ID):
    def __init__(self, verb: str, game_id: int, version: int | None = None, label: str = "",
                 style: discord.ButtonStyle | None = None) -> None:
        cid = f"rummy:{verb}:{game_id}" + ("" if version is None else f":{version}")
        super().__init__(discord.ui.Button(label=label or verb, custom_id=cid,
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.game_id, self.version = verb, game_id, version

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), groups.number("game"), groups.maybe_number("version"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await table_button(interaction, self.verb, self.game_id, self.version)


def next_deal_button(row: GameRow, locale: str) -> TableButton:
    return TableButton("next", row.id, row.version, label=t("button.next", locale), style=discord.ButtonStyle.success)


def table_message(row: GameRow, game: Game, locale: str, *, note: str | None = None,
                  activity: bool = False) -> tuple[str, discord.ui.View]:
    """The public table's text line and buttons (My hand always; Draw/Take while a turn runs; Open
    the table when the bot serves the Activity, ``activity``)."""
    view_ = game.public_view()
    lines = []
    if note:
        lines.append(note)
    if game.game_over:
        lines.append(t("table.line.game_over", locale))
    elif game.hand_over:
        lines.append(t("table.line.deal_over", locale, deal=view_.deal_number))
    elif view_.phase == Phase.WINDOW:
        lines.append(t("table.line.window", locale, names=", ".join(nm(row.names.get(s, s)) for s in view_.actors))
                     + clock_text(row, game, locale))
    elif game.current_seat is not None:
        name = nm(row.names.get(game.current_seat, game.current_seat))
        lines.append(t("table.line.turn", locale, name=name, deal=view_.deal_number,
                       variant=variant_name(row.variant, locale)) + clock_text(row, game, locale))
    last = last_move_text(row, game, locale)
    if last:
        lines.append(last)
    view = View()
    view.add_item(TableButton("hand", row.id, label=t("button.hand", locale), style=discord.ButtonStyle.primary))
    if not game.hand_over:
        for verb in table_verbs(game):
            view.add_item(TableButton(verb, row.id, row.version, label=t(f"verb.{verb}", locale)))
    elif not game.game_over:
        view.add_item(next_deal_button(row, locale))
    return "\n".join(lines), with_launch(view, row, locale, activity and not game.game_over)


def table_verbs(game: Game) -> list[Verb]:
    """The turn buttons the table offers now: of draw, take and pass, those the acting seat may
    play (issue 36: no control the phase refuses; gin's upcard is Take or Pass, never Draw).
    Whether a seat may draw, take or pass is public: the table shows no card by it."""
    if game.phase == Phase.WINDOW or len(game.actors) != 1:
        return []
    offered = {m.verb for m in game.legal_moves(game.actors[0])}
    return [v for v in TABLE_VERBS if v in offered]


def deal_end_message(row: GameRow, game: Game, locale: str, pause: float) -> tuple[str, discord.ui.View | None]:
    """The end of a deal: everybody's points and, unless the game is over, when the next deal
    comes by itself (after ``pause`` seconds) and the button that deals it now."""
    lines = [t("deal.over", locale, deal=game.public_view().deal_number), *result_lines(row, game, locale)]
    if game.game_over:
        return "\n".join(lines)[:2000], None
    lines.append(t("deal.next_hint", locale, seconds=int(pause)))
    view = View()
    view.add_item(next_deal_button(row, locale))
    return "\n".join(lines)[:2000], view


def final_message(row: GameRow, game: Game, results: Sequence[ResultRow], locale: str) -> tuple[str, discord.ui.View]:
    """The end of the game: the winners, everybody's place and score, and a Rematch button."""
    winners = ", ".join(nm(row.names.get(w, w)) for w in game.winners) or "-"
    lines = [t("final.title", locale, variant=variant_name(row.variant, locale), winners=winners, game=row.id)]
    lines += final_places(row, results, locale)
    view = View()
    view.add_item(TableButton("rematch", row.id, label=t("button.rematch", locale),
                              style=discord.ButtonStyle.success))
    return "\n".join(lines), view


def final_places(row: GameRow, results: Sequence[ResultRow], locale: str) -> list[str]:
    """Everybody's place and score, and whether the game counted: the lines of the final result
    said in the game's thread and in the channel it was started in."""
    names = {s.user_id: nm(s.name) for s in row.seats}
    lines = []
    for r in results:
        lines.append(t("final.line", locale, place=r.place, name=names.get(r.user_id, "?"), score=r.score))
    if row.practice:
        lines.append(t("final.practice", locale))
    elif results and not results[0].rated:
        lines.append(t("final.unrated", locale))
    return lines


@guarded
async def table_button(interaction: discord.Interaction, verb: str, game_id: int, version: int | None) -> None:
    """My hand, Draw / Take (a move from the table), Next deal, or Rematch; the service checks the
    place, the seat and the table's version (``cogs.acting``)."""
    client = client_of(interaction)
    service = client.service
    row = await place_game(interaction, game_id)
    if (verb not in ("rematch", "next") and is_anywhere(interaction) and interaction.message is not None
            and row.table_message_id and interaction.message.id != row.table_message_id):
        # Issue 24: an older table where the bot is not a member cannot be refreshed by the bot;
        # a click there is refused and pointed to the newest one.
        where = f"@me/{interaction.channel_id}" if interaction.guild_id is None else (
            f"{interaction.guild_id}/{interaction.channel_id}")
        raise Refusal("table_expired", link=f": https://discord.com/channels/{where}/{row.table_message_id}")
    if verb == "rematch":
        await interaction.response.defer()
        change = await service.games.rematch(game_id, interaction.user.id, interaction.user.display_name)
        if change.kind == ChangeKind.JOIN:  # the rematch was already open: this press took an invited seat
            await interaction.followup.send(t("lobby.done.join", user_locale(interaction)), ephemeral=True)
            await client.announcer.update_lobby_message(change.game)
        else:
            try:
                failed = await client.announcer.post_lobby(change.game)
            except (discord.HTTPException, Refusal):  # nobody would see it: the rematch closes again
                await service.games.cancel(change.game.id, interaction.user.id)
                raise
            if failed:  # no thread for the rematch: said to whoever pressed, privately
                await interaction.followup.send(t(failed, user_locale(interaction)), ephemeral=True)
        return
    if verb == "next":
        await interaction.response.defer()
        await next_deal(interaction, game_id, version=version)
        return
    if verb != "hand" and BOOK.live(game_id, interaction.user.id) is not None:
        # The player's live hand shows the move (issue 36): no new message, nothing public.
        await interaction.response.defer()
    else:  # a hand may follow: acknowledge privately first (a public defer would make it public)
        await interaction.response.defer(ephemeral=True, thinking=True)
    if verb == "hand":  # always a new hand: the one-tap way back to a live one
        await send_hand(interaction, await seat_here(interaction, game_id))
        return
    await act(interaction, game_id, Move.of(verb), version=version, answer=shown_again(interaction))
