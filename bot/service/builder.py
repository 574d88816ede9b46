"""The rearrange builder's draft (issue 13): a table being rearranged with clicks, before it is played.

What it is: ``Draft``, the pure state of one player's rearrangement in progress: the table and hand
it started from, the melds as they stand now, the cards taken out of melds and not yet placed
(``loose``), the hand cards not placed (``rest``), what is picked, and an undo stack. Its operations
(take melds apart, take single cards out, pick, new meld, add to a meld, settle a joker, undo,
start over, fill from a suggestion) either change it or raise ``BuilderError`` (a ``refusal.*``
code) and change nothing. ``check`` judges each meld with the engine's own meld reader
(``bot.engine.melds.read_meld``): valid, invalid, or ambiguous (a wild card that could stand for
several cards: the builder asks which). ``move`` is the ONE ``Move`` the draft plays;
``to_json``/``from_json`` are what the store keeps.

How the draft is edited: a ``table`` move lists the whole table (notation.md "table"), so cards
taken out of melds stay on the draft's table as loose cards, and a hand card taken back out of a
meld returns to the hand (``_settle``); how a loose card is written is the engine's answer
(``loose_entry``: a joker keeps what it stands for, rules.md §3.10). A draft that only adds new
melds of hand cards to an untouched table is played as a ``meld`` move, anything else as a
``table`` move; the engine judges either.
What it is not: rules (the engine reads melds, counts an opening's points, and judges the move),
Discord, SQL or translations.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Move, Verb, loose_entry
from bot.engine.cards import parse_card
from bot.engine.meldgen import combos_reaching, hand_meld_candidates
from bot.engine.melds import MeldRules, Reading, describe_readings, parse_entry, read_meld

UNDO_DEPTH = 40  # snapshots kept for Undo (bounds the stored JSON)
VALID, INVALID, AMBIGUOUS = "valid", "invalid", "ambiguous"
JSON_VERSION = 1


class BuilderError(Exception):
    """A builder operation refused; ``code`` names a ``refusal.<code>`` key, nothing changed."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def card_of(code: str) -> str:
    """The physical card of an entry: ``JK=7C`` -> ``JK``, ``2C=7`` -> ``2C``."""
    return code.split("=", 1)[0].upper()


@dataclass(frozen=True)
class MeldCheck:
    """One draft meld judged: its state and, when ambiguous, the readings to choose from (codes)."""

    state: str
    readings: tuple[tuple[str, ...], ...] = ()


