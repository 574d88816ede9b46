"""The rearrange builder's message (issue 13): a player's private draft of the table, changed with
selects and buttons and played as one move.

What it is: ``open_builder`` (from the hand message's Builder button) and the message it sends and
edits in place: the draft's picture (``renderers.draft``, drawn in a worker), the melds, loose
cards and hand as text, a one-line status, and up to five rows of controls (Discord's limit): take
melds apart; take single cards out (to move them) or, while a wild card's role is open, say which
card it stands for; pick loose and hand cards; put the picked cards in a new meld or add them to
meld N; Undo, Start over, Suggest, Play it, Cancel. A select with more than 25 choices shows a page
of them with "more" and "back" choices (the page is kept in the draft). Custom ids carry only the
game, the version and the action (``rummy:b:`` buttons, ``rummy:bs:`` selects); the draft is the
seat of ``interaction.user.id``'s, read from the database, so the controls work after a restart and
a forged or stale click changes nothing.
What it is not: no rules (``bot.service.builder``, the engine) and no SQL (``bot.service.drafts``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Self

import discord

from bot.engine import Game
from bot.service import Change, DraftState, Refusal
from bot.service.builder import AMBIGUOUS, INVALID, BuilderError, Draft
from bot.service.drafts import draft_status
from bot.words.cards import card_text, cards_text
from bot.words.moves import describe_move
from cogs.acting import act
from cogs.anywhere import place_key
from cogs.base import client_of, user_locale
from cogs.guard import guarded
from cogs.items import Groups, Persistent, View
from cogs.ui import file_of, t
from renderers.draft import DraftMeld, DraftView, draw_draft
from renderers.encode import Rendered

PAGE = 25  # Discord: at most 25 options in a select
PER_PAGE = 23  # a page of a longer list: 23 choices and the "more" and "back" ones
LABEL = 100  # Discord: an option's label and value, at most 100 characters
BUTTONS = ("undo", "reset", "suggest", "play", "cancel")
SELECTS = ("apart", "out", "joker", "pick", "put")
BUTTON_ID = re.compile(r"rummy:b:(?P<action>[a-z]{2,8}):(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9})")
SELECT_ID = re.compile(r"rummy:bs:(?P<action>[a-z]{2,8}):(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9})")
NEXT, BACK = "page:next", "page:back"

HandSender = Callable[..., Awaitable[None]]
_after_play: list[HandSender] = []  # cogs.hand's send_hand, set by cogs.rummy (cogs.hand imports this module)


def use_hand_sender(send: HandSender) -> None:
    """What shows the player's hand after the draft is played (``cogs.hand.send_hand``)."""
    _after_play[:] = [send]


# ---------------------------------------------------------------------------- the choices
def _paged(action: str, choices: list[tuple[str, str]], draft: Draft, locale: str) -> list[tuple[str, str]]:
    """``choices`` (value, label) as the select shows them: all of them up to 25, else the draft's
    page of them with "more" and "back"."""
    if len(choices) <= PAGE:
        return choices
    pages = (len(choices) + PER_PAGE - 1) // PER_PAGE
    page = min(draft.pages.get(action, 0), pages - 1)
    shown = choices[page * PER_PAGE:(page + 1) * PER_PAGE]
    if page + 1 < pages:
        shown.append((NEXT, t("builder.page.next", locale, page=page + 2, pages=pages)))
    if page > 0:
        shown.append((BACK, t("builder.page.back", locale, page=page, pages=pages)))
    return shown


def _meld_label(cards: list[str]) -> str:
    return cards_text(cards)


def choices(action: str, draft: Draft, game: Game, locale: str) -> list[tuple[str, str]]:
    """Every choice a select of ``action`` offers for this draft, before paging."""
    if action == "apart":
        return [(f"m{n}", t("builder.meld.option", locale, number=n, cards=_meld_label(m)))
                for n, m in enumerate(draft.melds, start=1)]
    if action == "out":
        return [(f"c{n}.{p}", t("builder.card.option", locale, number=n, card=card_text(c)))
                for n, m in enumerate(draft.melds, start=1) for p, c in enumerate(m)]
    if action == "pick":
        return ([(f"l{i}", t("builder.loose.option", locale, card=card_text(c))) for i, c in enumerate(draft.loose)]
                + [(f"h{i}", t("builder.hand.option", locale, card=card_text(c))) for i, c in enumerate(draft.rest)])
    if action == "put":
        return [("new", t("builder.put.new", locale))] + [
            (f"to{n}", t("builder.put.to", locale, number=n, cards=_meld_label(m)))
            for n, m in enumerate(draft.melds, start=1)]
    if action == "joker":
        number, readings = open_joker(draft, game)
        return [(f"j{number}.{i}", cards_text(list(r))) for i, r in enumerate(readings)]
    return []


