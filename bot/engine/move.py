"""The typed move: one RGN move as a frozen value, and the engine's answers about its verb.

What it is: ``Verb`` (every RGN verb of notation.md "Moves", a ``StrEnum``), ``Move`` (verb, cards,
target meld, melds; a ``str`` of its canonical RGN text) with RGN parsing (``Move.parse``), and
``parse_line`` for a record line ``<seat> <move>``. It is the one vocabulary of moves: the hand
buttons, the move builder, autocomplete, robots, hints, the replay and the service all use it, so
that nothing outside the engine takes an RGN move apart by hand.

What it is not: a judge. ``Move.parse`` only reads the shape of a move (which verb, which words
are cards, which meld it goes to); whether the move is legal, and what a wild card stands for, is
the game's question (``Game.play`` / ``Game.accepts``). Card words are kept as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from itertools import chain

from .cards import CODES
from .errors import IllegalMove

__all__ = ["HAND_VERBS", "Move", "Verb", "card_move", "log_moves", "parse_line"]


class Verb(StrEnum):
    """Every RGN verb (notation.md "Moves")."""

    DRAW = "draw"
    TAKE = "take"
    PASS = "pass"
    MELD = "meld"
    LAYOFF = "layoff"
    SWAP = "swap"
    TABLE = "table"
    DISCARD = "discard"
    KNOCK = "knock"
    DONE = "done"
    AUTO = "auto"
    CUT = "cut"
    ALLOW = "allow"
    CLAIM = "claim"
    TIMEOUT = "timeout"
    RESIGN = "resign"

    @property
    def needs_one_card(self) -> bool:
        """Exactly one card from the hand: a discard, a knock's discard, a claim's card in exchange."""
        return self in _ONE_CARD

    @property
    def needs_target(self) -> bool:
        """Cards go ``to`` a meld on the table: a layoff or a swap (notation.md "Numbering")."""
        return self in _TARGETED

    @property
    def takes_cards(self) -> bool:
        """The player picks cards from the hand for it."""
        return self in _CARDS

    @property
    def clock_only(self) -> bool:
        """Written only by the clock's ``game.timeout`` (notation.md), never played by a person."""
        return self is Verb.TIMEOUT

    @property
    def from_hand(self) -> bool:
        """A person plays it from the hand message (one of ``HAND_VERBS``)."""
        return self in HAND_VERBS

    @property
    def puts_cards_down(self) -> bool:
        """Cards leave the hand for the table (new melds, a layoff, a swap's natural card, a rearranged table)."""
        return self in _PLACING


_ONE_CARD = frozenset({Verb.DISCARD, Verb.KNOCK, Verb.CLAIM})
_TARGETED = frozenset({Verb.LAYOFF, Verb.SWAP})
_CARDS = frozenset({Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.DISCARD, Verb.KNOCK, Verb.CLAIM})
_PLACING = frozenset({Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.TABLE})

HAND_VERBS: tuple[Verb, ...] = (
    Verb.DRAW, Verb.TAKE, Verb.PASS, Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.DISCARD, Verb.KNOCK,
    Verb.CLAIM, Verb.CUT, Verb.ALLOW, Verb.DONE, Verb.AUTO, Verb.TABLE,
)
"""The verbs a person plays from the hand message, in the order its buttons are shown; ``resign``
has its own button on the table and ``timeout`` is the clock's."""


def _melds_text(melds: Iterable[Iterable[str]]) -> str:
    return " | ".join([" ".join(meld) for meld in melds])


