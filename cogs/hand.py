"""A player's private hand: the message, the paged card selection, the verb buttons, the meld
pickers, the rearrange modal, and the moves they make.

What it is: ``hand_message`` (the cards as codes, one select per 25 cards, a button for each verb
legal now, sort and clear), the persistent items whose custom_ids carry only the game, the
version shown, the selection and the sort (``HandState``), and their handlers. A hand is only
ever built for the seat the service found for ``interaction.user.id`` (``send_hand`` takes a
``Seated``: never a seat named in a custom_id) and only sent in an ephemeral message.
``move_from_hand`` turns a verb and the selected cards into a move (``bot.engine.Move.of``),
asking which meld when several accept the cards; ``cogs.acting`` plays it. Cards that are several
melds are one ``meld`` move (a Rami opening of two or three melds, a Dummy contract: the legal
move of exactly those cards), and while an opening is built the hand says its points; a layoff's
accepting melds are buttons of their own, labelled with what they show (issue 36).
What it is not: no rules: which moves are legal, which melds accept cards and whether the table may
be rearranged are the engine's answers (``Game.legal_moves``, ``meld_targets``, ``can_rearrange``),
and so are the order of the cards (``bot.engine.group_hand``) and which verbs are hand buttons and
what each needs (``bot.engine.HAND_VERBS``, ``Verb``); no checks: the place, the seat and the
message's version are the service's (``cogs.acting``), which also plays the moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.engine import HAND_VERBS, SORTS, Game, IllegalMove, Move, Phase, Verb, group_hand
from bot.service import GameRow, Refusal, Stale
from bot.service.builder import (
    AMBIGUOUS,
    INVALID,
    check_meld,
    meld_move_of,
    opening_reaching,
    selection_points,
    split_melds,
)
from bot.service.changes import Seated
from bot.service.drafts import builder_allowed
from bot.service.hints import hints_apply
from bot.words.cards import card_text, cards_text, fit
from cogs.acting import Answer, act, seat_here
from cogs.base import client_of, user_locale
from cogs.builder import open_builder
from cogs.guard import guarded
from cogs.hints import send_hint
from cogs.items import Groups, Modal, Persistent, View
from cogs.live import BOOK, default_sort, hand_signature
from cogs.ui import file_of, nm, t, variant_name
from renderers import render_hand

PAGE = 25  # Discord: at most 25 options in a select
HAND_PAGES = 2  # two selects: hands up to 50 cards (a 21-card dummy hand fits in one page)
SORT_NAMES = SORTS  # suit, rank, melds: a hand message's sort is an index into these
BUTTON_LABEL = 80  # Discord: a button's label, at most 80 characters
TABLE_TEXT_MAX = 4000  # the rearrange modal's text input offers at most this many characters


def table_box_text(melds: Iterable[Iterable[str]]) -> str:
    """The table as the rearrange box shows it, ``|`` between melds (``Move.table_typed`` reads
    the box back, one meld a line or ``|`` between them)."""
    return " | ".join(" ".join(meld) for meld in melds)


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
HAND_BUTTON_ID = re.compile(r"rummy:h:(?P<verb>[a-z]{2,8})(?P<arg>[0-9]{0,3}):" + _STATE)
HAND_SELECT_ID = re.compile(r"rummy:s(?P<page>[0-9]):" + _STATE)
VERB_SELECT_ID = re.compile(r"rummy:hv:(?P<verb>discard|knock):" + _STATE)  # one pick plays it (issue 36)
JOKER_SELECT_ID = re.compile(r"rummy:hj:" + _STATE)  # which card a wild stands for in a new meld (issue 13)
MODAL_ID = re.compile(r"rummy:m:(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,9})")


def picked_mask(values: list[str], page: int, hand_size: int) -> int:
    """The cards picked in page ``page`` of the hand select, as a mask over the whole hand. Every
    value must be one the select offered: the index of a card of that page (issue 15, hole 4: a
    forged value used as a bit position unchecked took seconds and hundreds of MB)."""
    first, end = page * PAGE, min(hand_size, (page + 1) * PAGE)
    if not 0 <= page < HAND_PAGES or len(values) > max(0, end - first):
        raise Refusal("not_offered")
    picked = 0
    for v in values:
        # ASCII digits, at most two, before int(): "²".isdigit() is true and int() of it fails.
        if not (isinstance(v, str) and 0 < len(v) <= 2 and v.isascii() and v.isdigit()):
            raise Refusal("not_offered")
        i = int(v)
        if not first <= i < end or v != str(i):  # "01" was not offered either
            raise Refusal("not_offered")
        picked |= 1 << i
    return picked


def check_offered(state: HandState, hand_size: int, verb: str | None = None, arg: int | None = None,
                  melds: int = 0) -> None:
    """What a hand message's custom_id carries, bounded by what that message could offer: a
    selection of the hand's own cards, and a meld number (only on layoff/swap) of a meld on the
    table. ``Refusal("not_offered")`` otherwise; nothing is done."""
    if state.mask >> hand_size or not 0 <= state.sort < len(SORT_NAMES):
        raise Refusal("not_offered")
    if arg is not None and (verb is None or not _targeted(verb) or not 1 <= arg <= melds):
        raise Refusal("not_offered")


def _targeted(verb: str) -> bool:
    """Whether a hand button's verb sends cards ``to`` a meld (a layoff, a swap)."""
    return verb in [v for v in Verb if v.needs_target]


