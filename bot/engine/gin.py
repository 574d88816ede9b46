"""Gin Rummy with Fournier scoring (rules.md §2).

Phases: ``upcard`` (the first upcard offered to the non-dealer, then the dealer), ``draw``,
``play`` (discard or knock), ``layoff`` (the defender after a knock), ``over``. Knock legality
and every "best arrangement" use the exhaustive search in ``search.py``. Nothing here knows
Discord or SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import views as v
from .cards import CODES, card_code, codes, display_key, parse_card
from .errors import IllegalMove
from .events import EventKind, Phase
from .game import Event, Game
from .melds import MeldRules, parse_entry
from .move import Move, Verb, card_move, check_groups
from .search import (
    LOW_VALUES,
    arrangements,
    best_layoffs,
    best_melds,
    can_lay_off,
    cards_of,
    deadwood_after_each_discard,
    mask_of,
    meldable_cards,
    min_deadwood,
)
from .state import GinDeal, TableMeld
from .turns import Handled

VALUES = LOW_VALUES  # §2.1: J Q K 10, ace 1, others pip
_KNOCK = tuple(card_move(Verb.KNOCK, c) for c in range(len(CODES)))
_DISCARD = tuple(card_move(Verb.DISCARD, c) for c in range(len(CODES)))
_DRAW, _TAKE, _PASS = Move.of(Verb.DRAW), Move.of(Verb.TAKE), Move.of(Verb.PASS)
_AUTO, _DONE = Move.of(Verb.AUTO), Move.of(Verb.DONE)
_VERBS = (Verb.DRAW, Verb.TAKE, Verb.PASS, Verb.DISCARD, Verb.KNOCK, Verb.LAYOFF, Verb.DONE, Verb.AUTO)
_HIGH_FIRST = tuple((-VALUES[c % 13], c) for c in range(52))  # discard order: high cards first


class GinRummy(Game):
    """``gin``: two players, ten cards, knock at ``knock_limit`` or less."""

    # Hooks overridden. Deal: ``deal_size`` (10), ``start_phase`` (the upcard offer, §2.3.1),
    # ``expected_count_ok``, ``after_layout`` (layoff positions, the wall), ``new_deal`` (``GinDeal``).
    # Turns: ``verbs`` with ``move_pass`` / ``move_knock`` / ``move_layoff`` / ``move_done`` /
    # ``move_auto``, ``move_draw`` / ``move_take`` (upcard offer, the wall), ``after_draw`` (dead
    # hand, §2.6), ``check_discard`` (the wall's forced knock), ``on_turn_limit`` (void),
    # ``timeout_moves`` (pass, auto), ``next_dealer_index`` (§2.7). Also ``make_meld_rules`` and
    # ``legal_moves``.

    deal: GinDeal

    def new_deal(self) -> GinDeal:
        return GinDeal(hands={s: [] for s in self.seats})

    def make_meld_rules(self) -> MeldRules:
        return MeldRules(ace_mode="low")  # §2.2: ace low only

    def deal_size(self, seat: str, active: int) -> int:
        return 10

    def start_phase(self) -> Phase:
        return Phase.UPCARD if self.rules["upcard_offer"] else Phase.DRAW

    def expected_count_ok(self, seat: str, count: int) -> bool:
        to_act = self.seats[self.deal.turn] == seat
        if self.deal.phase == Phase.PLAY:
            return count == (11 if to_act else 10)
        if self.deal.phase == Phase.LAYOFF:
            return count <= 10 if seat != self.deal.knocker else count <= self.rules["knock_limit"]
        return count == 10

    def after_layout(self, layout: Mapping[str, Any]) -> None:
        super().after_layout(layout)
        if self.deal.phase == Phase.LAYOFF:
            # The knocker is whoever owns the melds; the seat to act (the defender) lays off.
            owners = {m.owner for m in self.deal.on_table}
            if len(owners) != 1 or None in owners:
                raise IllegalMove("bad_layout", "in phase layoff the table holds the knocker's melds", {})
            knocker = owners.pop()
            assert knocker is not None  # (None is not among the owners: checked above)
            self.deal.knocker = knocker
            self.deal.knock_deadwood = self.hand_value(self.deal.hands[self.deal.knocker])
            if self.deal.knocker == self.seats[self.deal.turn] or self.deal.knock_deadwood > self.rules["knock_limit"]:
                raise IllegalMove("bad_layout", "phase layoff needs the defender to act and a legal knock", {})
            self.deal.revealed = {self.deal.knocker: list(self.deal.hands[self.deal.knocker])}
        elif self.deal.phase not in (Phase.UPCARD, Phase.DRAW, Phase.PLAY):
            raise IllegalMove("bad_layout", f"gin has no phase {self.deal.phase}", {"phase": self.deal.phase})
        if self.deal.phase == Phase.UPCARD and self.deal.turn == self.dealer:
            self.deal.upcard_passes = 1  # the offer reaches the dealer only after the non-dealer passed
        if self.deal.phase == Phase.DRAW and len(self.deal.stock) <= self.dead_count() and layout.get("explicit"):
            # §2.6: nobody draws from a stock of two; only OpenSpiel's wall has such a turn.
            if self.rules["dead_hand"] != "wall":
                raise IllegalMove("bad_layout", "with two stock cards left the deal is already over (dead_hand)", {})
            self.deal.wall = True
        if self.deal.phase == Phase.PLAY and len(self.deal.stock) <= self.dead_count() and layout.get("explicit"):
            self.deal.last_turn = True
        if layout.get("explicit") and self.deal.on_table and self.deal.phase != Phase.LAYOFF:
            raise IllegalMove("bad_layout", "gin has no table melds before a knock", {})

    def verbs(self) -> tuple[Verb, ...]:
        return _VERBS

    @property
    def other(self) -> str:
        return self.seats[1 - self.deal.turn]

    def dead_count(self) -> int:
        return 2  # §2.6: nobody draws from a stock of two cards

    # ---------------------------------------------------------------- first upcard (§2.3.1)
    def move_pass(self, seat: str, move: Move) -> Handled:
        self.no_args(move)
        if self.deal.phase == Phase.DRAW and self.deal.wall:
            return self.end_void("wall"), _PASS
        self.need_phase(Phase.UPCARD)
        self.deal.upcard_passes += 1
        if self.deal.upcard_passes == 1:
            self.deal.turn = self.dealer
        else:
            self.deal.turn = self.seat_after(self.dealer)  # both passed: the non-dealer draws from the stock
            self.deal.phase = Phase.DRAW
            self.deal.must_draw_stock = True
        return [Event(EventKind.PASSED, seat, {})], _PASS

    def move_take(self, seat: str, move: Move) -> Handled:
        if self.deal.phase == Phase.UPCARD:
            self.deal.phase = Phase.DRAW
            try:
                return super().move_take(seat, move)
            except IllegalMove:
                self.deal.phase = Phase.UPCARD
                raise
        self.need_phase(Phase.DRAW)
        if self.deal.must_draw_stock:
            raise IllegalMove("must_draw_stock", "both players passed the upcard: draw from the stock", {})
        if self.deal.wall:
            self.no_args(move)
            if not self.deal.discard or not self.knock_after_take(seat):
                raise IllegalMove(
                    "wall_take_to_knock", "with two cards left you may take the discard only to knock", {}
                )
            handled = super().move_take(seat, move)
            self.deal.must_knock = True
            return handled
        return super().move_take(seat, move)

    def knock_after_take(self, seat: str) -> bool:
        card = self.deal.discard[-1]
        hand = self.deal.hands[seat] + [card]
        mask = mask_of(hand)
        limit = self.rules["knock_limit"]
        return any(c != card and min_deadwood(mask & ~(1 << c), "low", VALUES) <= limit for c in hand)

    def move_draw(self, seat: str, move: Move) -> Handled:
        if self.deal.wall:
            raise IllegalMove("wall_no_draw", "nobody draws from a stock of two cards", {})
        if self.deal.phase == Phase.UPCARD:
            raise IllegalMove("wrong_phase", "take the upcard or pass", {"phase": self.deal.phase})
        return super().move_draw(seat, move)

    def after_draw(self, seat: str) -> list[Event]:
        self.deal.must_draw_stock = False
        if len(self.deal.stock) <= self.dead_count():
            if self.rules["dead_hand"] == "immediate":
                return self.end_void("dead_hand")
            self.deal.last_turn = True
        return []

    # ---------------------------------------------------------------- discard and knock (§2.3)
    def move_discard(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        if self.deal.must_knock:
            raise IllegalMove("wall_take_to_knock", "you took the discard at the wall: you must knock", {})
        card = self.parse_discard(seat, move)
        self.deal.hands[seat].remove(card)
        self.deal.discard.append(card)
        events = [Event(EventKind.DISCARDED, seat, {"card": card_code(card)})]
        if self.deal.last_turn:
            if self.rules["dead_hand"] == "wall":
                events += self.end_turn()
                if not self.deal.hand_over:
                    self.deal.wall = True
            else:
                events += self.end_void("dead_hand")
        else:
            events += self.end_turn()
        return events, _DISCARD[card]

    def on_turn_limit(self) -> list[Event]:
        return self.end_void("turn_limit")

    def move_knock(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        card = self.parse_discard(seat, move)
        rest = list(self.deal.hands[seat])
        rest.remove(card)
        limit = self.rules["knock_limit"]
        if move.melds:  # the knocker's own arrangement (``knock KD :`` names one of no meld)
            melds = self.parse_arrangement(rest, move)
            dead = self.hand_value(rest) - sum(self.hand_value(cards_of(m)) for m in melds)
            if dead > limit:
                raise IllegalMove(
                    "knock_too_high",
                    f"that arrangement leaves {dead} deadwood; a knock needs {limit} or less",
                    {"deadwood": dead, "limit": limit},
                )
        else:
            best = self.best_arrangement(rest, self.deal.hands[self.other])
            if best is None:
                dead = min_deadwood(mask_of(rest), "low", VALUES)
                raise IllegalMove(
                    "knock_too_high",
                    f"discarding {card_code(card)} leaves {dead} deadwood; a knock needs {limit} or less",
                    {"deadwood": dead, "limit": limit, "card": card_code(card)},
                )
            dead, melds = best
        return self.apply_knock(seat, card, melds, dead)

    def parse_arrangement(self, rest: list[int], move: Move) -> tuple[int, ...]:
        """The melds a knock names after ``:``, as masks: disjoint, from the hand after the discard."""
        melds: list[int] = []
        used = 0
        if move.melds != ((),):
            check_groups(move, move.melds)
            for words in move.melds:
                r = self.read_new_meld(words)
                m = mask_of(r.cards)
                if m & used:
                    raise IllegalMove("bad_arrangement", "a card appears in two melds", {})
                used |= m
                melds.append(m)
        if used & ~mask_of(rest):
            missing = codes(c for c in cards_of(used) if c not in rest)
            raise IllegalMove("not_in_hand", f"{missing} is not in your hand after the discard", {"card": missing})
        return tuple(sorted(melds, key=lambda m: (m & -m).bit_length()))

    def knock_value(self, k: int, d: int) -> int:
        """The knocker's result minus the defender's, for choosing the knocker's arrangement."""
        gin_bonus: int = self.rules["gin_bonus"]
        undercut_bonus: int = self.rules["undercut_bonus"]
        if k == 0:
            return gin_bonus + d
        if k < d:
            return d - k
        if k == d and not self.rules["undercut_on_tie"]:
            return 0
        return -(undercut_bonus + k - d)

    def best_arrangement(self, rest: list[int], defender: list[int]) -> tuple[int, tuple[int, ...]] | None:
        """The arrangement best for the knocker against the defender's best layoffs (§2.4 [rec])."""
        mask = mask_of(rest)
        options = arrangements(mask, self.rules["knock_limit"], "low", VALUES)
        if not options:
            return None
        dmask = mask_of(defender)
        best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, tuple[int, ...]]] | None = None
        for dead, melds in options:
            if dead == 0 and not self.rules["layoff_on_gin"]:
                d = min_deadwood(dmask, "low", VALUES)
            else:
                d = best_layoffs(dmask, melds, "low", VALUES)[0]
            key = (-self.knock_value(dead, d), dead, melds)
            if best is None or key < best[0]:
                best = (key, (dead, melds))
        assert best is not None
        dead, melds = best[1]
        return dead, tuple(sorted(melds, key=lambda m: (m & -m).bit_length()))

    def apply_knock(self, seat: str, card: int, melds: tuple[int, ...], dead: int) -> Handled:
        self.deal.hands[seat].remove(card)
        self.deal.discard.append(card)
        self.deal.knocker = seat
        self.deal.knock_deadwood = dead
        used = 0
        for m in melds:
            r = self.read_new_meld([card_code(c) for c in cards_of(m)])
            self.deal.on_table.append(TableMeld(r.kind, list(r.cards), list(r.stands), seat))
            used |= m
        self.remove(self.deal.hands[seat], cards_of(used))
        self.deal.revealed = {seat: list(self.deal.hands[seat])}
        arranged = tuple(tuple(CODES[c] for c in m.cards) for m in self.deal.on_table)
        recorded = Move(Verb.KNOCK, (CODES[card],), None, arranged)
        events = [Event(EventKind.KNOCKED, seat, {"card": card_code(card), "deadwood": dead, "gin": dead == 0})]
        defender = self.other
        self.deal.turn = self.seats.index(defender)
        self.deal.phase = Phase.LAYOFF
        self.deal.took = None
        self.deal.drawn = None
        if (dead == 0 and not self.rules["layoff_on_gin"]) or not self.layoff_moves(defender):
            events += self.score_knock()
        return events, recorded

    # ---------------------------------------------------------------- the defender (§2.4)
    def move_layoff(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.LAYOFF)
        index, reading, cards = self.parse_layoff(seat, move)
        recorded = self.layoff_move(index, reading, cards)
        events = self.apply_layoff(seat, index, reading, cards)
        self.deal.laid_off.extend(cards)
        return events, recorded

    def move_done(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.LAYOFF)
        self.no_args(move)
        return self.score_knock(), _DONE

    def move_auto(self, seat: str, move: Move) -> Handled:
        """``auto`` is recorded as the layoffs it made followed by ``done`` (notation.md)."""
        self.need_phase(Phase.LAYOFF)
        self.no_args(move)
        melds = tuple(mask_of(m.cards) for m in self.deal.on_table)
        _, plan = best_layoffs(mask_of(self.deal.hands[seat]), melds, "low", VALUES)
        events: list[Event] = []
        for card, index in plan:
            events += self.play(seat, Move(Verb.LAYOFF, (CODES[card],), index + 1))
        return [*events, *self.score_knock()], _DONE

    def score_knock(self) -> list[Event]:
        """§2.5: gin, knock won or undercut; then the game end (§2.7)."""
        self.begin_scoring()
        assert self.deal.knocker is not None
        knocker, defender = self.deal.knocker, next(s for s in self.seats if s != self.deal.knocker)
        k = self.deal.knock_deadwood
        dhand = self.deal.hands[defender]
        d, dmelds = best_melds(mask_of(dhand), "low", VALUES)
        winner: str | None
        if k == 0:
            outcome, winner = "gin", knocker
            self.credit(knocker, self.rules["gin_bonus"], "gin_bonus")
            self.credit(knocker, d, "opponent_deadwood", deadwood=d)
        elif k < d:
            outcome, winner = "knock", knocker
            self.credit(knocker, d - k, "knock_difference", knocker=k, defender=d)
        elif k == d and not self.rules["undercut_on_tie"]:
            outcome, winner = "tie", None
        else:
            outcome, winner = "undercut", defender
            self.credit(defender, self.rules["undercut_bonus"], "undercut_bonus")
            if k - d:
                self.credit(defender, k - d, "undercut_difference", knocker=k, defender=d)
        if winner is not None:
            self.won[winner] += 1
        self.deal.winner_of_deal = winner
        kmelds = tuple(tuple(card_code(c) for c in m.cards) for m in self.deal.on_table)
        seats = [
            v.SeatResult(
                knocker,
                tuple(card_code(c) for c in sorted(self.deal.hands[knocker], key=display_key)),
                kmelds,
                tuple(card_code(c) for c in sorted(self.deal.hands[knocker], key=display_key)),
                k,
                (),
                self.hand_points.get(knocker, 0),
            ),
            v.SeatResult(
                defender,
                tuple(card_code(c) for c in sorted(dhand, key=display_key)),
                tuple(tuple(card_code(c) for c in cards_of(m)) for m in dmelds),
                tuple(card_code(c) for c in sorted(cards_of(mask_of(dhand) & ~sum_masks(dmelds)), key=display_key)),
                d,
                tuple(card_code(c) for c in self.deal.laid_off),
                self.hand_points.get(defender, 0),
            ),
        ]
        self.deal.revealed = {s: list(self.deal.hands[s]) for s in self.seats}
        self.close_deal(outcome, winner, seats)
        events = [Event(EventKind.DEAL_OVER, winner, {"outcome": outcome, "knocker": k, "defender": d})]
        return events + self.check_game_end()

    def end_void(self, reason: str) -> list[Event]:
        """§2.6 dead hand / §0.4 cap: no score, no line bonus, the same dealer deals again."""
        self.begin_scoring()
        self.deal.winner_of_deal = None
        seats = [v.SeatResult(s, tuple(self.hand(s)), (), tuple(self.hand(s)), 0, (), 0) for s in self.seats]
        self.close_deal("void", None, seats)
        return [Event(EventKind.DEAL_VOID, None, {"reason": reason})]

    def check_game_end(self) -> list[Event]:
        target = self.rules["target"]
        leader = max(self.seats, key=lambda s: self.totals[s])
        if self.totals[leader] < target:
            return []
        # §2.7: bonuses come after the game ends and do not count towards the target.
        loser = next(s for s in self.seats if s != leader)
        self.final_scores = dict(self.totals)
        bonuses: list[tuple[str, int, str, dict[str, Any]]] = [(leader, self.rules["game_bonus"], "game_bonus", {})]
        bonuses += [
            (s, self.rules["line_bonus"] * self.won[s], "line_bonus", {"hands": self.won[s]})
            for s in self.seats
            if self.won[s]
        ]
        if self.won[loser] == 0:
            bonuses.append((leader, self.rules["shutout_bonus"], "shutout_bonus", {}))
        for seat, points, code, params in bonuses:
            # In the ledger and the final scores, never in totals or hand points (§2.7).
            self.deal.ledger.append((seat, points, code, params))
            self.final_scores[seat] += points
        self.game_over = True
        self.winners = [leader]
        return [Event(EventKind.GAME_OVER, None, {"winners": [leader]})]

    def next_dealer_index(self) -> int:
        winner = self.deal.winner_of_deal  # the deal just over: the next one is not dealt yet
        if winner is None:
            return self.dealer  # void or no-score tie: the same dealer deals again
        mode = self.rules["next_dealer"]
        if mode == "winner":
            return self.seats.index(winner)
        if mode == "loser":
            return 1 - self.seats.index(winner)
        return 1 - self.dealer

    def timeout_moves(self, seat: str) -> list[Event]:
        if self.deal.phase == Phase.UPCARD or (self.deal.phase == Phase.DRAW and self.deal.wall):
            return self.play(seat, _PASS)
        if self.deal.phase == Phase.LAYOFF:
            return self.play(seat, _AUTO)
        if self.deal.must_knock:
            return self.play(seat, self.legal_moves(seat)[0])
        return super().timeout_moves(seat)

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self, seat: str) -> list[Move]:
        if seat not in self.actors:
            return []
        phase = self.deal.phase
        if phase == Phase.UPCARD:
            return [_TAKE, _PASS]
        if phase == Phase.DRAW:
            if self.deal.wall:
                return ([_TAKE] if self.deal.discard and self.knock_after_take(seat) else []) + [_PASS]
            if self.deal.must_draw_stock or not self.deal.discard:
                return [_DRAW]
            return [_DRAW, _TAKE]
        if phase == Phase.PLAY:
            hand = self.deal.hands[seat]
            mask = mask_of(hand)
            limit = self.rules["knock_limit"]
            took = self.deal.took
            if min_deadwood(mask, "low", VALUES) - 10 > limit and not self.deal.must_knock:
                # A discard lowers the least deadwood by at most its value (10), so no knock
                # exists: offer the discards, unmeldable high cards first.
                meldable = meldable_cards(mask)
                order = sorted(hand, key=_HIGH_FIRST.__getitem__)
                return [_DISCARD[c] for c in order if not (meldable >> c) & 1 and c != took] + [
                    _DISCARD[c] for c in order if (meldable >> c) & 1 and c != took
                ]
            scored = sorted(dc for dc in deadwood_after_each_discard(mask, "low", VALUES) if dc[1] != took)
            knocks = [_KNOCK[c] for d, c in scored if d <= limit]
            if self.deal.must_knock:
                return knocks
            return knocks + [_DISCARD[c] for _, c in scored]
        if phase == Phase.LAYOFF:
            layoffs = self.layoff_moves(seat)
            return [_AUTO, *layoffs, _DONE] if layoffs else [_DONE]
        return []

    def layoff_moves(self, seat: str) -> list[Move]:
        out = []
        for i, m in enumerate(self.deal.on_table):
            mm = mask_of(m.cards)
            for c in sorted(set(self.deal.hands[seat])):
                if can_lay_off(c, mm, "low"):
                    out.append(Move(Verb.LAYOFF, (CODES[c],), i + 1))
        return out

    def check_discard(self, seat: str, card: int) -> None:
        if self.deal.must_knock:
            raise IllegalMove("wall_take_to_knock", "you must knock", {})
        self.check_hand_discard(seat, card)


def sum_masks(masks: tuple[int, ...]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


__all__ = ["GinRummy", "parse_card", "parse_entry"]
