// Bundles the CLI into dist/bundle/ for bin/org.js: one file to load instead of ~400 small ones (zod, yaml,
// commander, ours), which is most of a command's start-up time. Lazy commands stay lazy as split chunks.
import { build } from "esbuild";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const BANNER = "import { createRequire as __orgCreateRequire } from 'node:module'; "
  + "const require = __orgCreateRequire(import.meta.url);";
const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = `${root}dist/bundle`;
const result = await build({
  entryPoints: [`${root}src/cli/main.ts`],
  outdir,
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // CommonJS packages with native parts or big trees, loaded only by the commands that need them.
  external: ["node-pty", "blessed", "@xterm/headless", "vega", "vega-lite"],
  // Bundled CommonJS (commander) calls require() for node built-ins.
  banner: { js: BANNER },
  logLevel: "warning",
  metafile: true,
});
// Stale chunks go after the build, not before: running org processes (tests, a live org) keep a main.js to load.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => relative(outdir, `${root}${file}`)));
for (const name of readdirSync(outdir)) if (!written.has(name)) rmSync(`${outdir}/${name}`, { force: true });
// The banner only where require is named: each of the other chunks would pay a createRequire and an import.meta on
// every start (a command loads dozens). An empty line in its place keeps the source maps' line numbers.
for (const file of Object.keys(result.metafile.outputs).filter((name) => name.endsWith(".js"))) {
  const text = readFileSync(`${root}${file}`, "utf8");
  if (!text.startsWith(BANNER) || /\brequire\b/.test(text.slice(BANNER.length))) continue;
  writeFileSync(`${root}${file}`, text.slice(BANNER.length));
}