class Move(str):
    """One move without its seat: a ``str`` holding its canonical RGN text, with its parts typed.

    A move is its text the way a ``StrEnum`` member is its value: ``Move.parse("discard KS") ==
    "discard KS"``, so notation.md's contract (``legal_moves`` gives ``list[str]``, ``play`` takes
    text) holds to the letter, while the code that makes or reads a move uses the parts and never
    takes the text apart again. It is immutable, hashes as its text and pickles by its parts.

    * ``verb``: the ``Verb``;
    * ``cards``: the one card of a discard, knock or claim; the cards of a layoff or swap; every
      card of every new meld of a ``meld`` move, in order; nothing for a ``table`` move (its hand
      cards are the difference with the table, which only the game knows);
    * ``target``: the meld number a layoff or swap goes ``to``;
    * ``melds``: the new melds of a ``meld`` move, the complete table of a ``table`` move, the
      arrangement a ``knock`` names after ``:`` (empty: the engine arranges).
    """

    verb: Verb
    cards: tuple[str, ...]
    target: int | None
    melds: tuple[tuple[str, ...], ...]
    refusal: IllegalMove | None = None
    """Only on a move ``Move.read`` took from text whose shape ``parse`` refuses: that refusal
    (not kept in a pickle; the game never records such a move)."""

    __match_args__ = ("verb", "cards", "target", "melds")

    def __new__(
        cls, verb: Verb | str, cards: Iterable[str] = (), target: int | None = None,
        melds: Iterable[Iterable[str]] = (),
    ) -> Move:
        if not isinstance(verb, Verb):
            verb = Verb(verb)
        picked: tuple[str, ...] = cards if isinstance(cards, tuple) else tuple(cards)
        groups: tuple[tuple[str, ...], ...]
        if melds == () or (isinstance(melds, tuple) and all(isinstance(meld, tuple) for meld in melds)):
            groups = melds  # (a tuple of tuples, checked just above)
        else:
            groups = tuple(tuple(meld) for meld in melds)
        return cls.from_parts(verb, picked, target, groups)

    @classmethod
    def from_parts(
        cls, verb: Verb, cards: tuple[str, ...], target: int | None, melds: tuple[tuple[str, ...], ...]
    ) -> Move:
        """``Move(...)`` for parts already in their types (a ``Verb``, tuples), taken as they are:
        the engine builds every listed move this way, on every turn."""
        self = str.__new__(cls, _text(verb, cards, target, melds))
        parts = self.__dict__
        parts["verb"], parts["cards"], parts["target"], parts["melds"] = verb, cards, target, melds
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Move is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Move is immutable: cannot delete {name!r}")

    # A Move is rebuilt from its parts (``str`` rebuilds from its text alone).
    def __getnewargs__(self) -> tuple[Verb, tuple[str, ...], int | None, tuple[tuple[str, ...], ...]]:  # type: ignore[override]
        return (self.verb, self.cards, self.target, self.melds)

    def __getstate__(self) -> None:
        return None  # everything is in __getnewargs__

    def __repr__(self) -> str:
        return f"Move({str.__repr__(self)})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read an RGN move (notation.md "Moves"); ``IllegalMove("bad_move")`` when its shape is
        not one (an empty move, an unknown verb, ``to`` without a meld number, an empty meld)."""
        if isinstance(text, Move):
            return text
        known = _KNOWN.get(text)  # (a record's canonical draws, takes and discards)
        return known if known is not None else _read(text, strict=True)

    @classmethod
    def read(cls, text: str) -> Move:
        """A typed move as ``Game.play`` reads it, once, at its door. Every move ``parse`` accepts
        is read the same, but for ``knock KD :``: an arrangement that names no meld, kept as one
        empty meld (the knocker's own arrangement, not the engine's, rules.md §2.3). A move whose
        shape ``parse`` refuses is read anyway, into the parts the game judges (a layoff without
        ``to`` and a number has no ``target`` and no cards, an empty meld between ``|`` stays
        empty), with that refusal kept as ``refusal``: the game refuses it where its rules come to
        the shape, after whose turn and which phase it is, as it refuses a Move built so. Raises
        only for an empty move (``bad_move``) or an unknown verb (``unknown_move``); a Move is
        returned unchanged."""
        if isinstance(text, Move):
            return text
        known = _KNOWN.get(text)
        return known if known is not None else _read(text, strict=False)

    @classmethod
    def of(cls, verb: Verb | str, cards: Iterable[str] = (), *, to: int | None = None) -> Move:
        """A move from its parts: a verb, the cards picked from the hand, and for a layoff or swap
        the meld they go ``to``. A ``meld`` built this way is one new meld of those cards.
        Nothing is judged: the game does that."""
        if not isinstance(verb, Verb):
            verb = Verb(verb)
        picked = cards if isinstance(cards, tuple) else tuple(cards)
        if not picked and to is None and cls is Move:
            return _BARE[verb]  # a move of no cards is one value, built once (a Move is immutable)
        melds = (picked,) if verb is Verb.MELD and picked else ()
        return cls(verb, picked, to, melds)

    @classmethod
    def table_of(cls, melds: Iterable[Iterable[str]]) -> Move:
        """A ``table`` move: the complete table after it, meld by meld."""
        return cls(Verb.TABLE, (), None, tuple(tuple(meld) for meld in melds))

    @classmethod
    def table_typed(cls, text: str) -> Move:
        """The ``table`` move a player wrote in a box: one meld a line, or ``|`` between melds;
        blank lines and spaces as they come. An empty meld is refused as ``bad_move``."""
        lines = [line for line in text.replace("|", "\n").splitlines() if line.strip()]
        return cls.parse("table " + " | ".join(" ".join(line.split()) for line in lines))

    @property
    def card(self) -> str | None:
        """The one card of a discard, knock or claim (the first card of any other move), if any."""
        return self.cards[0] if self.cards else None


def _text(verb: Verb, cards: tuple[str, ...], target: int | None, melds: tuple[tuple[str, ...], ...]) -> str:
    """The canonical RGN text of a move: ``Move.parse(t) == t`` for every move the engine writes."""
    if verb is Verb.MELD:
        return f"meld {_melds_text(melds or (cards,))}"
    if verb is Verb.TABLE:
        return f"table {_melds_text(melds)}" if melds else "table"
    text = " ".join((verb, *cards)) if cards else str(verb)
    if target is not None:
        text = f"{text} to {target}"
    if verb is Verb.KNOCK and melds:
        text += f" : {_melds_text(melds)}"
    return text


_VERB_OF: dict[str, Verb] = {str(verb): verb for verb in Verb}
_BARE: dict[Verb, Move] = {verb: Move(verb) for verb in Verb}
_ONE_CARD_MOVES: dict[Verb, tuple[Move, ...]] = {
    verb: tuple(Move(verb, (code,)) for code in CODES) for verb in _ONE_CARD
}
# The moves most lines of a record hold, found by their canonical text (``Move.read``).
_KNOWN: dict[str, Move] = {str(move): move for move in (*_BARE.values(), *chain(*_ONE_CARD_MOVES.values()))}


def card_move(verb: Verb, card: int) -> Move:
    """The move of one card given by its number (``discard KS``, ``knock KD``, ``claim 9C``):
    one value per card, built once, since ``legal_moves`` lists them on every turn."""
    return _ONE_CARD_MOVES[verb][card]


def _read(text: str, strict: bool) -> Move:
    """``Move.parse`` (``strict``) or ``Move.read``: the one reading of a move's text."""
    words = text.split()
    if not words:
        raise IllegalMove("bad_move", "an empty move", {})
    verb = _VERB_OF.get(words[0].lower())
    if verb is None:
        raise IllegalMove("unknown_move", f"{words[0]!r} is not a move", {"verb": words[0].lower()})
    rest = text.strip()[len(words[0]) :].strip()
    refusal: IllegalMove | None = None
    make = Move.from_parts
    if verb is Verb.MELD or verb is Verb.TABLE:
        if not rest and (verb is Verb.TABLE or not strict):
            return _BARE[verb]
        melds, refusal = _groups(rest)
        move = make(verb, tuple(chain.from_iterable(melds)) if verb is Verb.MELD else (), None, melds)
    elif verb is Verb.KNOCK:
        head, colon, tail = rest.partition(":")
        if tail.strip():
            melds, refusal = _groups(tail)
        else:  # ``knock KD :`` names an arrangement of no meld; ``parse`` reads it as ``knock KD``
            melds = ((),) if colon and not strict else ()
        move = make(verb, tuple(head.split()), None, melds)
    elif verb.needs_target:
        left, sep, right = rest.rpartition(" to ")
        if sep and right.strip().isdigit():
            move = make(verb, tuple(left.split()), int(right), ())
        else:
            refusal = IllegalMove("bad_move", f"write {verb}, its cards, 'to' and the meld number", {"text": text})
            move = make(verb, tuple(left.split()), None, ())
    else:
        move = make(verb, tuple(words[1:]), None, ())
    if refusal is not None:
        if strict:
            raise refusal
        move.__dict__["refusal"] = refusal
    return move


