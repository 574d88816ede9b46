"""What a seat can know from public information: the stock after a turnover (rules.md §1.4).

What it is: in basic and wrotham with ``stock_exhaustion = turn_over`` (the default) an empty stock
is replaced by the discard pile turned face down without shuffling, its bottom card on top
(rules.md §1.4). Every discard was played face up, so after a turnover anyone who remembers them
knows the new stock card by card (a dealt upcard taken before anyone discarded aside: nobody saw
it named in the record). The same holds while the stock is empty: the next draw turns the pile
over and gives its bottom card.

``stock_as_known(game, seat)`` answers "the stock after a turnover, as this seat knows it": the
stock's cards as codes, the next one drawn LAST (as the engine pops them), a card nobody could name
as None; or None when the seat cannot know the stock (no turnover yet, a shuffled or limited
reuse, a move the count does not follow). It reads only what every seat may know: the deal's
public record, the discard pile, the stock's size, the hands' sizes, the deck's size and the
rules in force; ``turned_stock`` is the same answer from those facts alone, so the answer cannot
depend on a hidden card.
What it is not: a model of the other hands, or of a shuffled stock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import IllegalMove
from .game import Game
from .move import Move, Verb, parse_line

__all__ = ["stock_as_known", "turned_stock"]

# The verbs whose cards the count follows; any other (a timeout, a resignation) leaves it unknown.
_COUNTED = frozenset({Verb.DRAW, Verb.TAKE, Verb.DISCARD, Verb.MELD, Verb.LAYOFF, Verb.SWAP})
_DRAW, _TAKE, _DISCARD = Verb.DRAW, Verb.TAKE, Verb.DISCARD  # (read in loops over a deal's moves)
# The sizes of the dealt pile tried in turn (basic turns one card up, wrotham none, §1.1 and §1.9).
_DEALT_PILES = (1, 0, 2)


def stock_as_known(game: Game, seat: str) -> tuple[str | None, ...] | None:
    """The stock after a turnover as ``seat`` knows it (next card last), or None; see the module.
    Only public facts of ``game`` are read, the same for every seat."""
    if seat not in game.seats or game.rules.values.get("stock_exhaustion") != "turn_over":
        return None
    start = 0
    for i, line in enumerate(game.log):
        if line.startswith("["):
            start = i + 1
    counts = {s: len(game.deal.hands.get(s, ())) for s in game.seats}  # sizes only: public
    return turned_stock(game.log[start:], game.discard_pile, game.stock_count, counts, len(game.deck()))


def turned_stock(
    record: Sequence[str],
    pile: Sequence[str],
    stock_count: int,
    hand_sizes: Mapping[str, int],
    deck_size: int,
) -> tuple[str | None, ...] | None:
    """The stock after an unshuffled turnover (rules.md §1.4), next card last, from the deal's
    public move lines (``record``: ``"<seat> <move>"``), the discard pile (bottom first), the
    stock's size, each hand's size now and the deck's size; None when it cannot be known."""
    if stock_count == 0:
        return tuple(reversed(pile)) if pile else None
    try:
        moves = [parse_line(line)[1] for line in record]
    except IllegalMove:
        return None  # not a deal's record
    # The hands as dealt: today's sizes less what each move added or removed.
    change = 0
    for move in moves:
        verb = move.verb
        if verb not in _COUNTED:
            return None
        if verb is _DRAW or verb is _TAKE:
            change += 1
        elif verb is _DISCARD:
            change -= 1
        elif verb is not Verb.SWAP:  # a meld or a layoff: its cards leave the hand (a swap: one for one)
            change -= len(move.cards)
    dealt_hands = sum(hand_sizes.values()) - change
    # The dealt pile is the size that replays to today's stock and pile; a turnover empties the
    # pile, so today's pile alone cannot tell it.
    for dealt_pile in _DEALT_PILES:
        found = _replay(moves, pile, stock_count, dealt_pile, deck_size - dealt_hands - dealt_pile)
        if found is not None:
            return found
    return None


def _replay(
    moves: Sequence[Move], pile: Sequence[str], stock_count: int, dealt_pile: int, stock: int
) -> tuple[str | None, ...] | None:
    now: list[str | None] = [None] * dealt_pile
    known: list[str | None] | None = None
    for move in moves:
        verb = move.verb
        if verb is _DISCARD:
            now.append(move.cards[0] if move.cards else None)
        elif verb is _TAKE and now:
            now.pop()
        elif verb is _DRAW:
            if stock == 0:  # §1.4: the pile turned over, its bottom card on top
                known, now = now[::-1], []
                stock = len(known)
            stock -= 1
            if known:
                known.pop()
    if known is None or stock != stock_count or len(known) != stock or len(now) != len(pile):
        return None
    if any(a is not None and a != b for a, b in zip(now, pile, strict=True)):
        return None
    return tuple(known)
