"""The ``state`` frame: one game's table as one viewer may see it (docs/activity.md, "A state frame").

What it is: ``state_frame`` (a lobby, a game being played or between deals, a game that ended),
``none_frame`` (no game shown: the games of the channel to choose from, or none) and
``card_label`` (a card in the viewer's language, for ``aria-label``). The frame holds exactly the
fields docs/activity.md lists. Its cards come from the engine's views only: the viewer's own
``SeatView`` when they hold a seat, else the ``PublicView``, which never holds a hidden card
(other seats are counts, the stock is a count, the discard pile its top unless the variant shows
it whole); a deal's end shows every hand, as the chat does, because the engine's result does.
What it is not: no reads and no writes (the caller hands the row, the engine and the verbs in), no
sockets, no rules: whether a move is legal is the engine's answer, given here as the verbs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine import Game, IllegalMove, Phase, Verb, parse_line
from bot.engine.views import DealResult, Number, PublicView, SeatView
from bot.service import GameRow, GameStatus
from bot.words.i18n import format_number, translate
from bot.words.moves import describe_move
from bot.words.refusals import ledger_text

RANKS = "A23456789TJQK"
SUITS = "SHDC"
# How a stored status shows on the page's root (``data-state``): every way a game ends is "ended".
STATES = {GameStatus.LOBBY: "lobby", GameStatus.PLAYING: "playing"}


def card_label(code: str, locale: str) -> str:
    """``7H`` -> "7 de corazones"; ``JK`` -> "comodín"; ``JK=8H`` -> "comodín como 8 de
    corazones"; ``2C=7`` (a wild whose suit is open) -> "2 de tréboles como 7"."""
    card, _, stands = code.upper().partition("=")
    if stands:
        return translate("activity.card.wild", locale, card=card_label(card, locale), stands=card_label(stands, locale))
    if card == "JK":
        return translate("activity.card.joker", locale)
    if len(card) == 1 and card in RANKS:  # what an open wild stands for: a rank alone
        return translate(f"activity.card.rank.{card}", locale)
    if len(card) == 2 and card[0] in RANKS and card[1] in SUITS:
        return translate("activity.card", locale, rank=translate(f"activity.card.rank.{card[0]}", locale),
                         suit=translate(f"activity.card.suit.{card[1]}", locale))
    return code


def _number(value: Number, locale: str) -> str:
    return format_number(value, locale)