def open_joker(draft: Draft, game: Game) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """The first meld whose wild card's role is open, and its readings; (0, ()) when none is."""
    for n, check in enumerate(draft.checks(game.meld_rules), start=1):
        if check.state == AMBIGUOUS:
            return n, check.readings
    return 0, ()


def offered(action: str, values: list[str], draft: Draft, game: Game, locale: str) -> list[str]:
    """The values, each one the select offered on this draft's page; ``not_offered`` otherwise."""
    allowed = {v for v, _ in _paged(action, choices(action, draft, game, locale), draft, locale)}
    if len(values) > PAGE or any(not isinstance(v, str) or v not in allowed for v in values):
        raise BuilderError("not_offered")
    return values


def _turn_page(action: str, values: list[str], draft: Draft) -> list[str]:
    if NEXT in values:
        draft.pages[action] = draft.pages.get(action, 0) + 1
    elif BACK in values:
        draft.pages[action] = max(0, draft.pages.get(action, 0) - 1)
    return [v for v in values if v not in (NEXT, BACK)]


def apply_select(action: str, values: list[str], draft: Draft, game: Game, locale: str) -> None:
    """A select's values applied to the draft (inside the service's lock)."""
    shown = {v for v, _ in _paged(action, choices(action, draft, game, locale), draft, locale)}
    values = _turn_page(action, offered(action, values, draft, game, locale), draft)
    if action == "pick":
        # The picks on the page shown are what the select says now; picks on other pages stay.
        loose = {i for i in draft.picked_loose if f"l{i}" not in shown} | {int(v[1:]) for v in values if v[0] == "l"}
        hand = {i for i in draft.picked_hand if f"h{i}" not in shown} | {int(v[1:]) for v in values if v[0] == "h"}
        draft.pick(loose, hand)
    elif not values:
        return  # only a page turned (or nothing chosen)
    elif action == "apart":
        draft.take_apart(int(v[1:]) for v in values)
    elif action == "out":
        draft.take_out(tuple(int(x) for x in v[1:].split(".")) for v in values)  # type: ignore[misc]
    elif action == "put":
        if values[0] == "new":
            draft.new_meld()
        else:
            draft.add_to(int(values[0][2:]))
    elif action == "joker":
        number, choice = (int(x) for x in values[0][1:].split("."))
        draft.settle_joker(number, choice, game.meld_rules)


# ---------------------------------------------------------------------------- the message
def status_line(state: DraftState, locale: str) -> str:
    s = draft_status(state.game, state.seat, state.draft)
    parts = []
    if s.invalid:
        parts.append(t("builder.status.invalid", locale, n=s.invalid))
    if s.open_jokers:
        parts.append(t("builder.status.jokers", locale, n=s.open_jokers))
    parts.append(t("builder.status.placed", locale, n=s.placed))
    if s.loose:
        parts.append(t("builder.status.loose", locale, n=s.loose))
    if s.opening is not None:
        parts.append(t("builder.status.opening", locale, points=s.opening[0], min=s.opening[1]))
    if not s.invalid and not s.open_jokers and not s.loose:
        parts.insert(0, t("builder.status.ok", locale))
    return " · ".join(parts)


def draft_view(state: DraftState, locale: str) -> DraftView:
    d = state.draft
    checks = d.checks(state.game.meld_rules)
    names = state.row.names  # a meld's owner by name, as the table shows it, never a seat id
    melds = tuple(DraftMeld(n, tuple(m), c.state not in (INVALID, AMBIGUOUS), ch, names.get(o, o) if o else None)
                  for n, (m, c, ch, o) in enumerate(zip(d.melds, checks, d.changed(), d.owners_now(), strict=True),
                                                    start=1))
    return DraftView(melds, tuple(d.loose), tuple(d.rest), frozenset(d.picked_loose),
                            frozenset(d.picked_hand), status_line(state, locale))


def draw(view: DraftView, locale: str) -> Rendered:
    return draw_draft(view, locale=locale)


def content(state: DraftState, locale: str) -> str:
    d = state.draft
    checks = d.checks(state.game.meld_rules)
    lines = [t("builder.title", locale), status_line(state, locale)]
    for n, (m, c) in enumerate(zip(d.melds, checks, strict=True), start=1):
        mark = "✅" if c.state not in (INVALID, AMBIGUOUS) else "❓" if c.state == AMBIGUOUS else "❌"
        lines.append(f"{mark} {n}: `{' '.join(m)}` {cards_text(m)}")
    if d.loose:
        lines.append(t("builder.loose", locale, cards=f"`{' '.join(d.loose)}`"))
    lines.append(t("builder.hand", locale, cards=f"`{' '.join(d.rest)}`" if d.rest else "—"))
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1999] + "…"


