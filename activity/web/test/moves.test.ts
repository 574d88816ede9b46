import { test } from "node:test";
import assert from "node:assert/strict";
import * as mv from "../src/moves.js";
import { face, parseCard, reconcileOrder, roleOpen, sortCards, wildChoices, without } from "../src/cards.js";

test("move texts follow notation.md", () => {
  assert.equal(mv.take(), "take");
  assert.equal(mv.take("9D"), "take 9D");
  assert.equal(mv.meld([["5C", "6C", "7C"]]), "meld 5C 6C 7C");
  assert.equal(mv.meld([["5C", "6C", "7C"], [], ["9D", "9S", "9H"]]), "meld 5C 6C 7C | 9D 9S 9H");
  assert.equal(mv.layoff(["7H"], 3), "layoff 7H to 3");
  assert.equal(mv.layoff(["3S", "4S"], 2), "layoff 3S 4S to 2");
  assert.equal(mv.swap("6H", 2), "swap 6H to 2");
  assert.equal(mv.table([["3C", "4C", "5C"], ["6H", "6D", "6C"], []]), "table 3C 4C 5C | 6H 6D 6C");
  assert.equal(mv.oneCard("discard", "KS"), "discard KS");
  assert.equal(mv.oneCard("knock", "KD"), "knock KD");
  assert.equal(mv.oneCard("gin", "KD"), "knock KD");
  assert.equal(mv.oneCard("claim", "KD"), "claim KD");
});

test("cardsOf reads the cards a move names", () => {
  assert.deepEqual(mv.cardsOf("discard KS"), ["KS"]);
  assert.deepEqual(mv.cardsOf("meld 5C 6C JK=7C | 9D 9S 9H"), ["5C", "6C", "JK=7C", "9D", "9S", "9H"]);
  assert.deepEqual(mv.cardsOf("layoff 7H to 3"), ["7H"]);
  assert.deepEqual(mv.cardsOf("knock KD : 5S 5C 5D"), ["KD", "5S", "5C", "5D"]);
  assert.deepEqual(mv.cardsOf("draw"), []);
});

test("cards parse, show and sort", () => {
  assert.deepEqual(parseCard("jk=8h"), { code: "JK=8H", base: "JK", rank: null, suit: null, joker: true, as: "8H" });
  assert.equal(parseCard("10H").code, "TH");
  assert.equal(face("TH").rank, "10");
  assert.equal(face("TH").suit, "♥");
  assert.equal(face("TH").red, true);
  assert.equal(face("KS").red, false);
  assert.deepEqual(face("JK=8H"), { rank: "8", suit: "♥", red: false, joker: true, as: "★" });
  assert.deepEqual(face("JK"), { rank: "JK", suit: "★", red: false, joker: true, as: "" });
  assert.deepEqual(face("2C=7"), { rank: "7", suit: "", red: false, joker: true, as: "2♣" });
  assert.ok(roleOpen("JK"));
  assert.ok(roleOpen("JK=7"));
  assert.ok(!roleOpen("JK=7C"));
  assert.ok(!roleOpen("7C"));
  assert.deepEqual(sortCards(["KH", "2S", "JK", "AH", "3S"], "suit"), ["2S", "3S", "AH", "KH", "JK"]);
  assert.deepEqual(sortCards(["KH", "2S", "AH", "2D"], "rank"), ["AH", "2S", "2D", "KH"]);
  assert.deepEqual(without(["7H", "7H", "8H"], ["7H"]), ["7H", "8H"]);
  assert.deepEqual(reconcileOrder(["9C", "7H", "2S"], ["2S", "7H", "KD"]), ["7H", "2S", "KD"]);
  assert.deepEqual(reconcileOrder(["7H", "7H"], ["7H", "8H", "7H"]), ["7H", "7H", "8H"]);
});

test("a wild's choices: a set's missing suits, a run's reachable ranks", () => {
  assert.deepEqual(wildChoices(["7H", "7D"]), ["7S", "7C"]);
  assert.deepEqual(wildChoices(["5C", "6C"]), ["4C", "7C"]);
  assert.deepEqual(wildChoices(["5C", "7C"]), ["6C"]);
  assert.deepEqual(wildChoices(["QS", "KS"]), ["JS", "AS"]);
  assert.deepEqual(wildChoices(["7H"]), ["7S", "7D", "7C", "6H", "8H"]);
  assert.deepEqual(wildChoices([]), []);
  assert.deepEqual(wildChoices(["5C", "9H"]), []);
});