def _cards_in(value: Any) -> Iterable[str]:
    """Every card code in a frame's card fields (lists of codes, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _cards_in(item)


def _labels(frame: Mapping[str, Any], locale: str, more: Iterable[str] = ()) -> dict[str, str]:
    """``labels``: every card the frame shows (``more``: the last move's), named in the viewer's language."""
    cards: list[str] = [*more, *_cards_in(frame["hand"] or []), *(c for c in (frame["drawn"], frame["took"]) if c)]
    cards += [c for meld in frame["table"] for c in meld["cards"]]
    discard = frame["discard"]
    cards += [c for c in (discard["top"],) if c] + list(discard["visible"])
    cards += [c for shown in frame["revealed"] for c in shown["cards"]]
    result = frame["result"]
    if result is not None:
        for seat in result["seats"]:
            cards += [*seat["hand"], *_cards_in(seat["melds"]), *seat["deadwood"]]
    return {code: card_label(code, locale) for code in dict.fromkeys(cards)}


def _blank(row: GameRow | None, state: str, locale: str) -> dict[str, Any]:
    """A frame with every field, as nothing is on the table (before a deal, or no game)."""
    return {
        "op": "state", "state": state, "game": None if row is None else row.id,
        "version": None if row is None else row.version, "variant": None if row is None else row.variant,
        "phase": None, "deal": 0, "you": None, "host": False, "choices": [], "seats": [], "hand": None,
        "drawn": None, "took": None, "table": [], "stock": 0, "discard": {"top": None, "count": 0, "visible": []},
        "revealed": [], "last": None, "verbs": [], "deadline": None, "result": None, "over": False, "winners": [],
        "labels": {},
    }


def none_frame(choices: Sequence[GameRow], locale: str) -> dict[str, Any]:
    """No game shown: ``choices`` are the games of the instance's channel (several: the page
    offers them; none: the page says how to open one)."""
    frame = _blank(None, "none", locale)
    frame["choices"] = [{"game": r.id, "variant": r.variant, "state": STATES.get(r.status, "ended"),
                         "players": [s.name for s in r.seats]} for r in choices]
    return frame


def _lobby_seats(row: GameRow) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "name": s.name, "cards": 0, "turn": False, "total": "0", "bot": s.is_bot,
             "dealer": False, "opened": False, "contract": None} for s in row.seats]


def _result(result: DealResult, game: Game, names: Mapping[str, str], locale: str) -> dict[str, Any]:
    """A deal's end, every hand face up (as the engine's result and the chat show it)."""
    ledger = []
    for entry in game.ledger:
        points = entry[1]
        sign = "+" if points > 0 else ""
        ledger.append(f"{ledger_text(entry, locale, names)} ({sign}{_number(points, locale)})")
    return {
        "outcome": result.outcome, "winner": result.winner,
        "seats": [{"seat": s.name, "name": names.get(s.name, s.name), "hand": list(s.hand),
                   "melds": [list(m) for m in s.melds], "deadwood": list(s.deadwood),
                   "count": _number(s.count, locale), "points": _number(s.points, locale)} for s in result.seats],
        "ledger": ledger,
    }


def _deadline(row: GameRow, view: PublicView) -> float | None:
    """The time the page counts down to: the claim window or the turn timer while a turn runs,
    the pause before the next deal between deals."""
    if row.status != GameStatus.PLAYING:
        return None
    if view.hand_over:
        return None if view.game_over else row.next_deal_at
    if view.actors and row.window_deadline is not None and view.phase == Phase.WINDOW:
        return row.window_deadline
    return row.turn_deadline


def state_frame(row: GameRow, game: Game | None, viewer: int, locale: str,
                verbs: Sequence[Verb] = ()) -> dict[str, Any]:
    """The table of ``row`` (``game``: its engine at ``row.version``; None for a lobby or a game
    that never started) as user ``viewer`` may see it, in ``locale``. ``verbs``: the notation's
    verbs the viewer may play now (the caller asks the engine; empty off their turn)."""
    mine = row.seat_of(viewer)
    frame = _blank(row, STATES.get(row.status, "ended"), locale)
    frame["you"] = None if mine is None else mine.seat
    frame["host"] = row.host_id == viewer
    if game is None:
        frame["seats"] = _lobby_seats(row)
        frame["deadline"] = row.lobby_expires_at if row.status == GameStatus.LOBBY else None
        return frame
    # The one decision about hidden cards: the viewer's own seat's view, else the public one.
    seated = mine is not None and not mine.is_bot and mine.seat in game.seats
    own: SeatView | None = game.view(mine.seat) if seated and mine is not None else None
    view = own.public if own is not None else game.public_view()
    names = row.names
    frame.update(
        phase=str(view.phase), deal=view.deal_number,
        seats=[{"seat": s.name, "name": names.get(s.name, s.name), "cards": s.card_count,
                "turn": s.is_acting, "total": _number(s.total, locale),
                "bot": bool((r := row.by_seat(s.name)) is not None and r.is_bot), "dealer": s.is_dealer,
                "opened": s.opened, "contract": s.contract} for s in view.seats],
        hand=None if own is None else list(own.hand),
        drawn=None if own is None else own.drawn, took=None if own is None else own.took,
        table=[{"number": m.number, "owner": m.owner, "kind": m.kind, "cards": list(m.cards)} for m in view.table],
        stock=view.stock_count,
        discard={"top": view.discard_top, "count": view.discard_count, "visible": list(view.discard_visible)},
        revealed=[{"seat": seat, "cards": list(cards)} for seat, cards in view.revealed],
        verbs=[str(v) for v in dict.fromkeys(verbs)] if own is not None and own.seat in view.actors else [],
        deadline=_deadline(row, view), over=view.game_over, winners=list(view.winners),
    )
    moved: tuple[str, ...] = ()
    if view.last_move:
        try:
            seat, move = parse_line(view.last_move)
        except IllegalMove:  # not a move line (never written by the engine): nothing to say
            pass
        else:
            moved = move.cards
            frame["last"] = {"seat": seat, "move": str(move), "text": translate(
                "table.line.last", locale, name=names.get(seat, seat), move=describe_move(str(move), locale))}
    if view.hand_over and view.result is not None:
        frame["result"] = _result(view.result, game, names, locale)
    frame["labels"] = _labels(frame, locale, moved)
    return frame