def _groups(text: str) -> tuple[tuple[tuple[str, ...], ...], IllegalMove | None]:
    """The melds between ``|`` separators, and the refusal of an empty one (``parse`` raises it)."""
    groups = tuple(tuple(group.split()) for group in text.split("|"))
    if all(groups):
        return groups, None
    return groups, IllegalMove("bad_move", "an empty meld between '|' separators", {"text": text})


def check_groups(move: Move, groups: Iterable[tuple[str, ...]]) -> None:
    """Refuse an empty meld between ``|`` separators (``bad_move``), as ``Move.parse`` refuses it in
    text: with the refusal ``Move.read`` kept, for a move read from text."""
    groups = tuple(groups)
    if not all(groups):
        raise move.refusal or IllegalMove(
            "bad_move", "an empty meld between '|' separators", {"text": _melds_text(groups).strip()}
        )


def parse_line(line: str) -> tuple[str, Move]:
    """A record line ``<seat> <move>`` (notation.md "Moves") as the seat and its move."""
    seat, _, text = line.partition(" ")
    known = _KNOWN.get(text)
    if known is not None and seat.isprintable():  # the engine's own line of a draw, take, discard ...
        return seat, known  # (a printable seat holds no whitespace but the space it was cut at)
    words = line.split(maxsplit=1)
    if len(words) < 2:
        raise IllegalMove("bad_move", "a record line is a seat and a move", {"text": line})
    return words[0], Move.parse(words[1])


def log_moves(lines: Iterable[str]) -> Iterator[tuple[str, Move]]:
    """The moves of a game's log (``game.log``) or a record's move lines, as (seat, move); the
    ``[Deal "n"]`` lines that start the next deal (notation.md "A record") are passed over."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("["):
            yield parse_line(line)
