"""The engine's answers to the questions the other floors ask of a game, beyond ``play``.

What it is: the ``Answers`` part of ``Game``, with rule questions the bot, the builder, the hints and the robots
need answered without knowing the variant: would a move be accepted now (``accepts``; ``refused``
says why not, for the Activity's check) and on which melds (``meld_targets``); may this seat
rearrange the table or build a draft now and what must its opening reach (rules.md §3.5, §3.10,
§4.3); the hand a move leaves, as its seat can know it in advance; a copy of the game with a move
played; whether the variant keeps a deal ledger.

What it is not: a judge of moves (``play`` is) nor a strategy (``bot.robot`` is). Every answer is
read from the game's own state and rules, never from the variant's name.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Self

from .errors import IllegalMove
from .events import Event, Phase
from .melds import parse_entry, read_meld
from .move import Move, Verb
from .state import GameState


def loose_entry(code: str) -> str:
    """How a card taken out of a meld is written while it waits to be placed again: a joker keeps
    what it stands for (``JK=7C``, rules.md §3.10: a joker taken from the table stands for the
    same card); another wild (a two) is free to stand for something else, so it is written plain."""
    card = code.split("=", 1)[0].upper()
    return code if card == "JK" else card


class Answers(GameState):
    """Rule questions answered for the layers above the engine."""

    if TYPE_CHECKING:  # what this part calls on the others (turns, scoring, game)

        def play(self, seat: str, move: str | Move) -> list[Event]: ...
        def hand(self, seat: str) -> list[str]: ...
        def value(self, card: int) -> int: ...

    keeps_ledger: ClassVar[bool] = False
    """The variant explains its deal scores line by line in ``game.ledger`` (rami §3.8, tradicional
    §4.7: points from many events); the others score a deal from the hands left."""

    def may_build(self, seat: str) -> bool:
        """Whether ``seat`` may build a draft of the table now: a ``table`` move is open to it
        (``can_rearrange``), or the variant lets it lay its opening out as a draft (``opening_draft``)."""
        return self.can_rearrange(seat) or self.opening_draft(seat)

    def opening_draft(self, seat: str) -> bool:
        """Variant hook: ``seat`` may build its opening ``meld`` move as a draft now (rami with
        manipulation, its own turn before it has opened, rules.md §3.5, §3.10)."""
        return False

    def opening_minimum(self, seat: str) -> int | None:
        """Variant hook: the points ``seat``'s opening must reach while it has not opened, or None
        where no opening minimum applies to it now (rami's ``first_meld_min``, rules.md §3.5)."""
        return None

    def accepts(self, seat: str, move: str | Move) -> bool:
        """Whether ``move`` would be accepted now, tried on a copy (rami's swap listing, the bot
        asking which meld a layoff targets). The game is left unchanged.

        The copy is a pickle round trip: the state is plain data, and this is about four times
        faster than ``copy.deepcopy``.
        """
        trial = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        try:
            trial.play(seat, move)
        except IllegalMove:
            return False
        return True

    def refused(self, seat: str, move: str | Move) -> IllegalMove | None:
        """Why ``move`` would be refused now (the engine's ``IllegalMove``), or None when it would
        be accepted: ``accepts`` with the reason, tried on a copy. The game is left unchanged."""
        trial = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        try:
            trial.play(seat, move)
        except IllegalMove as err:
            return err
        return None

    def meld_targets(self, seat: str, verb: Verb | str, cards: list[str]) -> list[int]:
        """The meld numbers ``n`` (1-based, as ``game.melds`` shows them) for which the move
        ``verb`` of ``cards`` ``to n`` would be accepted now; ``verb`` is ``layoff`` or ``swap``."""
        picked = tuple(cards)
        return [n for n in range(1, len(self.deal.on_table) + 1) if self.accepts(seat, Move(verb, picked, n))]

    def can_rearrange(self, seat: str) -> bool:
        """Whether ``seat`` may play a ``table`` move now: in the play phase of its own turn, where
        the variant allows manipulation (``rearranging_allowed``: tradicional rules.md §4.3, rami
        §3.10). Whether a particular table move is legal is for ``play`` to judge."""
        return self.deal.phase == Phase.PLAY and self.current_seat == seat and self.rearranging_allowed(seat)

    def rearranging_allowed(self, seat: str) -> bool:
        """Variant hook: table manipulation is open to ``seat`` at all this turn."""
        return False

    def trial(self, seat: str, move: str | Move) -> Self:
        """A copy of the game with ``move`` played by ``seat``; ``IllegalMove`` if refused. The
        game itself is unchanged. The copy knows every hand: callers show only what the seat may see."""
        copy: Self = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        copy.play(seat, move)
        return copy

    def hand_after(self, seat: str, move: str | Move) -> tuple[str, ...] | None:
        """``seat``'s hand as ``move`` leaves it, as the seat can know it before playing: None when
        the move brings an unseen card into the hand (a draw from the stock). ``IllegalMove`` if
        the move is refused."""
        typed = move if isinstance(move, Move) else Move.parse(move)
        if typed.verb is Verb.DRAW:
            return None
        return tuple(self.trial(seat, typed).hand(seat))

    def opening_points(self, melds: Iterable[Sequence[str]]) -> int:
        """Points of these new melds as an opening counts them (rules.md §3.5): each card at its
        value, a wild at the value of the card it stands for. A meld that does not read exactly
        one way (invalid, unreadable, or a wild still open) counts nothing yet."""
        total = 0
        for meld in melds:
            try:
                found = read_meld([parse_entry(c) for c in meld], self.meld_rules)
            except IllegalMove:
                continue
            if len(found) != 1:
                continue
            for rank, suit in found[0].stands:
                total += self.value(rank + 13 * (suit or 0))
        return total
