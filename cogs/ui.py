"""Small pieces of text every Discord message of the game shares.

What it is: names made safe for message text, the catalog shortcut, a rendered picture as a
``discord.File``, a variant's name, the countdown of a running turn or window, the last move and
the points of a deal. The messages themselves are built next to the items they carry:
``cogs.lobby`` (the lobby), ``cogs.table`` (the table, the end of a deal and of a game),
``cogs.hand`` (a private hand).
What it is not: no decisions and no Discord calls.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.engine import Game, Phase, parse_line
from bot.service import GameRow, GameStatus
from bot.words.i18n import format_number, translate
from bot.words.moves import describe_move
from renderers import Rendered


def nm(name: str) -> str:
    """A display name inside message text: Markdown and mentions neutralised (reliability.md §4.4)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def t(key: str, locale: str, **params: Any) -> str:
    return translate(key, locale, **params)


def file_of(image: Rendered) -> discord.File:
    return discord.File(io.BytesIO(image.data), filename=image.filename)


def variant_name(variant: str, locale: str) -> str:
    return t(f"variant.{variant}", locale)


def last_move_text(row: GameRow, game: Game, locale: str) -> str:
    last = game.public_view().last_move
    if not last:
        return ""
    seat, move = parse_line(last)
    return t("table.line.last", locale, name=nm(row.names.get(seat, seat)), move=describe_move(str(move), locale))


def clock_text(row: GameRow, game: Game, locale: str) -> str:
    """" · ⏱ time's up in 4 minutes" while a person's turn timer (or a claim window) runs, else "".
    Discord shows ``<t:…:R>`` as a countdown in the reader's own language and clock."""
    if row.status != GameStatus.PLAYING or game.hand_over or not game.actors:
        return ""
    if game.phase == Phase.WINDOW:
        deadline = row.window_deadline
    else:
        seat = row.by_seat(game.actors[0])
        deadline = row.turn_deadline if row.timer_minutes and seat is not None and not seat.is_bot else None
    return "" if deadline is None else " · " + t("table.line.clock", locale, when=f"<t:{int(deadline)}:R>")


def result_lines(row: GameRow, game: Game, locale: str) -> list[str]:
    """Each seat's points this deal and total, best first."""
    totals = game.totals
    order = sorted(row.seats, key=lambda s: s.position)
    out = []
    for s in order:
        points = game.hand_points.get(s.seat, 0)
        out.append(t("result.line", locale, name=nm(s.name), points=format_number(points, locale),
                     total=format_number(totals.get(s.seat, 0), locale)))
    return out


def custom_ids_of(message: discord.Message | None) -> set[str]:
    """Every custom_id on a message, nested components included."""
    out: set[str] = set()
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        comp = stack.pop()
        cid = getattr(comp, "custom_id", None)
        if cid:
            out.add(cid)
        stack += list(getattr(comp, "children", None) or [])
    return out
