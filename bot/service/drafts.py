"""The rearrange builder's drafts (issue 13): kept in the database per game and seat, changed under
the game's lock, played as one move through ``play``.

What it is: ``Drafts``, the part of ``GameService`` that opens a seat's draft (``draft_open``),
reads it (``draft_get``), changes it with one of ``bot.service.builder.Draft``'s operations
(``draft_change``), fills it with the strong player's rearrangement (``draft_suggest``, worked out
in the engine's worker thread within a node budget), plays it (``draft_play``) and forgets it
(``draft_discard``). A draft belongs to the game as it was when it started: it is stored with a
digest of the game's record, and once the record is another (a move by anyone, the player's own
included) it is out of date: every engine change discards the game's drafts in its own commit
(``core._commit``), and a draft found out of date anyway is discarded and answered
``Refusal("builder_stale")``. A restart or a turn reminder bumps the version but not the record,
so a draft survives them.
What it is not: no Discord and no pictures; the engine judges the move that is played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import Game
from bot.robot.rearrange import best_table
from bot.service.builder import BuilderError, Draft, Status, status_of
from bot.store import drafts as store
from bot.store.rows import GameRow, GameStatus

from .changes import Change, Refusal
from .core import ServiceCore
from .reading import in_worker

SUGGEST_NODES = 20_000  # the suggestion's search budget (the robot's is 3,000: a person waits once)


def record_digest(record: str | None) -> str:
    return hashlib.sha256((record or "").encode()).hexdigest()[:24]


def builder_allowed(game: Game, seat: str) -> bool:
    """Whether ``seat`` may build now: the engine's answer (a ``table`` move is open to it, or its
    opening may be laid out as a draft, rules.md §3.5, §3.10)."""
    return game.may_build(seat)


def draft_status(game: Game, seat: str, draft: Draft) -> Status:
    """The numbers of the status line, with the opening's points while the seat's opening has a minimum."""
    return status_of(draft, game.meld_rules, lambda d: game.opening_points(d.changed_melds()),
                     game.opening_minimum(seat))


@dataclass(frozen=True)
class DraftState:
    """A seat's draft with the game it belongs to."""

    row: GameRow
    game: Game
    seat: str
    draft: Draft


class Drafts(ServiceCore):
    """Builder drafts: stored per game and seat, checked against the record they started from."""

    async def _seat_game(self, game_id: int, user_id: int) -> tuple[GameRow, Game, str]:
        row = await self._row(game_id)
        if row.status != GameStatus.PLAYING:
            raise Refusal("not_playing")
        seat = row.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated")
        return row, self.engine(row), seat.seat

    async def draft_open(self, game_id: int, user_id: int, version: int) -> DraftState:
        """The seat's draft, opened from a hand message of ``version``: the stored one while the
        game has not moved on since it started, else a fresh one from the table and hand."""
        async with self.lock(game_id):
            row, game, seat = await self._seat_game(game_id, user_id)
            if version != row.version:
                raise Refusal("builder_stale")
            if not builder_allowed(game, seat):
                raise Refusal("builder_not_now")
            stored = await store.get(self.db, game_id, seat)
            if stored is not None and stored.base == record_digest(row.record):
                return DraftState(row, game, seat, Draft.from_json(stored.state))
            draft = Draft.start(game.table, game.hand(seat), [m.owner for m in game.melds])
            await self._save(row, seat, user_id, draft)
            return DraftState(row, game, seat, draft)

    async def draft_get(self, game_id: int, user_id: int) -> DraftState:
        async with self.lock(game_id):
            return await self._current(game_id, user_id)

    async def _current(self, game_id: int, user_id: int) -> DraftState:
        """Under the lock: the caller's draft, or ``builder_stale`` (discarding an outdated one)."""
        row, game, seat = await self._seat_game(game_id, user_id)
        stored = await store.get(self.db, game_id, seat)
        if stored is None:
            raise Refusal("builder_stale")
        if stored.base != record_digest(row.record) or not builder_allowed(game, seat):
            async with self._transaction() as tx:
                await tx.lock_game(game_id)
                await store.discard(tx, game_id, seat)
            raise Refusal("builder_stale")
        try:
            draft = Draft.from_json(stored.state)
        except (ValueError, KeyError, TypeError):
            raise Refusal("builder_stale") from None
        return DraftState(row, game, seat, draft)

    async def _save(self, row: GameRow, seat: str, user_id: int, draft: Draft) -> None:
        stored = store.StoredDraft(row.id, seat, user_id, row.version, record_digest(row.record), draft.to_json(),
                                   self.clock())
        async with self._transaction() as tx:
            await tx.lock_game(row.id)
            await store.put(tx, stored)

    async def draft_change(self, game_id: int, user_id: int, op: Callable[[Draft, Game], None]) -> DraftState:
        """``op`` applied to the caller's current draft and stored; a refused operation
        (``BuilderError``) becomes a ``Refusal`` of the same code and nothing is stored."""
        async with self.lock(game_id):
            state = await self._current(game_id, user_id)
            try:
                op(state.draft, state.game)
            except BuilderError as exc:
                raise Refusal(exc.code, **exc.params) from None
            await self._save(state.row, state.seat, user_id, state.draft)
            return state

    async def draft_suggest(self, game_id: int, user_id: int) -> DraftState:
        """The draft filled with the strong player's best rearrangement (``best_table``), worked
        out off the event loop; ``builder_no_suggestion`` when it places no hand card."""
        state = await self.draft_get(game_id, user_id)
        d = state.draft
        plan = await in_worker(lambda: best_table(d.table, d.hand, state.game.meld_rules, state.game.value,
                                                  nodes=SUGGEST_NODES))
        if plan is None:
            raise Refusal("builder_no_suggestion")
        rules = state.game.meld_rules
        melds = [list(m) for m in plan.kept] + [r.codes(rules) for r in plan.melds]
        return await self.draft_change(game_id, user_id, lambda draft, _: draft.fill(melds))

    async def draft_discard(self, game_id: int, user_id: int) -> None:
        async with self.lock(game_id):
            row = await self._row(game_id)
            seat = row.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated")
            async with self._transaction() as tx:
                await tx.lock_game(game_id)
                await store.discard(tx, game_id, seat.seat)

    async def draft_play(self, game_id: int, user_id: int, *, interaction_id: int | None = None) -> Change:
        """The draft as ONE move (``Draft.move``), played like any other (``play``: the engine
        judges it; a refusal leaves the draft as it is, to be fixed)."""
        state = await self.draft_get(game_id, user_id)
        try:
            move = state.draft.move(state.game.meld_rules)
        except BuilderError as exc:
            raise Refusal(exc.code, **exc.params) from None
        # Played, the draft goes with the move's own commit (``_commit`` discards the game's drafts).
        return await self.play(game_id, user_id, move, interaction_id=interaction_id,  # type: ignore[attr-defined]
                               version=state.row.version)