def hand_verb(verb: str) -> Verb:
    """The verb a hand button's custom_id names; one that is no move is refused as the engine
    refuses an unknown verb."""
    try:
        return Verb(verb)
    except ValueError:
        raise IllegalMove("unknown_move", f"{verb!r} is not a move", {"verb": verb}) from None


def _state(groups: Groups) -> HandState:
    return HandState(groups.number("game"), groups.number("version"), groups.hex("mask"), groups.number("sort"))


class HandButton(Persistent[discord.ui.Button[Any]], template=HAND_BUTTON_ID):
    def __init__(self, verb: str, state: HandState, arg: int | None = None, label: str = "",
                 style: discord.ButtonStyle | None = None, disabled: bool = False) -> None:
        cid = f"rummy:h:{verb}{'' if arg is None else arg}:{state.suffix()}"
        super().__init__(discord.ui.Button(label=label or verb, custom_id=cid, disabled=disabled,
                                           style=style or discord.ButtonStyle.secondary))
        self.verb, self.state, self.arg = verb, state, arg

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), _state(groups), groups.maybe_number("arg"))

    async def handle(self, interaction: discord.Interaction) -> None:
        await hand_button(interaction, self.verb, self.arg, self.state)


class HandSelect(Persistent[discord.ui.Select[Any]], template=HAND_SELECT_ID):
    def __init__(self, page: int, state: HandState, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:s{page}:{state.suffix()}", options=options,
                                           min_values=0, max_values=len(options), placeholder=placeholder))
        self.page, self.state = page, state

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.number("page"), _state(groups))

    async def handle(self, interaction: discord.Interaction) -> None:
        await hand_select(interaction, self.page, self.values, self.state)


class VerbSelect(Persistent[discord.ui.Select[Any]], template=VERB_SELECT_ID):
    """A turn's last tap (issue 36): the card picked here is discarded at once (``discard``), or
    is the discard of a knock (``knock``: only the cards the engine lists a knock with)."""

    def __init__(self, verb: str, state: HandState, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:hv:{verb}:{state.suffix()}", options=options,
                                           placeholder=placeholder))
        self.verb, self.state = verb, state

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(groups.text("verb"), _state(groups))

    async def handle(self, interaction: discord.Interaction) -> None:
        await verb_select(interaction, self.verb, self.values, self.state)


class JokerSelect(Persistent[discord.ui.Select[Any]], template=JOKER_SELECT_ID):
    """The Meld button's question when a wild card in the selected cards could stand for several
    cards: one option per reading (its index); the meld is played with the wild written as chosen."""

    def __init__(self, state: HandState, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"rummy:hj:{state.suffix()}", options=options,
                                           placeholder=placeholder))
        self.state = state

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        return cls(_state(groups))

    async def handle(self, interaction: discord.Interaction) -> None:
        await hand_button(interaction, "meld", None, self.state, reading=self.values)


