import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { WORD_KEYS, WORDS_EN, WORDS_ES, format, word } from "../src/words.js";

declare const __WEB_ROOT__: string;

test("words.en.json and words.es.json are src/words.ts (npm run words)", () => {
  for (const [locale, words] of [["en", WORDS_EN], ["es", WORDS_ES]] as const) {
    const file = JSON.parse(readFileSync(join(__WEB_ROOT__, `words.${locale}.json`), "utf8")) as Record<string, string>;
    assert.deepEqual(Object.keys(file), [...WORD_KEYS], locale);
    for (const k of WORD_KEYS) assert.equal(file[k], words[k], `${locale} ${k}`);
  }
});

test("both languages have every key, with the same placeholders", () => {
  const names = (t: string): string[] => [...t.matchAll(/\{([A-Za-z_]+)/g)].map((m) => m[1]!).sort();
  for (const k of WORD_KEYS) {
    assert.ok(WORDS_ES[k], k);
    assert.deepEqual(names(WORDS_ES[k]), names(WORDS_EN[k]), k);
  }
});

test("placeholders fill as the catalog's do", () => {
  assert.equal(format("{count} {count|card|cards}", { count: 1 }), "1 card");
  assert.equal(format("{count} {count|carta|cartas}", { count: 3 }), "3 cartas");
  assert.equal(format("Meld {n}", { n: 2 }), "Meld 2");
  assert.equal(format("Meld {n}"), "Meld {n}");
  assert.equal(word({ "activity.page.meld": "Combinación {n}" }, "activity.page.meld", { n: 4 }), "Combinación 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "en"), "Meld 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "es-ES"), "Combinación 4");
});
