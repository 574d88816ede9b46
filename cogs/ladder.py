"""The text and picture data of the skill ratings (issue 12): the ladder and a player's rating.

What it is: builders over ``bot.service.LadderLine``/``PlayerRating``: the ladder's text (the
fallback when the picture cannot be sent, and its caption), ``LadderInfo``/``ChartInfo`` for
``renderers.ladder``, and the rating line ``/rummy stats`` adds.
What it is not: no queries (``GameService.ratings.ladder``/``player_rating``), no Discord calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service import LadderLine, PlayerRating
from bot.service.skill import BASE, MIN_GAMES
from cogs.standings import SHOWN, fit
from cogs.ui import nm, t, variant_name
from renderers.ladder import ChartInfo, LadderInfo


def ladder_info(lines: Sequence[LadderLine], *, variant: str | None = None, reader: int | None = None) -> LadderInfo:
    rows = tuple((x.rank, x.name, x.rating.value, x.rating.spread, x.rating.games) for x in lines)
    mine = next((i for i, x in enumerate(lines) if x.user_id == reader), None)
    return LadderInfo(rows, MIN_GAMES, variant, mine)


def _line(x: LadderLine, locale: str, *, me: bool = False) -> str:
    name = f"**{nm(x.name)}**" if me else nm(x.name)
    return t("ladder.line", locale, rank=f"{x.rank:>2}", name=name, rating=x.rating.value, spread=x.rating.spread,
             games=x.rating.games)


def ladder_message(lines: Sequence[LadderLine], locale: str, *, variant: str | None = None,
                   reader: int | None = None) -> str:
    which = variant_name(variant, locale) if variant else t("ladder.all", locale)
    out = [t("ladder.title", locale, variant=which, games=MIN_GAMES)]
    if not lines:
        out.append(t("ladder.empty", locale, games=MIN_GAMES))
        return "\n".join(out)
    out.append(t("ladder.how", locale))
    out += [_line(x, locale, me=x.user_id == reader) for x in lines[:SHOWN]]
    mine = next((x for x in lines[SHOWN:] if x.user_id == reader), None)
    if mine is not None:
        out += ["…", _line(mine, locale, me=True)]
    elif len(lines) > SHOWN:
        out.append(t("ladder.more", locale, count=len(lines) - SHOWN))
    return fit(out)


def rating_line(card: PlayerRating, locale: str) -> str | None:
    """``/rummy stats``'s rating line, or None before the player's first rated game."""
    if card.rating is None:
        return None
    r = card.rating
    if card.rank is None:
        return t("stats.rating_unranked", locale, rating=r.value, spread=r.spread, games=MIN_GAMES)
    return t("stats.rating", locale, rating=r.value, spread=r.spread, rank=card.rank, of=card.ranked)


def chart_info(name: str, card: PlayerRating) -> ChartInfo | None:
    """The rating chart of ``/rummy stats``, or None before the player's first rated game."""
    if card.rating is None or not card.history:
        return None
    return ChartInfo(name, tuple(r.value for r in card.history), card.rating.spread, card.rank, card.ranked, BASE)
