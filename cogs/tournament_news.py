"""What the bot says in public about a tournament, after the service committed it.

What it is: the sign-up message (``signup_message``: the event, its times, its players, and while
sign-up or check-in is open the persistent Join / Leave / Check in buttons, ``TournamentButton``),
the standings as text and as pictures (``standings_info``, ``bracket_info``), and
``announce_event``: for each committed ``EventChange``, the sign-up message brought up to date,
a round's tables each posted in the event's channel with their players pinged and a thread made
from that post for the game (the game's table then posted in its thread by the announcer, as any
game's), the byes, a forfeit, the standings after a round (with a Next round button for
managers), the podium at the end (with the bracket for a knockout), a cancellation. Pictures are
drawn off the event loop through the announcer's render pool.
What it is not: no decisions (``bot.service.tournament``), no handlers (``cogs.tournament``);
Discord errors are logged, never undone (the change is committed).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine
from fractions import Fraction
from typing import Any, Protocol, Self, TypeVar

import aiohttp
import discord

from bot.service import Change, GameService, Refusal
from bot.service.tournament import EventChange, EventKind, EventRow, EventView, Format, Stage, Standings, seed_order
from bot.service.tournament.pairing import knockout_winner
from bot.service.tournament.rounds import model_entrants, outcomes
from bot.words.i18n import format_number, translate
from cogs.delivery import Delivery, Parts
from cogs.items import Groups, Persistent, View
from cogs.ui import nm, variant_name
from renderers.tournament import BracketInfo, EventStandingsInfo, render_bracket, render_event_standings

log = logging.getLogger(__name__)
T = TypeVar("T")

TOURNAMENT_ID = re.compile(r"rummy:tour:(?P<verb>join|leave|checkin|next):(?P<event>[0-9]{1,12})")
TEXT_LINES = 10  # standings lines written out (the picture shows more)
ADOPT_MARGIN = 60.0  # seconds: how far our clock and Discord's may disagree when a table post is looked for


class EventPublisher(Protocol):
    """What announcing an event needs of the announcer (``cogs.announcer.Announcer`` is one)."""

    delivery: Delivery

    async def announce(self, change: Change) -> None: ...

    async def render(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...


class TournamentButton(Persistent[discord.ui.Button[Any]], template=TOURNAMENT_ID):
    """Join, Leave, Check in (anyone; the service decides) and Next round (managers), by event id:
    they work after a restart, and who pressed is ``interaction.user.id``."""

    def __init__(self, verb: str, event_id: int, label: str = "", style: discord.ButtonStyle | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or verb, custom_id=f"rummy:tour:{verb}:{event_id}",
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.event_id = verb, event_id

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), groups.number("event"))

    async def handle(self, interaction: discord.Interaction) -> None:
        assert _BUTTON_HANDLER, "cogs.admin's setup hands the handler over (use_button_handler)"
        await _BUTTON_HANDLER[0](interaction, self.verb, self.event_id)


# The buttons' handler (``cogs.tournament.tournament_button``, which imports this module), handed
# over when the extension is set up, as ``cogs.builder`` is handed the hand's sender.
_BUTTON_HANDLER: list[Callable[[discord.Interaction, str, int], Coroutine[Any, Any, None]]] = []


def use_button_handler(handler: Callable[[discord.Interaction, str, int], Coroutine[Any, Any, None]]) -> None:
    _BUTTON_HANDLER[:] = [handler]


def number(value: Fraction, locale: str) -> str:
    """Points as people write them: 1½ rather than 3/2."""
    whole, part = divmod(value, 1)
    halves = {Fraction(0): "", Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
              Fraction(1, 3): "⅓", Fraction(2, 3): "⅔"}
    if part in halves:
        return (format_number(int(whole), locale) if whole or not part else "") + halves[part]
    return format_number(round(float(value), 2), locale)  # type: ignore[arg-type]


def tiebreak_names(standings: Standings, locale: str) -> tuple[str, ...]:
    return tuple(translate(f"tournament.tiebreak.{n}", locale) for n in standings.tiebreaks)


def standings_info(view: EventView, locale: str) -> EventStandingsInfo:
    names = view.names
    rows = tuple((r.rank, names.get(r.player, "?"), number(r.points, locale), f"{r.wins}–{r.played}",
                  tuple(number(v, locale) for v in r.tiebreaks), r.dropped) for r in view.standings.rows)
    return EventStandingsInfo(view.event.name, view.event.round, view.event.stage == Stage.FINISHED,
                              tiebreak_names(view.standings, locale), rows)


def bracket_info(view: EventView) -> BracketInfo:
    """A knockout's rounds as the bracket picture draws them (names; the winners once known)."""
    names = view.names
    seeds = seed_order(model_entrants(list(view.entrants)), view.event.seed)
    played = {(o.round, o.table): o for o in outcomes(list(view.tables))}
    rounds = []
    for r in range(1, max([t.round for t in view.tables], default=0) + 1):
        matches = []
        for t in (t for t in view.tables if t.round == r):
            a = names.get(t.players[0], "?")
            b = names.get(t.players[1], "?") if len(t.players) > 1 else None
            o = played.get((r, t.number))
            winner = None if o is None or o.void else t.players.index(knockout_winner(o, seeds))
            matches.append((a, b, winner))
        rounds.append(tuple(matches))
    return BracketInfo(view.event.name, tuple(rounds))


