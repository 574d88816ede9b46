"""Random playouts of the rules engine, with the engine's invariants checked after every move.

Used by ``tests/engine/test_properties.py`` and as a script for long runs::

    python -m tests.engine.playout --variant gin --deals 100000
    python -m tests.engine.playout --variant all --deals 2000 --seed 7 --keep-going

A playout plays whole games through the public contract only (``new_game``/``load_game``,
``legal_moves``, ``play``, ``timeout``, ``next_deal``) with a seeded ``random.Random``, and
optionally throws junk at the engine (moves from the wrong seat, random card codes, melds of
random cards, impossible layoffs, stray verbs). After every move and every refusal it checks:

* the card multiset (``all_cards()``) is the deck, and no card is held more often than the deck has it;
* hand sizes are within the variant's rules; the gin stock never goes below two cards;
* ``actors`` is ``[current_seat]`` while a deal runs and empty once it is over; ``legal_moves`` is
  non-empty (and free of duplicates, ``resign`` and ``timeout``) for each actor, ``[]`` for others;
* a refused move, timeout or ``next_deal`` changes nothing (public state, record and internals);
* every listed move is accepted; a junk move the engine accepts is one ``legal_moves`` listed
  (for the verbs notation.md says the list is complete for);
* turn rules the driver can see (the taken discard not discarded at once, one meld per turn,
  layoffs needing an own meld, Wrotham's all-seven deals);
* the views hide every card a seat may not see while a deal runs;
* at the end of each deal: the scores follow the variant's accounting (recomputed here from the
  hands), totals are the start totals plus every deal's hand points, the game ends when it should
  with the right winners and final scores, and ``load_game(record())`` rebuilds the same game with
  the same record.

A broken invariant raises ``PlayoutFailure``; its text is a reproducer (variant, options, seed,
seats, the offending move and the record up to it).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from bot.engine import IllegalMove, load_game, new_game
from bot.engine.cards import CODES
from bot.engine.options import OPTION_SPECS, PLAYERS

VARIANTS = ("basic", "wrotham", "gin", "rami", "tradicional", "dummy")
BASIC_FAMILY = ("basic", "wrotham")  # the variants with the §1.7 house rules as options
CARD_CODES = frozenset(CODES)
RANKS = "A23456789TJQK"
SUITS = "SHDC"
BASIC_DEAL_SIZE = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}  # rules.md §1.1
GIN_END_BONUSES = frozenset({"game_bonus", "line_bonus", "shutout_bonus"})  # rules.md §2.7
SEAT_POOL = ("ana", "bea", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo_2", "k-9", "lu")
# Verbs for which notation.md says legal_moves is complete (melds/layoffs/swaps: those from hand).
COMPLETE_VERBS = frozenset({"draw", "take", "pass", "discard", "knock", "done", "auto", "meld", "layoff", "swap"})
INT_RANGES = {  # sane ranges for random int options (hand_turn_limit stays at its default)
    "gin_bonus": (0, 50),
    "undercut_bonus": (0, 50),
    "knock_limit": (0, 10),
    "target": (1, 250),
    "game_bonus": (0, 200),
    "line_bonus": (0, 50),
    "shutout_bonus": (0, 200),
}
_CARD_IN_REPR = re.compile(r"(?<![A-Za-z0-9_=])([A2-9TJQK][SHDC]|JK)(?![A-Za-z0-9_])")

Number = int | Fraction


# ----------------------------------------------------------------------------- failures


class PlayoutFailure(AssertionError):
    """An invariant broke. ``kind`` is a short key (for grouping); ``str()`` is the reproducer."""

    def __init__(self, kind: str, detail: str, setup: Setup, record: str, move: str | None = None) -> None:
        self.kind = kind
        self.detail = detail
        self.setup = setup
        self.record = record
        self.move = move
        super().__init__(self.report())

    def report(self) -> str:
        s = self.setup
        lines = [
            f"[{self.kind}] {self.detail}",
            f"variant={s.variant} seats={' '.join(s.seats)} seed={s.seed} options={s.options_text()!r}",
        ]
        if s.start_text:
            lines.append("started with load_game(start) where start =\n" + s.start_text.rstrip())
        if self.move:
            lines.append(f"move: {self.move}")
        lines.append("record (load_game(record) reaches the position):")
        lines.append(self.record.rstrip())
        return "\n".join(lines)


# ----------------------------------------------------------------------------- setups


@dataclass
class Setup:
    """How one game is created: by ``new_game``, or by ``load_game`` of ``start_text``."""

    variant: str
    seats: list[str]
    seed: str
    options: dict[str, str]
    start_text: str = ""  # a header with [Deal]/[Totals]/[Won]/[Dealer], when not new_game

    def options_text(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.options.items())

    def create(self) -> Any:
        if self.start_text:
            return load_game(self.start_text)
        return new_game(self.variant, self.seats, seed=self.seed, options=dict(self.options))


def random_option_value(spec: Any, rng: random.Random) -> str:
    """A random valid written value for one option of ``OPTION_SPECS``."""
    if spec.kind == "bool":
        return rng.choice(("true", "false"))
    if spec.kind == "int":
        lo, hi = INT_RANGES.get(spec.name, (spec.low, min(spec.high, spec.low + 100)))
        return str(rng.randint(lo, hi))
    if spec.kind == "choice":
        return rng.choice(spec.choices)
    if spec.name == "game_end":
        if spec.kind == "choice":
            return rng.choice(spec.choices)
        return rng.choice((f"hands:{rng.randint(1, 8)}", f"target:{rng.randint(20, 300)}"))
    if spec.name == "card_values":
        return rng.choice(("contract_bicycle", "A:20,JK:25,2:20,K:10", "A:1,10:10,J:11,Q:12,K:13"))
    if spec.name == "rounds_per_game":
        return rng.choice(("players", str(rng.randint(1, 4))))
    choice = rng.choice(spec.choices)  # pattern options: fill in every ":N"
    if choice.endswith(":N"):
        return choice[:-1] + str(rng.randint(1, 5))
    return choice


def random_options(variant: str, rng: random.Random) -> dict[str, str]:
    """A random valid option set: each option kept at its default about a third of the time."""
    out: dict[str, str] = {}
    for spec in OPTION_SPECS[variant]:
        if spec.name == "hand_turn_limit" or rng.random() < 0.35:
            continue
        out[spec.name] = random_option_value(spec, rng)
    return out


def random_setup(
    variant: str, rng: random.Random, options: dict[str, str] | None = None, players: int | None = None
) -> Setup:
    lo, hi = PLAYERS[variant]
    n = players if players is not None else rng.randint(lo, hi)
    seats = rng.sample(SEAT_POOL, n)
    opts = random_options(variant, rng) if options is None else dict(options)
    setup = Setup(variant, seats, str(rng.randrange(10**12)), opts)
    if rng.random() < 0.25:
        setup.start_text = start_header(setup, rng)
    return setup


def start_header(setup: Setup, rng: random.Random) -> str:
    """A record header starting mid-game: a later first deal, running totals, deals won."""
    v = setup.variant
    tags = [f'[Variant "{v}"]']
    if setup.options:
        tags.append(f'[Options "{setup.options_text()}"]')
    tags += [f'[Seats "{" ".join(setup.seats)}"]', f'[Dealer "{rng.choice(setup.seats)}"]', f'[Seed "{setup.seed}"]']
    if v == "wrotham":
        tags.append(f'[Deal "{rng.randint(1, 6)}"]')
    elif rng.random() < 0.5:
        tags.append(f'[Deal "{rng.randint(2, 9)}"]')
    if v == "gin":
        cap = int(setup.options.get("target", "100"))
    else:
        kind, _, num = setup.options.get("game_end", "target:100").partition(":")
        cap = int(num) if kind == "target" and v == "basic" else 60
    totals = []
    for s in setup.seats:
        value = Fraction(rng.randint(0, max(0, 2 * cap - 2)), rng.choice((1, 2)))
        if value >= cap:
            value = Fraction(rng.randint(0, cap - 1))
        totals.append(f"{s}={value.numerator}" + (f"/{value.denominator}" if value.denominator != 1 else ""))
    tags.append(f'[Totals "{" ".join(totals)}"]')
    if v == "gin" and rng.random() < 0.5:
        tags.append(f'[Won "{" ".join(f"{s}={rng.randint(0, 3)}" for s in setup.seats)}"]')
    return "\n".join(tags) + "\n"


# ----------------------------------------------------------------------------- state helpers


def snapshot(x: Any) -> Any:
    """A deep, comparable copy of any engine value (dataclasses by field, containers recursively)."""
    if x is None or isinstance(x, str | int | float | bool | Fraction):
        return x
    if isinstance(x, dict):
        return {k: snapshot(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return tuple(snapshot(v) for v in x)
    if isinstance(x, set | frozenset):
        return frozenset(snapshot(v) for v in x)
    if is_dataclass(x):
        return (type(x).__name__, tuple(snapshot(getattr(x, f.name)) for f in fields(x)))
    return repr(x)


def fingerprint(game: Any) -> tuple[Any, ...]:
    """The record, every hand, the stock, the discard pile, the table, the phase, whose turn, the
    scores; plus every internal attribute (pickled), so a refusal that touches anything shows."""
    public = (
        game.record(),
        tuple(tuple(h) for h in game.hands.values()),
        tuple(game.stock),
        tuple(game.discard),
        tuple(tuple(m) for m in game.table),
        game.phase,
        game.current_seat,
        tuple(game.actors),
        tuple(game.totals.items()),
        tuple(game.hand_points.items()),
        game.hand_over,
        game.game_over,
    )
    return public, pickle.dumps(vars(game), protocol=pickle.HIGHEST_PROTOCOL)


def same_state(game: Any, before: tuple[Any, ...]) -> bool:
    """``fingerprint(game) == before``; internals whose pickles differ are compared field by field
    (a pickle can differ for equal values, e.g. a set's iteration order)."""
    now = fingerprint(game)
    if now[0] != before[0]:
        return False
    if now[1] == before[1]:
        return True
    return snapshot(pickle.loads(now[1])) == snapshot(pickle.loads(before[1]))


def card_value(code: str, variant: str, ace_mode: str) -> int:
    if code == "JK":
        return 15  # rules.md §1.9: a joker left in hand counts 15
    r = code[0]
    if r == "A":
        return 1 if ace_mode == "low" else 15  # §1.1, §1.7
    return 10 if r in "TJQK" else int(r)


def gin_min_deadwood(codes: list[str]) -> int:
    """Independent brute force: the least deadwood over every family of disjoint melds (ace low)."""
    cards = [(RANKS.index(c[0]), SUITS.index(c[1])) for c in codes]
    values = [min(r + 1, 10) for r, _ in cards]
    n = len(cards)
    melds: list[int] = []
    for size in (3, 4):
        for combo in combinations(range(n), size):
            if len({cards[i][0] for i in combo}) == 1:
                melds.append(sum(1 << i for i in combo))
    for size in range(3, n + 1):
        for combo in combinations(range(n), size):
            suits = {cards[i][1] for i in combo}
            ranks = sorted(cards[i][0] for i in combo)
            if len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + size)):
                melds.append(sum(1 << i for i in combo))
    total = sum(values)
    best = total

    def search(start: int, used: int, saved: int) -> None:
        nonlocal best
        best = min(best, total - saved)
        for k in range(start, len(melds)):
            m = melds[k]
            if not m & used:
                search(k + 1, used | m, saved + sum(values[i] for i in range(n) if m >> i & 1))

    search(0, 0, 0)
    return best


