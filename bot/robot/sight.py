"""What one seat may see: the only way a computer player reads a game (issue 11, "no peeking").

What it is: ``see(game, seat)`` copies out of the engine everything a person in that seat could
know, and nothing else: their own hand (and the card they just drew or took), the table, the
discard pile, the stock's size, each seat's card count and totals, the options in force, the
moves legal for that seat now, and the public moves of the current deal (``Game.log``: who drew
from the stock, who took which discard, who passed on an upcard, what was discarded, melds,
layoffs, knocks). The result is a frozen ``Sight`` holding no reference to the ``Game``, so a
level that is given a ``Sight`` cannot read another hand or the stock order.

For the rummy variants it also carries what the rules make public to everyone: the meld rules,
each card's value, the deck's make-up, whether this deal is one of Wrotham's all-seven deals,
whether the seat may rearrange the table now, the discard it took that it must still place, and
the stock after a turnover as the seat knows it (the engine's ``stock_as_known``, rules.md §1.4);
and, when asked (``judge=True``), a ``Judge``: a copy of the game with every card the seat cannot
see blanked out, on which a ``table`` move is tried (too many to list among the moves).

The log names a taken discard only as ``take``; which card that was is worked out by replaying
the deal's pile from the log (a discard puts a card on top, a take removes the top). The pile as
it was dealt is not in the log. In gin it is one face-up card that everyone saw (rules.md §2.3.1),
so the replay starts from it (``Game.dealt_pile``) and a take of the first upcard is named.
Elsewhere a card taken from the dealt pile before anyone discarded is unknown (``card=None``)
unless it is still in the pile or reappears later.

What it is not: a memory across calls or a model of the opponent (the levels build those from
``history``); no Discord, no SQL.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game, IllegalMove, Meld, Move, Phase, Verb, parse_line, stock_as_known
from bot.engine.cards import JOKER, card_code
from bot.engine.melds import MeldRules

__all__ = ["Judge", "Seen", "Sight", "see"]

BLANK = JOKER  # what a card the seat cannot see becomes in the judge's copy


class Judge:
    """Whether a move of one seat would be accepted now (``accepts``), tried on a copy of the
    game in which the other hands, the stock, the seed and the record's header (which can name
    dealt cards) are blanked out: the answer comes from what the seat sees and the rules only."""

    __slots__ = ("_data", "_seat")

    def __init__(self, game: Game, seat: str) -> None:
        trial = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
        for other, hand in trial.hands.items():
            if other != seat:
                trial.hands[other] = [BLANK] * len(hand)
        trial.stock = [BLANK] * len(trial.stock)
        trial.set_aside = [BLANK] * len(trial.set_aside)
        trial.seed = None
        trial.header = []
        start = getattr(trial, "turn_start", None)
        if isinstance(start, dict):  # rami's timeout rollback keeps the stock and the turn's hand
            start["stock"] = [BLANK] * len(start.get("stock", ()))
            if trial.seats[trial.turn] != seat:
                start["hand"] = [BLANK] * len(start.get("hand", ()))
        self._data = pickle.dumps(trial, pickle.HIGHEST_PROTOCOL)
        self._seat = seat

    def accepts(self, move: Move) -> bool:
        trial = pickle.loads(self._data)
        try:
            trial.play(self._seat, move)
        except IllegalMove:
            return False
        return True


@dataclass(frozen=True, slots=True)
class Seen:
    """One public move of the current deal (a gin timeout that passed on the upcard or ended the
    layoffs reads as that ``pass`` or ``done``). ``card``: for ``take`` the card taken, for
    ``pass`` the upcard passed on, for ``discard``/``knock`` the card discarded; None when not known."""

    seat: str
    move: Move
    card: str | None

    @property
    def verb(self) -> Verb:
        return self.move.verb


@dataclass(frozen=True, slots=True)
class Sight:
    seat: str
    variant: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    dealer: str
    deal_number: int
    phase: Phase
    hand: tuple[str, ...]  # sorted for display
    drawn: str | None  # the card this seat just drew from the stock, if still in hand
    took: str | None  # the card this seat just took from the discard pile this turn
    moves: tuple[Move, ...]  # legal for this seat now, the engine's order (most useful first)
    discard_pile: tuple[str, ...]  # bottom first
    table: tuple[Meld, ...]
    stock_count: int
    card_counts: dict[str, int]
    totals: dict[str, Any]
    opened: frozenset[str]
    contracts: dict[str, int]
    revealed: dict[str, tuple[str, ...]]
    history: tuple[Seen, ...]  # the current deal's public moves, in order
    resigned: frozenset[str]  # seats out of the game (resigned, or eliminated in rami)
    meld_rules: MeldRules
    card_values: tuple[int, ...]  # each card's value when scored, by card number (JOKER last)
    deck: tuple[int, ...]  # every card of the game's decks, sorted
    all_seven: bool  # wrotham deals 4-6: every card goes down at once (rules.md §1.9)
    can_rearrange: bool  # a ``table`` move is open to this seat now
    must_play: str | None  # rami: the discard taken this turn, still to be placed (§3.7)
    known_stock: tuple[str | None, ...] | None  # after a turnover, the engine's answer (rules.md §1.4)
    judge: Judge | None = field(default=None, compare=False, repr=False)

    @property
    def opponents(self) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s != self.seat)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


def see(game: Game, seat: str, *, judge: bool = False) -> Sight:
    """Everything ``seat`` may know of ``game`` now, and nothing more; with ``judge``, also a
    ``Judge`` for its table moves when it may play one."""
    view = game.view(seat)
    public = view.public
    pile = tuple(game.discard_pile)
    must = getattr(game, "must_play", None)
    rearrange = game.can_rearrange(seat)
    all_seven = getattr(game, "all_seven_deal", None)
    return Sight(
        seat=seat,
        variant=public.variant,
        options=dict(game.rules.values),
        seats=tuple(s.name for s in public.seats),
        dealer=public.dealer,
        deal_number=public.deal_number,
        phase=Phase(public.phase),
        hand=view.hand,
        drawn=view.drawn,
        took=view.took,
        moves=tuple(game.legal_moves(seat)),
        discard_pile=pile,
        table=public.table,
        stock_count=public.stock_count,
        card_counts={s.name: s.card_count for s in public.seats},
        totals={s.name: s.total for s in public.seats},
        opened=frozenset(s.name for s in public.seats if s.opened),
        contracts={s.name: s.contract for s in public.seats if s.contract is not None},
        revealed={s: tuple(cs) for s, cs in public.revealed},
        history=replay(
            deal_lines(game.log), pile, gin=public.variant == "gin",
            dealt=tuple(card_code(c) for c in game.dealt_pile),
        ),
        resigned=frozenset(s.name for s in public.seats if s.resigned),
        meld_rules=game.meld_rules,
        card_values=tuple(int(game.value(c)) for c in range(JOKER + 1)),
        deck=tuple(sorted(game.deck())),
        all_seven=bool(all_seven()) if callable(all_seven) else False,
        can_rearrange=rearrange,
        must_play=card_code(must) if isinstance(must, int) else None,
        known_stock=stock_as_known(game, seat),
        judge=Judge(game, seat) if judge and rearrange else None,
    )


def deal_lines(log: list[str]) -> list[str]:
    """The move lines of the current deal: those after the last ``[Deal "n"]`` tag."""
    start = 0
    for i, line in enumerate(log):
        if line.startswith("["):
            start = i + 1
    return log[start:]


def replay(
    lines: list[str], pile: tuple[str, ...], *, gin: bool = False, dealt: tuple[str, ...] = ()
) -> tuple[Seen, ...]:
    """Name the cards of each public move by replaying the discard pile through the deal.

    In gin the pile as dealt (``dealt``, the first upcard, seen by both players) starts the
    replay. Elsewhere it starts as placeholders (ints), since a turnover (rules.md §1.4) moves
    the pile in ways the log does not spell out; a discard pushes a
    card, a take pops. At the end the placeholders still in the pile are matched to the real pile
    bottom, which names the dealt cards that stayed; the others stay unknown. A timed-out turn
    discards a card the log does not name, except in gin before the first draw (the upcard offer:
    a pass) and after a knock (the defender's layoffs).
    """
    moves: list[tuple[str, Move]] = []
    started = knocked = False
    for line in lines:
        seat, move = parse_line(line)
        if move.verb is Verb.TIMEOUT and gin and (knocked or not started):
            move = Move(Verb.PASS if not knocked else Verb.DONE)
        started = started or move.verb in (Verb.DRAW, Verb.TAKE)
        knocked = knocked or move.verb is Verb.KNOCK
        moves.append((seat, move))
    pushes = pops = 0
    for _, move in moves:
        if move.verb in (Verb.DISCARD, Verb.KNOCK, Verb.TIMEOUT):
            pushes += 1
        elif move.verb is Verb.TAKE:
            pops += 1  # a multiple take is counted below, when the cards are known
    start = max(0, len(pile) - pushes + pops)
    sim: list[Any] = list(dealt) if gin and len(dealt) == start else list(range(start))
    named: list[tuple[str, Move, Any]] = []
    for seat, move in moves:
        card: Any = None
        verb = move.verb
        if verb in (Verb.DISCARD, Verb.KNOCK):
            card = move.card
            sim.append(card)
        elif verb is Verb.TIMEOUT:
            sim.append(object())  # a timed-out turn discards a card the log does not name
        elif verb is Verb.TAKE:
            if move.card:  # rami multiple discards: the named card and every card above it
                while sim:
                    top = sim.pop()
                    if top == move.card:
                        break
                card = move.card
            elif sim:
                card = sim.pop()
        elif verb is Verb.CLAIM and sim:
            card = sim.pop()
            sim.append(move.card)
        elif verb is Verb.PASS and sim:
            card = sim[-1]
        named.append((seat, move, card))
    # Name the dealt cards that never left the pile (only when the replay agrees with the pile).
    names: dict[int, str] = {}
    if len(sim) == len(pile):
        for slot, real in zip(sim, pile, strict=True):
            if isinstance(slot, int):
                names[slot] = real
    out = []
    for seat, move, card in named:
        if isinstance(card, int):
            card = names.get(card)
        elif card is not None and not isinstance(card, str):
            card = None
        out.append(Seen(seat, move, card))
    return tuple(out)
