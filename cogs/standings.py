"""The text of the season standings and of the managers' audit log, in the reader's language.

What it is: message builders over ``bot.service.seasons.Standing`` rows and audit rows; dates are Discord
timestamps (``<t:…:D>``), which every reader's client shows in their own language and time zone.
What it is not: no queries (``GameService.history.scores``, ``records.audit``), no decisions, no
Discord calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.service import AdjustmentRow, AuditAction, AuditRow, FinishedGame, FrozenStandings, SeasonRow
from bot.service.seasons import PlayerStats, Standing
from cogs.ui import nm, t, variant_name
from renderers.standings import StandingsInfo

SHOWN = 15  # lines of standings; the reader's own line is added below when they are further down
LIMIT = 2000  # Discord: characters in a message


def standings_info(season: SeasonRow, table: Sequence[Standing], games: int, *, variant: str | None = None,
                   reader: int | None = None, amended: bool = False) -> StandingsInfo:
    """What the standings picture shows (``renderers.standings.StandingsInfo``)."""
    rows = tuple((s.rank, s.name, s.points, s.wins, s.games) for s in table)
    mine = next((i for i, s in enumerate(table) if s.user_id == reader), None)
    return StandingsInfo(season.number, games, rows, variant, season.ended_at is not None, mine,
                         tuple(s.adjusted for s in table), amended)


def standing_line(s: Standing, locale: str, *, me: bool = False) -> str:
    name = f"**{nm(s.name)}**" if me else nm(s.name)
    line = t("scores.line", locale, rank=f"{s.rank:>2}", name=name, points=s.points, wins=s.wins, games=s.games)
    if s.adjusted:  # a manager's correction is in these points: the line says so, and by how much
        line += " " + t("scores.adjusted", locale, points=f"{s.adjusted:+d}")
    return line


def scores_message(
    season: SeasonRow, table: Sequence[Standing], games: int, locale: str, *, variant: str | None = None,
    reader: int | None = None, adjustments: Sequence[AdjustmentRow] = (), amended: FrozenStandings | None = None,
) -> str:
    since = (
        t("scores.since_start", locale) if season.started_at is None
        else t("scores.since", locale, date=f"<t:{int(season.started_at)}:D>")
    )
    if season.ended_at is not None:
        since += " " + t("scores.until", locale, date=f"<t:{int(season.ended_at)}:D>")
    title = t("scores.title", locale, number=season.number, since=since, games=games)
    if variant:
        title += " · " + variant_name(variant, locale)
    lines = [title]
    if amended is not None:  # a closed season's standings changed after it closed: say when and why
        lines.append(t("scores.amended", locale, date=f"<t:{int(amended.at)}:D>", game=amended.game_id or ""))
        if amended.reason:
            lines.append(t("void.reason", locale, reason=nm(amended.reason)))
    if not table:
        lines.append(t("scores.empty", locale))
        return "\n".join(lines)
    lines.append(t("scores.how", locale))
    lines += [standing_line(s, locale, me=s.user_id == reader) for s in table[:SHOWN]]
    mine = next((s for s in table[SHOWN:] if s.user_id == reader), None)
    if mine is not None:
        lines += ["…", standing_line(mine, locale, me=True)]
    elif len(table) > SHOWN:
        lines.append(t("scores.more", locale, count=len(table) - SHOWN))
    for a in adjustments:  # each correction in the points above, with the manager's reason
        lines.append(t("scores.adjustment", locale, name=nm(a.name), points=f"{a.points:+d}", reason=nm(a.reason)))
    return fit(lines)


def stats_message(name: str, stats: PlayerStats, locale: str, *, rating: str | None = None) -> str:
    """A player's record; ``rating``: their skill rating line (``cogs.ladder.rating_line``)."""
    if not stats.games:
        return t("stats.none", locale, name=nm(name))
    rate = round(100 * stats.wins / stats.games)
    lines = [
        t("stats.title", locale, name=nm(name)),
        *([rating] if rating else []),
        t("stats.line", locale, games=stats.games, wins=stats.wins, rate=rate, points=stats.points),
        t("stats.streaks", locale, streak=stats.streak, best=stats.best_streak),
    ]
    for variant, (games, wins) in sorted(stats.by_variant.items(), key=lambda kv: (-kv[1][0], kv[0])):
        lines.append(t("stats.variant", locale, variant=variant_name(variant, locale), games=games, wins=wins))
    return fit(lines)


