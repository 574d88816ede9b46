"""Sample views for the gallery, the tests, the benchmark and the shared palette.

What it is: deterministic ``PublicView`` and ``SeatView`` objects built directly as the frozen
dataclasses they are, for positions a short random game does not reach (eight seats and thirty
melds, every seat with a contract, a long open discard pile) and for a hand held at a known
moment (``built_hand``); views of games played out by a seeded driver are ``scripts/played.py``'s
(renderers never play a move nor load a game). What it is not: not used by the bot's games, and
no rules: a built view is only as plausible as the cards written here.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.engine.views import DealResult, Meld, PublicView, SeatInfo, SeatResult, SeatView

__all__ = ["GIN_HAND", "NAMES", "OPTIONS", "SEATS", "built_hand", "built_result", "built_view"]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SEATS = ("ana", "bea", "cris", "dolo", "inigo", "majo", "alvaro", "zoe")
NAMES = {"ana": "Ana", "bea": "Begoña", "cris": "Cristóbal", "dolo": "Dolores", "inigo": "Íñigo",
         "majo": "María José", "alvaro": "Álvaro", "zoe": "Zoë"}
"""Display names with the accents and letters Spanish tables have (the seat ids are ASCII)."""

OPTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "rami": (("scoring_mode", "normal"), ("first_meld_min", "50"), ("discard_mode", "simple"),
             ("table_manipulation", "true"), ("identities", "false")),
    "tradicional": (("game_end", "target:100"), ("opt1_pozo_visible", "true"), ("opt2_rummy_call", "false"),
                    ("opt3_ace_high_low", "true"), ("opt4_continuous", "false"), ("opt5_two_turns", "false")),
    "dummy": (("cut_ins", "true"), ("contract_sizes", "minimum"), ("game_end", "first_to_finish")),
}

GIN_HAND = ("9S", "QS", "3H", "4H", "5H", "6H", "7D", "9D", "KD", "2C", "9C")
"""Ana's eleven cards at the start of a gin deal, in the engine's display order (by suit): a run
of hearts, three nines and deadwood, the hand the shared palette samples."""


def _run(rng: random.Random, length: int, wild: str | None = None) -> tuple[str, ...]:
    suit = rng.choice(SUITS)
    start = rng.randrange(0, 13 - length + 1)
    cards = [RANKS[start + i] + suit for i in range(length)]
    if wild:
        i = rng.randrange(length)
        cards[i] = f"{wild}={cards[i]}"
    return tuple(cards)


def _set(rng: random.Random, size: int, wild: str | None = None) -> tuple[str, ...]:
    rank = rng.choice(RANKS[2:])
    suits = rng.sample(SUITS, min(size, 4))
    cards = [rank + s for s in sorted(suits, key=SUITS.index)]
    if wild:
        cards[-1] = f"{wild}={rank}" if size == 3 else f"{wild}={cards[-1]}"
    return tuple(cards)


def built_view(variant: str, seats: int, melds: int, *, seed: int = 1, acting: int = 0, dealer: int | None = None,
               visible_pile: int = 0) -> PublicView:
    """A mid-deal view built directly: ``melds`` melds spread over the seats (jokers and wild twos
    where the variant has them), seat 0..n-1 named from ``SEATS``, ``acting`` to play."""
    rng = random.Random(seed)
    names = SEATS[:seats]
    dealer = (acting - 1) % seats if dealer is None else dealer
    wilds = {"rami": "JK", "wrotham": "JK", "dummy": "2C"}.get(variant)
    one_deck = variant in ("basic", "gin", "tradicional", "wrotham")
    used: set[str] = set()
    table = []
    for number in range(1, melds + 1):
        owner = None if variant == "tradicional" else names[rng.randrange(seats)]
        for _ in range(200):  # a single deck holds each card once: draw again until the meld is new
            wild = wilds if wilds and rng.random() < 0.3 else None
            size = rng.choice((3, 3, 4, 5, 7)) if rng.random() < 0.55 else -rng.choice((3, 4))
            cards = _run(rng, size, wild) if size > 0 else _set(rng, -size, wild)
            naturals = {c.split("=")[-1] if c.startswith("JK") else c for c in cards}
            if not one_deck or not naturals & used:
                break
        used |= naturals
        table.append(Meld(number, owner, "run" if size > 0 else "set", cards))
    contracts = {i: rng.randrange(1, 13) for i in range(seats)} if variant == "dummy" else {}
    opened = {m.owner for m in table if m.owner} if variant in ("rami", "dummy") else set()
    infos = tuple(
        SeatInfo(name=s, card_count=rng.randrange(1, 14), total=rng.randrange(0, 400) if variant == "rami" else
                 rng.randrange(0, 90), is_dealer=i == dealer, is_acting=i == acting, opened=s in opened,
                 contract=contracts.get(i), resigned=False, deals_won=0)
        for i, s in enumerate(names)
    )
    pile = tuple(rng.choice(RANKS) + rng.choice(SUITS) for _ in range(visible_pile))
    top = pile[-1] if pile else rng.choice(RANKS) + rng.choice(SUITS)
    return PublicView(
        variant=variant, options=OPTIONS.get(variant, ()), deal_number=rng.randrange(1, 6), phase="play",
        seats=infos, dealer=names[dealer], current_seat=names[acting], actors=(names[acting],), table=tuple(table),
        discard_top=top, discard_count=max(len(pile), rng.randrange(1, 30)), discard_visible=pile,
        stock_count=rng.randrange(5, 60), revealed=(), last_move=f"{names[acting]} draw", hand_over=False,
        game_over=False, hand_points=(), winners=(), result=None,
    )


def built_result(view: PublicView, *, seed: int = 1, winner: int = 0) -> PublicView:
    """``view`` turned into a finished deal: the winner went out, the others hold a few cards."""
    rng = random.Random(seed)
    seats = [s.name for s in view.seats]
    results = []
    for i, name in enumerate(seats):
        hand = () if i == winner else tuple(rng.choice(RANKS) + rng.choice(SUITS) for _ in range(rng.randrange(1, 6)))
        count = sum(min(10, RANKS.index(c[0]) + 1) for c in hand)
        results.append(SeatResult(name, hand, (), hand, count, (), 0))
    points = sum(r.count for r in results)
    results[winner] = replace(results[winner], points=points)
    infos = tuple(replace(s, is_acting=False, total=s.total + (points if i == winner else 0))
                  for i, s in enumerate(view.seats))
    return replace(view, phase="over", seats=infos, current_seat=None, actors=(), hand_over=True,
                   hand_points=tuple((r.name, r.points) for r in results),
                   result=DealResult("out", seats[winner], tuple(results), going_rummy=False),
                   revealed=tuple((r.name, r.hand) for r in results if r.hand))


def built_hand(hand: tuple[str, ...] = GIN_HAND, *, drawn: str | None = None, took: str | None = None) -> SeatView:
    """Ana's view of her gin ``hand`` on her first turn against Bea (the dealer): an empty table,
    one card (KS) on the pile and the rest of the deck in the stock, as ``Game.view`` gives it."""
    seats = (SeatInfo(name="ana", card_count=len(hand), total=0, is_dealer=False, is_acting=True, opened=False,
                      contract=None, resigned=False, deals_won=0),
             SeatInfo(name="bea", card_count=10, total=0, is_dealer=True, is_acting=False, opened=False,
                      contract=None, resigned=False, deals_won=0))
    public = PublicView(
        variant="gin", options=(), deal_number=1, phase="play", seats=seats, dealer="bea",
        current_seat="ana", actors=("ana",), table=(), discard_top="KS", discard_count=1, discard_visible=(),
        stock_count=52 - len(hand) - 10 - 1, revealed=(), last_move=None, hand_over=False, game_over=False,
        hand_points=(), winners=(), result=None,
    )
    return SeatView(seat="ana", public=public, hand=hand, drawn=drawn, took=took)
