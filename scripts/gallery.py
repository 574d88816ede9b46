"""Write sample images of every renderer into docs/images/ (the README shows a few).

    python scripts/gallery.py            # rewrite docs/images/
    python scripts/gallery.py --list     # print what it would write

Every variant's table (2, 3, 4 and 8 seats; an empty table and a crowded one with 30 melds;
jokers, wild twos, contracts, an open discard pile, gin's layoff phase, the moves since the acting
seat's last turn), English and the four-colour deck, end-of-deal screens (gin's points itemised, a
void gin deal, a gin game's end with its bonuses), the hand in each sort, a gin hint's hand and a
rami hint's table with their hint banners, three steps of the rearrange builder's draft, a
replay, lobbies in each status, the standings, the skill ladder and a rating chart, and a
server's settings card. Games are played by
the engine with a seeded driver (``renderers.samples``); views are also built directly for what a
short random game does not reach (thirty melds, every contract). The output is deterministic:
running it twice writes the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Game, deal_steps, load_game  # noqa: E402
from bot.engine.views import PublicView, SeatView  # noqa: E402
from bot.service.reading import since_last_turn  # noqa: E402
from renderers import (  # noqa: E402
    HintMark,
    LobbyInfo,
    render_hand,
    render_lobby,
    render_replay,
    render_result,
    render_table,
)
from renderers.draft import draw_draft  # noqa: E402
from renderers.draft_samples import draft_steps  # noqa: E402
from renderers.encode import Rendered  # noqa: E402
from renderers.samples import NAMES, SEATS, built_view  # noqa: E402
from renderers.settings import render_settings  # noqa: E402
from renderers.settings_samples import sample_settings  # noqa: E402
from scripts.played import played_game, played_view  # noqa: E402

OUT = ROOT / "docs" / "images"
BASIC_OPTS = {"multiple_melds_per_turn": True}


def _gin_layoff() -> Rendered:
    """Gin right after a knock: the knocker's melds on the table, deadwood shown, defender to lay off."""
    game = played_game("gin", 2, seed=57)
    record = game.record().splitlines()
    # Cut the record just after the knock: the defender is in the layoff phase.
    cut = next(i for i, line in enumerate(record) if " knock " in line)
    view = load_game("\n".join(record[: cut + 1])).public_view()
    return render_table(view, names=NAMES)


GIN_VOID = ('[Variant "gin"]\n[Seats "ana bea"]\n[Dealer "bea"]\n[Hand "ana" "2S 5S 8S JH 3H 6D 9D QC 4C 7C"]\n'
            '[Hand "bea" "AS 4S 7S TH KH 2D 5D 8D JC 3C"]\n[Stock "KS QS TS"]\n[Discard "9H"]\n[Turn "ana"]\n'
            '[Phase "draw"]\nana draw\nana discard QC\n')
"""A gin deal that ends void: the stock is down to two cards after ana's discard (rules.md §2.6)."""

GIN_GAME_OVER = ('[Variant "gin"]\n[Options "target=20"]\n[Seats "ana bea"]\n[Dealer "bea"]\n'
                 '[Hand "ana" "2S 3S 4S 7H 7D 7C JH QH KH 5S 9C"]\n[Hand "bea" "8S 9S TS 4H 4D 4C 3D AD 2C 6H"]\n'
                 '[Turn "ana"]\n[Phase "play"]\nana knock 9C : 2S 3S 4S 5S | 7H 7D 7C | JH QH KH\n')
"""ana goes gin and reaches a low target at once: the deal's lines, then the game, line and shutout
bonuses the final score adds."""


def _gin_end(game: Game) -> Rendered:
    """The end of a gin deal with every point itemised, as the bot draws it."""
    return render_result(game.public_view(), names=NAMES, ledger=game.ledger, final_scores=game.final_scores)


def _gin_hand(sort: str, locale: str = "es") -> Rendered:
    game = load_game('[Variant "gin"]\n[Seats "ana bea"]\n[Hand "ana" "3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D"]\n'
                     '[Turn "ana"]\n[Phase "play"]\n')
    return render_hand(replace(game.view("ana"), drawn="7D"), sort=sort, locale=locale)


