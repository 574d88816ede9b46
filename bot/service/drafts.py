"""The rearrange builder's drafts (issue 13): kept in the database per game and seat, changed under
the game's lock, played as one move through ``act``.

What it is: ``Drafts``, the part of ``GameService`` (``service.drafts``) that opens a seat's draft
(``draft_open``), reads it (``draft_get``), changes it with one of ``bot.service.builder.Draft``'s
operations (``draft_change``), fills it with the strong player's rearrangement (``draft_suggest``,
worked out in the engine's worker thread within a node budget), makes it the one move ``act`` plays
(``draft_move``, ``draft_play``) and forgets it (``draft_discard``). Each takes the place, the
player and the game, like ``act``, and checks them with ``act``'s own checks
(``bot.service.acting``). A draft belongs to the game as it was when it started: it is stored with a
digest of the game's record, and once the record is another (a move by anyone, the player's own
included) it is out of date: every engine change discards the game's drafts in its own commit
(``core.commit``), and a draft found out of date anyway is discarded and answered
``Refusal("builder_stale")``. A restart or a turn reminder bumps the version but not the record, so
a draft survives them.
What it is not: no Discord and no pictures; the engine judges the move that is played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import Game, Move
from bot.robot.rearrange import best_table
from bot.service.builder import BuilderError, Draft, Status, status_of
from bot.store import drafts as store
from bot.store.rows import GameRow

from .acting import Acting, player_seat, same_version
from .changes import Change, Refusal
from .core import Core
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


class Drafts:
    """Builder drafts: stored per game and seat, checked against the record they started from.
    Every operation takes the place, the player and the game, like ``act``, and checks them with
    ``act``'s own checks (``bot.service.acting``) under the game's lock; a draft is played by
    ``acting.act``."""

    def __init__(self, core: Core, acting: Acting) -> None:
        self.core = core
        self.acting = acting

    async def _seat_game(self, place: int | None, user_id: int, game_id: int, *,
                         version: int | None = None) -> tuple[GameRow, Game, str]:
        row = await self.acting.game_at(place, game_id)
        seat = player_seat(row, user_id)
        same_version(row, version, "builder_stale")  # a hand message of another version
        return row, self.core.engine(row), seat.seat

    async def draft_open(self, place: int | None, user_id: int, game_id: int, version: int) -> DraftState:
        """The seat's draft, opened from a hand message of ``version``: the stored one while the
        game has not moved on since it started, else a fresh one from the table and hand."""
        async with self.core.lock(game_id):
            row, game, seat = await self._seat_game(place, user_id, game_id, version=version)
            if not builder_allowed(game, seat):
                raise Refusal("builder_not_now")
            stored = await store.get(self.core.db, game_id, seat)
            if stored is not None and stored.base == record_digest(row.record):
                return DraftState(row, game, seat, Draft.from_json(stored.state))
            draft = Draft.start(game.table, game.hand(seat), [m.owner for m in game.melds])
            await self._save(row, seat, user_id, draft)
            return DraftState(row, game, seat, draft)

    async def draft_get(self, place: int | None, user_id: int, game_id: int) -> DraftState:
        async with self.core.lock(game_id):
            return await self._current(place, user_id, game_id)

    async def _current(self, place: int | None, user_id: int, game_id: int) -> DraftState:
        """Under the lock: the caller's draft, or ``builder_stale`` (discarding an outdated one)."""
        row, game, seat = await self._seat_game(place, user_id, game_id)
        stored = await store.get(self.core.db, game_id, seat)
        if stored is None:
            raise Refusal("builder_stale")
        if stored.base != record_digest(row.record) or not builder_allowed(game, seat):
            async with self.core.transaction() as tx:
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
                                   self.core.now())
        async with self.core.transaction() as tx:
            await tx.lock_game(row.id)
            await store.put(tx, stored)

    async def draft_change(self, place: int | None, user_id: int, game_id: int,
                           op: Callable[[Draft, Game], None]) -> DraftState:
        """``op`` applied to the caller's current draft and stored; a refused operation
        (``BuilderError``) becomes a ``Refusal`` of the same code and nothing is stored."""
        async with self.core.lock(game_id):
            state = await self._current(place, user_id, game_id)
            try:
                op(state.draft, state.game)
            except BuilderError as exc:
                raise Refusal(exc.code, **exc.params) from None
            await self._save(state.row, state.seat, user_id, state.draft)
            return state

    async def draft_suggest(self, place: int | None, user_id: int, game_id: int) -> DraftState:
        """The draft filled with the strong player's best rearrangement (``best_table``), worked
        out off the event loop; ``builder_no_suggestion`` when it places no hand card."""
        state = await self.draft_get(place, user_id, game_id)
        d = state.draft
        plan = await in_worker(lambda: best_table(d.table, d.hand, state.game.meld_rules, state.game.value,
                                                  nodes=SUGGEST_NODES))
        if plan is None:
            raise Refusal("builder_no_suggestion")
        rules = state.game.meld_rules
        melds = [list(m) for m in plan.kept] + [r.codes(rules) for r in plan.melds]
        return await self.draft_change(place, user_id, game_id, lambda draft, _: draft.fill(melds))

    async def draft_discard(self, place: int | None, user_id: int, game_id: int) -> None:
        """The caller's own current draft, forgotten (the builder's Cancel); ``builder_stale``
        when there is none (an outdated one is discarded all the same)."""
        async with self.core.lock(game_id):
            state = await self._current(place, user_id, game_id)
            async with self.core.transaction() as tx:
                await tx.lock_game(game_id)
                await store.discard(tx, game_id, state.seat)

    async def draft_move(self, place: int | None, user_id: int, game_id: int) -> tuple[Move, int]:
        """The caller's draft as ONE move (``Draft.move``) and the version it belongs to, for
        ``act`` to play like any other (the engine judges it; a refusal leaves the draft as it is,
        to be fixed). Played, the draft goes with the move's own commit (``core.commit`` discards the
        game's drafts)."""
        state = await self.draft_get(place, user_id, game_id)
        try:
            return state.draft.move(state.game.meld_rules), state.row.version
        except BuilderError as exc:
            raise Refusal(exc.code, **exc.params) from None

    async def draft_play(self, place: int | None, user_id: int, game_id: int, *,
                         interaction_id: int | None = None) -> Change:
        """``draft_move``, played through ``act`` at the draft's version."""
        move, version = await self.draft_move(place, user_id, game_id)
        return await self.acting.act(place, user_id, game_id, move, version=version, interaction_id=interaction_id)