class RearrangeModal(Modal):
    """The table in RGN, to edit and submit as one ``table`` move (manipulation variants).

    Its submission is answered by ``cogs.rummy``'s interaction listener from the custom_id
    (``rummy:m:<game>:<version>``) and the submitted text, the same way whether this modal is
    still in discord.py's memory or was sent before a restart: ``on_submit`` is left as the
    library's, which does nothing, so each submission is answered exactly once."""

    def __init__(self, game_id: int, version: int, text: str, locale: str) -> None:
        super().__init__(title=t("ui.rearrange.title", locale)[:45], custom_id=f"rummy:m:{game_id}:{version}",
                         timeout=900)
        self.game_id, self.version = game_id, version
        self.table: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=t("ui.rearrange.label", locale)[:45], style=discord.TextStyle.paragraph,
            default=text[:TABLE_TEXT_MAX] or None, max_length=TABLE_TEXT_MAX, required=True, custom_id="table",
        )
        self.add_item(self.table)


def submitted_text(components: Any, custom_id: str) -> str:
    """The value of text input ``custom_id`` in a modal submit's raw components (rows or labels)."""
    stack = list(components or [])
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        if comp.get("custom_id") == custom_id and "value" in comp:
            return str(comp["value"])
        stack += comp.get("components", []) or []
        if isinstance(comp.get("component"), dict):
            stack.append(comp["component"])
    return ""


# ---------------------------------------------------------------------------- the message
def hand_order(game: Game, seat: str, sort: int) -> list[str]:
    """The hand in the order the picture shows it, which the codes and the select follow too."""
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


