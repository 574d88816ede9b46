"""Table manipulation: the ``table`` move, judged on the table it leaves (rules.md §3.10, §4.3).

``table 3C 4C 5C | 6H 6D 6C`` states the complete table after the move. It is legal when every
meld is valid, every card that was on the table is still there, the cards added come from the
player's hand, and (with jokers) every joker keeps what it stands for. ``TableManipulation`` is
the part of the turn (a ``TurnLoop``) that rami and tradicional mix in ahead of ``Game``; it also
offers a bounded list of table moves to ``legal_moves``.
What it is not: points (variants hook ``after_table`` to credit or debit, rami) or the other moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import JOKER, card_code, codes
from .errors import IllegalMove
from .events import Event, EventKind, Phase
from .melds import MeldRules, Placed, Reading, describe_readings, parse_entry, read_meld
from .move import Move, Verb
from .state import TableMeld
from .turns import Handled, TurnLoop

MAX_TABLE_MOVES = 200


class TableManipulation(TurnLoop):
    """The ``table`` move, for the variants whose players may rearrange the table (mixed in
    ahead of ``Game``)."""

    def table_allowed(self, seat: str) -> None:
        """Raise when ``seat`` may not manipulate now (rami: not opened, option off)."""

    def after_table(self, seat: str, old: list[TableMeld], used: list[int]) -> list[Event]:
        return []

    def read_table(self, melds: Iterable[Sequence[str]]) -> list[Reading]:
        """Read the proposed table; an unannotated wild takes the identity it had on the table."""
        old_wilds = [(c, st) for m in self.deal.on_table for c, st in zip(m.cards, m.stands, strict=True) if c == JOKER]
        readings: list[Reading] = []
        for number, words in enumerate(melds, start=1):
            if not words:
                raise IllegalMove("bad_move", "an empty meld between '|' separators", {})
            placed = [parse_entry(w) for w in words]
            found = read_meld(placed, self.meld_rules)
            if len(found) > 1 and old_wilds:
                keep = [
                    r
                    for r in found
                    if all(_stand_known(st, old_wilds) for c, st in zip(r.cards, r.stands, strict=True) if c == JOKER)
                ]
                found = keep or found
            if not found:
                raise IllegalMove(
                    "invalid_table_meld",
                    f"meld {number} of the new table ({' '.join(words)}) is not a valid meld",
                    {"number": number, "meld": " ".join(words)},
                )
            if len(found) > 1:
                options = describe_readings(found, self.meld_rules)
                raise IllegalMove(
                    "ambiguous_wild",
                    f"in meld {number} a wild card could stand for several cards: " + " or ".join(options),
                    {"number": number, "readings": options},
                )
            readings.append(found[0])
        return readings

    def check_table(self, seat: str, readings: list[Reading]) -> list[int]:
        """The cards the move takes from the hand; refuses a table card missing or a joker moved."""
        old = Counter(c for m in self.deal.on_table for c in m.cards)
        new = Counter(c for r in readings for c in r.cards)
        missing = old - new
        if missing:
            card = next(iter(missing))
            raise IllegalMove(
                "table_card_missing",
                f"{card_code(card)} was on the table and must stay on it (cards never go from the table to a hand)",
                {"card": card_code(card)},
            )
        used = list((new - old).elements())
        have = Counter(self.deal.hands[seat])
        for c, n in Counter(used).items():
            if have[c] < n:
                raise IllegalMove("not_in_hand", f"{card_code(c)} is not in your hand", {"card": card_code(c)})
        old_j = Counter(st for m in self.deal.on_table for c, st in zip(m.cards, m.stands, strict=True) if c == JOKER)
        new_j = Counter(st for r in readings for c, st in zip(r.cards, r.stands, strict=True) if c == JOKER)
        if old_j - new_j:
            raise IllegalMove(
                "joker_moved", "a joker on the table keeps what it stands for; free it by retrieval (§3.10)", {}
            )
        return used

    def move_table(self, seat: str, move: Move) -> Handled:
        self.need_phase(Phase.PLAY)
        self.table_allowed(seat)
        if not move.melds:
            raise IllegalMove("bad_move", "write the whole new table: table 3C 4C 5C | 6H 6D 6C", {})
        readings = self.read_table(move.melds)
        used = self.check_table(seat, readings)
        if JOKER in used and not self.meld_rules.wild_layoff:
            raise IllegalMove(
                "joker_in_table_move", "a joker from your hand goes down only in a new meld (meld move)", {}
            )
        self.check_table_going_out(seat, used)
        self.check_table_after(seat, used, [TableMeld(r.kind, list(r.cards), list(r.stands), None) for r in readings])
        old = self.deal.on_table
        for c in used:
            self.deal.hands[seat].remove(c)
        self.deal.on_table = [TableMeld(r.kind, list(r.cards), list(r.stands), None) for r in readings]
        if used:
            self.deal.placed.add(seat)
        events = [Event(EventKind.TABLE_REARRANGED, seat, {"cards": codes(used), "melds": len(readings)})]
        events += self.after_table(seat, old, used)
        return events, Move.table_of(r.codes(self.meld_rules) for r in readings)

    def check_table_after(self, seat: str, used: list[int], new_table: list[TableMeld]) -> None:
        """Variants refuse a table that leaves an obligation impossible (rami)."""

    def check_table_going_out(self, seat: str, used: list[int]) -> None:
        """Variants refuse emptying the hand this way where a rule forbids it (tradicional option 5)."""

    # ---------------------------------------------------------------- suggestions
    def table_moves(self, seat: str) -> list[Move]:
        """Up to ``MAX_TABLE_MOVES`` table moves of two kinds: a card freed from the table (a run's
        end, a four-card set's member) joins cards from hand in a new meld; a card from hand splits
        a run it duplicates into two runs. Generation stops at the cap: its cost is bounded, not
        only its output."""
        out: list[Move] = []
        seen: set[Move] = set()
        hand = self.deal.hands[seat]
        naturals = sorted({c for c in hand if c != JOKER})
        rules = self.meld_rules
        texts = [m.codes(rules) for m in self.deal.on_table]

        def emit(new_melds: list[tuple[str, ...]]) -> bool:
            """Add one suggestion; False once the cap is reached (then nothing more is tried)."""
            move = Move.from_parts(Verb.TABLE, (), None, tuple(new_melds))
            if move not in seen:
                seen.add(move)
                out.append(move)
            return len(out) < MAX_TABLE_MOVES

        for i, m in enumerate(self.deal.on_table):
            n = len(m.cards)
            free: list[tuple[int, list[Placed]]] = []
            if m.kind == "run" and n >= 4:
                free = [(0, m.placed(rules)[1:]), (n - 1, m.placed(rules)[:-1])]
            elif m.kind == "set" and n >= 4:
                free = [(k, [p for j, p in enumerate(m.placed(rules)) if j != k]) for k in range(n)]
            for k, rest in free:
                card = m.cards[k]
                if card == JOKER:
                    continue
                left = read_meld(rest, rules, m.kind)
                if not left:
                    continue
                rest_text = tuple(left[0].codes(rules))
                partners = naturals if rules.is_wild(card) else [c for c in naturals if _may_join(card, c, rules)]
                for a in range(len(partners)):
                    for b in range(a, len(partners)):
                        pair = [partners[a], partners[b]]
                        if a == b and hand.count(partners[a]) < 2:
                            continue
                        found = read_meld([Placed(card), *map(Placed, pair)], rules)
                        if len(found) != 1:
                            continue
                        new = [*texts[:i], rest_text, *texts[i + 1 :], tuple(found[0].codes(rules))]
                        if not emit(new):
                            return out
            if m.kind == "run" and n >= 5:
                for k in range(2, n - 2):
                    card = m.cards[k]
                    if card != JOKER and card in hand:
                        left_part = m.placed(rules)[: k + 1]
                        right = [Placed(card), *m.placed(rules)[k + 1 :]]
                        ra, rb = read_meld(left_part, rules, "run"), read_meld(right, rules, "run")
                        if len(ra) == 1 and len(rb) == 1:
                            new = [
                                *texts[:i],
                                tuple(ra[0].codes(rules)),
                                tuple(rb[0].codes(rules)),
                                *texts[i + 1 :],
                            ]
                            if not emit(new):
                                return out
        return out


def _may_join(card: int, other: int, rules: MeldRules) -> bool:
    """Whether ``other`` could be in a three-card meld with ``card``: a wild card always; else a
    set shares the rank, and a run (of one suit unless ``run_mixed_suits``) spans three ranks,
    so its cards are at most two apart (counted round the corner, which covers every ace rule)."""
    if rules.is_wild(other) or other % 13 == card % 13:
        return True
    if not rules.run_mixed_suits and other // 13 != card // 13:
        return False
    gap = abs(other % 13 - card % 13)
    return min(gap, 13 - gap) <= 2


def _stand_known(stand: tuple[int, int | None], old: list[tuple[int, tuple[int, int | None]]]) -> bool:
    return any(st == stand or (st[0] == stand[0] and st[1] is None) for _, st in old)
