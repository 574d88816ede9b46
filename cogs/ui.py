"""Discord messages built from games: the lobby, the table, a private hand, results.

What it is: functions from a stored game (``GameRow`` + the engine's ``Game``) to what a message
holds (content, an image file, components), and the dynamic buttons and selects whose custom_ids
only *name* a game and the version the user saw (``rummy:<verb>:<game>[:<version>]``). A hand is
only ever built for its own seat, for an ephemeral reply.
What it is not: no decisions. Clicks are routed to ``cogs.rummy.RummyCog``, which asks the service.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Game
from bot.i18n import format_number, timer_text, translate
from bot.moves import card_text, describe_move
from bot.store import GameRow
from renderers import Rendered

if TYPE_CHECKING:
    from cogs.rummy import RummyCog

PAGE = 25  # Discord: at most 25 options in a select
HAND_PAGES = 2  # two selects: hands up to 50 cards (a 21-card dummy hand fits in one page)
SORT_NAMES = ("suit", "rank", "melds")
# Which hand buttons exist, in the order shown; a button appears when its verb is legal now.
HAND_VERBS = ("draw", "take", "pass", "meld", "layoff", "swap", "discard", "knock", "claim", "cut", "allow",
              "done", "auto", "table")
NEEDS_ONE = ("discard", "knock", "claim")
NEEDS_TARGET = ("layoff", "swap")


def nm(name: str) -> str:
    """A display name inside message text: Markdown and mentions neutralised (reliability.md §4.4)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def t(key: str, locale: str, **params: Any) -> str:
    return translate(key, locale, **params)


def file_of(image: Rendered) -> discord.File:
    return discord.File(io.BytesIO(image.data), filename=image.filename)


def cog_of(interaction: discord.Interaction) -> RummyCog:
    cog = interaction.client.get_cog("RummyCog")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[return-value]


