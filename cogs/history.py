"""Looking back at any finished game: ``/rummy replay game:N [deal:K]`` and ``/rummy record game:N``.

What it is: the bodies of those two commands (``cogs.rummy`` declares them) and what they need:
the game picked from the server's latest finished games (autocomplete), one of its deals drawn by
the replay renderer through the announcer's replay cache, and the game's whole RGN record as a text
file with a readable move log in the reader's language.
What it is not: no rules (the engine reads the record), no SQL, no drawing of its own.
"""

from __future__ import annotations

import io
import re

import discord
from discord.app_commands import Choice

from bot.engine import Game, IllegalMove, parse_line
from bot.service import GameRow, Refusal
from bot.words.i18n import translate
from bot.words.moves import describe_move
from cogs.admin import choice_name
from cogs.anywhere import place_key
from cogs.base import L, client_of, user_locale
from cogs.ui import file_of

PAST_GAME = L("Any finished game played here (its number; pick from the list)", "cmd.past.game")
DEAL_TAG = re.compile(r'\[Deal "(?P<deal>[0-9]+)"\]')


async def past_game(interaction: discord.Interaction, game_id: int) -> tuple[GameRow, Game]:
    """A game of this place that is over and has a record, with its engine; else refused
    (``no_past_game``: the service checks the place, ``GameService.acting.ended_game_at``)."""
    service = client_of(interaction).service
    row = await service.acting.ended_game_at(place_key(interaction), game_id)
    return row, service.core.engine(row)


def last_deal(game: Game) -> int:
    """The last deal of a game that was played to its end (the one under way when it stopped, else)."""
    return game.public_view().deal_number - (0 if game.hand_over else 1)


async def replay(interaction: discord.Interaction, game_id: int | None, deal: int | None) -> None:
    """``/rummy replay``: the last finished deal in this channel; with ``game``, a deal of any
    finished game of the server (with only ``deal``, of this channel's last finished game)."""
    service = client_of(interaction).service
    if game_id is None and deal is not None:
        last = await service.reading.last_in_channel(interaction.channel_id or 0)
        if last is None:
            raise Refusal("no_replay")
        game_id = last.id
    if game_id is not None:
        await replay_game(interaction, game_id, deal)
        return
    here = interaction.channel_id or 0
    # A game's own thread, or the channel's.
    row = await service.threads.in_thread(here) or await service.reading.in_channel(here)
    if row is None or not row.record:
        row = await service.reading.last_in_channel(interaction.channel_id or 0)
    if row is None or not row.record:
        raise Refusal("no_replay")
    game = service.core.engine(row)
    wanted = last_deal(game)
    if wanted < 1 or wanted < game.first_deal:
        raise Refusal("no_replay")
    await interaction.response.defer(thinking=True)  # public: the replay is for the channel
    # Drawn once, then cached; while the deal is the last one, a resignation can still add to it.
    stamp = row.version if game.hand_over else 0
    image = await client_of(interaction).announcer.replay_picture(row, wanted, stamp)
    await interaction.followup.send(translate("replay.title", row.locale, deal=wanted), file=file_of(image))


async def replay_game(interaction: discord.Interaction, game_id: int, deal: int | None) -> None:
    """A finished game's deal (its last by default), drawn once and cached; posted for the channel."""
    row, game = await past_game(interaction, game_id)
    last = last_deal(game)
    first = game.first_deal
    if last < first:
        raise Refusal("no_replay_deals", game=game_id)
    wanted = last if deal is None else deal
    if not first <= wanted <= last:
        raise Refusal("no_such_deal", game=game_id, deal=wanted, first=first, last=last)
    await interaction.response.defer(thinking=True)  # public: the replay is for the channel
    client = client_of(interaction)
    image = await client.announcer.replay_picture(row, wanted, row.version if wanted == last else 0)
    await interaction.followup.send(translate("replay.title_game", row.locale, game=row.id, deal=wanted),
                                    file=file_of(image))


def move_log(row: GameRow, game: Game, locale: str) -> list[str]:
    """Every move of the record, by deal, with the player's name and the move in words."""
    lines: list[str] = []
    if not game.log or DEAL_TAG.fullmatch(game.log[0]) is None:
        lines.append(translate("record.deal", locale, deal=game.first_deal))
    for entry in game.log:
        tag = DEAL_TAG.fullmatch(entry)
        if tag is not None:
            lines.append(translate("record.deal", locale, deal=tag["deal"]))
            continue
        try:
            seat, move = parse_line(entry)
        except IllegalMove:  # not a move line
            continue
        lines.append(translate("record.move", locale, name=row.names.get(seat, seat),
                               move=describe_move(str(move), locale)))
    return lines


async def send_record(interaction: discord.Interaction, game_id: int) -> None:
    """Privately: the game's full RGN record and its moves in words, as two text files."""
    row, game = await past_game(interaction, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    loc = user_locale(interaction)
    log = "\n".join([translate("record.header", loc, game=row.id, variant=translate(f"variant.{row.variant}", loc)),
                     "", *move_log(row, game, loc)]) + "\n"
    files = [discord.File(io.BytesIO((row.record or "").encode()), filename=f"game-{row.id}.rgn.txt"),
             discord.File(io.BytesIO(log.encode()), filename=f"game-{row.id}-{loc}.txt")]
    await interaction.followup.send(translate("record.sent", loc, game=row.id), files=files, ephemeral=True)


async def game_choices(interaction: discord.Interaction, current: object) -> list[Choice[int]]:
    """The server's latest finished games, newest first; what was typed filters by game number."""
    client = client_of(interaction)
    key = place_key(interaction)
    if key is None or not client.guard.typing_allowed(interaction.user.id):
        return []
    typed = str(current or "").strip().lstrip("#")
    loc = user_locale(interaction)
    games = await client.service.records.finished_games(key, 100)
    return [Choice(name=choice_name(g, loc), value=g.game_id) for g in games
            if str(g.game_id).startswith(typed)][:25]
