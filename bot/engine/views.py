"""What a seat or an onlooker may see: frozen dataclasses built by ``Game.view``/``public_view``.

Renderers and the bot read only these. A ``PublicView`` never holds a hidden card: hands appear
as counts until a deal is over (or, in gin, once they are spread after a knock). A ``SeatView``
adds that seat's own hand and nothing of anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table: ``number`` is what ``layoff 7H to 3`` uses; cards are canonical codes."""

    number: int
    owner: str | None
    kind: str  # "run" | "set"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    card_count: int
    total: Number
    is_dealer: bool
    is_acting: bool
    opened: bool  # rami: has opened; dummy: has laid down the contract
    contract: int | None  # dummy only
    resigned: bool
    deals_won: int


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a deal: what it showed and what the deal gave it."""

    name: str
    hand: tuple[str, ...]  # cards left in hand (all of them, face up now)
    melds: tuple[tuple[str, ...], ...]  # how the engine arranged them (gin, blocked hands)
    deadwood: tuple[str, ...]
    count: Number  # deadwood / hand value that scored
    laid_off: tuple[str, ...]  # gin defender: cards laid off on the knocker's melds
    points: Number  # what this deal added to the total


@dataclass(frozen=True, slots=True)
class DealResult:
    outcome: str  # gin | knock | undercut | tie | void | out | blocked | resigned
    winner: str | None
    seats: tuple[SeatResult, ...]
    going_rummy: bool = False


@dataclass(frozen=True, slots=True)
class PublicView:
    variant: str
    options: tuple[tuple[str, str], ...]  # every option in force, name and written value
    deal_number: int
    phase: str
    seats: tuple[SeatInfo, ...]
    dealer: str
    current_seat: str | None
    actors: tuple[str, ...]
    table: tuple[Meld, ...]
    discard_top: str | None
    discard_count: int
    discard_visible: tuple[str, ...]  # the whole pile only where a rule shows it, else ()
    stock_count: int
    revealed: tuple[tuple[str, tuple[str, ...]], ...]  # cards spread face up (gin knocker's deadwood)
    last_move: str | None
    hand_over: bool
    game_over: bool
    hand_points: tuple[tuple[str, Number], ...]
    winners: tuple[str, ...]
    result: DealResult | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view: the public view plus its own hand."""

    seat: str
    public: PublicView
    hand: tuple[str, ...]  # sorted for display
    drawn: str | None  # the card just drawn from the stock this turn, if still in hand
    took: str | None  # the card just taken from the discard pile this turn


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay (``deal_steps``): the table after ``move`` (a record line ``<seat>
    <move>``; None for the deal as dealt); ``took`` is the card a bare ``take`` took, read from
    the view before it."""

    view: PublicView
    move: str | None
    took: str | None = None
