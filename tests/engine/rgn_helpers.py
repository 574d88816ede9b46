"""Helpers for the RGN scenario tests (rules.md §7.1, §7.2).

Only the public contract of ``bot.engine`` (notation.md "The Python contract") is used here:
``load_game``, ``IllegalMove`` and the names a ``Game`` exposes to the bot.
"""

from __future__ import annotations

from textwrap import dedent
from typing import Any

import pytest

from bot.engine import IllegalMove, load_game


def load(text: str) -> Any:
    """``load_game`` on an indented triple-quoted record."""
    return load_game(dedent(text).strip() + "\n")


def seats_of(game: Any) -> list[str]:
    return [s.name for s in game.public_view().seats]


def snapshot(game: Any) -> dict[str, Any]:
    """Everything a player could notice about the game, to compare before and after a move."""
    seats = seats_of(game)
    return {
        "record": game.record(),
        "hands": {s: game.hand(s) for s in seats},
        "table": game.table,
        "melds": game.melds,
        "discard": game.discard_pile,
        "stock": game.stock_count,
        "phase": game.phase,
        "actors": list(game.actors),
        "current": game.current_seat,
        "totals": dict(game.totals),
        "hand_points": dict(game.hand_points),
        "ledger": list(game.ledger),
        "hand_over": game.hand_over,
        "game_over": game.game_over,
        "final": dict(game.final_scores),
        "winners": list(game.winners),
        "legal": {s: game.legal_moves(s) for s in seats},
    }


def refuse(game: Any, seat: str, move: str, code: str) -> IllegalMove:
    """``move`` raises IllegalMove(code), leaves the game unchanged, is not offered by
    ``legal_moves``, and is refused the same way (with its line number) when replayed from a record."""
    assert move not in game.legal_moves(seat)
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(seat, move)
    err = info.value
    assert err.code == code, f"{move!r}: expected code {code!r}, got {err.code!r} ({err.message})"
    assert isinstance(err.params, dict)
    assert snapshot(game) == before, f"{move!r} was refused but changed the game"
    text = game.record() + f"{seat} {move}\n"
    with pytest.raises(IllegalMove) as replay:
        load_game(text)
    assert replay.value.code == code
    assert replay.value.line == len(text.splitlines())
    return err


def roundtrip(game: Any) -> None:
    """``load_game(g.record())`` rebuilds the same game, and writes the same record again."""
    for seat in seats_of(game):
        assert not any(m.split()[0] in ("resign", "timeout") for m in game.legal_moves(seat))
    text = game.record()
    again = load_game(text)
    assert again.record() == text
    assert snapshot(again) == snapshot(game)


def play_all(game: Any, moves: str) -> list[Any]:
    """Play ``seat move`` lines (one a line, ``#`` comments allowed); returns every event."""
    events: list[Any] = []
    for raw in dedent(moves).splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            seat, _, move = line.partition(" ")
            events += game.play(seat, move)
    return events


def ledger_of(game: Any, seat: str) -> list[tuple[Any, str]]:
    """(points, code) of every ledger line of ``seat`` this deal."""
    return [(points, code) for s, points, code, _ in game.ledger if s == seat]


def deal_counts(game: Any) -> dict[str, Any]:
    """Deadwood / hand count each seat scored with in the last finished deal (``public_view().result``)."""
    result = game.public_view().result
    assert result is not None
    return {r.name: r.count for r in result.seats}


def refuse_any(game: Any, seat: str, move: str, codes: tuple[str, ...]) -> IllegalMove:
    """Like ``refuse``, where the rules fix only that the move is refused and any of ``codes``
    names a fitting reason (the engine picks the first check that fails)."""
    assert move not in game.legal_moves(seat)
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(seat, move)
    err = info.value
    assert err.code in codes, f"{move!r}: expected one of {codes}, got {err.code!r} ({err.message})"
    assert snapshot(game) == before, f"{move!r} was refused but changed the game"
    text = game.record() + f"{seat} {move}\n"
    with pytest.raises(IllegalMove) as replay:
        load_game(text)
    assert replay.value.code == err.code
    assert replay.value.line == len(text.splitlines())
    return err