def view_cards(obj: Any) -> set[str]:
    """Every physical card code named anywhere in a view's ``repr`` (a wild's annotation, the
    ``8H`` of ``JK=8H``, is not a card and is skipped; nor are the options in force, whose values
    such as ``card_values=A:15,JK:20`` name card ranks, not cards)."""
    if is_dataclass(obj) and hasattr(obj, "options"):
        obj = [getattr(obj, f.name) for f in fields(obj) if f.name != "options"]
    return set(_CARD_IN_REPR.findall(repr(obj)))


# ----------------------------------------------------------------------------- configuration


@dataclass
class Config:
    junk: float = 0.2  # chance per position of throwing junk at the engine first
    junk_tries: int = 2
    timeouts: float = 0.02  # chance per position of game.timeout(actor) instead of a listed move
    probe: float = 0.01  # chance per position of playing every listed move on a copy
    replay_mid: float = 0.003  # chance per move of a mid-deal load_game(record()) check
    views: float = 0.25  # chance per move of checking the views (public view and one random seat's)
    all_views: float = 0.1  # chance, when checking, of checking every seat's view
    max_deals: int = 6  # deal cap per game


@dataclass
class Stats:
    deals: int = 0
    games: int = 0
    moves: int = 0
    junk: int = 0
    junk_accepted: int = 0
    timeouts: int = 0
    probes: int = 0
    replays: int = 0
    games_over: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[PlayoutFailure] = field(default_factory=list)


