"""Rami's points: card values (rules.md §3.2), running credits, the 300 penalty and the end of a round.

What it is: ``RamiScoring``, rami's ``Scoring`` part. In normal and traditional modes every card
placed is credited at once (``place_credit`` into the deal's ``credits`` and its ledger,
``RamiDeal``); the round's winner
collects the others' hands and the +100 / rami 200 / 300 bonuses (§3.8); in elimination mode
hands count against their holders and seats above the threshold leave (``eliminated``). The
penalty of §3.9 is charged by ``charge_penalty``.
What it is not: the turn and its obligations (``rami.py``) or the shared ledger machinery
(``scoring.py``).
"""

from __future__ import annotations

from typing import Any

from .cards import JOKER
from .events import Event, EventKind
from .scoring import Scoring
from .state import RamiDeal, TableMeld

# §3.2 normal mode: placement values by rank (ace handled by position), and values left in hand.
_NORMAL_PLACE = (5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
_NORMAL_HAND = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
_TRAD_PLACE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_TRAD_HAND = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
JOKER_IN_HAND = 20
PENALTY = 300


class RamiScoring(Scoring):
    """Values, credits and round ends of rami: the ``Scoring`` part of ``Rami``."""

    deal: RamiDeal
    rounds_played: int  # rounds scored (not void): the game ends after ``rounds_per_game`` (§3.8)

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
        self.deal.credits[seat] = self.deal.credits.get(seat, 0) + points
        self.deal.ledger.append((seat, points, code, params))

    def charge_penalty(self, seat: str) -> list[Event]:
        """§3.9: a turn timed out with an obligation open: -300, or +300 in elimination mode."""
        points = PENALTY if self.elimination else -PENALTY
        self.deal.credits[seat] = self.deal.credits.get(seat, 0) + points
        self.deal.ledger.append((seat, points, "penalty", {"reason": "turn_timed_out_illegal"}))
        return [Event(EventKind.PENALTY, seat, {"points": PENALTY})]

    # ---------------------------------------------------------------- scoring (§3.8)
    def end_out(self, winner: str, final_discard: bool) -> list[Event]:
        self.begin_scoring()
        others = [s for s in self.active if s != winner]
        nobody_else = not any(s in self.deal.placed for s in others)
        rami = self.deal.opened_this_turn and (not final_discard or self.rules["rami_allows_final_discard"])
        own = rami and self.deal.own_only
        points = {s: self.deal.credits.get(s, 0) for s in self.active}
        if self.elimination:
            mult = 4 if own and nobody_else else 3 if own else 2 if rami else 1
            for s in others:
                count = self.hand_value(self.deal.hands[s])
                self.deal.ledger.append((s, count * mult, "hand_left", {"count": count, "multiplier": mult}))
                points[s] = count * mult + points.get(s, 0)
        else:
            for s in others:
                count = self.hand_value(self.deal.hands[s])
                if count:
                    self.deal.ledger.append((winner, count, "hand_values", {"loser": s, "count": count}))
                    points[winner] += count
            bonus = (300 if own else 200 if rami else 0) + (100 if nobody_else else 0)
            if rami:
                self.deal.ledger.append((winner, 300 if own else 200, "rami_bonus", {"own_only": own}))
            if nobody_else:
                self.deal.ledger.append((winner, 100, "nobody_else_placed", {}))
            points[winner] += bonus
        self.hand_points = {s: points.get(s, 0) for s in self.seats}
        self.won[winner] += 1
        self.close_deal("out", winner, self.hand_results(), rummy=rami)
        return [Event(EventKind.WENT_OUT, winner, {"rami": rami, "own_only": own}), *self.check_game_end()]

    def end_blocked(self) -> list[Event]:
        """§3.7: stock and discard pile both empty: no winner, no end credit, no bonus."""
        self.begin_scoring()
        self.hand_points = {s: self.deal.credits.get(s, 0) for s in self.seats}
        self.close_deal("blocked", None, self.hand_results())
        return [Event(EventKind.BLOCKED, None, {}), *self.check_game_end()]

    def end_void(self) -> list[Event]:
        """§0.4 safety cap: the round is void (no score) and the same dealer deals again."""
        self.begin_scoring()
        for seat, points in self.deal.credits.items():
            if points:  # the ledger explains why this round's credits vanish
                self.deal.ledger.append((seat, -points, "void_round", {}))
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