def hand_message(row: GameRow, game: Game, seat: str, state: HandState, locale: str,
                 legal: list[Move] | None = None) -> tuple[str, discord.ui.View]:
    """A player's own hand: the cards as codes (for typing and screen readers), a select of the
    cards (index values, paged by 25), and the buttons for the moves legal now (``legal``, when
    the caller worked them out already)."""
    hand = hand_order(game, seat, state.sort)
    codes = " ".join(hand)
    selected = [hand[i] for i in range(len(hand)) if state.mask >> i & 1]
    lines = [t("hand.msg.title", locale, count=len(hand), variant=variant_name(row.variant, locale)), f"`{codes}`"]
    if selected:
        lines.append(t("hand.selected", locale, cards=" ".join(card_text(c) for c in selected)))
        lines += opening_line(game, seat, selected, locale)
    if legal is None:
        legal = game.legal_moves(seat)
    if legal:
        lines.append(t("hand.your_turn", locale))
    elif not game.hand_over and game.current_seat:
        lines.append(t("hand.waiting", locale, name=nm(row.names.get(game.current_seat, game.current_seat))))
    view = View()
    for page in range(min(HAND_PAGES, (len(hand) + PAGE - 1) // PAGE)):
        options = []
        for i in range(page * PAGE, min(len(hand), (page + 1) * PAGE)):
            options.append(discord.SelectOption(label=f"{card_text(hand[i])} ({hand[i]})", value=str(i),
                                                default=bool(state.mask >> i & 1)))
        view.add_item(HandSelect(page, state, options, placeholder=t("hand.pick", locale, page=page + 1)))
    offered = {m.verb for m in legal}
    picked_at_once = one_pick_selects(view, hand, state, legal, locale)
    verbs = [v for v in HAND_VERBS if v in offered and v not in picked_at_once]
    if legal and Verb.TABLE not in verbs and game.can_rearrange(seat):
        verbs.append(Verb.TABLE)  # the suggestions list at most 200 table moves; the player may know another
    buttons: list[discord.ui.Item[Any]] = []
    for verb in verbs:
        style = discord.ButtonStyle.primary if verb in (Verb.DRAW, Verb.DISCARD, Verb.KNOCK, Verb.MELD) else \
            discord.ButtonStyle.secondary
        label = t("button.rearrange", locale) if verb is Verb.TABLE else t(f"verb.{verb}", locale)
        aimed = target_buttons(game, seat, verb, selected, state, locale) if verb.needs_target and selected else []
        buttons += aimed or [HandButton(verb, state, label=label, style=style)]
    if legal and builder_allowed(game, seat):  # the rearrange builder: the table with clicks (issue 13)
        buttons.append(HandButton("build", state, label=t("button.builder", locale)))
    if legal and hints_apply(row) and not row.hints_off:  # unrated games only (bot.service.hints)
        buttons.append(HandButton("hint", state, label=t("button.hint", locale)))
    buttons.append(HandButton("sort", state, label=t("button.sort", locale, sort=t(
        f"hand.sort.{SORT_NAMES[(state.sort + 1) % len(SORT_NAMES)]}", locale))))
    buttons.append(HandButton("clear", state, label=t("button.clear", locale), disabled=not state.mask))
    rows_left = 5 - len(view.children)
    for item in buttons[: rows_left * 5]:
        view.add_item(item)
    return "\n".join(lines), view


def opening_line(game: Game, seat: str, selected: list[str], locale: str) -> list[str]:
    """While the seat builds its opening in its own turn (rules.md §3.5): what the selected cards
    make towards the minimum ("Apertura: 38 de 50 puntos"), as the engine counts them."""
    minimum = game.opening_minimum(seat)
    if minimum is None or not selected or game.phase != Phase.PLAY or game.current_seat != seat:
        return []
    return [t("hand.opening", locale, points=selection_points(game, selected), min=minimum)]


def one_pick_selects(view: discord.ui.View, hand: list[str], state: HandState, legal: list[Move],
                     locale: str) -> set[Verb]:
    """A select per one-card verb legal now (discard, knock) whose pick plays it at once, when the
    hand fits one select and a row is left for the buttons (Discord: 5 rows, 25 options); the
    verbs so offered (their buttons go)."""
    done: set[Verb] = set()
    if len(hand) > PAGE:
        return done
    for verb in (Verb.DISCARD, Verb.KNOCK):
        cards = {c for m in legal if m.verb is verb for c in m.cards}
        if not cards or len(view.children) >= 4:
            continue
        options = [discord.SelectOption(label=f"{card_text(c)} ({c})", value=str(i))
                   for i, c in enumerate(hand) if c in cards][:PAGE]
        view.add_item(VerbSelect(verb, state, options, placeholder=t(f"hand.pick_{verb}", locale)))
        done.add(verb)
    return done


TARGET_BUTTONS = 4  # a layoff's melds offered in the hand itself, one tap each (more: the list after a tap)


def target_buttons(game: Game, seat: str, verb: Verb, cards: list[str], state: HandState,
                   locale: str) -> list[discord.ui.Item[Any]]:
    """The selected cards' layoff (or swap) as one button per meld that accepts them (the engine's
    ``meld_targets``), labelled with the verb, the meld's number and what it shows, so the tap
    that picks the meld plays it; empty when none or too many accept them (the verb's own button
    then: the engine says why, or the list of melds)."""
    targets = game.meld_targets(seat, verb, cards)
    if not targets or len(targets) > TARGET_BUTTONS:
        return []
    table = [list(m) for m in game.table]
    return [HandButton(verb, state, arg=n, style=discord.ButtonStyle.primary,
                       label=fit(t("button.verb_to_meld", locale, verb=t(f"verb.{verb}", locale), number=n,
                                   cards=cards_text(table[n - 1])), BUTTON_LABEL)) for n in targets]


def target_message(state: HandState, verb: str, targets: list[int], locale: str,
                   table: list[list[str]] | None = None) -> tuple[str, discord.ui.View]:
    """Several melds accept the selected cards: one button per meld, labelled with its number and
    what it shows ("3 · 7♥ 8♥ 9♥"), so it is found by either."""
    view = View()
    for n in targets[:25]:
        shows = table[n - 1] if table is not None and 0 < n <= len(table) else None
        label = fit(t("button.to_meld_shows", locale, number=n, cards=cards_text(shows)), BUTTON_LABEL) if shows \
            else t("button.to_meld", locale, number=n)
        view.add_item(HandButton(verb, state, arg=n, label=label))
    return t("hand.which_meld", locale), view


# ---------------------------------------------------------------------------- sending it
async def hand_parts(client: Any, row: GameRow, game: Game, seat: str, state: HandState,
                     locale: str) -> tuple[str, discord.ui.View, tuple[str, ...], Any]:
    """A hand message's text, components and signature, and a function drawing its picture."""
    legal = await client.service.reading.legal_moves(row, seat, game)
    content, view = hand_message(row, game, seat, state, locale, legal)
    picked = frozenset(i for i in range(state.mask.bit_length()) if state.mask >> i & 1)

    async def picture() -> Any:
        return await client.announcer.render(render_hand, game.view(seat), sort=SORT_NAMES[state.sort],
                                             locale=locale, selected=picked)

    return content, view, hand_signature(content, view), picture


def _issued(interaction: discord.Interaction) -> float:
    return float(interaction.created_at.timestamp())


async def send_hand(interaction: discord.Interaction, seated: Seated, *, mask: int = 0, sort: int | None = None,
                    edit: bool = False) -> None:
    """The caller's own hand, privately. ``seated`` is their seat as the service checked it
    (``cogs.acting``; never a seat named in a custom_id), with the engine of a change that just
    committed (a game over shows its last hand then); ``mask`` and ``sort``: the selection and the
    order shown, at that version."""
    client = client_of(interaction)
    row, seat, user = seated.row, seated.seat.seat, interaction.user.id
    game = seated.engine if seated.engine is not None else await client.service.reading.load(row)  # a worker's replay
    loc = user_locale(interaction)
    sort = BOOK.sort(row.id, user, default_sort(row)) if sort is None else sort
    BOOK.chose_sort(row.id, user, sort)  # every hand shown them in this game keeps it (issue 36)
    state = HandState(row.id, row.version, mask, sort)
    content, view, signature, picture = await hand_parts(client, row, game, seat, state, loc)
    image = await picture()
    live = BOOK.live(row.id, user)
    if (not edit and live is not None and live.interaction is not interaction
            and interaction.response.type == discord.InteractionResponseType.deferred_message_update):
        # A move from the table (acknowledged without a message): the player's live hand is edited.
        try:
            await live.interaction.followup.edit_message(live.message_id, content=content,
                                                         attachments=[file_of(image)], view=view)
            BOOK.edited(row.id, user, signature)
            return
        except discord.HTTPException:  # gone or past its token: a new hand, live from now on
            BOOK.forget(row.id, user)
    if edit:
        message_id = (await interaction.edit_original_response(content=content, attachments=[file_of(image)],
                                                               view=view)).id
    else:
        message_id = (await interaction.followup.send(content, file=file_of(image), view=view, ephemeral=True,
                                                      wait=True)).id
        client.tokens.settle(interaction)  # its private reply is filled: its token may show the table (issue 24)
    BOOK.shown(row.id, user, interaction, int(message_id), signature, _issued(interaction))


def shown_again(interaction: discord.Interaction, *, sort: int | None = None, edit: bool = False) -> Answer:
    """``cogs.acting.act``'s answer for a move made from a hand or typed: the player's hand as the
    move left it (the selection cleared, the sort kept: ``sort``, else the one they chose last)."""
    return lambda change: send_hand(interaction, change.seated, sort=sort, edit=edit)


# ---------------------------------------------------------------------------- handlers
@guarded
async def hand_select(interaction: discord.Interaction, page: int, values: list[str], state: HandState) -> None:
    """Cards picked in one page of the select: the hand message is redrawn with them selected."""
    await interaction.response.defer()  # type 6: the hand message is edited in place
    try:
        seated = await seat_here(interaction, state.game_id, version=state.version)
    except Stale:  # an older hand message: the hand as it is now, in its place (issue 36)
        await send_hand(interaction, await seat_here(interaction, state.game_id), sort=state.sort, edit=True)
        return
    hand_size = len(client_of(interaction).service.core.engine(seated.row).hand(seated.seat.seat))
    check_offered(state, hand_size)
    picked = picked_mask(values, page, hand_size)
    page_bits = ((1 << PAGE) - 1) << (page * PAGE)
    await send_hand(interaction, seated, mask=(state.mask & ~page_bits) | (picked & page_bits), sort=state.sort,
                    edit=True)


@guarded
async def hand_button(interaction: discord.Interaction, verb: str, arg: int | None, state: HandState,
                      reading: list[str] | None = None) -> None:
    """A verb button (with the selected cards), a meld picked, a wild card's reading picked
    (``reading``), sort, clear, the rearrange modal or the builder. The service checks the place,
    the seat and the message's version (``cogs.acting``)."""
    service = client_of(interaction).service
    if verb == "table":  # the table of the message's version, in a box to edit
        seated = await seat_here(interaction, state.game_id, version=state.version)
        text = table_box_text(service.core.engine(seated.row).table)
        await interaction.response.send_modal(RearrangeModal(seated.row.id, seated.row.version, text,
                                                             user_locale(interaction)))
        return
    if verb == "build":
        await open_builder(interaction, state.game_id, state.version)
        return
    await interaction.response.defer()  # type 6: edit this hand message in place afterwards
    if verb == "hint":  # a private message of its own: the hand stays as it is
        await send_hint(interaction, state.game_id)
        return
    if verb in ("sort", "clear"):
        seated = await seat_here(interaction, state.game_id)
        game, seat = service.core.engine(seated.row), seated.seat.seat
        sort = (state.sort + 1) % len(SORT_NAMES) if verb == "sort" else state.sort
        mask = 0
        if verb == "sort" and seated.shows(state.version):  # keep the same cards selected
            check_offered(state, len(game.hand(seat)))
            mask = mask_of(hand_order(game, seat, sort), selected_cards(game, seat, state))
        await send_hand(interaction, seated, mask=mask, sort=sort, edit=True)
        return
    try:
        seated = await seat_here(interaction, state.game_id, version=state.version)
    except Stale:  # an older hand message: the hand as it is now, in its place (issue 36)
        await send_hand(interaction, await seat_here(interaction, state.game_id), sort=state.sort, edit=True)
        return
    game, seat = service.core.engine(seated.row), seated.seat.seat
    check_offered(state, len(game.hand(seat)), verb, arg, len(game.table))
    move = await move_from_hand(interaction, game, seat, verb, arg, selected_cards(game, seat, state), state, reading)
    if move is not None:
        await act(interaction, state.game_id, move, version=state.version,
                  answer=shown_again(interaction, sort=state.sort, edit=True))


@guarded
async def verb_select(interaction: discord.Interaction, verb: str, values: list[str], state: HandState) -> None:
    """A card picked in a one-pick select: it is discarded (or knocked with) at once. An older
    hand message is answered with the current hand in its place, and nothing is played."""
    await interaction.response.defer()  # type 6: the hand message is edited in place
    try:
        seated = await seat_here(interaction, state.game_id, version=state.version)
    except Stale:
        await send_hand(interaction, await seat_here(interaction, state.game_id), sort=state.sort, edit=True)
        return
    game = client_of(interaction).service.core.engine(seated.row)
    hand = hand_order(game, seated.seat.seat, state.sort)
    check_offered(state, len(hand))
    if len(values) != 1 or values[0] not in [str(i) for i in range(min(len(hand), PAGE))]:
        raise Refusal("not_offered")
    await act(interaction, state.game_id, Move.of(hand_verb(verb), [hand[int(values[0])]]), version=state.version,
              answer=shown_again(interaction, sort=state.sort, edit=True))


async def move_from_hand(interaction: discord.Interaction, game: Game, seat: str, verb: str, arg: int | None,
                         cards: list[str], state: HandState, reading: list[str] | None = None) -> Move | None:
    """The move a hand button means with the selected cards; None when we asked a question."""
    verb = hand_verb(verb)
    if verb.needs_one_card:
        if len(cards) != 1:
            raise Refusal("pick_one_card")
        return Move.of(verb, cards)
    if verb is Verb.MELD:
        if not cards:
            raise Refusal("pick_cards")
        check = check_meld(cards, game.meld_rules)
        whole = await _whole_meld_move(interaction, game, seat, cards, check.state)
        if whole is not None:
            return whole
        if check.state != AMBIGUOUS:
            return Move.of(verb, cards)
        # A wild card that could stand for several cards: ask which, never "type JK=" (issue 13).
        if reading is not None:
            if len(reading) != 1 or reading[0] not in [str(i) for i in range(len(check.readings))]:
                raise Refusal("not_offered")
            return Move.of(verb, check.readings[int(reading[0])])
        options = [discord.SelectOption(label=cards_text(list(r))[:100], value=str(i))
                   for i, r in enumerate(check.readings[:25])]
        loc = user_locale(interaction)
        view: discord.ui.View = View()
        view.add_item(JokerSelect(state, options, placeholder=t("hand.which_joker", loc)))
        await interaction.followup.send(t("hand.which_joker", loc), view=view, ephemeral=True)
        return None
    if verb.needs_target:
        if not cards:
            raise Refusal("pick_cards")
        if arg is not None:
            return Move.of(verb, cards, to=arg)
        targets = game.meld_targets(seat, verb, cards)
        if len(targets) == 1:
            return Move.of(verb, cards, to=targets[0])
        if not targets:
            return Move.of(verb, cards, to=1)  # let the engine say why
        content, view = target_message(state, verb, targets, user_locale(interaction),
                                       [list(m) for m in game.table])
        await interaction.followup.send(content, view=view, ephemeral=True)
        return None
    return Move.of(verb)


async def _whole_meld_move(interaction: discord.Interaction, game: Game, seat: str, cards: list[str],
                           state: str) -> Move | None:
    """The Meld button with cards that are several melds, or an opening (rules.md §3.5): the one
    legal ``meld`` move of exactly these cards (``Game.legal_moves`` lists multi-meld openings),
    so an opening of two or three melds is one tap. An opening the selection cannot make is
    refused saying how a tap mends it: the points these cards make, and the cards of the hand
    that reach the minimum. None: the cards go to the engine as one meld (or a wild's question)."""
    minimum = game.opening_minimum(seat)
    if state != INVALID and minimum is None:
        return None  # one meld, nothing to reach: the engine judges it as it is
    if game.phase != Phase.PLAY or game.current_seat != seat:
        return None  # not now: the engine says why
    legal = [] if minimum is None and game.can_rearrange(seat) else game.legal_moves(seat)  # quick to list
    found = meld_move_of(legal, cards)
    if found is not None and state != AMBIGUOUS:
        return found
    if found is not None:  # one meld with a wild to settle: asked as before
        return None
    split = split_melds(game, cards)
    points = game.opening_points(split.melds) if split is not None else selection_points(game, cards)
    if split is not None and (minimum is None or points >= minimum):
        return split  # several melds at once (the engine judges them)
    if minimum is None:
        return None
    reach = opening_reaching(legal, cards)
    if reach is None:
        raise Refusal("opening_not_yet", min=minimum, points=points)
    raise Refusal("opening_reach", min=minimum, points=points,
                  cards=" | ".join(cards_text(list(m)) for m in reach.melds))


@guarded
async def rearrange(interaction: discord.Interaction, game_id: int, version: int, text: str) -> None:
    """A rearrange modal submitted (live or across a restart): the whole table as one ``table`` move."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if len(text) > TABLE_TEXT_MAX:  # more than the modal offered: a forged submission
        raise Refusal("not_offered")
    # The player's typed table, read at this edge (Move.table_typed); the service checks the rest.
    await act(interaction, game_id, Move.table_typed(text), version=version, answer=shown_again(interaction))