# ----------------------------------------------------------------------------- the driver


class Playout:
    """One game: random moves (``greed`` = chance of the first, "most useful" listed move)."""

    def __init__(self, setup: Setup, rng: random.Random, cfg: Config, stats: Stats) -> None:
        self.setup = setup
        self.rng = rng
        self.cfg = cfg
        self.stats = stats
        self.variant = setup.variant
        self.greed = rng.choice((0.0, 0.3, 0.6, 0.9))  # chance of the first listed move
        self.smart = rng.choice((0.0, 0.7, 0.9, 0.95, 0.95))  # chance of the heuristic player's move
        self.game = setup.create()
        g = self.game
        self.opts = dict(g.rules.values)
        self.deck = Counter(g.deck())
        self.start_totals = dict(g.totals)
        self.sum_points: dict[str, Number] = {s: 0 for s in g.seats}
        self.start_won = dict(g.won)
        self.wins: Counter[str] = Counter()
        self.first_deal = g.deal_no
        self.deals_here = 0
        self.moves_now: list[str] = []
        self._new_deal()

    # ------------------------------------------------------------------ failure helper
    def fail(self, kind: str, detail: str, move: str | None = None, record: str | None = None) -> PlayoutFailure:
        return PlayoutFailure(kind, detail, self.setup, record if record is not None else self.game.record(), move)

    def check(self, ok: bool, kind: str, detail: str, move: str | None = None) -> None:
        if not ok:
            raise self.fail(kind, detail, move)

    # ------------------------------------------------------------------ per-deal tracking
    def _new_deal(self) -> None:
        self.placed: set[str] = set()  # seats that put cards on the table in an earlier turn
        self.turn_seat: str | None = self.game.current_seat
        self.turn_placed = False
        self.turn_melds = 0
        self.took: str | None = None
        self.melded: set[str] = set()

    def _turn_changed(self) -> None:
        g = self.game
        if g.current_seat != self.turn_seat or g.hand_over:
            if self.turn_placed and self.turn_seat is not None and not g.hand_over:
                self.placed.add(self.turn_seat)
            if not g.hand_over:
                self.turn_seat = g.current_seat
                self.turn_placed = False
                self.turn_melds = 0
                self.took = None

    # ------------------------------------------------------------------ the game loop
    def run(self) -> None:
        g = self.game
        self.stats.games += 1
        self.check_state("after the deal")
        while True:
            while not g.hand_over:
                self.step()
            self.end_of_deal()
            self.stats.deals += 1
            self.deals_here += 1
            self.refusals_between_deals()
            if g.game_over:
                self.stats.games_over += 1
                return
            if self.deals_here >= self.cfg.max_deals:
                return
            g.next_deal()
            self._new_deal()
            self.check_state("after next_deal")

    def step(self) -> None:
        g, rng, cfg = self.game, self.rng, self.cfg
        seat = rng.choice(g.actors)  # several only in claim and cut-in windows
        moves = self.legal_now[seat]
        self.moves_now = moves
        if cfg.junk and rng.random() < cfg.junk:
            for _ in range(cfg.junk_tries):
                self.try_junk(moves)
                if g.hand_over or seat not in g.actors:
                    return
                moves = self.legal_now[seat]
                self.moves_now = moves
        if cfg.probe and rng.random() < cfg.probe:
            self.probe(seat, moves)
        if cfg.timeouts and rng.random() < cfg.timeouts:
            self.apply(seat, "timeout", moves, kind="timeout")
            return
        r = rng.random()
        if r < self.smart:
            move = self.smart_move(seat, moves)
        elif r < self.smart + (1 - self.smart) * self.greed:
            move = moves[0]
        else:
            move = rng.choice(moves)
        self.apply(seat, move, moves, kind="listed")

    def smart_move(self, seat: str, moves: list[str]) -> str:
        """A simple player that tries to go out: take a discard that fits, meld, lay off, knock,
        discard the least connected card. Always one of ``moves``."""
        verbs = {m.split()[0] for m in moves}
        if self.variant == "gin":
            if "take" in verbs and ("draw" in verbs or "pass" in verbs):
                fits = self.connections(self.game.discard_pile[-1], self.game.hand(seat)) >= 2
                return "take" if fits else ("draw" if "draw" in verbs else "pass")
            return moves[0]  # gin lists knocks first, then discards by resulting deadwood
        if "draw" in verbs:
            top = self.game.discard_pile[-1] if self.game.discard_pile else None
            if "take" in moves and top is not None and self.connections(top, self.game.hand(seat)) >= 2:
                return "take"
            return "draw"
        for verb in ("meld", "layoff", "swap"):
            if verb in verbs:
                return next(m for m in moves if m.startswith(verb))
        hand = self.game.hand(seat)
        discards = [m for m in moves if m.startswith("discard ")]
        if not discards:
            return moves[0]
        return min(
            discards,
            key=lambda m: (self.connections(m.split()[1], hand), -card_value(m.split()[1], self.variant, "low")),
        )

    @staticmethod
    def connections(code: str, hand: list[str]) -> int:
        """How many cards of ``hand`` could share a meld with ``code`` (jokers with anything)."""
        if code == "JK":
            return 99
        n = 0
        r, s = RANKS.index(code[0]), code[1]
        for c in hand:
            if c == code:
                continue
            if c == "JK" or c[0] == code[0] or (c[1] == s and abs(RANKS.index(c[0]) - r) <= 2):
                n += 1
        return n

    def apply(self, seat: str, move: str, listed: list[str], kind: str) -> bool:
        """Play one move; ``kind`` is listed (must be accepted), timeout or junk (may be refused)."""
        g = self.game
        if kind == "junk" and seat in g.actors:
            # Several seats may act at once (a claim window: the next player and those who may cut
            # in); a junk move is judged against its own seat's legal moves, not the seat drawn.
            listed = list(g.legal_moves(seat))
        before_hand = list(g.hand(seat)) if seat in g.seats else []
        before_melds = list(g.melds)
        top = g.discard_pile[-1] if g.discard_pile else None
        before = fingerprint(g) if kind == "junk" else None
        log_len = len(g.record())
        try:
            if kind == "timeout":
                g.timeout(seat)
            else:
                g.play(seat, move)
        except IllegalMove as err:
            if kind != "junk":
                raise self.fail(
                    "legal_move_refused" if kind == "listed" else "timeout_refused",
                    f"{seat} {move!r} (listed: {listed}) was refused: {err.code} {err.message}",
                    f"{seat} {move}",
                ) from None
            self.check(
                same_state(g, before),
                "refusal_changed_state",
                f"the refused move changed the game ({err.code})",
                f"{seat} {move}",
            )
            return False
        except Exception as err:
            raise self.fail(
                "crash",
                f"{seat} {move!r} raised {type(err).__name__}: {err}",
                f"{seat} {move}",
                record=self._prev(log_len),
            ) from err
        self.stats.moves += 1
        written = g.record()[log_len:].strip().splitlines()
        text = written[-1].partition(" ")[2] if written else ""
        self.after_move(seat, move, text, listed, kind, before_hand, before_melds, top, log_len)
        return True

    def _prev(self, log_len: int) -> str:
        return self.game.record()[:log_len]

    # ------------------------------------------------------------------ after an accepted move
    def after_move(
        self,
        seat: str,
        move: str,
        text: str,
        listed: list[str],
        kind: str,
        before_hand: list[str],
        before_melds: list[Any],
        top: str | None,
        log_len: int,
    ) -> None:
        g = self.game
        opts = self.opts
        mv = f"{seat} {move}"
        verb, _, rest = text.partition(" ")
        if kind == "timeout":
            self.stats.timeouts += 1
            self.check(text == "timeout", "timeout_record", f"a timeout was recorded as {text!r}", mv)
        if kind == "junk":
            self.stats.junk_accepted += 1
            self.check(seat in self.actors_before, "junk_from_non_actor", "a move from a seat not to act", mv)
            if verb in COMPLETE_VERBS and self.completeness_applies(move, text):
                key = self.listed_key(text)
                self.check(
                    key in {self.listed_key(m) for m in listed},
                    "legal_moves_incomplete",
                    f"{text!r} was accepted but legal_moves listed only {listed}",
                    mv,
                )
        # turn rules the driver can see
        if verb == "take":
            self.took = top
        # Rami: the taken card must be played (§3.7); once it is, an identical copy may be discarded.
        if verb in ("discard", "knock") and self.took is not None and self.variant != "rami":
            card = rest.split()[0]
            self.check(
                card != self.took or before_hand.count(card) > 1,
                "discarded_taken_card",
                f"{card} was taken from the discard pile this turn and discarded at once",
                mv,
            )
        if verb in ("meld", "layoff", "swap") or (verb == "table" and len(before_hand) > len(g.hand(seat))):
            self.turn_placed = True
            if self.took is not None and g.hand(seat).count(self.took) < before_hand.count(self.took):
                self.took = None  # the taken card went to the table: an identical one left in hand is another
        if verb == "meld" and self.variant in BASIC_FAMILY:
            self.melded.add(seat)
            groups = rest.count("|") + 1
            self.turn_melds += groups
            if self.variant == "wrotham" and g.deal_no >= 4:
                left = len(before_hand) - sum(len(grp.split()) for grp in rest.split("|"))
                least = 1 if opts["last_discard_required"] else 0
                self.check(least <= left <= 1, "all_seven", f"a meld in deal {g.deal_no} left {left} cards in hand", mv)
            elif opts["multiple_melds_per_turn"] is False:
                self.check(self.turn_melds <= 1, "one_meld_per_turn", "two melds in one turn", mv)
        if verb == "layoff" and self.variant in BASIC_FAMILY and opts["layoff_requires_own_meld"]:
            number = int(rest.rpartition(" to ")[2])
            owner = before_melds[number - 1].owner
            self.check(
                owner == seat or seat in self.melded,
                "layoff_requires_own_meld",
                f"a layoff on {owner}'s meld before melding",
                mv,
            )
        if g.hand_over and self.variant != "gin" and g.result is not None and g.result.outcome == "out":
            going = self.opts.get("going_rummy", "double" if self.variant == "tradicional" else "off")
            self.rummy_expected = going != "off" and seat not in self.placed
            self.last_verb = verb
        self._turn_changed()
        self.check_state("after " + mv)
        if self.cfg.replay_mid and not g.hand_over and self.rng.random() < self.cfg.replay_mid:
            self.check_replay()

    def completeness_applies(self, move: str, text: str) -> bool:
        """notation.md: complete for draw/take/pass/discard/knock/done; for melds, layoffs and swaps
        every one from hand (one meld, one card laid off per listed move)."""
        verb, _, rest = text.partition(" ")
        if verb == "meld":
            # dummy lists each lay-down with its wilds in a fixed order (docs/notation.md)
            return "|" not in rest and self.variant != "dummy"
        if verb == "layoff":
            return len(rest.rpartition(" to ")[0].split()) == 1
        return True

    @staticmethod
    def listed_key(move: str) -> str:
        verb, _, rest = move.partition(" ")
        if verb == "knock":  # a knock's arrangement is the engine's; the card is what is listed
            return "knock " + rest.partition(":")[0].strip().upper()
        return move

    # ------------------------------------------------------------------ junk
    def random_card(self) -> str:
        code = self.rng.choice(CODES)
        r = self.rng.random()
        if r < 0.1:
            return code.lower()
        if r < 0.15 and code[0] == "T":
            return "10" + code[1]
        if r < 0.18:
            return self.rng.choice(("XX", "1S", "11H", "JK=", "J", "ZZZ", "0C", "JKX"))
        return code

    def try_junk(self, listed: list[str]) -> None:
        g, rng = self.game, self.rng
        self.stats.junk += 1
        self.actors_before = list(g.actors)
        others = [s for s in g.seats if s not in g.actors]
        seat = rng.choice(g.seats)
        pick = rng.random()
        if pick < 0.2 and listed and others:
            self.apply(rng.choice(others), rng.choice(listed), listed, kind="junk")
            return
        if pick < 0.25:
            self.refuse_other(rng.choice(others) if others else "zz")
            return
        if pick < 0.28:
            self.apply("nobody", rng.choice([*listed, "draw"]), listed, kind="junk")
            return
        hand = g.hand(seat)
        table_n = len(g.table)
        own = lambda: rng.choice(hand) if hand else self.random_card()  # noqa: E731
        choices = [
            lambda: rng.choice(("draw", "take", "pass", "done", "auto", "knock", "discard", "meld", "swap")),
            lambda: rng.choice(("", "  ", "fly", "layoff to", "meld |", "meld 5H |", "knock KD :", "swap to 1")),
            lambda: rng.choice(("take", "draw", "pass", "done")) + " " + self.random_card(),
            lambda: f"discard {self.random_card()}",
            lambda: f"discard {own()}",
            lambda: f"discard {own()} {own()}",
            lambda: f"knock {self.random_card()}",
            lambda: f"knock {own()}",
            lambda: f"knock {own()} : {' '.join(rng.sample(hand, min(3, len(hand))))}",
            lambda: "meld " + " ".join(self.random_card() for _ in range(rng.randint(1, 4))),
            lambda: "meld " + " ".join(rng.sample(hand, min(len(hand), rng.randint(2, 4)))),
            lambda: (
                "meld "
                + " ".join(rng.sample(hand, min(len(hand), 3)))
                + " | "
                + " ".join(rng.sample(hand, min(len(hand), 3)))
            ),
            lambda: f"layoff {own()} to {rng.randint(0, table_n + 1)}",
            lambda: f"layoff {self.random_card()} to {rng.randint(1, max(1, table_n))}",
            lambda: f"layoff {own()} {own()} to {rng.randint(1, max(1, table_n))}",
            lambda: f"layoff {own()} to 9",
            lambda: f"layoff {own()} to x",
            lambda: f"swap {own()} to {rng.randint(0, table_n + 1)}",
            lambda: f"swap {self.random_card()} to {rng.randint(1, max(1, table_n))}",
            lambda: f"layoff JK=9H to {rng.randint(1, max(1, table_n))}",
            lambda: "table " + " ".join(hand[:3]),
        ]
        move = rng.choice(choices)()
        self.apply(seat, move, listed, kind="junk")

    def refuse_other(self, seat: str) -> None:
        """Actions that must be refused now and change nothing: a timeout for a seat not to act,
        ``next_deal`` while the deal runs."""
        g = self.game
        before = fingerprint(g)
        for action in (lambda: g.timeout(seat), g.next_deal):
            try:
                action()
            except IllegalMove:
                pass
            else:
                raise self.fail("accepted_out_of_turn", f"timeout({seat}) or next_deal() was accepted mid-deal")
            self.check(same_state(g, before), "refusal_changed_state", "a refused timeout/next_deal changed state")

    def refusals_between_deals(self) -> None:
        """Once a deal is over no move or timeout is accepted; after the game, no next_deal either."""
        g = self.game
        before = fingerprint(g)
        for seat in g.seats:
            for move in ("draw", "take", "discard AS", "pass", "done", "timeout"):
                try:
                    g.play(seat, move)
                except IllegalMove:
                    continue
                raise self.fail("move_after_deal", "a move was accepted after the deal ended", f"{seat} {move}")
        if g.game_over:
            try:
                g.next_deal()
            except IllegalMove:
                pass
            else:
                raise self.fail("deal_after_game_over", "next_deal() was accepted after the game ended")
        self.check(same_state(g, before), "refusal_changed_state", "a refusal after the deal changed state")

    # ------------------------------------------------------------------ probes and replays
    def probe(self, seat: str, moves: list[str]) -> None:
        """Every listed move is accepted (on a copy) and keeps the card multiset; and every
        candidate move from hand the engine accepts (every discard, knock, single-card layoff and
        swap, every meld of same-suit or same-rank cards plus jokers) is listed."""
        self.stats.probes += 1
        for m in moves:
            g2 = copy.deepcopy(self.game)
            try:
                g2.play(seat, m)
            except IllegalMove as err:
                raise self.fail(
                    "legal_move_refused", f"listed {m!r} was refused: {err.code} {err.message}", f"{seat} {m}"
                ) from None
            self.check(g2.all_cards() == self.deck, "cards_changed", f"after {m!r} (probe)", f"{seat} {m}")
        listed = {self.listed_key(m) for m in moves}
        work = copy.deepcopy(self.game)
        for cand in self.candidates(seat):
            log_len = len(work.log)
            try:
                work.play(seat, cand)
            except IllegalMove:
                continue
            text = work.log[log_len].partition(" ")[2] if len(work.log) > log_len else ""
            if self.completeness_applies(cand, text):
                self.check(
                    self.listed_key(text) in listed,
                    "legal_moves_incomplete",
                    f"{cand!r} (recorded {text!r}) is accepted but legal_moves lists only {moves}",
                    f"{seat} {cand}",
                )
            work = copy.deepcopy(self.game)

    def candidates(self, seat: str) -> list[str]:
        g = self.game
        hand = g.hand(seat)
        out = [f"{verb} {c}" for c in sorted(set(hand)) for verb in ("discard", "knock")]
        for n in range(1, len(g.table) + 1):
            out += [f"{verb} {c} to {n}" for c in sorted(set(hand)) for verb in ("layoff", "swap")]
        if self.variant == "gin":
            return out
        jokers = [c for c in hand if c == "JK"]
        groups = [[c for c in hand if c != "JK" and c[1] == s] for s in SUITS]
        groups += [[c for c in hand if c != "JK" and c[0] == r] for r in RANKS]
        seen: set[tuple[str, ...]] = set()
        for group in groups:
            pool = group + jokers
            for size in range(3, len(pool) + 1):
                for combo in combinations(pool, size):
                    if combo not in seen and any(c != "JK" for c in combo):
                        seen.add(combo)
                        out.append("meld " + " ".join(combo))
        return out

    def check_replay(self) -> None:
        g = self.game
        self.stats.replays += 1
        rec = g.record()
        try:
            g2 = load_game(rec)
        except IllegalMove as err:
            raise self.fail(
                "replay_refused", f"load_game(record()) refused line {err.line}: {err.code} {err}"
            ) from None
        self.check(g2.record() == rec, "replay_record", "load_game(record()).record() differs from record()")
        a, b = fingerprint(g2), fingerprint(g)
        if a[0] != b[0] or snapshot(vars(g)) != snapshot(vars(g2)):
            diff = [k for k in vars(g) if snapshot(getattr(g, k)) != snapshot(getattr(g2, k, None))]
            raise self.fail("replay_state", f"load_game(record()) reaches another state; differing internals: {diff}")
        for s in g.seats:
            self.check(g2.legal_moves(s) == g.legal_moves(s), "replay_state", f"legal_moves({s}) differ after replay")

    # ------------------------------------------------------------------ invariants after every move
    def check_state(self, where: str) -> None:
        g = self.game
        cards = g.all_cards()
        if cards != self.deck:
            extra = cards - self.deck
            missing = self.deck - cards
            raise self.fail(
                "cards", f"{where}: card multiset differs from the deck: extra {dict(extra)}, missing {dict(missing)}"
            )
        # (so no card is anywhere more often than the deck holds it)
        seats = g.seats
        self.check(g.phase in {"upcard", "draw", "play", "layoff", "window", "over"}, "phase", f"{where}: {g.phase}")
        actors = list(g.actors)
        if g.hand_over:
            self.check(
                actors == [] and g.current_seat is None,
                "actors",
                f"{where}: deal over but actors={actors} current={g.current_seat}",
            )
            self.check(g.phase == "over", "phase", f"{where}: deal over in phase {g.phase}")
            for s in seats:
                self.check(g.legal_moves(s) == [], "actors", f"{where}: legal_moves({s}) after the deal")
        else:
            cur = g.current_seat
            if g.phase == "window":
                self.check(cur is not None and bool(actors), "actors", f"{where}: a window with actors={actors}")
            else:
                self.check(cur is not None and actors == [cur], "actors", f"{where}: actors={actors} current={cur}")
            self.legal_now = {}
            for s in seats:
                lm = g.legal_moves(s)
                if s in actors:
                    self.legal_now[s] = lm
                    self.moves_now = lm
                    self.check(bool(lm), "actors", f"{where}: the actor {s} has no legal move")
                    self.check(len(set(lm)) == len(lm), "legal_moves_duplicates", f"{where}: {lm}")
                    bad = [m for m in lm if m.split()[0] in ("resign", "timeout")]
                    self.check(not bad, "legal_moves_resign", f"{where}: {bad}")
                else:
                    self.check(lm == [], "actors", f"{where}: non-actor {s} has legal moves {lm}")
        self.check_sizes(where)
        self.check(g.stock_count == len(g.stock) >= 0, "stock", f"{where}: stock_count {g.stock_count}")
        # totals move only when a deal ends
        expected = {s: self.start_totals[s] + self.sum_points[s] for s in seats}
        if not g.hand_over:
            self.check(g.totals == expected, "totals", f"{where}: totals {g.totals} != {expected}")
            if self.cfg.views and self.rng.random() < self.cfg.views:
                self.check_views(where, {s: g.hand(s) for s in seats})

    def check_sizes(self, where: str) -> None:
        g = self.game
        cur = g.current_seat
        sizes = {s: len(g.hands[s]) for s in g.seats}
        if self.variant == "basic":
            size = BASIC_DEAL_SIZE[len(g.seats)]
            for s, n in sizes.items():
                cap = size + 1 if (s == cur and g.phase == "play") else size
                self.check(0 <= n <= cap, "hand_size", f"{where}: {s} holds {n} cards (deal size {size})")
        elif self.variant in ("rami", "tradicional", "dummy"):
            o = self.opts
            size = {
                "rami": 14,
                "tradicional": 10 if len(g.seats) == 2 else 7,
                "dummy": o.get("deal_size", 13),
            }[self.variant]
            extra = 1
            if self.variant == "dummy":
                extra += o["cuts_per_hand"] * (1 + o["cut_extra_cards"])
            if self.variant == "rami" and o["discard_mode"] in ("multiple", "none"):
                extra = sum(self.deck.values())  # several discards taken at once, or no discards at all
            for s, n in sizes.items():
                self.check(0 <= n <= size + extra, "hand_size", f"{where}: {s} holds {n} cards (deal size {size})")
        elif self.variant == "wrotham":
            for s, n in sizes.items():
                cap = 8 if (s == cur and g.phase == "play") else 7
                self.check(0 <= n <= min(cap, 9), "hand_size", f"{where}: {s} holds {n} cards (Wrotham: 7/8)")
        else:
            self.check(g.stock_count >= 2, "gin_stock", f"{where}: the gin stock holds {g.stock_count} cards")
            if g.phase == "play":
                for s, n in sizes.items():
                    want = 11 if s == cur else 10
                    self.check(n == want, "hand_size", f"{where}: {s} holds {n} in phase play (want {want})")
            elif g.phase in ("upcard", "draw"):
                self.check(all(n == 10 for n in sizes.values()), "hand_size", f"{where}: sizes {sizes}")
            else:
                self.check(all(n <= 11 for n in sizes.values()), "hand_size", f"{where}: sizes {sizes}")
            if g.phase == "layoff":
                knocker = next(s for s in g.seats if s != cur)
                dead = sum(card_value(c, "gin", "low") for c in g.hand(knocker))
                self.check(dead <= self.opts["knock_limit"], "knock_limit", f"{where}: knocker deadwood {dead}")

    def check_views(self, where: str, hands: dict[str, list[str]]) -> None:
        g = self.game
        public = {c.partition("=")[0] for m in g.table for c in m} | set(g.discard_pile)
        public |= view_cards(g.last_move or "")  # the last move was played in public
        if self.variant == "gin" and g.phase == "layoff":
            knocker = next(s for s in g.seats if s != g.current_seat)
            public |= set(hands[knocker])  # spread face up after the knock (§2.4)
        pv = g.public_view()
        self.check(not hasattr(pv, "hand"), "view_leak", f"{where}: the public view has a hand")
        leak = view_cards(pv) - public
        self.check(not leak, "view_leak", f"{where}: the public view names {sorted(leak)}")
        self.check(pv.stock_count == g.stock_count, "view", f"{where}: public stock_count")
        counts = {si.name: si.card_count for si in pv.seats}
        self.check(counts == {s: len(h) for s, h in hands.items()}, "view", f"{where}: card counts {counts}")
        every = self.rng.random() < self.cfg.all_views
        for s in g.seats if every else [self.rng.choice(g.seats)]:
            sv = g.view(s)
            self.check(list(sv.hand) == hands[s], "view", f"{where}: view({s}).hand != hand({s})")
            self.check(sv.public == pv, "view", f"{where}: view({s}).public != public_view()")
            own = [getattr(sv, f.name) for f in fields(sv) if f.name != "public"]
            leak = view_cards(own) - public - set(hands[s])
            self.check(not leak, "view_leak", f"{where}: view({s}) names {sorted(leak)} held elsewhere")

    # ------------------------------------------------------------------ end of a deal
    def end_of_deal(self) -> None:
        g = self.game
        res = g.result
        self.check(res is not None, "result", "the deal ended without a result")
        self.stats.outcomes[f"{self.variant}:{res.outcome}"] += 1
        hp = {s: g.hand_points.get(s, 0) for s in g.seats}
        for s in g.seats:
            self.sum_points[s] += hp[s]
        expected = {s: self.start_totals[s] + self.sum_points[s] for s in g.seats}
        self.check(g.totals == expected, "totals", f"totals {g.totals} != start + hand points {expected}")
        ledger_sum: Counter[str] = Counter()
        for seat, points, code, _ in g.ledger:
            if not (self.variant == "gin" and code in GIN_END_BONUSES):
                ledger_sum[seat] += points
        self.check(
            all(ledger_sum[s] == hp[s] for s in g.seats), "ledger", f"hand points {hp} != ledger lines {g.ledger}"
        )
        if self.variant == "gin":
            self.score_gin(hp)
        elif self.variant in BASIC_FAMILY:
            self.score_basic(hp)
        elif self.variant in ("tradicional", "dummy"):
            self.score_collect(hp)
        self.check_replay()

    def score_collect(self, hp: dict[str, Number]) -> None:
        """Tradicional (§4.5): the winner collects every other hand, doubled for a "Rummy".
        Dummy (§5.6): the player who went out scores 0, the others their hands (penalty)."""
        g = self.game
        res = g.result
        if res.outcome != "out":
            self.check(all(p == 0 for p in hp.values()), "void_points", f"{res.outcome} deal scored {hp}")
            return
        w = res.winner
        self.check(not g.hand(w), "went_out", f"{w} went out holding {g.hand(w)}")
        counts = {s: g.hand_value(g.hands[s]) for s in g.seats if s != w and s in g.active}
        if self.variant == "tradicional":
            rummy = self.rummy_expected
            self.check(res.going_rummy == rummy, "going_rummy", f"Rummy={res.going_rummy}, expected {rummy}")
            want = {s: 0 for s in g.seats}
            want[w] = sum(counts.values()) * (2 if rummy else 1)
        else:
            want = {s: counts.get(s, 0) for s in g.seats}
        self.check(hp == want, "collect_score", f"hand points {hp}, expected {want}")

    def score_gin(self, hp: dict[str, Number]) -> None:
        g, o = self.game, self.opts
        res = g.result
        self.check(all(p >= 0 for p in hp.values()), "gin_points", f"negative hand points {hp}")
        self.check(sum(1 for p in hp.values() if p) <= 1, "gin_points", f"two seats scored {hp}")
        if res.outcome == "void":
            self.check(all(p == 0 for p in hp.values()), "gin_points", f"a void deal scored {hp}")
        else:
            owners = {m.owner for m in g.melds}
            self.check(len(owners) == 1, "gin_knock", f"table melds owned by {owners}")
            knocker = owners.pop()
            defender = next(s for s in g.seats if s != knocker)
            k = sum(card_value(c, "gin", "low") for c in g.hand(knocker))
            d = gin_min_deadwood(g.hand(defender))
            self.check(k <= o["knock_limit"], "gin_knock", f"knocked with {k} deadwood")
            want: dict[str, Number] = {knocker: 0, defender: 0}
            if k == 0:
                outcome, winner = "gin", knocker
                want[knocker] = o["gin_bonus"] + d
            elif k < d:
                outcome, winner = "knock", knocker
                want[knocker] = d - k
            elif k == d and not o["undercut_on_tie"]:
                outcome, winner = "tie", None
            else:
                outcome, winner = "undercut", defender
                want[defender] = o["undercut_bonus"] + k - d
            self.check(
                (res.outcome, res.winner, hp) == (outcome, winner, want),
                "gin_score",
                f"k={k} d={d}: engine {res.outcome}/{res.winner}/{hp}, expected {outcome}/{winner}/{want}",
            )
            if winner is not None:
                self.wins[winner] += 1
        # §2.7: the game ends when a total reaches the target; bonuses go to the final scores only
        leader = max(g.seats, key=lambda s: g.totals[s])
        over = g.totals[leader] >= o["target"]
        self.check(g.game_over == over, "game_end", f"game_over={g.game_over} with totals {g.totals}")
        if over:
            loser = next(s for s in g.seats if s != leader)
            won = {s: self.start_won.get(s, 0) + self.wins[s] for s in g.seats}
            final = {s: g.totals[s] + o["line_bonus"] * won[s] for s in g.seats}
            final[leader] += o["game_bonus"] + (o["shutout_bonus"] if won[loser] == 0 else 0)
            self.check(g.winners == [leader], "game_end", f"winners {g.winners}, leader {leader}")
            self.check(g.final_scores == final, "final_scores", f"final {g.final_scores} != {final} (won {won})")

    def score_basic(self, hp: dict[str, Number]) -> None:
        g, o = self.game, self.opts
        res = g.result
        mode = o["scoring_mode"]
        counts = {s: sum(card_value(c, self.variant, o["ace_mode"]) for c in g.hand(s)) for s in g.seats}
        want: dict[str, Number] = dict.fromkeys(g.seats, 0)
        if res.outcome == "out":
            w = res.winner
            self.check(counts[w] == 0 and not g.hand(w), "went_out", f"{w} went out holding {g.hand(w)}")
            rummy = self.rummy_expected
            self.check(res.going_rummy == rummy, "going_rummy", f"going_rummy={res.going_rummy}, expected {rummy}")
            factor = 2 if rummy and o["going_rummy"] == "double" else 1
            bonus = 10 if rummy and o["going_rummy"] == "plus10" else 0
            losers = [s for s in g.seats if s != w]
            if mode == "winner_collects":
                want[w] = sum(counts[s] for s in losers) * factor + bonus
            elif mode == "penalty":
                for s in losers:
                    want[s] = counts[s] * factor
                want[w] = -bonus  # the engine's reading of plus10 when low totals win
            else:
                for s in losers:
                    want[s] = -counts[s] * factor
                want[w] = sum(counts[s] for s in losers) * factor + bonus
            if o["last_discard_required"]:
                self.check(self.last_verb in ("discard", "timeout"), "last_discard", f"went out by {self.last_verb}")
        else:
            self.check(res.outcome == "blocked", "result", f"outcome {res.outcome}")
            low = min(counts.values())
            lows = [s for s in g.seats if counts[s] == low]
            pot = sum(c - low for c in counts.values())
            for s in g.seats:
                if mode == "penalty":
                    want[s] = counts[s]
                elif s in lows:
                    want[s] = Fraction(pot, len(lows))
                elif mode == "settle":
                    want[s] = -(counts[s] - low)
        self.check(hp == want, "basic_score", f"{res.outcome}: hand points {hp}, expected {want} (counts {counts})")
        if self.variant == "wrotham":
            over = g.deal_no >= 6  # §1.9: six deals make a game
        else:
            kind, _, num = o["game_end"].partition(":")
            played = g.deal_no - self.first_deal + 1
            over = played >= int(num) if kind == "hands" else any(t >= int(num) for t in g.totals.values())
        self.check(g.game_over == over, "game_end", f"game_over={g.game_over} at deal {g.deal_no}, totals {g.totals}")
        if over:
            pick = min if mode == "penalty" else max
            best = pick(g.totals.values())
            self.check(
                g.winners == [s for s in g.seats if g.totals[s] == best] and g.final_scores == g.totals,
                "game_end",
                f"winners {g.winners}, final {g.final_scores}, totals {g.totals}",
            )