def history_message(games: Sequence[FinishedGame], locale: str, name: str | None = None) -> str:
    """The latest finished games, newest first: number, date (Discord shows it in the reader's
    own format), variant, everybody's place, and whether the result counts."""
    if not games:
        return t("history.none_of" if name else "history.none", locale, name=nm(name or ""))
    lines = [t("history.title_of" if name else "history.title", locale, name=nm(name or ""))]
    for g in games:
        places = " · ".join(f"{place}. {nm(who)}" for _, who, place in g.players)
        line = f"`#{g.game_id}` <t:{int(g.finished_at)}:d> · {variant_name(g.variant, locale)} · {places}"
        if g.voided:
            line += " · " + t("history.voided", locale)
        elif g.with_bots:
            line += " · " + t("history.unrated", locale)
        elif g.practice:
            line += " · " + t("history.practice", locale)
        elif not g.rated:
            line += " · " + t("history.unrated_absent", locale)
        lines.append(line)
    return fit(lines)


def audit_message(rows: Sequence[AuditRow], locale: str) -> str:
    if not rows:
        return t("audit.empty", locale)
    lines = [t("audit.title", locale)]
    for r in rows:
        detail = r.detail
        if r.action in (AuditAction.ADJUST, AuditAction.UNDO):
            lines.append(f"<t:{int(r.at)}:f> · <@{r.user_id}> · " + correction_text(r, locale))
            continue
        if r.action == AuditAction.VOID:  # the manager's reason, typed text: shown escaped, after a colon
            detail = f": {nm(detail)}" if detail else ""
        elif r.action == AuditAction.SCHEDULE:
            detail = t("schedule.choice.off" if detail == "off" else f"schedule.every.{detail}", locale)
        elif r.action == AuditAction.ABANDON:  # why the bot ended the game (bot.service.endings)
            detail = t(f"end.{detail}", locale)
        elif r.action == AuditAction.SETTINGS:  # ``name=value``, checked before it was stored
            detail = f"`{detail}`"
        user = f"<@{r.detail}>" if r.action in (AuditAction.KICK, AuditAction.UNBAN) else ""
        if r.action == AuditAction.BAN:  # the member's id, then the manager's reason (typed text)
            member, reason = ban_detail(detail)
            user, detail = f"<@{member}>", f": {nm(reason)}" if reason else ""
        what = t(f"audit.{r.action}", locale, detail=detail, game=r.game_id or "", user=user)
        # User 0 is the bot itself: the season schedule, or a game it abandoned.
        who = (t("audit.by_bot" if r.action == AuditAction.ABANDON else "audit.by_schedule", locale)
               if r.user_id == 0 else f"<@{r.user_id}>")
        lines.append(f"<t:{int(r.at)}:f> · {who} · {what}")
    return fit(lines)


# A ban's audit detail: the member's id, then the manager's reason (may be empty). Not a move.
BAN_DETAIL = re.compile(r"(?P<member>[^ ]*)(?: (?P<reason>.*))?", re.DOTALL)


def ban_detail(detail: str) -> tuple[str, str]:
    """(member id, reason) of a ban's audit detail ``<member id> <reason>``."""
    match = BAN_DETAIL.fullmatch(detail)
    assert match is not None  # every text matches
    return match["member"], match["reason"] or ""


def correction_text(r: AuditRow, locale: str) -> str:
    """An adjustment with its entry number (what ``/rummy-admin undo`` takes), or its undoing."""
    first, user, points, reason = [*r.detail.split(" ", 3), "", "", "", ""][:4]
    if r.action == AuditAction.ADJUST:
        return t("audit.adjust", locale, entry=r.id, user=f"<@{user}>", points=points, reason=nm(reason))
    return t("audit.undo", locale, entry=first, user=f"<@{user}>", points=points)


def fit(lines: list[str]) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > LIMIT - 2:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)