def controls(state: DraftState, locale: str) -> discord.ui.View:
    d, game = state.draft, state.game
    view = View()
    number, _ = open_joker(d, game)
    rows = ["apart", "joker" if number else "out", "pick", "put"]
    for action in rows:
        options = _paged(action, choices(action, d, game, locale), d, locale)
        if not options:
            continue
        picked = {f"l{i}" for i in d.picked_loose} | {f"h{i}" for i in d.picked_hand} if action == "pick" else set()
        select_options = [discord.SelectOption(label=label[:LABEL], value=value, default=value in picked)
                          for value, label in options]
        many = action in ("apart", "out", "pick")
        placeholder = t(f"builder.{action}.placeholder", locale, number=number)
        view.add_item(BuilderSelect(action, state.row.id, state.row.version, select_options,
                                    placeholder=placeholder[:150], many=many))
    for action in BUTTONS:
        style = discord.ButtonStyle.primary if action == "play" else discord.ButtonStyle.danger if action == \
            "cancel" else discord.ButtonStyle.secondary
        view.add_item(BuilderButton(action, state.row.id, state.row.version, label=t(f"builder.button.{action}",
                                                                                    locale), style=style))
    return view


async def show(interaction: discord.Interaction, state: DraftState, *, edit: bool) -> None:
    loc = user_locale(interaction)
    # Drawn in a worker (the announcer's render slots), never on the event loop.
    files = [file_of(await client_of(interaction).announcer.render(draw, draft_view(state, loc), loc))]
    text, view = content(state, loc), controls(state, loc)
    if edit:
        await interaction.edit_original_response(content=text, attachments=files, view=view)
    else:
        await interaction.followup.send(text, view=view, ephemeral=True, files=files)


# ---------------------------------------------------------------------------- the items
class BuilderButton(Persistent[discord.ui.Button[Any]], template=BUTTON_ID):
    def __init__(self, action: str, game_id: int, version: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or action, style=style,
                                           custom_id=f"rummy:b:{action}:{game_id}:{version}"))
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("action"), groups.number("game"), groups.number("version"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await builder_button(interaction, self.action, self.game_id)


class BuilderSelect(Persistent[discord.ui.Select[Any]], template=SELECT_ID):
    def __init__(self, action: str, game_id: int, version: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, many: bool = False) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:bs:{action}:{game_id}:{version}", options=options,
                                           min_values=0 if many else 1, max_values=len(options) if many else 1,
                                           placeholder=placeholder))
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("action"), groups.number("game"), groups.number("version"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await builder_select(interaction, self.action, self.game_id, self.values)


# ---------------------------------------------------------------------------- handlers
async def open_builder(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The hand message's Builder button (already under the guard): the draft, privately. The
    service checks the place, the seat and the hand message's version (``draft_open``)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = await client_of(interaction).service.drafts.draft_open(place_key(interaction), interaction.user.id, game_id,
                                                                   version)
    await show(interaction, state, edit=False)


@guarded
async def builder_select(interaction: discord.Interaction, action: str, game_id: int, values: list[str]) -> None:
    if action not in SELECTS:
        raise Refusal("not_offered")
    await interaction.response.defer()  # type 6: the builder message is edited in place
    loc = user_locale(interaction)
    state = await client_of(interaction).service.drafts.draft_change(
        place_key(interaction), interaction.user.id, game_id,
        lambda draft, game: apply_select(action, values, draft, game, loc))
    await show(interaction, state, edit=True)


@guarded
async def builder_button(interaction: discord.Interaction, action: str, game_id: int) -> None:
    if action not in BUTTONS:
        raise Refusal("not_offered")
    service = client_of(interaction).service
    place, user = place_key(interaction), interaction.user.id
    await interaction.response.defer()
    loc = user_locale(interaction)
    if action == "cancel":
        await service.drafts.draft_discard(place, user, game_id)  # only the owner's own, current draft
        await interaction.edit_original_response(content=t("builder.cancelled", loc), attachments=[], view=None)
        return
    if action == "play":  # the draft as one move, played like any other (cogs.acting)
        move, version = await service.drafts.draft_move(place, user, game_id)

        async def played(change: Change) -> None:
            await interaction.edit_original_response(
                content=t("builder.played", loc, move=describe_move(change.move or "", loc)), attachments=[],
                view=None)
            if _after_play:
                await _after_play[0](interaction, change.seated)

        await act(interaction, game_id, move, version=version, answer=played)
        return
    if action == "suggest":
        state = await service.drafts.draft_suggest(place, user, game_id)
    else:
        state = await service.drafts.draft_change(
            place, user, game_id, lambda draft, game: draft.undo_last() if action == "undo" else draft.start_over())
    await show(interaction, state, edit=True)