# ----------------------------------------------------------------------------- entry points


def play_game(setup: Setup, rng: random.Random, cfg: Config | None = None, stats: Stats | None = None) -> Stats:
    """Play one game of ``setup``; raises ``PlayoutFailure`` at the first broken invariant."""
    stats = stats if stats is not None else Stats()
    cfg = cfg or Config()
    try:
        game = Playout(setup, rng, cfg, stats)
    except IllegalMove as err:
        raise PlayoutFailure("setup_refused", f"{err.code}: {err}", setup, setup.start_text) from None
    game.run()
    return stats


_STOP = False  # set by SIGTERM/SIGINT in the script: finish the current game, then report


def _request_stop(signum: int, frame: Any) -> None:
    global _STOP
    _STOP = True


def run_deals(
    variant: str,
    deals: int,
    seed: int = 0,
    cfg: Config | None = None,
    keep_going: bool = False,
    progress: int = 0,
) -> Stats:
    """Play games of ``variant`` until ``deals`` deals are done. Without ``keep_going`` the first
    failure is raised; with it, failures are collected in ``stats.failures`` and play goes on."""
    cfg = cfg or Config()
    rng = random.Random(f"{variant}:{seed}")
    stats = Stats()
    next_report = progress
    t0 = time.perf_counter()
    while stats.deals < deals and not _STOP:
        setup = random_setup(variant, rng)
        game_rng = random.Random(rng.randrange(2**63))
        try:
            play_game(setup, game_rng, cfg, stats)
        except PlayoutFailure as failure:
            if not keep_going:
                raise
            stats.failures.append(failure)
            stats.deals += 1  # count the broken deal so a systematic failure cannot loop forever
        if progress and stats.deals >= next_report:
            rate = stats.deals / (time.perf_counter() - t0)
            print(
                f"  {variant}: {stats.deals} deals ({rate:.1f}/s), {len(stats.failures)} failures",
                file=sys.stderr,
                flush=True,
            )
            next_report += progress
    return stats