def _basic_hand(sort: str) -> Rendered:
    game = load_game('[Variant "basic"]\n[Seats "ana bea cris dolo"]\n'
                     '[Hand "ana" "AS 2S 3S 7H 7D 7C KC 9D"]\n[Turn "ana"]\n[Phase "play"]\n[Took "7C"]\n')
    return render_hand(game.view("ana"), sort=sort, locale="en", four_colour=True)


def _wild_hand() -> Rendered:
    game = load_game('[Variant "wrotham"]\n[Seats "ana bea cris"]\n'
                     '[Hand "ana" "JK 5H 6H 8H KS KD JK 2C"]\n[Turn "ana"]\n[Phase "play"]\n')
    return render_hand(game.view("ana"), sort="melds")


def _recent_table(locale: str = "es") -> Rendered:
    """Four seats: every move since the acting seat's last turn, one row per turn."""
    game = played_game("basic", 4, seed=3, moves=37, options=BASIC_OPTS)
    return render_table(game.public_view(), names=NAMES, locale=locale, recent=since_last_turn(game))


def _hint_gin() -> Rendered:
    """A gin hint's picture: the hand the hinted discard leaves, in its best melds, marked as a hint."""
    from bot.service.hints import hint, hint_picture

    game = load_game('[Variant "gin"]\n[Seats "ana bea"]\n[Hand "ana" "3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D"]\n'
                     '[Hand "bea" "AS 3D 3S 4S 5S 6S 7S 8S TS JS"]\n[Turn "ana"]\n[Phase "play"]\n')
    move = hint(game, "ana").move
    shown = hint_picture(game, "ana", move)
    assert isinstance(shown, SeatView)
    mark = HintMark(f"ana {move}", hand_before=game.view("ana").hand)
    return render_hand(shown, sort="melds", hint=mark)


def _hint_rami() -> Rendered:
    """A rami hint's picture: the table after the rearrangement the strong level found (a run
    split to make room for a set of sixes)."""
    from bot.service.hints import hint, hint_picture

    game = load_game('[Variant "rami"]\n[Options "table_manipulation=true"]\n[Seats "ana bea cris"]\n'
                     '[Hand "ana" "6H 6D KS 5S"]\n[Hand "bea" "KD QD 9C 8H 3H"]\n[Hand "cris" "2S 2H JC TD 4H"]\n'
                     '[Table "3C 4C 5C 6C 7C 8C 9C | QH QD QC | 7S 8S 9S | AD 2D 3D"]\n'
                     '[Opened "ana bea cris"]\n[Turn "ana"]\n[Phase "play"]\n')
    move = hint(game, "ana").move
    shown = hint_picture(game, "ana", move)
    assert isinstance(shown, PublicView)
    mark = HintMark(f"ana {move}", table_before=game.public_view().table)
    return render_table(shown, names=NAMES, hint=mark)


def _lobby(variant: str, seated: int, lo: int, hi: int, options: tuple[tuple[str, str], ...] = (), *,
           host: int = 0, timer: float = 0, status: str = "open", locale: str = "es") -> Rendered:
    names = tuple(NAMES[s] for s in SEATS[:seated])
    return render_lobby(LobbyInfo(variant, options, names, names[host], lo, hi, timer, status), locale=locale)


def _standings() -> Rendered:
    from renderers.standings import StandingsInfo, render_standings

    rows = ((1, "Ana", 14, 6, 9), (2, "Bea", 11, 4, 9), (3, "Carlos", 9, 3, 8), (4, "Dani", 9, 2, 7),
            (5, "Eli", 5, 2, 6), (6, "Fer", 3, 1, 4))
    return render_standings(StandingsInfo(2, 17, rows, reader=3), locale="es")


def _tournament_standings() -> Rendered:
    """An eight-player Swiss after round 2: the tiebreaks in their columns, a dropped player faded."""
    from renderers.tournament import EventStandingsInfo, render_event_standings

    lines = [("Ana García", "2", "2–2", ("3", "2½", "45"), False), ("🤖 Bot 1", "2", "2–2", ("2½", "2", "30"), False),
             ("Bea", "1½", "1–2", ("3", "1¼", "20"), False), ("Carlos", "1", "1–2", ("3½", "½", "12"), False),
             ("Dani", "1", "1–2", ("2", "0", "10"), False), ("Eva", "½", "0–2", ("2", "¼", "3"), False),
             ("Fede", "0", "0–2", ("3", "0", "0"), True), ("Gus", "0", "0–1", ("0", "0", "0"), False)]
    rows = tuple((i + 1, *line) for i, line in enumerate(lines))
    info = EventStandingsInfo("Suizo de los jueves", 2, False, ("Buchholz", "Sonneborn-Berger", "puntos de partida"),
                              rows)  # type: ignore[arg-type]
    return render_event_standings(info, locale="es")


