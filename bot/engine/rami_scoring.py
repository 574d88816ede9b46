"""Rami's points: card values (rules.md §3.2), running credits, the 300 penalty and the end of a round.

What it is: the ``RamiScoring`` part of ``Rami``. In normal and traditional modes every card
placed is credited at once (``place_credit`` into ``credits`` and the ledger); the round's winner
collects the others' hands and the +100 / rami 200 / 300 bonuses (§3.8); in elimination mode
hands count against their holders and seats above the threshold leave (``eliminated``). The
penalty of §3.9 is charged by ``charge_penalty``.
What it is not: the turn and its obligations (``rami.py``) or the shared ledger machinery
(``scoring.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import views as v
from .cards import JOKER
from .events import Event, EventKind
from .layout import TableMeld
from .options import RuleSet
from .scoring import Number

# §3.2 normal mode: placement values by rank (ace handled by position), and values left in hand.
_NORMAL_PLACE = (5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
_NORMAL_HAND = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
_TRAD_PLACE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_TRAD_HAND = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
JOKER_IN_HAND = 20
PENALTY = 300


class RamiScoring:
    """Values, credits and round ends of rami; mixed into ``Rami`` ahead of ``Game``."""

    # The state this part reads and writes (declared by ``Game`` and ``Rami``).
    rules: RuleSet
    seats: list[str]
    hands: dict[str, list[int]]
    credits: dict[str, Number]
    ledger: list[tuple[str, Number, str, dict[str, Any]]]
    hand_points: dict[str, Number]
    totals: dict[str, Number]
    won: dict[str, int]
    placed: set[str]
    eliminated: list[str]
    opened_this_turn: bool
    own_only: bool
    rounds_played: int
    void: bool
    game_over: bool
    final_scores: dict[str, Number]
    winners: list[str]

    if TYPE_CHECKING:  # what this part calls on ``Game`` (its ``Scoring`` part)

        @property
        def active(self) -> list[str]: ...
        def hand_value(self, cards: Iterable[int]) -> int: ...
        def begin_scoring(self) -> None: ...
        def close_deal(
            self, outcome: str, winner: str | None, seats: list[v.SeatResult], rummy: bool = False
        ) -> None: ...
        def hand_results(self) -> list[v.SeatResult]: ...

    @property
    def elimination(self) -> bool:
        mode: str = self.rules["scoring_mode"]
        return mode == "elimination"

    # ---------------------------------------------------------------- values (§3.2)
    def placement_value(self, card: int, stand: tuple[int, int | None], kind: str, ranks: set[int]) -> int:
        """What a card is worth where it lies (a joker is worth what it stands for)."""
        r = stand[0]
        trad = self.rules["scoring_mode"] == "traditional"
        if kind == "identity":
            if r == 0:
                return 21 if trad else 25
            if r >= 9:
                return 20
            return (r + 1 + 10) if trad else 15
        if r == 0:
            high = kind == "set" or 12 in ranks  # an ace in a set, or above a king
            return (11 if high else 1) if trad else (15 if high else 5)
        return (_TRAD_PLACE if trad else _NORMAL_PLACE)[r]

    def meld_value(self, kind: str, cards: list[int] | tuple[int, ...], stands: Any) -> int:
        ranks = {s[0] for s in stands}
        return sum(self.placement_value(c, s, kind, ranks) for c, s in zip(cards, stands, strict=True))

    def table_value(self, melds: list[TableMeld]) -> int:
        return sum(self.meld_value(m.kind, m.cards, m.stands) for m in melds)

    def value(self, card: int) -> int:
        """End-of-round value of a card left in a hand (§3.2)."""
        if card == JOKER:
            return JOKER_IN_HAND
        trad = self.rules["scoring_mode"] == "traditional"
        return (_TRAD_HAND if trad else _NORMAL_HAND)[card % 13]

    def place_credit(self, seat: str, points: int, code: str, **params: Any) -> None:
        """A credit or debit while the round runs (normal and traditional modes only)."""
        if self.elimination or not points:
            return
        self.credits[seat] = self.credits.get(seat, 0) + points
        self.ledger.append((seat, points, code, params))

    def charge_penalty(self, seat: str) -> list[Event]:
        """§3.9: a turn timed out with an obligation open: -300, or +300 in elimination mode."""
        points = PENALTY if self.elimination else -PENALTY
        self.credits[seat] = self.credits.get(seat, 0) + points
        self.ledger.append((seat, points, "penalty", {"reason": "turn_timed_out_illegal"}))
        return [Event(EventKind.PENALTY, seat, {"points": PENALTY})]

    # ---------------------------------------------------------------- scoring (§3.8)
    def end_out(self, winner: str, final_discard: bool) -> list[Event]:
        self.begin_scoring()
        others = [s for s in self.active if s != winner]
        nobody_else = not any(s in self.placed for s in others)
        rami = self.opened_this_turn and (not final_discard or self.rules["rami_allows_final_discard"])
        own = rami and self.own_only
        points = {s: self.credits.get(s, 0) for s in self.active}
        if self.elimination:
            mult = 4 if own and nobody_else else 3 if own else 2 if rami else 1
            for s in others:
                count = self.hand_value(self.hands[s])
                self.ledger.append((s, count * mult, "hand_left", {"count": count, "multiplier": mult}))
                points[s] = count * mult + points.get(s, 0)
        else:
            for s in others:
                count = self.hand_value(self.hands[s])
                if count:
                    self.ledger.append((winner, count, "hand_values", {"loser": s, "count": count}))
                    points[winner] += count
            bonus = (300 if own else 200 if rami else 0) + (100 if nobody_else else 0)
            if rami:
                self.ledger.append((winner, 300 if own else 200, "rami_bonus", {"own_only": own}))
            if nobody_else:
                self.ledger.append((winner, 100, "nobody_else_placed", {}))
            points[winner] += bonus
        self.hand_points = {s: points.get(s, 0) for s in self.seats}
        self.won[winner] += 1
        self.close_deal("out", winner, self.hand_results(), rummy=rami)
        return [Event(EventKind.WENT_OUT, winner, {"rami": rami, "own_only": own}), *self.check_game_end()]

    def end_blocked(self) -> list[Event]:
        """§3.7: stock and discard pile both empty: no winner, no end credit, no bonus."""
        self.begin_scoring()
        self.hand_points = {s: self.credits.get(s, 0) for s in self.seats}
        self.close_deal("blocked", None, self.hand_results())
        return [Event(EventKind.BLOCKED, None, {}), *self.check_game_end()]

    def end_void(self) -> list[Event]:
        """§0.4 safety cap: the round is void (no score) and the same dealer deals again."""
        self.begin_scoring()
        for seat, points in self.credits.items():
            if points:  # the ledger explains why this round's credits vanish
                self.ledger.append((seat, -points, "void_round", {}))
        self.hand_points = {s: 0 for s in self.seats}
        self.void = True
        self.close_deal("void", None, self.hand_results())
        return [Event(EventKind.DEAL_VOID, None, {"reason": "turn_limit"})]

    def check_game_end(self) -> list[Event]:
        if self.void:
            return []
        self.rounds_played += 1
        if self.elimination:
            threshold = self.rules["elimination_threshold"]
            before = list(self.active)
            out = [s for s in before if self.totals[s] > threshold]  # "sobrepasen": above, not equal
            if out:
                self.eliminated.extend(out)
            left = self.active
            if len(left) > 1:
                return [Event(EventKind.ELIMINATED, s, {}) for s in out]
            if len(left) == 1:
                winners = left
            else:  # everyone left went over in the same round: the lowest total among them wins
                low = min(self.totals[s] for s in before)
                winners = [s for s in before if self.totals[s] == low]
            return self.finish(winners)
        limit = self.rules["rounds_per_game"]
        rounds = len(self.seats) if limit == "players" else int(limit)
        if self.rounds_played < rounds:
            return []
        best = max(self.totals[s] for s in self.active)
        return self.finish([s for s in self.active if self.totals[s] == best])

    def finish(self, winners: list[str]) -> list[Event]:
        self.game_over = True
        self.final_scores = dict(self.totals)
        self.winners = winners
        return [Event(EventKind.GAME_OVER, None, {"winners": list(winners)})]

    def placing(self) -> list[str]:
        sign = 1 if self.elimination else -1
        return sorted(self.active, key=lambda s: sign * self.totals[s])