def standings_text(view: EventView, locale: str) -> str:
    lines = []
    for r in view.standings.rows[:TEXT_LINES]:
        extra = " · " + " · ".join(number(v, locale) for v in r.tiebreaks) if r.tiebreaks else ""
        lines.append(translate("tournament.line", locale, rank=r.rank, player=nm(view.names.get(r.player, "?")),
                               points=number(r.points, locale), extra=extra))
    names = ", ".join(tiebreak_names(view.standings, locale))
    return "\n".join([*lines, translate("tournament.tiebreaks", locale, names=names)])


def _stage_text(event: EventRow, locale: str) -> str:
    text = translate(f"tournament.stage.{event.stage}", locale, round=event.round, rounds=event.rounds)
    return text + ("\n" + translate("tournament.paused", locale) if event.paused and event.stage not in
                   (Stage.FINISHED, Stage.CANCELLED) else "")


def signup_message(view: EventView, locale: str) -> tuple[str, discord.ui.View | None]:
    """The sign-up message's text and (while sign-up or check-in is open) its buttons."""
    e = view.event
    rounds = translate("tournament.rounds", locale, count=e.rounds) if e.rounds else translate(
        "tournament.rounds_auto", locale)
    timer = f"{format_number(e.timer_minutes, locale)} min" if e.timer_minutes else "—"
    head = [translate("tournament.header", locale, name=nm(e.name), format=translate(f"tournament.format.{e.format}",
                                                                                       locale),
                      variant=variant_name(e.variant, locale)),
            translate("tournament.details", locale, rounds=rounds, size=e.table_size, timer=timer,
                      rated=translate("tournament.rated" if e.rated else "tournament.unrated", locale))]
    if e.stage in (Stage.SIGNUP, Stage.CHECKIN):
        head.append(translate("tournament.when", locale, close=int(e.signup_closes_at), checkin=int(e.checkin_opens_at),
                              start=int(e.starts_at)))
    players = ", ".join(nm(x.name) + (" " + translate("tournament.checked", locale) if x.checked_in and
                                       e.stage == Stage.CHECKIN else "") for x in view.entrants if not x.dropped)
    head.append(translate("tournament.players", locale, count=len([x for x in view.entrants if not x.dropped]),
                          cap=e.cap, names=players or translate("tournament.nobody", locale)))
    head.append(_stage_text(e, locale))
    if e.stage not in (Stage.SIGNUP, Stage.CHECKIN):
        return "\n".join(head)[:2000], None
    buttons = View()
    buttons.add_item(TournamentButton("join", e.id, translate("tournament.button.join", locale),
                                      discord.ButtonStyle.success))
    buttons.add_item(TournamentButton("leave", e.id, translate("tournament.button.leave", locale)))
    if e.stage == Stage.CHECKIN:
        buttons.add_item(TournamentButton("checkin", e.id, translate("tournament.button.checkin", locale),
                                          discord.ButtonStyle.primary))
    return "\n".join(head)[:2000], buttons


async def refresh_signup(publisher: EventPublisher, service: GameService, event_id: int) -> None:
    """Post the sign-up message (the first time, or again if it was deleted) or edit it to the
    event as it stands."""
    view = await service.tournaments.tournament_view(event_id)
    content, buttons = signup_message(view, view.event.locale)
    if view.event.message_id is None:
        message_id = await publisher.delivery.post(view.event.channel_id, content, view=buttons)
        await service.tournaments.set_tournament_message(event_id, message_id)
        return
    try:
        await publisher.delivery.edit(view.event.channel_id, view.event.message_id, content=content, view=buttons)
    except discord.NotFound:
        # Someone deleted it: post it again so that Join, Leave and Check in stay within reach.
        # Keyed by the deleted message, two refreshes at once post one message, not two.
        message_id = await publisher.delivery.post(view.event.channel_id, content, view=buttons,
                                                   once=f"s{view.event.message_id}")
        await service.tournaments.set_tournament_message(event_id, message_id)


async def announce_event(publisher: EventPublisher, service: GameService, change: EventChange) -> None:
    """Say on Discord what a committed event change did (see the module's docstring)."""
    try:
        await _announce(publisher, service, change)
    except (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError) as exc:
        log.warning("announcing %s of tournament %s failed: %r", change.kind, change.event.id, exc)


