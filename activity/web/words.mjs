// `npm run words`: write words.es.json, words.en.json and words.fr.json from src/words.ts, the page's
// built-in texts. test/words.test.ts fails when they are out of date, and
// tests/activity/test_page_words.py when they differ from the bot's .po catalogs.
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dir = await mkdtemp(join(tmpdir(), "rummy-words-"));
try {
  const file = join(dir, "words.mjs");
  await esbuild.build({ entryPoints: [join(here, "src", "words.ts")], outfile: file, bundle: true, platform: "node", format: "esm", logLevel: "warning" });
  const { WORD_KEYS, BUILT_IN } = await import(pathToFileURL(file).href);
  for (const [locale, words] of Object.entries(BUILT_IN)) {
    const obj = Object.fromEntries(WORD_KEYS.map((k) => [k, words[k]]));
    await writeFile(join(here, `words.${locale}.json`), JSON.stringify(obj, null, 2) + "\n");
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
