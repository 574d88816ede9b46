import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveDrop } from "../src/drop.js";

const play = { verbs: ["discard", "knock", "meld", "layoff"], drafting: false };

test("a hand card onto the discard pile is a discard", () => {
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["7H"], index: 0 }, { kind: "discard" }, play), { kind: "move", move: "discard 7H", check: false, alternatives: [] });
  assert.equal(resolveDrop({ kind: "hand", cards: ["7H", "8H"], index: 0 }, { kind: "discard" }, play).kind, "none");
  assert.equal(resolveDrop({ kind: "hand", cards: ["7H"], index: 0 }, { kind: "discard" }, { verbs: ["draw"], drafting: false }).kind, "none");
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["KD"], index: 0 }, { kind: "discard" }, { verbs: ["claim", "pass"], drafting: false }), { kind: "move", move: "claim KD", check: false, alternatives: [] });
});

test("onto a meld is a layoff (checked first), or a swap where a wild sits", () => {
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["6C"], index: 0 }, { kind: "meld", number: 2, cards: ["3C", "4C", "5C"] }, play), { kind: "move", move: "layoff 6C to 2", check: true, alternatives: [] });
  const ctx = { verbs: ["layoff", "swap", "discard"], drafting: false };
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["6H"], index: 0 }, { kind: "meld", number: 1, cards: ["5H", "JK=6H", "7H"] }, ctx), { kind: "move", move: "layoff 6H to 1", check: true, alternatives: ["swap 6H to 1"] });
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["6H"], index: 0 }, { kind: "meld", number: 1, cards: ["5H", "JK=6H", "7H"] }, { verbs: ["swap"], drafting: false }), { kind: "move", move: "swap 6H to 1", check: true, alternatives: [] });
  assert.equal(resolveDrop({ kind: "hand", cards: ["6H"], index: 0 }, { kind: "meld", number: 1, cards: ["5H"] }, { verbs: ["discard"], drafting: false }).kind, "none");
});

test("the stock or the discard onto the hand draws or takes", () => {
  const ctx = { verbs: ["draw", "take"], drafting: false };
  assert.deepEqual(resolveDrop({ kind: "stock" }, { kind: "hand", index: null }, ctx), { kind: "move", move: "draw", check: false, alternatives: [] });
  assert.deepEqual(resolveDrop({ kind: "discard", card: "KS", deep: false }, { kind: "hand", index: 3 }, ctx), { kind: "move", move: "take", check: false, alternatives: [] });
  assert.deepEqual(resolveDrop({ kind: "discard", card: "9D", deep: true }, { kind: "hand", index: null }, ctx), { kind: "move", move: "take 9D", check: false, alternatives: [] });
  assert.equal(resolveDrop({ kind: "stock" }, { kind: "hand", index: null }, play).kind, "none");
  assert.equal(resolveDrop({ kind: "stock" }, { kind: "discard" }, ctx).kind, "none");
});

test("new meld, knock button, reordering", () => {
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["7H", "8H"], index: 1 }, { kind: "new-meld", group: null }, play), { kind: "build-add", cards: ["7H", "8H"], group: null });
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["KD"], index: 1 }, { kind: "action", verb: "knock" }, play), { kind: "move", move: "knock KD", check: false, alternatives: [] });
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["KD"], index: 1 }, { kind: "hand", index: 4 }, play), { kind: "reorder", cards: ["KD"], before: 4 });
  assert.deepEqual(resolveDrop({ kind: "builder", group: 0, index: 1, card: "8H" }, { kind: "hand", index: null }, play), { kind: "build-remove", group: 0, index: 1, to: null });
});

test("while drafting the table, cards move between melds", () => {
  const ctx = { verbs: ["table", "discard"], drafting: true };
  assert.deepEqual(resolveDrop({ kind: "draft", meld: 0, index: 2, card: "5C" }, { kind: "draft-meld", meld: 1 }, ctx), { kind: "draft-move", from: { meld: 0, index: 2 }, to: { meld: 1 } });
  assert.deepEqual(resolveDrop({ kind: "draft", meld: 0, index: 2, card: "5C" }, { kind: "draft-new" }, ctx), { kind: "draft-move", from: { meld: 0, index: 2 }, to: "new" });
  assert.deepEqual(resolveDrop({ kind: "draft", meld: 0, index: 2, card: "5C" }, { kind: "hand", index: null }, ctx), { kind: "draft-move", from: { meld: 0, index: 2 }, to: "hand" });
  assert.deepEqual(resolveDrop({ kind: "hand", cards: ["6C"], index: 0 }, { kind: "draft-meld", meld: 0 }, ctx), { kind: "draft-move", from: { hand: ["6C"] }, to: { meld: 0 } });
  assert.equal(resolveDrop({ kind: "hand", cards: ["6C"], index: 0 }, { kind: "discard" }, ctx).kind, "none");
});
