"""Scoring shared by every variant: card values, the ledger, credits and closing a deal.

What it is: the ``Scoring`` part of ``Game``. Every point a deal gives goes through ``credit``
into the deal's ledger (``deal.ledger``, notation.md's ``game.ledger``: ``(seat, points, code,
params)``, so the bot can explain each point) and ``hand_points``; ``close_deal`` adds them to
``totals``, shows the hands and ends the deal (phase ``over``); a game ended by resignations is
placed by ``placing``. Points are ``int`` or ``Fraction`` (basic's shared blocked hands give
halves, rules.md §1.7), kept in lowest terms by ``norm``. Hooks: ``card_values`` /
``joker_value`` (what a card left in hand counts) and ``placing``.
What it is not: when a deal ends or who won it (each variant's ``end_*`` methods), or the turn
loop (``turns.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from . import views as v
from .cards import JOKER, card_code, display_key
from .events import Phase
from .rgn import write_number
from .state import GameState, Number

__all__ = ["Number", "Scoring", "norm", "totals_text"]


def norm(x: Number) -> Number:
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def totals_text(values: Mapping[str, Number]) -> str:
    """``{"ana": 92, "bea": Fraction(19, 2)}`` -> ``ana=92 bea=19/2`` (the ``[Totals]`` tag)."""
    return " ".join(f"{k}={write_number(x)}" for k, x in values.items())


class Scoring(GameState):
    """Values, credits and the end of a deal: the part of ``Game`` that keeps the score."""

    joker_value = 0  # a joker left in hand (variants with jokers set their own)

    # ----------------------------------------------------------------- variant hooks
    def card_values(self) -> tuple[int, ...]:
        """Value of each rank A..K when scored; jokers are valued by ``joker_value``."""
        return (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    def value(self, card: int) -> int:
        return self.joker_value if card == JOKER else self.values[card % 13]

    def hand_value(self, cards: Iterable[int]) -> int:
        return sum(self.value(c) for c in cards)

    def placing(self) -> list[str]:
        """Active seats best first by total (resigned seats finish last)."""
        return sorted(self.active, key=lambda s: -self.totals[s])

    # ----------------------------------------------------------------- the ledger
    def begin_scoring(self) -> None:
        """``hand_points`` keeps the last finished deal's points until the next deal is scored."""
        if self._scored_deal != self.deal_no:
            self._scored_deal = self.deal_no
            self.hand_points = {}

    def credit(self, seat: str, points: Number, code: str, **params: Any) -> None:
        self.begin_scoring()
        points = norm(Fraction(points))
        self.hand_points[seat] = norm(Fraction(self.hand_points.get(seat, 0)) + points)
        self.deal.ledger.append((seat, points, code, params))

    def close_deal(self, outcome: str, winner: str | None, seats: list[v.SeatResult], rummy: bool = False) -> None:
        self.begin_scoring()
        for s in self.seats:
            self.hand_points.setdefault(s, 0)
            self.totals[s] = norm(Fraction(self.totals[s]) + Fraction(self.hand_points[s]))
        self.deal.result = v.DealResult(outcome, winner, tuple(seats), rummy)
        self.deal.revealed = {s: list(self.deal.hands[s]) for s in self.active}  # hands are shown at the end
        self.deal.hand_over = True
        self.deal.phase = Phase.OVER
        self.deal.took = None
        self.deal.drawn = None

    def hand_results(self) -> list[v.SeatResult]:
        """Each active seat's hand at the end of a deal, valued, with the deal's points."""
        out = []
        for s in self.active:
            cards = self.deal.hands[s]
            hand = tuple(card_code(c) for c in sorted(cards, key=display_key))
            out.append(v.SeatResult(s, hand, (), hand, self.hand_value(cards), (), self.hand_points.get(s, 0)))
        return out

    def finish_by_resignation(self) -> None:
        """Too few seats are left (notation.md "Resigning"): the game ends, placed by totals."""
        self.deal.hand_over = True
        self.deal.phase = Phase.OVER
        self.game_over = True
        ranked = self.placing()
        self.final_scores = dict(self.totals)
        self.winners = ranked[:1] if ranked else []
