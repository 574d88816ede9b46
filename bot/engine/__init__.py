"""The rules engine: pure, standard library only; knows nothing of Discord, SQL or pixels.

Public contract (``../shared/notation.md``): ``load_game``, ``new_game``, ``IllegalMove`` and the
``Game`` they return, whose moves return ``Event``s; the view dataclasses in ``views``.
Extensions the bot uses:

* ``make_rules`` (validate a lobby's options before a game exists) and its
  ``RuleSet.window_seconds`` (the claim / cut-in window length the rule set gives, or None);
  ``PLAYERS`` (each variant's seat range), ``VARIANTS``, ``OPTION_SPECS``;
* ``Move``, ``Verb``, ``HAND_VERBS``, ``parse_line``, ``log_moves`` (``move``): the one typed move and the
  answers about its verb; ``Game.play`` takes a ``Move`` or RGN text;
* ``keeps_ledger(variant)``; on every ``Game`` (``answers``): ``may_build``, ``opening_minimum``,
  ``trial`` (a copy with a move played), ``hand_after`` (the hand a move leaves, as its seat knows),
  ``opening_points`` (new melds as an opening counts them); ``loose_entry`` (a card out of a meld);
* ``deal_steps``: the public views of one deal of a record, move by move (what a replay shows;
  only finished games' records may be replayed, notation.md "Shuffling");
* ``Phase`` (``game.phase`` is one) and ``EventKind`` (every ``Event.kind``), both ``StrEnum``s;
* on every ``Game``: ``accepts(seat, move)`` (try a move on a copy), ``meld_targets(seat, verb,
  cards)`` (the melds a layoff or swap of those cards may go to), ``can_rearrange(seat)`` (may a
  ``table`` move be played now), ``resigned``, ``eliminated``, ``seats_out`` and ``first_deal``.

Everything else is internal. What this package is not: the bot's clock, storage or wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .answers import loose_entry
from .display import SORTS, HandGroup, group_hand
from .dummy import DummyRummy
from .errors import IllegalMove
from .events import Event, EventKind, Phase
from .game import Game
from .gin import GinRummy
from .knowledge import stock_as_known, turned_stock
from .move import HAND_VERBS, Move, Verb, log_moves, parse_line
from .options import OPTION_SPECS, PLAYERS, VARIANTS, make_rules
from .rami import Rami
from .rgn import SEAT_RE, parse_record, tag_line
from .rng import DealRandom, new_seed
from .rummy import BasicRummy, Wrotham
from .tradicional import Tradicional
from .views import DealResult, Meld, PublicView, ReplayStep, SeatInfo, SeatResult, SeatView

_CLASSES: dict[str, type[Game]] = {
    "basic": BasicRummy,
    "wrotham": Wrotham,
    "gin": GinRummy,
    "rami": Rami,
    "tradicional": Tradicional,
    "dummy": DummyRummy,
}

__all__ = [
    "HAND_VERBS",
    "OPTION_SPECS",
    "PLAYERS",
    "SORTS",
    "VARIANTS",
    "DealResult",
    "Event",
    "EventKind",
    "Game",
    "HandGroup",
    "IllegalMove",
    "Meld",
    "Move",
    "Phase",
    "PublicView",
    "ReplayStep",
    "SeatInfo",
    "SeatResult",
    "SeatView",
    "Verb",
    "deal_steps",
    "group_hand",
    "keeps_ledger",
    "load_game",
    "log_moves",
    "loose_entry",
    "make_rules",
    "new_game",
    "new_seed",
    "parse_line",
    "stock_as_known",
    "turned_stock",
]

_POSITION_TAGS = (
    "Hand",
    "Stock",
    "Discard",
    "Table",
    "Turn",
    "Phase",
    "Took",
    "Placed",
    "Opened",
    "Credits",
    "Contract",
    "Cuts",
)
_GAME_TAGS = ("Totals", "Won")
_KNOWN = ("Variant", "Options", "Seats", "Dealer", "Seed", "Deal", *_POSITION_TAGS, *_GAME_TAGS)
_SEED_RE = SEAT_RE


def keeps_ledger(variant: str) -> bool:
    """Whether ``variant``'s deals are explained line by line in ``game.ledger`` (rami §3.8,
    tradicional §4.7); ``KeyError`` for an unknown variant."""
    return _CLASSES[variant].keeps_ledger


def _check_seats(variant: str, seats: list[str]) -> None:
    for s in seats:
        if not SEAT_RE.match(s):
            raise IllegalMove("bad_seat", f"{s!r} is not a valid seat name", {"seat": s})
    if len(set(seats)) != len(seats):
        raise IllegalMove("bad_seat", "seat names must be unique", {})
    lo, hi = PLAYERS[variant]
    if not lo <= len(seats) <= hi:
        raise IllegalMove(
            "player_count", f"{variant} is for {lo} to {hi} players", {"variant": variant, "min": lo, "max": hi}
        )


def _header(game: Game, extra: list[str]) -> list[str]:
    lines = [tag_line("Variant", game.variant)]
    opts = game.rules.options_text()
    if opts:
        lines.append(tag_line("Options", opts))
    lines.append(tag_line("Seats", " ".join(game.seats)))
    lines.append(tag_line("Dealer", game.seats[game.dealer]))
    if game.seed is not None:
        lines.append(tag_line("Seed", game.seed))
    if game.first_deal != 1:
        lines.append(tag_line("Deal", str(game.first_deal)))
    return lines + extra


def new_game(
    variant: str,
    seats: list[str],
    seed: int | str | None = None,
    options: Mapping[str, Any] | str | None = None,
    dealer: str | None = None,
    first_deal: int = 1,
) -> Game:
    """Start a game and deal its first hand. Without a seed one comes from ``secrets``; without a
    dealer, the seed picks one (rules.md §0.4: the first dealer is random)."""
    rules = make_rules(variant, options)
    seats = list(seats)
    _check_seats(variant, seats)
    seed_text = new_seed() if seed is None else str(seed)
    if not _SEED_RE.match(seed_text):
        raise IllegalMove("bad_seed", "a seed is 1-32 letters, digits, '_' or '-'", {"seed": seed_text})
    if dealer is None:
        d = DealRandom(seed_text, 0, "dealer").randbelow(len(seats))
    elif dealer in seats:
        d = seats.index(dealer)
    else:
        raise IllegalMove("unknown_seat", f"{dealer} has no seat in this game", {"seat": dealer})
    game = _CLASSES[variant](rules, seats, d, seed_text, first_deal)
    game.header = _header(game, [])
    game.start_deal()
    return game


def load_game(text: str) -> Game:
    """Parse an RGN record, lay out its position, and apply every move; IllegalMove (with
    ``line``) at the first thing that cannot be read or played."""
    rec = parse_record(text)
    tags: dict[str, list[list[str]]] = {}
    lines: dict[str, int] = {}
    for name, args, line in rec.tags:
        if name not in _KNOWN:
            raise IllegalMove("bad_record", f"unknown tag [{name}]", {"tag": name}, line=line)
        if name != "Hand" and name in tags:
            raise IllegalMove("bad_record", f"the tag [{name}] appears twice", {"tag": name}, line=line)
        tags.setdefault(name, []).append(args)
        lines.setdefault(name, line)
    current = 0
    try:
        for required in ("Variant", "Seats"):
            if required not in tags:
                raise IllegalMove("bad_record", f"a record needs a [{required}] tag", {"tag": required})
        current = lines["Variant"]
        variant = tags["Variant"][0][0]
        options = tags["Options"][0][0] if "Options" in tags else None
        rules = make_rules(variant, options)
        current = lines["Seats"]
        seats = tags["Seats"][0][0].split()
        _check_seats(variant, seats)
        dealer = len(seats) - 1
        if "Dealer" in tags:
            current = lines["Dealer"]
            name = tags["Dealer"][0][0]
            if name not in seats:
                raise IllegalMove("unknown_seat", f"[Dealer] names {name}, who has no seat", {"seat": name})
            dealer = seats.index(name)
        seed = tags["Seed"][0][0] if "Seed" in tags else None
        first = int(tags["Deal"][0][0]) if "Deal" in tags else 1
        game = _CLASSES[variant](rules, seats, dealer, seed, first)
        extra: list[str] = []
        for name, args, _ in rec.tags:
            if name in _POSITION_TAGS or name in _GAME_TAGS:
                extra.append(tag_line(name, *[" ".join(a.split()) for a in args]))
        game.header = _header(game, extra)
        current = min((lines[t] for t in _POSITION_TAGS + _GAME_TAGS if t in lines), default=current)
        game.apply_game_tags(tags)
        layout = game.layout_from_tags(tags)
        game.start_deal(layout)
    except IllegalMove as err:
        err.line = err.line or current or None
        raise
    for kind, seat, move, line in rec.body:
        try:
            if kind == "deal":
                game.next_deal()
                if game.deal_no != int(move):
                    raise IllegalMove(
                        "bad_record",
                        f"expected deal {game.deal_no}, the record says {move}",
                        {"expected": game.deal_no},
                    )
            else:
                game.play(seat, move)
        except IllegalMove as err:
            err.line = line
            raise
    return game


def deal_steps(record: str, deal: int | None = None) -> list[ReplayStep]:
    """Every public view of one deal of ``record``: as dealt, then after each move.

    ``deal`` is the deal number (``[Deal "n"]``); None means the record's first deal.
    ``ValueError`` when the record has no such deal."""
    rec = parse_record(record)
    lines = record.splitlines()
    first_move = min((line for _, _, _, line in rec.body), default=len(lines) + 1)
    game = load_game("\n".join(lines[: first_move - 1]))
    target = game.deal_no if deal is None else deal
    steps: list[ReplayStep] = []
    if game.deal_no == target:
        steps.append(ReplayStep(game.public_view(), None))
    for kind, seat, move, _line in rec.body:
        if kind == "deal":
            if game.deal_no == target:
                break
            game.next_deal()
            if game.deal_no == target:
                steps.append(ReplayStep(game.public_view(), None))
            continue
        before = steps[-1].view if steps else None
        typed = Move.read(move)  # the record's line, read once
        game.play(seat, typed)
        if game.deal_no == target:
            took = before.discard_top if before is not None and typed.verb is Verb.TAKE else None
            steps.append(ReplayStep(game.public_view(), f"{seat} {move}", took))
    if not steps:
        raise ValueError(f"the record has no deal {target}")
    return steps
