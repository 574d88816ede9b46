"""The replay: one frame per move, hands face down until the end, a GIF that decodes exactly."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from bot.engine import deal_steps as replay_steps
from bot.engine import load_game
from bot.engine.rgn import parse_record
from renderers import draw_table, render_replay
from renderers.encode import quantize
from renderers.replay import durations, replay_frames
from scripts.played import played_game


@cache
def record() -> str:
    return played_game("gin", 2, seed=57).record()  # a short gin deal that ends after a knock


def moves_of(text: str) -> list[tuple[str, str]]:
    return [(seat, move) for kind, seat, move, _ in parse_record(text).body if kind == "move"]


def test_one_step_per_move_from_the_deal_as_dealt():
    steps = replay_steps(record())
    moves = moves_of(record())
    assert len(steps) == len(moves) + 1
    assert steps[0].move is None and [s.move for s in steps[1:]] == [f"{a} {b}" for a, b in moves]
    assert steps[-1].view.hand_over and not steps[0].view.hand_over


def test_hands_stay_face_down_until_the_deal_is_over():
    text = record()
    lines = text.splitlines()
    first = min(line for _, _, _, line in parse_record(text).body)
    game = load_game("\n".join(lines[: first - 1]))
    steps = replay_steps(text)
    for i, step in enumerate(steps):
        if i:
            seat, move = moves_of(text)[i - 1]
            game.play(seat, move)
        if step.view.hand_over:
            break
        hidden = {c for seat in game.seats for c in game.hand(seat)} - {
            c for _, cards in step.view.revealed for c in cards}
        drawn = {r.key for r in draw_table(step.view, caption=[], footer="").found("card")}
        assert not hidden & drawn, (i, hidden & drawn)


def test_the_gif_decodes_to_the_frames_drawn():
    steps = replay_steps(record())
    out = render_replay(steps)
    assert out.format == "gif" and out.data[:6] == b"GIF89a"
    gif = Image.open(io.BytesIO(out.data))
    assert gif.n_frames == len(steps) + 1  # every move, then the end-of-deal picture
    frames = list(replay_frames(steps))
    expected = durations(len(frames))
    for i in (0, 1, len(frames) // 2, len(frames) - 2, len(frames) - 1):
        gif.seek(i)
        assert gif.info["duration"] == expected[i]
        assert gif.convert("RGB").tobytes() == quantize(frames[i]).convert("RGB").tobytes(), i


def test_the_same_record_gives_the_same_bytes_and_webp_works():
    short = "\n".join(record().splitlines()[:12])  # a few moves are enough here
    assert render_replay(replay_steps(short)).data == render_replay(replay_steps(short)).data
    webp = render_replay(replay_steps(short), fmt="webp")
    assert webp.format == "webp" and Image.open(io.BytesIO(webp.data)).n_frames == len(replay_steps(short))


def test_a_later_deal_of_the_record_can_be_chosen():
    game = played_game("gin", 2, seed=57)
    game.next_deal()
    while not game.hand_over:
        seat = game.actors[0]
        game.play(seat, game.legal_moves(seat)[0])
    first, second = replay_steps(game.record()), replay_steps(game.record(), deal=2)
    assert {s.view.deal_number for s in first} == {1} and {s.view.deal_number for s in second} == {2}
    assert second[-1].view.hand_over
