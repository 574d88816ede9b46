import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILT_IN, WORD_KEYS, WORDS_EN, branches, defaults, format, pluralCategory, word } from "../src/words.js";

declare const __WEB_ROOT__: string;

test("words.{es,en,fr}.json are src/words.ts (npm run words)", () => {
  assert.deepEqual(Object.keys(BUILT_IN).sort(), ["en", "es", "fr"]);
  for (const [locale, words] of Object.entries(BUILT_IN)) {
    const file = JSON.parse(readFileSync(join(__WEB_ROOT__, `words.${locale}.json`), "utf8")) as Record<string, string>;
    assert.deepEqual(Object.keys(file), [...WORD_KEYS], locale);
    for (const k of WORD_KEYS) assert.equal(file[k], words[k], `${locale} ${k}`);
  }
});

test("every language has every key, with the same placeholders, and no old {n|one|other} form", () => {
  // The parameter names a text uses, inside plural branches too (a branch's own braces are not one).
  const names = (t: string): string[] => {
    const out = new Set<string>();
    let depth = 0, start = 0;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === "{" && depth++ === 0) start = i + 1;
      else if (t[i] === "}" && --depth === 0) {
        const body = t.slice(start, i);
        const p = branches(body);
        if (p) {
          out.add(p.name);
          for (const b of Object.values(p.forms)) for (const n of names(b)) out.add(n);
        } else out.add(body);
      }
    }
    return [...out].sort();
  };
  for (const [locale, words] of Object.entries(BUILT_IN)) {
    for (const k of WORD_KEYS) {
      assert.ok(words[k], `${locale} ${k}`);
      assert.deepEqual(names(words[k]), names(WORDS_EN[k]), `${locale} ${k}`);
      assert.doesNotMatch(words[k], /\{\w+\|/, `${locale} ${k}`);
    }
  }
});

test("every plural has every CLDR category of its language", () => {
  for (const [locale, words] of Object.entries(BUILT_IN)) {
    const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const k of WORD_KEYS) {
      for (const m of words[k].matchAll(/\{(\w+, plural,.*)\}/g)) {
        const p = branches(m[1]!);
        assert.ok(p, `${locale} ${k}`);
        for (const c of needed) assert.ok(c in p.forms, `${locale} ${k} lacks ${c}`);
      }
    }
  }
});

test("placeholders fill as the catalog's do", () => {
  assert.equal(format("Meld {n}", { n: 2 }), "Meld 2");
  assert.equal(format("Meld {n}"), "Meld {n}");
  assert.equal(format("{a} and {b}", { a: "x" }), "x and {b}");
  assert.equal(word({ "activity.page.meld": "Combinación {n}" }, "activity.page.meld", { n: 4 }), "Combinación 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "en"), "Meld 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "es-ES"), "Combinación 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "fr"), "Combinaison 4");
  assert.equal(word({}, "activity.page.meld", { n: 4 }, "de"), "Meld 4");
  assert.equal(defaults("es-419"), BUILT_IN["es"]);
});

test("ICU plurals choose their branch by the browser's CLDR rules", () => {
  const cards = "{count} {count, plural, one {carte} many {de cartes} other {cartes}}";
  assert.deepEqual([0, 1, 2, 1_000_000].map((count) => format(cards, { count }, "fr")),
    ["0 carte", "1 carte", "2 cartes", "1000000 de cartes"]);
  const en = "{count} {count, plural, one {card} other {cards}}";
  assert.deepEqual([0, 1, 2].map((count) => format(en, { count }, "en")), ["0 cards", "1 card", "2 cards"]);
  assert.equal(format("{count, plural, =0 {none} one {# card} other {# cards}}", { count: 0 }, "en"), "none");
  assert.equal(format("{count, plural, =0 {none} one {# card} other {# cards}}", { count: 5 }, "en"), "5 cards");
  // Polish has one, few and many: the syntax carries them and Intl chooses.
  const pl = "{n} {n, plural, one {karta} few {karty} many {kart} other {karty}}";
  assert.deepEqual([1, 3, 5, 22].map((n) => format(pl, { n }, "pl")), ["1 karta", "3 karty", "5 kart", "22 karty"]);
  // A written-out count keeps its decimals: French 1,5 is singular, English 1.0 is not.
  assert.equal(pluralCategory("1,5", "fr"), "one");
  assert.equal(pluralCategory("1.0", "en"), "other");
  assert.equal(pluralCategory(1, "en"), "one");
  assert.equal(pluralCategory(1, "not a locale!"), "one");
  // Nested placeholders inside a branch.
  assert.equal(format("{count, plural, one {{name} has # card} other {{name} has # cards}}", { count: 1, name: "Ana" }, "en"), "Ana has 1 card");
});

test("the built-in texts speak each language's plurals", () => {
  assert.equal(word({}, "activity.page.stock_count", { count: 0 }, "fr"), "Pioche\u00a0: 0 carte");
  assert.equal(word({}, "activity.page.stock_count", { count: 0 }, "en"), "Stock: 0 cards");
  assert.equal(word({}, "activity.page.selected", { count: 1 }, "es"), "1 carta elegida");
  assert.equal(word({}, "activity.page.selected", { count: 2 }, "en-GB"), "2 cards selected");
  // Served words follow the viewer's locale's rules, not English.
  assert.equal(word({ "activity.page.seat_cards": "{count} {count, plural, one {carte} other {cartes}}" }, "activity.page.seat_cards", { count: 0 }, "fr"), "0 carte");
});
