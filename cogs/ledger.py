"""Where every point of a Rami or Tradicional deal came from, for the end-of-deal message.

What it is: ``deal_ledger`` groups the finished deal's ``game.ledger`` lines (the engine resets the
ledger when a deal starts, so it holds this deal's lines only) by seat, and ``ledger_embed`` writes
them as one embed field per seat: the deal's points in the field's name, one line per event
("+25 · Combinación bajada: …") in its value. rules.md §6.1: the bot explains every point, so a
seat's lines always sum to the points the deal gave it (a remainder no line explains, which the
engine never leaves, would be shown as such rather than hidden).
What it is not: no scoring (every number is the engine's) and no posting (``cogs.announcer``).
"""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.engine import Game, keeps_ledger
from bot.engine.scoring import Number
from bot.service import GameRow
from bot.words.i18n import format_number
from bot.words.refusals import ledger_text
from cogs.ui import nm, t

FIELD_MAX = 1024  # Discord's cap on an embed field's value
EMBED_MAX = 5800  # under Discord's 6000 characters for a whole embed


def signed(points: Number, locale: str) -> str:
    """``+25``, ``−300`` (the catalog's minus sign), ``0``."""
    return ("+" if points > 0 else "") + format_number(points, locale)


def deal_ledger(game: Game, locale: str, names: dict[str, str]) -> dict[str, list[tuple[Number, str]]]:
    """Each seat's (points, reason) lines for the deal that ended, in the order they happened,
    plus a line for any remainder of its deal points the ledger does not explain."""
    out: dict[str, list[tuple[Number, str]]] = {s: [] for s in game.seats}
    for entry in game.ledger:
        seat, points = entry[0], entry[1]
        out.setdefault(seat, []).append((points, ledger_text(entry, locale, names)))
    for seat, lines in out.items():
        rest = Fraction(game.hand_points.get(seat, 0)) - sum((Fraction(p) for p, _ in lines), Fraction(0))
        if rest:
            lines.append((rest, t("ledger.deal.unexplained", locale)))
    return out


def ledger_embed(row: GameRow, game: Game, locale: str) -> discord.Embed | None:
    """The embed with every seat's points of the deal that ended, line by line (Rami and
    Tradicional only; ``None`` for other variants or while no deal result stands)."""
    if not keeps_ledger(row.variant) or game.public_view().result is None:
        return None
    names = {seat: nm(name) for seat, name in row.names.items()}
    lines = deal_ledger(game, locale, names)
    embed = discord.Embed(title=t("ledger.deal.title", locale, deal=game.public_view().deal_number))
    out = game.seats_out
    seats = [s.seat for s in sorted(row.seats, key=lambda s: s.position)
             if s.seat in lines and (lines[s.seat] or s.seat not in out)]
    budget = min(FIELD_MAX, max(200, EMBED_MAX // max(1, len(seats)) - 60))
    for seat in seats:
        points = game.hand_points.get(seat, 0)
        embed.add_field(name=f"{names.get(seat, seat)}: {signed(points, locale)}"[:256],
                        value=_field_text(lines[seat], locale, budget), inline=False)
    return embed


def _field_text(lines: list[tuple[Number, str]], locale: str, limit: int) -> str:
    """One seat's lines within ``limit`` characters: when they do not all fit (a very long deal),
    the last ones become one line with their sum, so the lines still add up to the deal's points."""
    if not lines:
        return t("ledger.deal.none", locale)
    shown = [f"{signed(p, locale)} · {reason}" for p, reason in lines]
    keep = len(shown)
    while keep > 0:
        rest = sum((Fraction(p) for p, _ in lines[keep:]), Fraction(0))
        tail = [f"{signed(rest, locale)} · {t('ledger.deal.more', locale, count=len(lines) - keep)}"] if keep < len(
            lines) else []
        text = "\n".join([*shown[:keep], *tail])
        if len(text) <= limit:
            return text
        keep -= 1
    total = sum((Fraction(p) for p, _ in lines), Fraction(0))
    return f"{signed(total, locale)} · {t('ledger.deal.more', locale, count=len(lines))}"[:limit]
