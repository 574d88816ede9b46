"""Tournaments on Discord: the handlers behind ``/rummy-admin tournament …``, ``/rummy tournament``
and the sign-up message's buttons.

What it is: ``new_tournament`` (a manager creates an event in the channel: name, variant, options
or a server preset, format, rounds, table size, turn timer, when sign-up closes and round 1
starts (minutes, a duration or a Discord timestamp: ``bot.service.tournament.when``), rated, cap,
first-turn grace and the pause between rounds), ``manage_tournament`` (a
manager adds a computer player, drops a player, replaces a no-show with a computer player,
pauses, resumes, voids a game, starts the next round now, cancels), ``show_tournaments`` (a
player's next table and the standings, privately, in their language) and ``tournament_button``
(Join, Leave, Check in, and Next round for managers). Every handler runs under the guard; a
manager's action checks the member's permissions when it runs (reliability.md R15), and every
refusal is answered privately, translated, with nothing changed (the service refuses before it
writes).
What it is not: no decisions (``bot.service.tournament``), no public messages' layout
(``cogs.tournament_news``); the commands themselves are declared in ``cogs.admin`` and
``cogs.rummy``, which call these.
"""

from __future__ import annotations

from typing import cast

import discord
from discord.app_commands import Choice

from bot.service import Refusal
from bot.service.tournament import EventChange, NewEvent, parse_when
from bot.service.tournament.events import FIRST_TURN_GRACE, ROUND_PAUSE
from bot.words.i18n import translate
from cogs.base import client_of, public_locale, user_locale
from cogs.guard import guarded
from cogs.tournament_news import (
    EventPublisher,
    announce_event,
    refresh_signup,
    standings_info,
    standings_text,
)
from cogs.ui import file_of, nm
from renderers.tournament import render_event_standings

ACTIONS = ("bot", "drop", "replace", "pause", "resume", "void", "next", "cancel")


def _manager(interaction: discord.Interaction) -> None:
    """Only a member who manages the server now (not Discord's default alone) may do this."""
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        raise Refusal("managers_only")


def _publisher(interaction: discord.Interaction) -> EventPublisher:
    return cast(EventPublisher, client_of(interaction).announcer)


async def _announce(interaction: discord.Interaction, changes: list[EventChange]) -> None:
    client = client_of(interaction)
    for change in changes:
        await announce_event(_publisher(interaction), client.service, change)


async def _event_id(interaction: discord.Interaction, event: int | None) -> int:
    """The event asked for, else the server's latest one not over."""
    assert interaction.guild_id is not None
    if event is not None:
        return event
    events = await client_of(interaction).service.tournaments.guild_tournaments(interaction.guild_id)
    if not events:
        raise Refusal("tournament_none")
    return events[-1].id


async def _own_event(interaction: discord.Interaction, event_id: int) -> None:
    """An event of another server is no event here."""
    row = await client_of(interaction).service.tournaments.tournament(event_id)
    if row is None or row.guild_id != interaction.guild_id:
        raise Refusal("tournament_none")


@guarded
async def new_tournament(interaction: discord.Interaction, *, name: str, variant: str, format: str, start: str,
                         signup: str | None, rounds: int | None, table: int, timer: float | None, rated: bool,
                         cap: int, options: str | None, preset: str | None, grace: float | None,
                         pause: float | None) -> None:
    _manager(interaction)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    client = client_of(interaction)
    loc = user_locale(interaction)
    now = client.service.core.now()
    starts_at = parse_when(start, now)  # typed text first: a refusal needs no reading of the store
    signup_closes_at = starts_at if signup is None else parse_when(signup, now)
    plan_locale = await public_locale(interaction)
    lobby = await client.service.settings.lobby_plan(interaction.guild_id, interaction.user.id, variant,
                                                     options=options or "", timer_minutes=timer, preset=preset,
                                                     locale=plan_locale)
    plan = NewEvent(name=name, variant=variant, format=format, options=lobby.options, rounds=rounds or 0,
                    table_size=table, timer_minutes=lobby.timer_minutes, rated=rated, cap=cap,
                    signup_closes_at=signup_closes_at,
                    starts_at=starts_at, locale=lobby.locale,
                    grace_seconds=FIRST_TURN_GRACE if grace is None else 60 * grace,
                    pause_seconds=ROUND_PAUSE if pause is None else 60 * pause)
    await interaction.response.defer(ephemeral=True, thinking=True)
    change = await client.service.tournaments.create_tournament(interaction.guild_id, interaction.channel_id,
                                                                interaction.user.id, plan)
    await interaction.followup.send(translate("tournament.done.new", loc, event=change.event.id), ephemeral=True)
    await refresh_signup(_publisher(interaction), client.service, change.event.id)