def _bracket() -> Rendered:
    """A six-player knockout: seeds 1 and 2 with byes in round 1, the final being played."""
    from renderers.tournament import BracketInfo, render_bracket

    return render_bracket(BracketInfo("Season Cup", (
        (("Ana", None, 0), ("Dani", "Eva", 1), ("Bea", None, 0), ("Carlos", "Fede", 0)),
        (("Ana", "Eva", 1), ("Bea", "Carlos", 0)),
        (("Eva", "Bea", None),),
    )), locale="en")


def _rated_season() -> tuple[list[dict[int, object]], list[str]]:
    """Forty rated games among seven players of different strength, rated by ``bot.service.skill``
    (openskill) as the bot rates them: the ratings after each game, and the names."""
    import random

    from bot.service.skill import rate

    names = ["Ana", "Bea", "Carlos", "Dani", "Eli", "Fer", "Gus"]
    strength = [6.0, 4.5, 4.0, 3.0, 2.5, 2.0, 1.0]
    rng = random.Random(12)
    current: dict[int, object] = {}
    after: list[dict[int, object]] = []
    for _ in range(40):
        seated = rng.sample(range(len(names)), rng.choice((2, 2, 3, 4)))
        order = sorted(seated, key=lambda i: -rng.expovariate(1 / strength[i]))
        current = {**current, **rate({i: current[i] for i in seated if i in current},  # type: ignore[misc]
                                     {u: place + 1 for place, u in enumerate(order)})}
        after.append(dict(current))
    return after, names


def _ladder() -> Rendered:
    from bot.service.ratings import ranked
    from bot.store.ratings import LadderRow
    from renderers.ladder import LadderInfo, render_ladder

    after, names = _rated_season()
    lines = ranked([LadderRow(i, names[i], r) for i, r in after[-1].items()])  # type: ignore[arg-type]
    rows = tuple((x.rank, x.name, x.rating.value, x.rating.spread, x.rating.games) for x in lines)
    reader = next(i for i, x in enumerate(lines) if x.name == "Dani")
    return render_ladder(LadderInfo(rows, 3, None, reader), locale="es")


def _rating_chart() -> Rendered:
    from bot.service.ratings import ranked
    from bot.store.ratings import LadderRow
    from renderers.ladder import ChartInfo, render_chart

    after, names = _rated_season()
    me = names.index("Bea")
    values: list[int] = []
    for before, now in zip([{}, *after], after, strict=False):
        if now.get(me) is not before.get(me):
            values.append(now[me].value)  # type: ignore[attr-defined]
    lines = ranked([LadderRow(i, names[i], r) for i, r in after[-1].items()])  # type: ignore[arg-type]
    mine = next(x for x in lines if x.user_id == me)
    return render_chart(ChartInfo("Bea", tuple(values), mine.rating.spread, mine.rank, len(lines)), locale="en")


def _replay() -> Rendered:
    return render_replay(deal_steps(played_game("wrotham", 3, seed=43).record()), names=NAMES)


