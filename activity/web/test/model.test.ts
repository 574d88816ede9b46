import { test } from "node:test";
import assert from "node:assert/strict";
import { Model, sourceOf, targetOf } from "../src/model.js";
import type { GameState } from "../src/protocol.js";

function state(over: Partial<GameState> = {}): GameState {
  return {
    op: "state", state: "playing", game: 12, version: 31, variant: "gin", phase: "play", deal: 1, you: "p1", host: true,
    choices: [], seats: [{ seat: "p1", name: "Ana", cards: 11, turn: true, total: "0" }, { seat: "p2", name: "Bea", cards: 10, turn: false, total: "0" }],
    hand: ["7H", "8H", "9H", "KS", "2C"], drawn: "8H", took: null,
    table: [{ number: 1, owner: "p2", kind: "run", cards: ["3C", "4C", "5C"] }],
    stock: 20, discard: { top: "KD", count: 3, visible: [] }, revealed: [], last: null,
    verbs: ["discard", "knock", "meld", "layoff"], deadline: null, result: null, over: false, winners: [], labels: { "7H": "7 of hearts" },
    ...over,
  };
}

function ready(over: Partial<GameState> = {}): Model {
  const m = new Model();
  m.receive({ op: "welcome", user: { id: "1", name: "Ana" }, locale: "en", words: {} });
  m.receive(state(over));
  m.sortMode = "own";
  m.takeOutbox();
  return m;
}

test("welcome and state set the model; a new version clears the selection", () => {
  const m = ready();
  assert.equal(m.conn, "open");
  assert.equal(m.game?.version, 31);
  m.tapHandCard(0);
  assert.deepEqual(m.selectedCards(), ["7H"]);
  m.receive(state());
  assert.deepEqual(m.selectedCards(), ["7H"], "the same version keeps it");
  m.receive(state({ version: 32 }));
  assert.deepEqual(m.selectedCards(), []);
});

test("two taps: a card, then the discard pile", () => {
  const m = ready();
  m.tapHandCard(3);
  m.tapTarget({ kind: "discard" }, sourceOf(m, "discard:top")!);
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 1, move: "discard KS", version: 31 }]);
  m.receive({ op: "done", id: 1, version: 32 });
  assert.equal(m.pending.size, 0);
});

test("two taps: the stock, then the hand; a second tap on the stock lets go", () => {
  const m = ready({ verbs: ["draw"], phase: "draw" });
  m.tapTarget({ kind: "stock" }, { kind: "stock" });
  assert.equal(m.selection.kind, "stock");
  m.tapTarget({ kind: "stock" }, { kind: "stock" });
  assert.equal(m.selection.kind, "none");
  m.tapTarget({ kind: "stock" }, { kind: "stock" });
  m.tapHandCard(2);
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 1, move: "draw", version: 31 }]);
});

test("a layoff is checked first and sent only when the check passes", () => {
  const m = ready();
  m.drop(sourceOf(m, "hand:0"), targetOf(m, "meld:1")!);
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 1, move: "layoff 7H to 1" }]);
  m.receive({ op: "checked", id: 1, ok: false, reason: "7H does not fit meld 1" });
  assert.deepEqual(m.takeOutbox(), []);
  assert.equal(m.refusal, "7H does not fit meld 1");
  m.drop(sourceOf(m, "hand:0"), targetOf(m, "meld:1")!);
  m.takeOutbox();
  m.receive({ op: "checked", id: 2, ok: true, reason: null });
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 3, move: "layoff 7H to 1", version: 31 }]);
  m.receive({ op: "refused", id: 3, code: "stale", reason: "Too late", version: 32 });
  assert.equal(m.refusal, "Too late");
});

test("a swap is tried when the layoff's check fails", () => {
  const m = ready({ verbs: ["layoff", "swap", "discard"], table: [{ number: 1, owner: null, cards: ["5H", "JK=6H", "7H"] }], hand: ["6H", "KS"] });
  m.drop(sourceOf(m, "hand:0"), targetOf(m, "meld:1")!);
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 1, move: "layoff 6H to 1" }]);
  m.receive({ op: "checked", id: 1, ok: false, reason: "no room" });
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 2, move: "swap 6H to 1" }]);
  m.receive({ op: "checked", id: 2, ok: true, reason: null });
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 3, move: "swap 6H to 1", version: 31 }]);
});