def run_chunk(variant: str, deals: int, seed: int, cfg: Config) -> dict[str, Any]:
    """``run_deals`` with ``keep_going``, summarised in plain (picklable) values for a process pool."""
    t0 = time.perf_counter()
    stats = run_deals(variant, deals, seed, cfg, keep_going=True)
    return {
        "variant": variant,
        "seed": seed,
        "deals": stats.deals,
        "games": stats.games,
        "moves": stats.moves,
        "seconds": time.perf_counter() - t0,
        "outcomes": dict(stats.outcomes),
        "failures": [(f.kind, f.report()) for f in stats.failures],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.engine.playout", description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="all", choices=(*VARIANTS, "all"))
    ap.add_argument("--deals", type=int, default=1000, help="deals per variant")
    ap.add_argument("--seed", type=int, default=0)
    d = Config()  # the defaults are the test suite's settings
    ap.add_argument("--junk", type=float, default=d.junk, help="chance per position of junk moves")
    ap.add_argument("--probe", type=float, default=d.probe, help="chance per position of the listed-move probe")
    ap.add_argument("--replay-mid", type=float, default=d.replay_mid, help="chance per move of a mid-deal replay")
    ap.add_argument("--max-deals", type=int, default=d.max_deals, help="deal cap per game")
    ap.add_argument("--views", type=float, default=d.views, help="chance per move of checking the views")
    ap.add_argument("--keep-going", action="store_true", help="collect failures instead of stopping at the first")
    ap.add_argument("--progress", type=int, default=0, help="report every N deals")
    ap.add_argument("--show", type=int, default=3, help="full reproducers shown per failure kind")
    ap.add_argument("--save", metavar="DIR", help="write every failure's reproducer to DIR")
    args = ap.parse_args(argv)
    cfg = Config(
        junk=args.junk, probe=args.probe, replay_mid=args.replay_mid, views=args.views, max_deals=args.max_deals
    )
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    signal.signal(signal.SIGTERM, _request_stop)  # e.g. from `timeout`: report what was played
    signal.signal(signal.SIGINT, _request_stop)
    failed = False
    for variant in variants:
        t0 = time.perf_counter()
        try:
            stats = run_deals(variant, args.deals, args.seed, cfg, args.keep_going, args.progress)
        except PlayoutFailure as failure:
            print(f"{variant}: FAILED after {time.perf_counter() - t0:.1f}s\n{failure.report()}")
            failed = True
            continue
        dt = time.perf_counter() - t0
        if _STOP:
            print(f"{variant}: stopped early by a signal")
        print(
            f"{variant}: {stats.deals} deals in {dt:.1f}s = {stats.deals / dt:.1f} deals/s; "
            f"{stats.games} games ({stats.games_over} finished), {stats.moves} moves, "
            f"{stats.junk} junk tried ({stats.junk_accepted} accepted), {stats.timeouts} timeouts, "
            f"{stats.probes} probes, {stats.replays} replays, {len(stats.failures)} failures"
        )
        print("  outcomes: " + ", ".join(f"{k}={n}" for k, n in sorted(stats.outcomes.items())))
        by_kind: dict[str, list[PlayoutFailure]] = {}
        for f in stats.failures:
            by_kind.setdefault(f.kind, []).append(f)
        for kind, group in sorted(by_kind.items()):
            print(f"  FAILURE {kind}: {len(group)}")
            for f in sorted(group, key=lambda f: len(f.record))[: args.show]:
                print("    " + f.report().replace("\n", "\n    "))
        if args.save and stats.failures:
            out = Path(args.save)
            out.mkdir(parents=True, exist_ok=True)
            for i, f in enumerate(stats.failures):
                (out / f"{variant}-{f.kind}-{i}.txt").write_text(f.report() + "\n")
        failed = failed or bool(stats.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