GALLERY: dict[str, Callable[[], Rendered]] = {
    "table-basic-2-empty.png": lambda: render_table(played_view("basic", 2, seed=3, moves=0), names=NAMES),
    "table-basic-4.png": lambda: render_table(played_view("basic", 4, seed=3, moves=34, options=BASIC_OPTS),
                                              names=NAMES),
    "table-basic-4-recent.png": _recent_table,
    "table-basic-4-en-four-colour.png": lambda: render_table(
        played_view("basic", 4, seed=3, moves=34, options=BASIC_OPTS), names=NAMES, locale="en", four_colour=True),
    "table-wrotham-3.png": lambda: render_table(played_view("wrotham", 3, seed=43, moves=50), names=NAMES),
    "table-gin-2.png": lambda: render_table(played_view("gin", 2, seed=42, moves=21), names=NAMES),
    "table-gin-layoff.png": _gin_layoff,
    "table-rami-8.png": lambda: render_table(played_view("rami", 8, seed=2, moves=80), names=NAMES),
    "table-rami-8-empty.png": lambda: render_table(built_view("rami", 8, 0, seed=4, acting=2), names=NAMES),
    "table-rami-8-crowded.png": lambda: render_table(built_view("rami", 8, 30, seed=4, acting=5), names=NAMES),
    "table-tradicional-3-open-pile.png": lambda: render_table(
        played_view("tradicional", 3, seed=2, moves=45, options={"opt1_pozo_visible": True}), names=NAMES),
    "table-dummy-4.png": lambda: render_table(played_view("dummy", 4, seed=3, moves=60, options={"cut_ins": True}),
                                              names=NAMES),
    "table-dummy-4-contracts.png": lambda: render_table(built_view("dummy", 4, 9, seed=2, acting=1), names=NAMES),
    "end-gin.png": lambda: _gin_end(played_game("gin", 2, seed=42)),
    "end-gin-void.png": lambda: _gin_end(load_game(GIN_VOID)),
    "end-gin-game-over.png": lambda: _gin_end(load_game(GIN_GAME_OVER)),
    "end-basic-4.png": lambda: render_result(played_view("basic", 4, seed=3, options=BASIC_OPTS), names=NAMES),
    "end-rami-8-en.png": lambda: render_result(played_view("rami", 8, seed=5), names=NAMES, locale="en"),
    "hand-gin-suit.png": lambda: _gin_hand("suit"),
    "hand-gin-rank.png": lambda: _gin_hand("rank"),
    "hand-gin-melds.png": lambda: _gin_hand("melds"),
    "hand-basic-melds-en-four-colour.png": lambda: _basic_hand("melds"),
    "hand-wrotham-jokers.png": _wild_hand,
    "hint-gin-hand.png": _hint_gin,
    "hint-rami-table.png": _hint_rami,
    # The rearrange builder (issue 13): the table as it is; a run split, a card loose, an invalid meld; ready.
    "draft-1-table.png": lambda: draw_draft(draft_steps()[0]),
    "draft-2-split.png": lambda: draw_draft(draft_steps()[1]),
    "draft-3-ready.png": lambda: draw_draft(draft_steps()[2]),
    "replay-wrotham-3.gif": _replay,
    "lobby-gin-open.png": lambda: _lobby("gin", 1, 2, 2, timer=2),
    # A rematch: the presser, two computer players at their levels, two invited players not seated yet.
    "lobby-basic-rematch.png": lambda: render_lobby(LobbyInfo(
        "basic", (), ("Ana", "🤖 Bot 1 (fuerte)", "🤖 Bot 2 (fácil)"), "Ana", 2, 6, 5, invited=("Bea", "Carlos"))),
    "standings-season-2.png": _standings,
    # Tournaments (issue 22): a Swiss's standings with its tiebreaks, a knockout's bracket.
    "tournament-swiss-standings.png": _tournament_standings,
    "tournament-knockout-bracket-en.png": _bracket,
    "ladder-es.png": _ladder,
    "rating-chart-en.png": _rating_chart,
    # A server's settings card (issue 12): two rummies closed, defaults, presets, two barred members.
    "settings.png": lambda: render_settings(sample_settings(), locale="es"),
    "lobby-rami-6.png": lambda: _lobby("rami", 5, 2, 8, (("first_meld_min", "40"), ("table_manipulation", "true"),
                                                        ("jokers_per_deck", "3")), host=1, timer=1.5),
    "lobby-basic-started.png": lambda: _lobby("basic", 4, 2, 6, (("multiple_melds_per_turn", "true"),
                                                                 ("game_end", "target:250")), status="started"),
    "lobby-dummy-expired-en.png": lambda: _lobby("dummy", 1, 2, 4, (("cut_ins", "true"),), timer=5,
                                                 status="expired", locale="en"),
    "lobby-tradicional-cancelled.png": lambda: _lobby("tradicional", 3, 2, 4, (("opt1_pozo_visible", "true"),),
                                                      host=2, status="cancelled"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print the file names and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(GALLERY))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in GALLERY.items():
        image = make()
        (OUT / name).write_bytes(image.data)
        print(f"{name:42} {image.width}x{image.height}  {len(image.data) / 1024:7.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