# ---------------------------------------------------------------------------- dynamic items
class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"rummy:(?P<verb>join|leave|start|cancel|bot|unbot):(?P<game>[0-9]{1,12})"):
    def __init__(self, verb: str, game_id: int, label: str = "", style: discord.ButtonStyle | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or verb, custom_id=f"rummy:{verb}:{game_id}",
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.game_id = verb, game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> LobbyButton:
        return cls(match["verb"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_lobby_button(interaction, self.verb, self.game_id)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"rummy:(?P<verb>hand|draw|take|next|rematch):(?P<game>[0-9]{1,12})"
                           r"(?::(?P<version>[0-9]{1,9}))?"):
    def __init__(self, verb: str, game_id: int, version: int | None = None, label: str = "",
                 style: discord.ButtonStyle | None = None) -> None:
        cid = f"rummy:{verb}:{game_id}" + ("" if version is None else f":{version}")
        super().__init__(discord.ui.Button(label=label or verb, custom_id=cid,
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.game_id, self.version = verb, game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> TableButton:
        version = int(match["version"]) if match["version"] else None
        return cls(match["verb"], int(match["game"]), version)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_table_button(interaction, self.verb, self.game_id, self.version)


@dataclass(frozen=True)
class HandState:
    """What a hand message's components carry: the game, the version shown, the selected card
    indices (a bit mask over ``game.hand(seat)`` in order) and the sort of the picture."""

    game_id: int
    version: int
    mask: int = 0
    sort: int = 0

    def suffix(self) -> str:
        return f"{self.game_id}:{self.version}:{self.mask:x}:{self.sort}"


_STATE = r"(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<mask>[0-9a-f]{1,16}):(?P<sort>[0-2])"


def _state(match: Any) -> HandState:
    return HandState(int(match["game"]), int(match["version"]), int(match["mask"], 16), int(match["sort"]))


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"rummy:h:(?P<verb>[a-z]{2,8})(?P<arg>[0-9]{0,3}):" + _STATE):
    def __init__(self, verb: str, state: HandState, arg: int | None = None, label: str = "",
                 style: discord.ButtonStyle | None = None, disabled: bool = False) -> None:
        cid = f"rummy:h:{verb}{'' if arg is None else arg}:{state.suffix()}"
        super().__init__(discord.ui.Button(label=label or verb, custom_id=cid, disabled=disabled,
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.state, self.arg = verb, state, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> HandButton:
        return cls(match["verb"], _state(match), int(match["arg"]) if match["arg"] else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_hand_button(interaction, self.verb, self.arg, self.state)


class HandSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rummy:s(?P<page>[0-9]):" + _STATE):
    def __init__(self, page: int, state: HandState, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:s{page}:{state.suffix()}", options=options,
                                           min_values=0, max_values=len(options), placeholder=placeholder))
        self.page, self.state = page, state

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> HandSelect:
        self = cls(int(match["page"]), _state(match))
        self.item = item  # keep the values Discord sent
        return self

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        await cog_of(interaction).on_hand_select(interaction, self.page, values, self.state)


DYNAMIC_ITEMS = (LobbyButton, TableButton, HandButton, HandSelect)


class RearrangeModal(discord.ui.Modal):
    """The table in RGN, to edit and submit as one ``table`` move (manipulation variants)."""

    def __init__(self, game_id: int, version: int, text: str, locale: str) -> None:
        super().__init__(title=t("ui.rearrange.title", locale)[:45], custom_id=f"rummy:m:{game_id}:{version}",
                         timeout=900)
        self.game_id, self.version = game_id, version
        self.table: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=t("ui.rearrange.label", locale)[:45], style=discord.TextStyle.paragraph,
            default=text[:4000] or None, max_length=4000, required=True, custom_id="table",
        )
        self.add_item(self.table)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_rearrange(interaction, self.game_id, self.version, str(self.table.value))


# ---------------------------------------------------------------------------- message builders
def variant_name(variant: str, locale: str) -> str:
    return t(f"variant.{variant}", locale)


def lobby_message(row: GameRow, locale: str, *, closed: str | None = None) -> tuple[str, discord.ui.View | None]:
    """The public lobby: variant, options, seats, timer, and (while open) Join/Leave/Start/Cancel."""
    from bot.engine import PLAYERS

    lo, hi = PLAYERS[row.variant]
    seats = ", ".join(
        nm(s.name) + (f" ({t('lobby.host', locale)})" if s.user_id == row.host_id else "") for s in row.seats
    )
    timer = t("lobby.timer_none", locale) if not row.timer_minutes else t(
        "lobby.timer", locale, time=timer_text(row.timer_minutes, locale))
    lines = [
        t("lobby.title", locale, variant=variant_name(row.variant, locale)),
        t("lobby.options", locale, options=row.options or t("lobby.defaults", locale)),
        t("lobby.seats", locale, count=len(row.seats), min=lo, max=hi, seats=seats or "-"),
        timer,
    ]
    if closed:
        lines.append(closed)
        return "\n".join(lines), None
    lines.append(t("lobby.help", locale))
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton("join", row.id, t("button.join", locale), discord.ButtonStyle.success))
    view.add_item(LobbyButton("leave", row.id, t("button.leave", locale)))
    view.add_item(LobbyButton("start", row.id, t("button.start", locale), discord.ButtonStyle.primary))
    view.add_item(LobbyButton("cancel", row.id, t("button.cancel", locale), discord.ButtonStyle.danger))
    if len(row.seats) < hi:
        view.add_item(LobbyButton("bot", row.id, t("button.add_bot", locale)))
    if any(s.is_bot for s in row.seats):
        view.add_item(LobbyButton("unbot", row.id, t("button.remove_bot", locale)))
    return "\n".join(lines), view


def lobby_info(row: GameRow) -> Any:
    """What the lobby picture shows (``renderers.LobbyInfo``)."""
    from bot.engine import PLAYERS
    from renderers import LobbyInfo

    lo, hi = PLAYERS[row.variant]
    status = {"lobby": "open", "playing": "started", "finished": "started"}.get(row.status, row.status)
    host = next((s.name for s in row.seats if s.user_id == row.host_id), "")
    options = tuple(tuple(w.split("=", 1)) for w in row.options.split() if "=" in w)
    return LobbyInfo(row.variant, options, tuple(s.name for s in row.seats), host, lo, hi, row.timer_minutes,
                     status if status in ("open", "started", "cancelled", "expired") else "cancelled")


def last_move_text(row: GameRow, game: Game, locale: str) -> str:
    last = game.public_view().last_move
    if not last:
        return ""
    seat, _, move = last.partition(" ")
    return t("table.line.last", locale, name=nm(row.names.get(seat, seat)), move=describe_move(move, locale))


def clock_text(row: GameRow, game: Game, locale: str) -> str:
    """" · ⏱ time's up in 4 minutes" while a person's turn timer (or a claim window) runs, else "".
    Discord shows ``<t:…:R>`` as a countdown in the reader's own language and clock."""
    if row.status != "playing" or game.hand_over or not game.actors:
        return ""
    if game.phase == "window":
        deadline = row.window_deadline
    else:
        seat = row.by_seat(game.actors[0])
        deadline = row.turn_deadline if row.timer_minutes and seat is not None and not seat.is_bot else None
    return "" if deadline is None else " · " + t("table.line.clock", locale, when=f"<t:{int(deadline)}:R>")


def table_message(row: GameRow, game: Game, locale: str, *, note: str | None = None) -> tuple[str, discord.ui.View]:
    """The public table's text line and buttons (My hand always; Draw/Take while a turn runs)."""
    view_ = game.public_view()
    lines = []
    if note:
        lines.append(note)
    if game.game_over:
        lines.append(t("table.line.game_over", locale))
    elif game.hand_over:
        lines.append(t("table.line.deal_over", locale, deal=view_.deal_number))
    elif view_.phase == "window":
        lines.append(t("table.line.window", locale, names=", ".join(nm(row.names.get(s, s)) for s in view_.actors))
                     + clock_text(row, game, locale))
    elif game.current_seat is not None:
        name = nm(row.names.get(game.current_seat, game.current_seat))
        lines.append(t("table.line.turn", locale, name=name, deal=view_.deal_number,
                       variant=variant_name(row.variant, locale)) + clock_text(row, game, locale))
    last = last_move_text(row, game, locale)
    if last:
        lines.append(last)
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton("hand", row.id, label=t("button.hand", locale), style=discord.ButtonStyle.primary))
    if not game.hand_over:
        view.add_item(TableButton("draw", row.id, row.version, label=t("verb.draw", locale)))
        view.add_item(TableButton("take", row.id, row.version, label=t("verb.take", locale)))
    elif not game.game_over:
        view.add_item(TableButton("next", row.id, row.version, label=t("button.next", locale),
                                  style=discord.ButtonStyle.success))
    return "\n".join(lines), view


def hand_order(game: Game, seat: str, sort: int) -> list[str]:
    """The hand in the order the picture shows it, which the codes and the select follow too."""
    from renderers.hand import group_hand

    groups, _ = group_hand(game.view(seat), SORT_NAMES[sort])
    return [c for g in groups for c in g.cards]


def selected_cards(game: Game, seat: str, state: HandState) -> list[str]:
    hand = hand_order(game, seat, state.sort)
    return [hand[i] for i in range(len(hand)) if state.mask >> i & 1]


def mask_of(order: list[str], cards: list[str]) -> int:
    """The mask selecting ``cards`` in ``order`` (duplicates count: two 7H select two slots)."""
    mask, left = 0, list(cards)
    for i, c in enumerate(order):
        if c in left:
            left.remove(c)
            mask |= 1 << i
    return mask


def hand_message(row: GameRow, game: Game, seat: str, state: HandState, locale: str) -> tuple[str, discord.ui.View]:
    """A player's own hand: the cards as codes (for typing and screen readers), a select of the
    cards (index values, paged by 25), and the buttons for the moves legal now."""
    hand = hand_order(game, seat, state.sort)
    codes = " ".join(hand)
    selected = [hand[i] for i in range(len(hand)) if state.mask >> i & 1]
    lines = [t("hand.msg.title", locale, count=len(hand), variant=variant_name(row.variant, locale)), f"`{codes}`"]
    if selected:
        lines.append(t("hand.selected", locale, cards=" ".join(card_text(c) for c in selected)))
    legal = game.legal_moves(seat)
    if legal:
        lines.append(t("hand.your_turn", locale))
    elif not game.hand_over and game.current_seat:
        lines.append(t("hand.waiting", locale, name=nm(row.names.get(game.current_seat, game.current_seat))))
    view = discord.ui.View(timeout=None)
    for page in range(min(HAND_PAGES, (len(hand) + PAGE - 1) // PAGE)):
        options = []
        for i in range(page * PAGE, min(len(hand), (page + 1) * PAGE)):
            options.append(discord.SelectOption(label=f"{card_text(hand[i])} ({hand[i]})", value=str(i),
                                                default=bool(state.mask >> i & 1)))
        view.add_item(HandSelect(page, state, options, placeholder=t("hand.pick", locale, page=page + 1)))
    verbs = [v for v in HAND_VERBS if any(m.split()[0] == v for m in legal)]
    if legal and "table" not in verbs and can_rearrange(game, seat):
        verbs.append("table")  # the suggestions list at most 200 table moves; the player may know another
    buttons: list[discord.ui.Item[Any]] = []
    for verb in verbs:
        style = discord.ButtonStyle.primary if verb in ("draw", "discard", "knock", "meld") else \
            discord.ButtonStyle.secondary
        label = t("button.rearrange", locale) if verb == "table" else t(f"verb.{verb}", locale)
        buttons.append(HandButton(verb, state, label=label, style=style))
    buttons.append(HandButton("sort", state, label=t("button.sort", locale, sort=t(
        f"hand.sort.{SORT_NAMES[(state.sort + 1) % len(SORT_NAMES)]}", locale))))
    buttons.append(HandButton("clear", state, label=t("button.clear", locale), disabled=not state.mask))
    rows_left = 5 - len(view.children)
    for item in buttons[: rows_left * 5]:
        view.add_item(item)
    return "\n".join(lines), view


def can_rearrange(game: Game, seat: str) -> bool:
    """Whether ``table`` moves are allowed to this seat now (rules.md §4.3 tradicional: from the
    first turn; §3.10 rami with ``table_manipulation``: once opened), in the play phase."""
    if game.phase != "play" or game.current_seat != seat:
        return False
    if game.variant == "tradicional":
        return True
    values = getattr(game.rules, "values", {})
    return game.variant == "rami" and bool(values.get("table_manipulation")) and seat in game.opened


def target_message(state: HandState, verb: str, targets: list[int], locale: str) -> tuple[str, discord.ui.View]:
    """Several melds accept the selected cards: one button per meld number."""
    view = discord.ui.View(timeout=None)
    for n in targets[:25]:
        view.add_item(HandButton(verb, state, arg=n, label=t("button.to_meld", locale, number=n)))
    return t("hand.which_meld", locale), view


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


def final_message(row: GameRow, game: Game, results: list[Any], locale: str) -> tuple[str, discord.ui.View]:
    names = {s.user_id: nm(s.name) for s in row.seats}
    winners = ", ".join(nm(row.names.get(w, w)) for w in game.winners) or "-"
    lines = [t("final.title", locale, variant=variant_name(row.variant, locale), winners=winners, game=row.id)]
    for r in results:
        lines.append(t("final.line", locale, place=r["place"], name=names.get(r["user_id"], "?"),
                       score=r["score"]))
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton("rematch", row.id, label=t("button.rematch", locale),
                              style=discord.ButtonStyle.success))
    return "\n".join(lines), view
