"""Hints (issue 11): the move the strong computer player would make for a seat, and why.

What it is: ``hints_apply`` (whether a game offers hints at all: unrated games only, those with a
computer player and practice games), ``check_hint`` (who may ask, when: the refusals a player
reads), and ``hint`` (the strong level's move for the seat and a short reason worked out from the
hand before and after it: gin deadwood, cards left in hand, how a card fits). A hint reads only
what the seat could see (``bot.robot`` levels see their own hand, the table, the discard pile and
public moves) and never changes the game: the reason is worked out on a copy.
``hint_picture`` says what the hint's picture shows: in gin the hand as the move leaves it (the
renderer groups it into its best melds and sets the deadwood apart), and for a rearrangement of
the table (rami, tradicional) the table as the move leaves it.
What it is not: no Discord (``cogs.hints`` shows it and plays it), no SQL, no drawing
(``renderers``), no move of its own (``bot.robot.choose`` decides at level ``"strong"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot import robot
from bot.engine import Game, IllegalMove, Move, Verb, load_game
from bot.engine.views import PublicView, SeatView
from bot.service import Refusal
from bot.store.rows import GameRow, GameStatus, SeatRow
from bot.words.cards import card_text
from bot.words.i18n import translate
from bot.words.moves import describe_move

HINT_LEVEL = "strong"


@dataclass(frozen=True)
class Hint:
    """The move (a listed legal move, or a rearrangement of the table the engine accepts) and
    why: a ``hint.why.<why>`` catalog key and its values."""

    move: Move
    why: str
    params: dict[str, str | int] = field(default_factory=dict)

    def text(self, locale: str) -> str:
        why = translate(f"hint.why.{self.why}", locale, **self.params)
        return translate("hint.text", locale, move=describe_move(self.move, locale), why=why)


def hints_apply(row: GameRow) -> bool:
    """Whether the game is one hints are for: an unrated one (a computer player seated, or a
    practice game). Rated games never have them, so nobody's standings are won with help."""
    return row.practice or any(s.is_bot for s in row.seats)


def check_hint(row: GameRow, user_id: int) -> SeatRow:
    """The asker's seat, if they may have a hint now; else the ``Refusal`` they read."""
    if row.status != GameStatus.PLAYING:
        raise Refusal("not_playing")
    if row.quarantined_at is not None:
        raise Refusal("quarantined")
    seat = row.seat_of(user_id)
    if seat is None:
        raise Refusal("not_seated")
    if not hints_apply(row):
        raise Refusal("hints_rated")
    if row.hints_off:
        raise Refusal("hints_off")
    return seat


def hint(game: Game, seat: str) -> Hint:
    """The strong level's move for ``seat`` now, and why. ``game`` is read only (callers off the
    event loop pass a game of their own, loaded from the record). ``Refusal`` when it is not the
    seat's turn to act."""
    if seat not in game.actors or not game.legal_moves(seat):
        raise Refusal("hint_not_your_turn")
    move = robot.choose(game, seat, level=HINT_LEVEL)
    return Hint(move, *_why(game, seat, move))


def _why(game: Game, seat: str, move: Move) -> tuple[str, dict[str, str | int]]:
    verb, card = move.verb, move.card
    hand = list(game.hand(seat))
    pile = game.discard_pile
    gin = game.variant == "gin"
    if verb in (Verb.DISCARD, Verb.KNOCK) and card is not None and card in hand:
        rest = list(hand)
        rest.remove(card)
        if gin:
            return ("knock" if verb is Verb.KNOCK else "deadwood"), {"before": robot.deadwood(hand),
                                                                      "after": robot.deadwood(rest)}
        outs = robot.all_seven_outs(game, seat, card)
        if outs:  # Wrotham deals 4-6 (rules.md §1.9): what the discard keeps is a way to go out
            return "all_seven", {"card": card_text(card), "outs": outs}
        return "discard", {"card": card_text(card)}
    if verb is Verb.DRAW:
        return ("draw", {"card": card_text(pile[-1])}) if pile else ("draw_any", {})
    if verb is Verb.TAKE and pile:
        top = pile[-1]
        if gin and hand:
            # The taken card stays this turn (rules.md §2.3): the count after the best other discard.
            with_up = [*hand, top]
            after = min(robot.deadwood(with_up[:i] + with_up[i + 1:]) for i in range(len(hand)))
            return "deadwood", {"before": robot.deadwood(hand), "after": after}
        return "take", {"card": card_text(top)}
    # Melds, layoffs, swaps, a rearranged table: how many cards leave the hand (the engine's answer).
    try:
        left = game.hand_after(seat, move)
    except IllegalMove:  # the reason is a courtesy: the move itself is legal, the engine chose it
        return "other", {}
    if left is not None and len(left) < len(hand):
        return "fewer", {"before": len(hand), "after": len(left)}
    return "other", {}


def hint_picture(game: Game, seat: str, move: Move) -> SeatView | PublicView | None:
    """What the hint for ``seat`` shows as a picture, or None: in gin, the seat's hand as ``move``
    leaves it (a ``SeatView``, drawn with its melds grouped); for a ``table`` move, the table as
    the move leaves it (a ``PublicView``). Built from what the seat may see only: the hand after a
    discard is the hand less that card, after taking the upcard the hand plus that public card,
    and a draw from the stock (an unknown card) shows the hand as it is. The table after a
    rearrangement is played on a copy, but only its melds (and the seat's own card count) are
    kept: were the move to end the deal, the copy would show everybody's hands."""
    if move.verb is Verb.TABLE:
        after = game.trial(seat, move).public_view()
        now = game.public_view()
        seats = tuple(next(a for a in after.seats if a.name == seat) if s.name == seat else s for s in now.seats)
        return replace(now, table=after.table, seats=seats, last_move=f"{seat} {move}")
    if game.variant != "gin":
        return None
    view = game.view(seat)
    hand = list(view.hand)
    card = move.card
    if move.verb in (Verb.DISCARD, Verb.KNOCK) and card is not None and card in hand:
        hand.remove(card)
        return replace(view, hand=tuple(hand), drawn=None, took=None)
    if move.verb is Verb.TAKE and view.public.discard_top:
        return replace(view, hand=(*hand, view.public.discard_top), drawn=None, took=view.public.discard_top)
    return view


def fresh_game(row: GameRow) -> Game:
    """The game of ``row`` loaded from its record: a worker thread's own copy (the service's
    cached engine object is changed on the event loop and must not be shared)."""
    return load_game(row.record or "")