async def _announce(publisher: EventPublisher, service: GameService, change: EventChange) -> None:
    event, loc = change.event, change.event.locale
    if change.kind in (EventKind.ROUND, EventKind.OWED):
        await _post_round(publisher, service, change)
    else:
        for game_change in change.games:
            await publisher.announce(game_change)
    await refresh_signup(publisher, service, event.id)
    if change.kind == EventKind.CHECKIN:
        view = await service.tournaments.tournament_view(event.id)
        pings = [x.user_id for x in view.entrants if not x.is_bot]
        await publisher.delivery.post(event.channel_id, translate(
            "tournament.checkin_open", loc, name=nm(event.name), start=int(event.starts_at),
            players=" ".join(f"<@{u}>" for u in pings)), ping=pings)
    elif change.kind == EventKind.FORFEIT and change.games:
        player = next((s.name for s in change.games[0].game.seats if s.user_id == change.user_id), "?")
        await publisher.delivery.post(event.channel_id, translate(
            "tournament.forfeit", loc, name=nm(event.name), player=nm(player), game=change.games[0].game.id))
    elif change.kind in (EventKind.ROUND_OVER, EventKind.FINISHED):
        await _post_standings(publisher, service, change)
    elif change.kind == EventKind.CANCELLED:
        await publisher.delivery.post(event.channel_id, translate("tournament.cancelled", loc, name=nm(event.name)))


async def _post_round(publisher: EventPublisher, service: GameService, change: EventChange) -> None:
    """Each new table: a post in the event's channel pinging its players, a thread made from it
    for the game, then the game's start announced there as any game's."""
    event, loc = change.event, change.event.locale
    view = await service.tournaments.tournament_view(event.id)
    byes = [t for t in view.tables if t.round == change.round and len(t.players) == 1]
    if byes and change.kind == EventKind.ROUND:
        await publisher.delivery.post(event.channel_id, translate(
            "tournament.byes", loc, name=nm(event.name), round=change.round,
            players=", ".join(nm(view.names.get(t.players[0], "?")) for t in byes)))
    numbers = {t.game_id: t.number for t in view.tables if t.game_id is not None}
    for start in change.games:
        row = start.game
        people = [s.user_id for s in row.seats if not s.is_bot]
        players = translate("tournament.vs", loc).join(f"<@{s.user_id}>" if not s.is_bot else nm(s.name)
                                                        for s in row.seats)
        text = translate("tournament.table", loc, name=nm(event.name), round=change.round,
                         table=numbers.get(row.id, 0), players=players)
        # Keyed by the game, so a post repeated after a stop (``rounds._owed_posts``) returns the
        # first message while Discord remembers the key, and its thread is found rather than made twice.
        # A repeat also looks for that first post in the channel, in case the stop outlasted the key.
        parts: Parts = {"ping": people, "once": f"table-{row.id}"}
        if change.kind == EventKind.OWED:
            parts["adopt_after"] = row.created_at - ADOPT_MARGIN
        message_id = await publisher.delivery.post(event.channel_id, text, **parts)
        name = f"{event.name} · R{change.round} · {numbers.get(row.id, 0)}"
        try:
            thread_id = await publisher.delivery.start_thread(event.channel_id, message_id, name,
                                                              guild_id=event.guild_id)
            start.game = await service.threads.set_thread(row.id, thread_id)
        except (discord.HTTPException, ValueError) as exc:
            log.warning("no thread for tournament game %s (%r): played in the channel", row.id, exc)
            try:
                start.game = await service.threads.set_thread(row.id, None)
            except Refusal:
                start.game = row  # the channel holds a game already: the table still goes to the channel
        await publisher.announce(start)


async def _post_standings(publisher: EventPublisher, service: GameService, change: EventChange) -> None:
    event, loc = change.event, change.event.locale
    view = await service.tournaments.tournament_view(event.id)
    image = await publisher.render(render_event_standings, standings_info(view, loc), locale=loc)
    if change.kind == EventKind.FINISHED:
        rows = view.standings.rows
        name = [nm(view.names.get(r.player, "?")) for r in rows[:3]]
        text = translate("tournament.podium", loc, name=nm(event.name), first=name[0] if name else "?",
                         second=translate("tournament.podium.second", loc, player=name[1]) if len(name) > 1 else "",
                         third=translate("tournament.podium.third", loc, player=name[2]) if len(name) > 2 else "")
        await publisher.delivery.post(event.channel_id, f"{text}\n{standings_text(view, loc)}"[:2000], image=image)
        if event.format == Format.KNOCKOUT:
            bracket = await publisher.render(render_bracket, bracket_info(view), locale=loc)
            await publisher.delivery.post(event.channel_id, "", image=bracket)
        return
    head = translate("tournament.round_over", loc, name=nm(event.name), round=event.round, rounds=event.rounds)
    buttons = View()
    buttons.add_item(TournamentButton("next", event.id, translate("tournament.button.next", loc),
                                      discord.ButtonStyle.primary))
    await publisher.delivery.post(event.channel_id, f"{head}\n{standings_text(view, loc)}"[:2000], image=image,
                                  view=buttons)
    if event.format == Format.KNOCKOUT:
        bracket = await publisher.render(render_bracket, bracket_info(view), locale=loc)
        await publisher.delivery.post(event.channel_id, "", image=bracket)