@guarded
async def manage_tournament(interaction: discord.Interaction, action: str, event: int | None,
                            member: discord.User | None, game: int | None) -> None:
    _manager(interaction)
    client = client_of(interaction)
    loc = user_locale(interaction)
    event_id = await _event_id(interaction, event)
    await _own_event(interaction, event_id)
    svc, me = client.service, interaction.user.id
    if (action in ("drop", "replace") and member is None) or (action == "void" and game is None):
        raise Refusal("tournament_missing")
    await interaction.response.defer(ephemeral=True, thinking=True)
    changes: list[EventChange]
    if action == "bot":
        changes = [await svc.tournaments.tournament_add_bot(event_id, me)]
    elif action == "drop":
        assert member is not None
        changes = [await svc.tournaments.tournament_drop(event_id, me, member.id)]
    elif action == "replace":
        assert member is not None
        changes = [await svc.tournaments.tournament_replace(event_id, me, member.id)]
    elif action in ("pause", "resume"):
        changes = [await svc.tournaments.tournament_pause(event_id, me, paused=action == "pause")]
    elif action == "void":
        assert game is not None
        changes = [await svc.tournaments.tournament_void(event_id, me, game)]
    elif action == "next":
        changes = await svc.tournaments.tournament_next_round(event_id, me)
    else:
        changes = [await svc.tournaments.tournament_cancel(event_id, me)]
    player = nm(member.display_name) if member is not None else ""
    await interaction.followup.send(translate(f"tournament.done.{action}", loc, event=event_id, player=player,
                                              game=game or 0), ephemeral=True)
    await _announce(interaction, changes)


@guarded
async def show_tournaments(interaction: discord.Interaction, event: int | None) -> None:
    """A player's view, privately: their table in the current round (or the stage), and the standings."""
    assert interaction.guild_id is not None
    client = client_of(interaction)
    loc = user_locale(interaction)
    if event is None:
        views = await client.service.tournaments.player_tournaments(interaction.guild_id, interaction.user.id)
        if not views:
            events = await client.service.tournaments.guild_tournaments(interaction.guild_id)
            if not events:
                raise Refusal("tournament_none")
            views = [await client.service.tournaments.tournament_view(events[-1].id)]
    else:
        await _own_event(interaction, event)
        views = [await client.service.tournaments.tournament_view(event)]
    view = views[-1]
    table = view.next_table(interaction.user.id)
    if table is not None and table.game_id is not None:
        row = await client.service.core.get(table.game_id)
        place = f"<#{row.thread_id}>" if row is not None and row.thread_id else f"#{table.game_id}"
        others = ", ".join(nm(view.names.get(p, "?")) for p in table.players if p != interaction.user.id)
        head = translate("tournament.mine.table", loc, name=nm(view.event.name), round=table.round, thread=place,
                         players=others)
    else:
        stage = translate(f"tournament.stage.{view.event.stage}", loc, round=view.event.round,
                          rounds=view.event.rounds)
        head = translate("tournament.mine.waiting", loc, name=nm(view.event.name), stage=stage)
    await interaction.response.defer(ephemeral=True, thinking=True)
    image = await client.announcer.render(render_event_standings, standings_info(view, loc), locale=loc)
    await interaction.followup.send(f"{head}\n{standings_text(view, loc)}"[:2000], file=file_of(image),
                                    ephemeral=True)


@guarded
async def tournament_button(interaction: discord.Interaction, verb: str, event_id: int) -> None:
    """Join, Leave and Check in (the presser, by ``interaction.user.id``); Next round (managers)."""
    client = client_of(interaction)
    loc = user_locale(interaction)
    await _own_event(interaction, event_id)
    svc, me = client.service, interaction.user.id
    if verb == "next":
        _manager(interaction)
        changes = await svc.tournaments.tournament_next_round(event_id, me)
        await interaction.response.send_message(translate("tournament.done.next", loc, event=event_id),
                                                ephemeral=True)
        await _announce(interaction, changes)
        return
    if verb == "join":
        change = await svc.tournaments.tournament_join(event_id, me, interaction.user.display_name)
        key = "tournament.joined"
    elif verb == "leave":
        change = await svc.tournaments.tournament_leave(event_id, me)
        key = "tournament.left"
    else:
        change = await svc.tournaments.tournament_check_in(event_id, me)
        key = "tournament.checked_in"
    await interaction.response.send_message(translate(key, loc, name=nm(change.event.name)), ephemeral=True)
    await refresh_signup(_publisher(interaction), svc, event_id)


async def event_choices(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """The server's events not over yet, newest first, for the ``event`` option."""
    if interaction.guild_id is None:
        return []
    events = await client_of(interaction).service.tournaments.guild_tournaments(interaction.guild_id)
    return [Choice(name=f"#{e.id} {e.name}"[:100], value=e.id) for e in reversed(events)
            if current.lower() in f"{e.id} {e.name}".lower()][:25]
