// `npm test`: compile test/*.test.ts (with the pure modules they import) into a temporary folder
// and run them with node's own test runner.
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const tests = (await readdir(join(here, "test"))).filter((f) => f.endsWith(".test.ts")).sort();
const out = await mkdtemp(join(tmpdir(), "rummy-web-test-"));
try {
  await esbuild.build({
    entryPoints: tests.map((f) => join(here, "test", f)),
    outdir: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
    define: { __WEB_ROOT__: JSON.stringify(here) },
  });
  const files = tests.map((f) => join(out, f.replace(/\.ts$/, ".mjs")));
  const run = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(out, { recursive: true, force: true });
}