@dataclass
class Draft:
    table: list[list[str]]                  # the table it started from (the engine's codes)
    hand: list[str]                         # the hand it started from
    owners: list[str | None] = field(default_factory=list)  # owner of each starting meld
    melds: list[list[str]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    rest: list[str] = field(default_factory=list)
    picked_loose: set[int] = field(default_factory=set)
    picked_hand: set[int] = field(default_factory=set)
    undo: list[dict[str, Any]] = field(default_factory=list)
    pages: dict[str, int] = field(default_factory=dict)  # which page each paged select shows

    # ------------------------------------------------------------------ making and storing
    @classmethod
    def start(cls, table: Sequence[Sequence[str]], hand: Sequence[str],
              owners: Sequence[str | None] | None = None) -> Draft:
        base = [list(m) for m in table]
        return cls(table=base, hand=list(hand), owners=list(owners or [None] * len(base)),
                   melds=[list(m) for m in base], rest=list(hand))

    def to_json(self) -> str:
        return json.dumps({
            "v": JSON_VERSION, "table": self.table, "hand": self.hand, "owners": self.owners,
            "melds": self.melds, "loose": self.loose, "rest": self.rest,
            "picked_loose": sorted(self.picked_loose), "picked_hand": sorted(self.picked_hand),
            "undo": self.undo, "pages": self.pages,
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Draft:
        d = json.loads(text)
        if d.get("v") != JSON_VERSION:
            raise ValueError("a draft stored by another version of the builder")
        return cls(table=d["table"], hand=d["hand"], owners=d["owners"], melds=d["melds"], loose=d["loose"],
                   rest=d["rest"], picked_loose=set(d["picked_loose"]), picked_hand=set(d["picked_hand"]),
                   undo=d["undo"], pages={str(k): int(v) for k, v in d["pages"].items()})

    # ------------------------------------------------------------------ undo
    def _snapshot(self) -> dict[str, Any]:
        return {"melds": [list(m) for m in self.melds], "loose": list(self.loose), "rest": list(self.rest)}

    def _push(self) -> None:
        self.undo.append(self._snapshot())
        del self.undo[:-UNDO_DEPTH]

    def undo_last(self) -> None:
        if not self.undo:
            raise BuilderError("builder_nothing_to_undo")
        snap = self.undo.pop()
        self.melds, self.loose, self.rest = snap["melds"], snap["loose"], snap["rest"]
        self._clear_picks()

    def start_over(self) -> None:
        if not self.changed_anything():
            raise BuilderError("builder_nothing_to_undo")
        self._push()
        self.melds = [list(m) for m in self.table]
        self.loose, self.rest = [], list(self.hand)
        self._clear_picks()

    def _clear_picks(self) -> None:
        self.picked_loose, self.picked_hand = set(), set()

    # ------------------------------------------------------------------ operations
    def take_apart(self, numbers: Iterable[int]) -> None:
        """Melds (by number) taken apart: their cards become loose, picked for the next step."""
        chosen = sorted(set(numbers))
        if not chosen:
            raise BuilderError("builder_pick_melds")
        self._meld_numbers(chosen)
        self._push()
        out = [c for n in chosen for c in self.melds[n - 1]]
        self.melds = [m for i, m in enumerate(self.melds, start=1) if i not in chosen]
        self._to_loose(out)

    def take_out(self, refs: Iterable[tuple[int, int]]) -> None:
        """Single cards (meld number, position in it) taken out of their melds, picked, to move them."""
        chosen = sorted(set(refs))
        if not chosen:
            raise BuilderError("builder_pick_cards")
        self._meld_numbers([n for n, _ in chosen])
        for n, pos in chosen:
            if not 0 <= pos < len(self.melds[n - 1]):
                raise BuilderError("not_offered")
        self._push()
        out = [self.melds[n - 1][pos] for n, pos in chosen]
        gone = set(chosen)
        self.melds = [[c for pos, c in enumerate(m) if (i, pos) not in gone] for i, m in enumerate(self.melds, 1)]
        self.melds = [m for m in self.melds if m]
        self._to_loose(out)

    def pick(self, loose: Iterable[int], hand: Iterable[int]) -> None:
        """What is picked now, as indices into ``loose`` and ``rest``."""
        lo, ha = set(loose), set(hand)
        if any(not 0 <= i < len(self.loose) for i in lo) or any(not 0 <= i < len(self.rest) for i in ha):
            raise BuilderError("not_offered")
        self.picked_loose, self.picked_hand = lo, ha

    def new_meld(self) -> None:
        cards = self._take_picked()
        self.melds.append(cards)
        self._settle()

    def add_to(self, number: int) -> None:
        self._meld_numbers([number])
        cards = self._take_picked()
        self.melds[number - 1] = self.melds[number - 1] + cards
        self._settle()

    def settle_joker(self, number: int, choice: int, rules: MeldRules) -> None:
        """The player says which reading of ambiguous meld ``number`` they mean: its wilds are
        written with what they stand for."""
        self._meld_numbers([number])
        found = check_meld(self.melds[number - 1], rules)
        if found.state != AMBIGUOUS or not 0 <= choice < len(found.readings):
            raise BuilderError("not_offered")
        self._push()
        self.melds[number - 1] = list(found.readings[choice])

    def fill(self, melds: Sequence[Sequence[str]]) -> None:
        """A whole new table (a suggestion): hand cards it uses leave ``rest``; nothing is loose."""
        used = Counter(card_of(c) for m in melds for c in m) - Counter(card_of(c) for m in self.table for c in m)
        rest = list(self.hand)
        for card, n in used.items():
            for _ in range(n):
                if card not in rest:
                    raise BuilderError("not_offered")
                rest.remove(card)
        self._push()
        self.melds = [list(m) for m in melds]
        self.loose, self.rest = [], rest
        self._clear_picks()

    # ------------------------------------------------------------------ helpers
    def _meld_numbers(self, numbers: Iterable[int]) -> None:
        if any(not 1 <= n <= len(self.melds) for n in numbers):
            raise BuilderError("not_offered")

    def _take_picked(self) -> list[str]:
        if not self.picked_loose and not self.picked_hand:
            raise BuilderError("builder_pick_cards")
        self._push()
        cards = [self.loose[i] for i in sorted(self.picked_loose)] + [self.rest[i] for i in sorted(self.picked_hand)]
        self.loose = [c for i, c in enumerate(self.loose) if i not in self.picked_loose]
        self.rest = [c for i, c in enumerate(self.rest) if i not in self.picked_hand]
        self._clear_picks()
        return cards

    def _to_loose(self, cards: list[str]) -> None:
        start = len(self.loose)
        self.loose += [loose_entry(c) for c in cards]
        self._clear_picks()
        self.picked_loose = set(range(start, len(self.loose)))
        self._settle(keep_picks=True)

    def _settle(self, keep_picks: bool = False) -> None:
        """Loose cards beyond the table cards missing from the melds came from the hand: back to it."""
        missing = Counter(card_of(c) for m in self.table for c in m) - Counter(
            card_of(c) for m in self.melds for c in m)
        keep: list[str] = []
        picked: set[int] = set()
        for i, code in enumerate(self.loose):
            card = card_of(code)
            if missing[card] > 0:
                missing[card] -= 1
                if i in self.picked_loose:
                    picked.add(len(keep))
                keep.append(code)
            else:
                self.rest.append(card)  # a hand card again, unannotated
        self.loose = keep
        self.picked_loose = picked if keep_picks else set()

    # ------------------------------------------------------------------ reading it
    def changed_anything(self) -> bool:
        return self.melds != self.table or bool(self.loose) or self.rest != self.hand

    def changed(self) -> list[bool]:
        """For each draft meld: new or altered (not one of the starting melds, unchanged)."""
        left = Counter(_key(m) for m in self.table)
        out = []
        for m in self.melds:
            k = _key(m)
            if left[k] > 0:
                left[k] -= 1
                out.append(False)
            else:
                out.append(True)
        return out

    def owners_now(self) -> list[str | None]:
        """The owner of each draft meld: a starting meld's, unchanged; None for the others."""
        left: dict[tuple[str, ...], list[str | None]] = {}
        for m, o in zip(self.table, self.owners, strict=False):
            left.setdefault(_key(m), []).append(o)
        return [left[_key(m)].pop(0) if left.get(_key(m)) else None for m in self.melds]

    def checks(self, rules: MeldRules) -> list[MeldCheck]:
        changed = self.changed()
        return [MeldCheck(VALID) if not ch else check_meld(m, rules) for m, ch in zip(self.melds, changed, strict=True)]

    def changed_melds(self) -> list[list[str]]:
        """The melds the draft makes or changes (an opening counts their points, rules.md §3.5)."""
        return [m for m, ch in zip(self.melds, self.changed(), strict=True) if ch]

    def placed(self) -> int:
        """Hand cards this draft puts on the table."""
        return len(self.hand) - len(self.rest)

    def move(self, rules: MeldRules) -> Move:
        """The one move the draft plays (a ``Move``, never RGN written by hand), or
        ``BuilderError`` when it cannot be played as it stands: nothing changed, or a wild card
        whose role is still open (the builder asks about it)."""
        if not self.changed_anything():
            raise BuilderError("builder_nothing_changed")
        for n, check in enumerate(self.checks(rules), start=1):
            if check.state == AMBIGUOUS:
                raise BuilderError("builder_joker_open", number=n)
        k = len(self.table)
        if not self.loose and self.melds[:k] == self.table and len(self.melds) > k:
            new = self.melds[k:]
            hand_only = Counter(card_of(c) for m in new for c in m) == Counter(self.hand) - Counter(self.rest)
            if hand_only:
                return Move(Verb.MELD, tuple(c for m in new for c in m), None, tuple(tuple(m) for m in new))
        return Move.table_of(self.melds)


def check_meld(cards: Sequence[str], rules: MeldRules) -> MeldCheck:
    """One meld judged by the engine's reader: valid (one reading), ambiguous (several: the
    readings, wilds annotated) or invalid (none, or a card the engine cannot read)."""
    try:
        placed = [parse_entry(c) for c in cards]
    except Exception:  # an unreadable entry: IllegalMove from the engine's parser
        return MeldCheck(INVALID)
    found: list[Reading] = read_meld(placed, rules)
    if not found:
        return MeldCheck(INVALID)
    if len(found) == 1:
        return MeldCheck(VALID)
    return MeldCheck(AMBIGUOUS, tuple(tuple(text.split()) for text in describe_readings(found, rules)))


def _key(meld: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(meld))


@dataclass(frozen=True)
class Status:
    """The numbers of the status line: melds not valid, wilds to settle, hand cards placed, loose
    cards, and (not yet opened) the opening's points and minimum."""

    invalid: int
    open_jokers: int
    placed: int
    loose: int
    opening: tuple[int, int] | None = None


def status_of(draft: Draft, rules: MeldRules, opening_points: Callable[[Draft], int] | None = None,
              opening_min: int | None = None) -> Status:
    checks = draft.checks(rules)
    opening = None
    if opening_points is not None and opening_min:
        opening = (opening_points(draft), opening_min)
    return Status(invalid=sum(c.state == INVALID for c in checks),
                  open_jokers=sum(c.state == AMBIGUOUS for c in checks),
                  placed=draft.placed(), loose=len(draft.loose), opening=opening)


# ---------------------------------------------------------------------------- the hand's Meld button
def _physical(cards: Iterable[str]) -> Counter[str]:
    return Counter(card_of(c) for c in cards)


def meld_moves_of(legal: Sequence[Move]) -> list[Move]:
    """The ``meld`` moves among ``legal`` (the engine lists every legal one, multi-meld openings included)."""
    return [m for m in legal if m.verb is Verb.MELD]


def meld_move_of(legal: Sequence[Move], cards: Sequence[str]) -> Move | None:
    """The legal ``meld`` move that lays down exactly the selected ``cards`` (one meld or several:
    a Rami opening of two or three melds is one move, rules.md §3.5), None when there is none."""
    want = _physical(cards)
    for move in meld_moves_of(legal):
        if _physical(move.cards) == want:
            return move
    return None


def opening_reaching(legal: Sequence[Move], cards: Sequence[str]) -> Move | None:
    """The smallest legal ``meld`` move that holds every selected card (an opening the selection
    is part of), else the smallest legal one at all; None when the hand has none."""
    moves = sorted(meld_moves_of(legal), key=lambda m: len(m.cards))
    want = _physical(cards)
    for move in moves:
        if not want - _physical(move.cards):
            return move
    return moves[0] if moves else None


def _combos(game: Any, cards: Sequence[str]) -> tuple[list[int], list[list[Reading]]]:
    """The selected cards and the ways the engine's meld finder (``bot.engine.meldgen``) splits
    some of them into new melds, best first."""
    try:
        picked = [parse_card(card_of(c)) for c in cards]
    except Exception:  # an unreadable code: no melds
        return [], []
    rules = game.meld_rules
    cands = hand_meld_candidates(picked, rules)
    if not cands:
        return picked, []

    def value(r: Reading) -> int:
        return int(game.opening_points([r.codes(rules)]))

    return picked, combos_reaching(cands, picked, value, 1)


def split_melds(game: Any, cards: Sequence[str]) -> Move | None:
    """The selected cards as one ``meld`` move of several new melds, every card used; None when
    they do not split so."""
    picked, combos = _combos(game, cards)
    want = Counter(picked)
    for combo in combos:
        if len(combo) > 1 and Counter(c for r in combo for c in r.cards) == want:
            groups = tuple(tuple(r.codes(game.meld_rules)) for r in combo)
            return Move(Verb.MELD, tuple(c for g in groups for c in g), None, groups)
    return None


def selection_points(game: Any, cards: Sequence[str]) -> int:
    """What the selected cards are worth as an opening (``Game.opening_points``): the best way the
    engine's meld finder splits them into new melds."""
    _, combos = _combos(game, cards)
    return max((game.opening_points([r.codes(game.meld_rules) for r in combo]) for combo in combos), default=0)
