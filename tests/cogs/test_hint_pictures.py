"""A hint's picture (issue 11): in gin the hand as the hinted move leaves it, grouped into its best
melds with the deadwood apart; in rami and tradicional, for a rearrangement of the table, the
table as the move leaves it. Built with the real ``cogs.hints.hint_message`` and drawn with the
real renderers, through the announcer's render slots (a stand-in that records what it drew).

What a user would notice if these failed: a gin hint with no picture, or one that still shows the
card it tells them to discard; a rearrangement hint whose picture shows the table as it is now
(the new melds missing), or that shows another player's hand.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.engine import load_game
from bot.service import GameService, Refusal
from bot.service.hints import hint, hint_picture
from bot.store import Database
from bot.store.rows import GameRow, GameStatus, SeatRow
from cogs.hints import OWN_MOVE, hint_message, play_hint
from renderers import HintMark, draw_hand, draw_table, render_hand, render_table
from tests.bot.helpers import Clock, lobby
from tests.cogs.doubles import SERVER_MEMBER

GIN = """[Variant "gin"]
[Seats "p1 p2"]
[Hand "p1" "3H 4H 5H 6H 9S 9D 9C KD QS 2C 7D"]
[Hand "p2" "AS 3D 3S 4S 5S 6S 7S 8S TS JS"]
[Turn "p1"]
[Phase "play"]
"""

RAMI = """[Variant "rami"]
[Options "table_manipulation=true"]
[Seats "p1 p2"]
[Hand "p1" "6H 6D KS"]
[Hand "p2" "KD QD 9C 8H 3D"]
[Table "3C 4C 5C 6C 7C 8C 9C | QH QD QC"]
[Opened "p1 p2"]
[Turn "p1"]
[Phase "play"]
"""

TRADICIONAL = """[Variant "tradicional"]
[Seats "p1 p2"]
[Hand "p1" "6H 6D"]
[Hand "p2" "KD QD 9S 8H 3D"]
[Table "3C 4C 5C 6C 7C 8C 9C"]
[Discard "4D"]
[Turn "p1"]
[Phase "play"]
"""


def practice_row(record: str) -> GameRow:
    variant = load_game(record).variant
    seats = (SeatRow(0, 1, "p1", "Ana"), SeatRow(1, 2, "p2", "Bea"))
    return GameRow(7, 1, 1, 1, variant, "", 5, "es", GameStatus.PLAYING, 3, record, 0, 0, None, None, False, None,
                   None, None, None, None, None, None, seats, practice=True)


def card_box(scene: Any, code: str) -> tuple[int, int, int, int]:
    [box] = [r.box for r in scene.found("card") if r.key == code]
    return box


def inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= x <= outer[2] and outer[1] <= y <= outer[3]


class Slots:
    """The announcer's render slots, recording which renderer drew what."""

    def __init__(self) -> None:
        self.drawn: list[tuple[Any, Any]] = []
        self.marks: list[Any] = []  # the hint= each picture was drawn with

    async def render(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.drawn.append((fn, args[0]))
        self.marks.append(kwargs.get("hint"))
        return await asyncio.to_thread(fn, *args, **kwargs)


async def test_a_gin_hint_carries_the_hand_the_move_leaves_grouped_into_melds() -> None:
    slots = Slots()
    client: Any = SimpleNamespace(announcer=slots)
    content, _view, image = await hint_message(client, practice_row(GIN), 1, "es")
    assert "Descartar K♦" in content and "de 29 a 19" in content, content
    assert "Tu mano después de la jugada" in content
    assert image is not None and image.filename.startswith("hand.") and image.data[:4] == b"\x89PNG"
    [(fn, shown)] = slots.drawn
    assert fn is render_hand
    # The hand less the card to discard, in its best melds, the deadwood set apart and counted.
    scene = draw_hand(shown, sort="melds")
    cards = sorted(r.key for r in scene.found("card"))
    assert cards == sorted(["3H", "4H", "5H", "6H", "9S", "9D", "9C", "QS", "2C", "7D"])
    labels = [x.text for x in scene.texts]
    assert labels[labels.index("ESCALERA"):] == ["ESCALERA", "3H", "4H", "5H", "6H", "GRUPO", "9S", "9C", "9D",
                                                  "SUELTAS", "QS", "2C", "7D"]
    assert "Sueltas: 19" in labels  # the deadwood the text promises
    # Marked as a hint: the move as a record line and the hand before it (what leaves it is listed).
    game = load_game(GIN)
    assert slots.marks == [HintMark(f"p1 {hint(game, 'p1').move}", hand_before=game.view("p1").hand)]
    marked = draw_hand(shown, sort="melds", hint=slots.marks[0])
    assert [x.text for x in marked.texts] != labels  # the banner and the changes are drawn


@pytest.mark.parametrize("record", [RAMI, TRADICIONAL], ids=["rami", "tradicional"])
async def test_a_rearrangement_hint_carries_the_table_after_it(record: str) -> None:
    game = load_game(record)
    move = hint(game, "p1").move
    assert move.startswith("table "), move
    slots = Slots()
    client: Any = SimpleNamespace(announcer=slots)
    content, view, image = await hint_message(client, practice_row(record), 1, "es")
    assert "La mesa como quedaría" in content
    assert image is not None and image.filename.startswith("table.")
    # The play-it button: a rearrangement is not among the listed moves, so the button stands for
    # the hint's own move (worked out again at the same version when pressed).
    assert move not in game.legal_moves("p1")
    assert [c.custom_id for c in view.children] == [f"rummy:hp:7:3:p1:{OWN_MOVE}"]
    [(fn, shown)] = slots.drawn
    assert fn is render_table
    now = draw_table(game.public_view(), names={"p1": "Ana", "p2": "Bea"})
    after = draw_table(shown, names={"p1": "Ana", "p2": "Bea"})
    on_table = sorted(r.key for r in after.found("card"))
    assert "6H" in on_table and "6D" in on_table  # the hand's sixes, in their new meld
    assert "6H" not in sorted(r.key for r in now.found("card"))
    # The run was split: the sixes are one meld of their own, drawn as such.
    assert len(after.found("meld")) == len(game.public_view().table) + 2
    [sixes] = [m for m in after.found("meld") if inside(card_box(after, "6H"), m.box)]
    assert {c for c in ("6C", "6D", "6H") if inside(card_box(after, c), sixes.box)} == {"6C", "6D", "6H"}
    assert not inside(card_box(after, "5C"), sixes.box)
    # Nothing of the other seat's hand is shown, not even were the move to end the deal.
    assert shown.revealed == () and shown.result is None
    others = set(game.hand("p2")) - {c for m in game.public_view().table for c in m.cards}
    assert others and not others & set(on_table)
    assert hint_picture(game, "p1", move) == shown
    # Marked as a hint: the move as a record line and the table before it (the melds that change framed).
    assert slots.marks == [HintMark(f"p1 {move}", table_before=game.public_view().table)]


async def test_pressing_a_rearrangement_hint_plays_it_for_the_presser(tmp_path) -> None:
    """The play-it button of a rearrangement (a move the engine accepts but does not list) plays
    the hint's own move at the hint's version, as the presser's move; a press after the game moved
    on plays nothing."""
    db = await Database.open(tmp_path / "rummy.db")
    try:
        svc = GameService(db, clock=Clock())
        row = await lobby(svc, "rami", 2, "table_manipulation=true")
        await svc.games.set_practice(row.id, 1, on=True)
        row = (await svc.games.start(row.id, 1, seed="h")).game
        # The deal replaced by the position of the test above (p1 to play, both opened).
        async with db.transaction() as tx:
            await tx.update("UPDATE games SET record = ?, version = version + 1 WHERE id = ?", (RAMI, row.id))
        row = await svc.core.get(row.id)
        slots = Slots()
        client: Any = SimpleNamespace(service=svc, announcer=slots, guard=None, **SERVER_MEMBER)
        _, view, _ = await hint_message(client, row, 1, "es")
        [button] = view.children
        edits: list[dict[str, Any]] = []

        async def announce(change: Any) -> None:
            slots.drawn.append(("announce", change))

        async def edit(**kwargs: Any) -> None:
            edits.append(kwargs)

        async def defer(**_: Any) -> None:
            return None

        slots.announce = announce  # type: ignore[attr-defined]
        it: Any = SimpleNamespace(client=client, user=SimpleNamespace(id=1), guild_id=row.guild_id, id=555,
                                  locale=discord.Locale("es-ES"), extras={}, response=SimpleNamespace(defer=defer),
                                  edit_original_response=edit)
        game_id, version, seat, index = (int(x) if x.isdigit() else x for x in button.custom_id.split(":")[2:])
        await play_hint.__wrapped__(it, game_id, version, seat, index)
        after = await svc.core.get(row.id)
        assert after.version == row.version + 1
        game = load_game(after.record)
        assert [m.cards for m in game.public_view().table][-1] == ("6H", "6D", "6C")
        assert list(game.hand("p1")) == ["KS"] and "Jugada hecha: **Reorganizar la mesa" in edits[-1]["content"]
        with pytest.raises(Refusal, match="hint_changed"):  # the same button again: the game moved on
            await play_hint.__wrapped__(it, game_id, version, seat, index)
        assert (await svc.core.get(row.id)).version == after.version
    finally:
        await db.close()