test("building a meld: cards leave the hand, the check's reason marks it, a good check plays it", () => {
  const m = ready();
  m.tapHandCard(0);
  m.tapHandCard(1);
  m.tapTarget({ kind: "new-meld", group: null });
  assert.deepEqual(m.builder, [["7H", "8H"]]);
  assert.deepEqual(m.handView(), ["9H", "KS", "2C"]);
  m.meldNow();
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 1, move: "meld 7H 8H" }]);
  m.receive({ op: "checked", id: 1, ok: false, reason: "A meld needs three cards" });
  assert.equal(m.builderReason, "A meld needs three cards");
  assert.equal(m.refusal, null);
  m.drop(sourceOf(m, "hand:0"), { kind: "new-meld", group: 0 });
  assert.equal(m.builderReason, null);
  m.meldNow();
  m.takeOutbox();
  m.receive({ op: "checked", id: 2, ok: true, reason: null });
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 3, move: "meld 7H 8H 9H", version: 31 }]);
  m.receive({ op: "done", id: 3, version: 32 });
  assert.deepEqual(m.builder, [[]]);
});

test("several melds in one move, and a builder card back to the hand", () => {
  const m = ready({ hand: ["7H", "8H", "9H", "KS", "KD", "KC"] });
  m.apply({ kind: "build-add", cards: ["7H", "8H", "9H"], group: null });
  m.addGroup();
  m.apply({ kind: "build-add", cards: ["KS", "KD", "KC"], group: null });
  assert.equal(m.builderMove(), "meld 7H 8H 9H | KS KD KC");
  m.drop(sourceOf(m, "builder:1:2"), { kind: "hand", index: null });
  assert.equal(m.builderMove(), "meld 7H 8H 9H | KS KD");
  assert.deepEqual(m.handView(), ["KC"]);
});

test("dragging a card onto another reorders the hand", () => {
  const m = ready();
  m.drop(sourceOf(m, "hand:4"), targetOf(m, "hand:0")!);
  assert.deepEqual(m.handView(), ["2C", "7H", "8H", "9H", "KS"]);
  m.receive(state({ version: 32, hand: ["7H", "8H", "9H", "KS", "2C", "QD"] }));
  assert.deepEqual(m.handView(), ["2C", "7H", "8H", "9H", "KS", "QD"]);
  m.sortBy("rank");
  assert.deepEqual(m.handView(), ["2C", "7H", "8H", "9H", "QD", "KS"]);
});

test("the draft table: moves, undo, live check and confirm", () => {
  const m = ready({
    variant: "rami", verbs: ["table", "meld", "layoff", "discard"],
    table: [{ number: 1, owner: null, cards: ["3C", "4C", "5C", "6C"] }, { number: 2, owner: null, cards: ["6H", "6D", "6S"] }],
    hand: ["7C", "KS"],
  });
  m.startDraft();
  m.drop(sourceOf(m, "draft:0:3"), targetOf(m, "draft-meld:1")!);
  assert.equal(m.draftMoveText(), "table 3C 4C 5C | 6H 6D 6S 6C");
  m.drop(sourceOf(m, "hand:0"), { kind: "draft-new" });
  assert.equal(m.draftMoveText(), "table 3C 4C 5C | 6H 6D 6S 6C | 7C");
  assert.deepEqual(m.draftFromHand(), ["7C"]);
  assert.deepEqual(m.handView(), ["KS"]);
  m.checkDraft();
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 1, move: "table 3C 4C 5C | 6H 6D 6S 6C | 7C" }]);
  m.receive({ op: "checked", id: 1, ok: false, reason: "meld 3 is not valid" });
  assert.equal(m.draft?.ok, false);
  assert.equal(m.draft?.reason, "meld 3 is not valid");
  m.undoDraft();
  assert.equal(m.draftMoveText(), "table 3C 4C 5C | 6H 6D 6S 6C");
  m.checkDraft();
  m.takeOutbox();
  m.receive({ op: "checked", id: 2, ok: true, reason: null });
  m.confirmDraft();
  assert.deepEqual(m.takeOutbox(), [{ op: "move", id: 3, move: "table 3C 4C 5C | 6H 6D 6S 6C", version: 31 }]);
  m.receive({ op: "done", id: 3, version: 32 });
  assert.equal(m.draft, null);
});

