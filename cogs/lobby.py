"""The lobby: its public message, its buttons, and what joining, leaving, starting and cancelling do.

What it is: ``lobby_message`` (variant, options, seats, a rematch's invited players, timer,
whether hints are on and, while open, the Join / Leave / Start / Cancel buttons, one bot button
per level, Remove a bot, Remove a player (the host's private pick, ``RemoveSelect``), the host's
practice toggle and Change options form, and the hints toggle in unrated games), ``lobby_info`` (what the
lobby picture shows), the persistent ``LobbyButton`` (``rummy:<verb>:<game>[:<level>]``) and ``lobby_action``, the
one handler behind both the buttons and the ``/rummy join|leave|start|cancel`` commands.
What it is not: no rules about seats (``GameService`` decides and commits), no table (``cogs.table``).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.engine import PLAYERS
from bot.robot import LEVELS
from bot.service import ChangeKind, GameRow, GameStatus, Refusal
from bot.service.hints import hints_apply
from bot.words.i18n import timer_text
from bot.words.options import option_notes, option_words
from cogs.acting import place_game
from cogs.anywhere import place_key
from cogs.base import client_of, user_locale
from cogs.guard import guarded
from cogs.items import Groups, Modal, Persistent, View
from cogs.launch import with_launch
from cogs.ui import file_of, nm, t, variant_name
from renderers import LobbyInfo
from renderers.lobby import LobbyStatus

# How the lobby picture shows each status (``renderers.LobbyInfo.status``).
PICTURED = {GameStatus.LOBBY: LobbyStatus.OPEN, GameStatus.PLAYING: LobbyStatus.STARTED,
            GameStatus.FINISHED: LobbyStatus.STARTED, GameStatus.CANCELLED: LobbyStatus.CANCELLED,
            GameStatus.EXPIRED: LobbyStatus.EXPIRED}
# ``rummy:bot:<game>`` seats a normal computer player (lobbies posted before levels existed say
# that too); ``rummy:bot:<game>:easy|strong`` the other levels. ``hints`` turns hints off or on,
# ``practice`` makes the game a practice one (never rated, hints on) or a normal one again.
OPTIONS_MODAL_ID = re.compile(r"rummy:lobbyopts:(?P<game>[0-9]{1,12})")
LOBBY_ID = re.compile(r"rummy:(?P<verb>join|leave|start|cancel|bot|unbot|hints|practice|options|remove):"
                      r"(?P<game>[0-9]{1,12})"
                      r"(?::(?P<level>easy|strong))?")
# The host's private pick of whom to take out of the lobby (answer to the Remove a player button).
REMOVE_ID = re.compile(r"rummy:remove-pick:(?P<game>[0-9]{1,12})")


class LobbyButton(Persistent[discord.ui.Button[Any]], template=LOBBY_ID):
    def __init__(self, verb: str, game_id: int, label: str = "", style: discord.ButtonStyle | None = None,
                 level: str | None = None) -> None:
        cid = f"rummy:{verb}:{game_id}" + (f":{level}" if level and level != "normal" else "")
        super().__init__(discord.ui.Button(label=label or verb, custom_id=cid,
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.game_id, self.level = verb, game_id, level

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        verb = groups.text("verb")
        return cls(verb, groups.number("game"), level=groups.maybe_text("level") if verb == "bot" else None)

    async def handle(self, interaction: discord.Interaction) -> None:
        await lobby_button(interaction, self.verb, self.game_id, self.level)


def lobby_message(row: GameRow, locale: str, *, closed: str | None = None,
                  bots: bool = True, activity: bool = False) -> tuple[str, discord.ui.View | None]:
    """The public lobby: variant, options, seats, timer, and (while open) Join/Leave/Start/Cancel;
    the bot buttons only where the server allows computer players (``bots``); Open the table when
    the bot serves the Activity (``activity``)."""
    lo, hi = PLAYERS[row.variant]
    seats = ", ".join(
        nm(s.name) + (f" ({t('lobby.host', locale)})" if s.user_id == row.host_id else "") for s in row.seats
    )
    timer = t("lobby.timer_none", locale) if not row.timer_minutes else t(
        "lobby.timer", locale, time=timer_text(row.timer_minutes, locale))
    lines = [
        t("lobby.title", locale, variant=variant_name(row.variant, locale)),
        t("lobby.options", locale, options=option_words(row.options, locale) or t("lobby.defaults", locale)),
        *option_notes(row.variant, row.options, locale),  # where one option rules out another (§4.7.5)
        t("lobby.seats_exact", locale, count=len(row.seats), max=hi, seats=seats or "-") if lo == hi else
        t("lobby.seats", locale, count=len(row.seats), min=lo, max=hi, seats=seats or "-"),
        timer,
    ]
    if row.practice:
        lines.append(t("lobby.practice", locale))
    if closed:
        lines.append(closed)
        return "\n".join(lines), None
    if hints_apply(row):
        lines.append(t("lobby.hints.off" if row.hints_off else "lobby.hints.on", locale))
    if row.invited:  # a rematch's previous players: mentioned, and seated only when they press Join
        lines.append(t("lobby.invited", locale, names=", ".join(f"<@{s.user_id}>" for s in row.invited)))
    lines.append(t("lobby.help", locale))
    view = View()
    view.add_item(LobbyButton("join", row.id, t("button.join", locale), discord.ButtonStyle.success))
    view.add_item(LobbyButton("leave", row.id, t("button.leave", locale)))
    view.add_item(LobbyButton("start", row.id, t("button.start", locale), discord.ButtonStyle.primary))
    view.add_item(LobbyButton("cancel", row.id, t("button.cancel", locale), discord.ButtonStyle.danger))
    if bots and len(row.seats) < hi:  # one button per level (issue 11): the host picks the computer player's strength
        for level in LEVELS:
            view.add_item(LobbyButton("bot", row.id, t(f"button.bot.{level}", locale), level=level))
    if any(s.is_bot for s in row.seats):
        view.add_item(LobbyButton("unbot", row.id, t("button.remove_bot", locale)))
    view.add_item(LobbyButton("options", row.id, t("lobby.edit_options", locale)))
    view.add_item(LobbyButton("practice", row.id, t("button.practice_off" if row.practice else "button.practice_on",
                                                    locale)))
    if len(row.seats) > 1:  # the host may take anyone else out before the start
        view.add_item(LobbyButton("remove", row.id, t("button.remove_player", locale)))
    if hints_apply(row):
        view.add_item(LobbyButton("hints", row.id, t("button.hints_on" if row.hints_off else "button.hints_off",
                                                     locale)))
    return "\n".join(lines), with_launch(view, row, locale, activity)


def lobby_info(row: GameRow) -> LobbyInfo:
    """What the lobby picture shows (``renderers.LobbyInfo``)."""
    lo, hi = PLAYERS[row.variant]
    host = next((s.name for s in row.seats if s.user_id == row.host_id), "")
    options = tuple((name, value) for name, _, value in (w.partition("=") for w in row.options.split() if "=" in w))
    return LobbyInfo(row.variant, options, tuple(s.name for s in row.seats), host, lo, hi, row.timer_minutes,
                     PICTURED.get(row.status, "cancelled"), invited=tuple(s.name for s in row.invited))


class RemoveSelect(Persistent[discord.ui.Select[Any]], template=REMOVE_ID):
    """The host picks a seated player to take out of their lobby (sent to the host only)."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:remove-pick:{game_id}", options=options,
                                           placeholder=placeholder))
        self.game_id = game_id

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("game"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await remove_picked(interaction, self.game_id, self.values)


@guarded
async def remove_picked(interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
    target = int(values[0]) if values and values[0].lstrip("-").isdigit() else 0
    await lobby_action(interaction, "remove", game_id, edit=False, target=target)


@guarded
async def lobby_button(interaction: discord.Interaction, verb: str, game_id: int, level: str | None = None) -> None:
    if verb == "options":  # a modal answers this click: nothing may acknowledge it first
        await options_modal(interaction, game_id)
        return
    if verb == "remove":
        await remove_menu(interaction, game_id)
        return
    await lobby_action(interaction, verb, game_id, edit=True, level=level)


class OptionsModal(Modal):
    """The lobby's options as ``name=value`` text, for its host to edit before the start. Its
    submission is answered by ``cogs.rummy``'s interaction listener from the custom_id
    (``rummy:lobbyopts:<game>``), like the rearrange modal: ``on_submit`` does nothing."""

    def __init__(self, row: GameRow, locale: str) -> None:
        super().__init__(title=t("lobby.options_modal", locale)[:45], custom_id=f"rummy:lobbyopts:{row.id}",
                         timeout=900)
        self.options: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=t("lobby.options_field", locale)[:45], style=discord.TextStyle.paragraph,
            default=row.options or None, max_length=1000, required=False, custom_id="options")
        self.add_item(self.options)


async def _open_lobby_for_its_host(interaction: discord.Interaction, game_id: int) -> GameRow:
    """The open lobby ``game_id`` of this place, when the clicker is its host (else the service's refusal)."""
    return await client_of(interaction).service.games.hosted_lobby(place_key(interaction), interaction.user.id, game_id)


async def options_modal(interaction: discord.Interaction, game_id: int) -> None:
    """Only the open lobby's host gets the form; anyone else is refused privately."""
    row = await _open_lobby_for_its_host(interaction, game_id)
    await interaction.response.send_modal(OptionsModal(row, user_locale(interaction)))


@guarded
async def submit_options(interaction: discord.Interaction, game_id: int, text: str) -> None:
    """The host's new options: checked, committed, then the lobby shows them."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    client = client_of(interaction)
    await place_game(interaction, game_id)  # a lobby of this place (the service checks the host)
    change = await client.service.games.set_options(game_id, interaction.user.id, text)
    await interaction.followup.send(t("lobby.done.options", user_locale(interaction)), ephemeral=True)
    await client.announcer.update_lobby_message(change.game)


async def remove_menu(interaction: discord.Interaction, game_id: int) -> None:
    """The host's private list of the lobby's other seats; anyone else is refused (nothing changes)."""
    row = await _open_lobby_for_its_host(interaction, game_id)
    others = [s for s in row.seats if s.user_id != row.host_id]
    if not others:
        raise Refusal("remove_nobody")
    loc = user_locale(interaction)
    options = [discord.SelectOption(label=s.name[:100], value=str(s.user_id)) for s in others[:25]]
    view = View()
    view.add_item(RemoveSelect(game_id, options, t("lobby.remove.pick", loc)))
    await interaction.response.send_message(t("lobby.remove.ask", loc), view=view, ephemeral=True)


async def lobby_action(interaction: discord.Interaction, verb: str, game_id: int, *, edit: bool,
                       level: str | None = None, target: int = 0) -> None:
    """Join, leave, add or remove a bot, cancel or start: from a lobby button (``edit``: the lobby
    is edited in place) or from a command (a private answer, and the lobby edited from afar)."""
    # Acknowledge first: a button privately (type 6, the lobby is then edited in place), a
    # command ephemerally; refusals that follow are ephemeral followups either way.
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    client = client_of(interaction)
    service = client.service
    row = await place_game(interaction, game_id)  # a lobby or game of this place (cogs.acting)
    user = interaction.user
    if verb == "join":
        change = await service.games.join(game_id, user.id, user.display_name)
    elif verb == "leave":
        change = await service.games.leave(game_id, user.id)
    elif verb == "bot":
        change = await service.games.add_bot(game_id, user.id, level=level or "normal")
    elif verb == "hints":
        change = await service.games.set_hints(game_id, user.id, off=not row.hints_off)
    elif verb == "practice":
        change = await service.games.set_practice(game_id, user.id, on=not row.practice)
    elif verb == "unbot":
        change = await service.games.remove_bot(game_id, user.id)
    elif verb == "remove":
        change = await service.games.remove_player(game_id, user.id, target)
    elif verb == "cancel":
        perms = interaction.permissions
        is_admin = bool(perms.manage_guild or perms.administrator)  # checked now, not by Discord's defaults
        change = await service.games.cancel(game_id, user.id, is_admin=is_admin)
    else:
        change = await service.games.start(game_id, user.id)
    if change.kind == ChangeKind.RESIGN:  # the host's cancel of a game under way: their resignation
        await interaction.followup.send(t("lobby.done.cancel_resigned", user_locale(interaction)), ephemeral=True)
        await client.announcer.announce(change)
        return
    loc = change.game.locale
    closed = None
    if change.game.status == GameStatus.CANCELLED:
        closed = t("lobby.cancelled", loc)
    elif change.game.status == GameStatus.PLAYING:
        closed = t("lobby.started", loc)
        if change.game.thread_id:  # issue 12: the table is in the game's own thread
            closed += " " + t("thread.see", loc, thread=f"<#{change.game.thread_id}>")
    if change.kind == ChangeKind.CANCEL and row.status == GameStatus.PLAYING:
        closed = t("game.cancelled", loc)
    bots = (await service.settings.server_config(change.game.guild_id)).bots
    content, view = lobby_message(change.game, loc, closed=closed, bots=bots, activity=client.announcer.activity)
    image = await client.announcer.lobby_picture(change.game)
    if edit and row.status == GameStatus.LOBBY:
        await interaction.edit_original_response(content=content, view=view, attachments=[file_of(image)])
    else:
        await interaction.followup.send(t(f"lobby.done.{verb}", user_locale(interaction)), ephemeral=True)
        if row.status == GameStatus.LOBBY:
            await client.announcer.update_lobby_message(change.game, content, view, image)
    await client.announcer.announce(change)
