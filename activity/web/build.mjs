// `npm run build [-- --out DIR]`: the page into ../static (or DIR, or $RUMMY_ACTIVITY_OUT).
// Deterministic: the same sources give the same bytes; assets are named by a hash of their content,
// and every URL in index.html is relative (the page works at / and at /.proxy/).
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf("--out");
const out = resolve(at >= 0 ? args[at + 1] : process.env.RUMMY_ACTIVITY_OUT || join(here, "..", "static"));

export const TARGET = ["es2020"];

function hashed(name, ext, content) {
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 12);
  return `assets/${name}-${hash}.${ext}`;
}

const common = { bundle: true, minify: true, write: false, target: TARGET, legalComments: "eof", logLevel: "warning", charset: "utf8" };
const js = await esbuild.build({ ...common, entryPoints: [join(here, "src", "main.ts")], format: "iife", outfile: "app.js" });
const css = await esbuild.build({ ...common, entryPoints: [join(here, "src", "style.css")], outfile: "app.css" });
const files = new Map();
const jsName = hashed("app", "js", js.outputFiles[0].contents);
const cssName = hashed("app", "css", css.outputFiles[0].contents);
const icon = await readFile(join(here, "src", "icon.svg"));
const iconName = hashed("icon", "svg", icon);
files.set(jsName, js.outputFiles[0].contents);
files.set(cssName, css.outputFiles[0].contents);
files.set(iconName, icon);
const html = (await readFile(join(here, "src", "index.html"), "utf8"))
  .replace("{{js}}", jsName)
  .replace("{{css}}", cssName)
  .replace("{{icon}}", iconName);
files.set("index.html", Buffer.from(html, "utf8"));

await rm(join(out, "assets"), { recursive: true, force: true });
await mkdir(join(out, "assets"), { recursive: true });
for (const [name, content] of files) await writeFile(join(out, name), content);
let total = 0;
for (const [name, content] of files) {
  total += content.length;
  if (!args.includes("--quiet")) console.log(`${name.padEnd(32)} ${String(content.length).padStart(8)} B`);
}
if (!args.includes("--quiet")) console.log(`${out}: ${files.size} files, ${total} B`);