test("confirming an unchecked draft checks it, then plays it; a stale answer is ignored", () => {
  const m = ready({ variant: "rami", verbs: ["table"], table: [{ number: 1, owner: null, cards: ["3C", "4C", "5C", "6C"] }], hand: ["6H", "6D"] });
  m.startDraft();
  m.drop(sourceOf(m, "draft:0:3"), { kind: "draft-new" });
  m.checkDraft();
  m.drop(sourceOf(m, "hand:0"), targetOf(m, "draft-meld:1")!);
  m.receive({ op: "checked", id: 1, ok: true, reason: null });
  assert.equal(m.draft?.ok, null, "an answer for an older draft");
  m.takeOutbox();
  m.confirmDraft();
  assert.deepEqual(m.takeOutbox(), [{ op: "check", id: 2, move: "table 3C 4C 5C | 6C 6H" }]);
  m.receive({ op: "checked", id: 2, ok: false, reason: "too short" });
  assert.deepEqual(m.takeOutbox(), []);
  assert.equal(m.draft?.confirming, false);
});

test("a joker from the hand is told from the table's joker", () => {
  const m = ready({ variant: "rami", verbs: ["table"], table: [{ number: 1, owner: null, cards: ["9H", "TH", "JK=JH", "QH"] }], hand: ["JK", "KS"] });
  m.startDraft();
  m.drop(sourceOf(m, "hand:0"), targetOf(m, "draft-meld:0")!);
  assert.deepEqual(m.draftOrigins(), [[false, false, false, false, true]]);
  m.setDraftCard(0, 4, "JK=KH");
  assert.equal(m.draftMoveText(), "table 9H TH JK=JH QH JK=KH");
  assert.deepEqual(m.draftFromHand(), ["JK=KH"]);
  m.drop(sourceOf(m, "draft:0:4"), { kind: "hand", index: null });
  assert.deepEqual(m.handView().sort(), ["JK", "KS"]);
});

test("a joker's role set by its picker goes into the move", () => {
  const m = ready({ variant: "rami", verbs: ["meld"], hand: ["JK", "7H", "7D"] });
  m.apply({ kind: "build-add", cards: ["7H", "7D", "JK"], group: null });
  m.setBuilderCard(0, 2, "JK=7C");
  assert.equal(m.builderMove(), "meld 7H 7D JK=7C");
});

test("error frames: an expired session logs in again, another one stops", () => {
  const m = ready();
  m.receive({ op: "error", code: "session_expired", reason: "expired" });
  assert.equal(m.relogin, true);
  const n = ready();
  n.receive({ op: "error", code: "not_in_instance", reason: "You are not in this activity" });
  assert.equal(n.conn, "failed");
  assert.equal(n.problem?.params["reason"], "You are not in this activity");
});

test("lobby, choose, next deal, hint frames", () => {
  const m = ready({ state: "lobby", verbs: [] });
  m.lobby("join");
  m.choose(7);
  m.nextDeal();
  m.askHint();
  assert.deepEqual(m.takeOutbox(), [
    { op: "lobby", id: 1, action: "join" },
    { op: "choose", game: 7 },
    { op: "next_deal", id: 2, version: 31 },
    { op: "hint", id: 3 },
  ]);
  m.receive({ op: "hint", id: 3, move: "discard KS", text: "Discard the king of spades" });
  assert.deepEqual(m.hint, { move: "discard KS", text: "Discard the king of spades" });
});

test("a state frame missing fields is filled in", () => {
  const m = new Model();
  m.receive({ op: "state", state: "none", choices: [{ game: 3, name: "Gin #3" }] } as unknown as GameState);
  assert.equal(m.game?.state, "none");
  assert.deepEqual(m.game?.seats, []);
  assert.deepEqual(m.handView(), []);
});
