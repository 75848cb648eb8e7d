// Bundles the CLI into dist/bundle/ for bin/org.js: one file to load instead of ~400 small ones (zod, yaml,
// commander, ours), which is most of a command's start-up time. Lazy commands stay lazy as split chunks.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const BANNER = "import { createRequire as __orgCreateRequire } from 'node:module'; "
  + "const require = __orgCreateRequire(import.meta.url);";
const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = `${root}dist/bundle`;
const EXTERNAL = ["node-pty", "blessed", "@xterm/headless", "vega", "vega-lite"];
const common = {
  absWorkingDir: root, bundle: true, platform: "node", target: "node20", sourcemap: "linked", logLevel: "warning",
  metafile: true,
  // CommonJS packages with native parts or big trees, loaded only by the commands that need them.
  external: EXTERNAL,
};
// org.cjs, what bin/org.js runs: the whole CLI as one function, compiled through node:vm with V8's code cache. ESM
// has no cached-data API in node 20; lazy commands stay lazy as the bundle's init functions. bin/org.js hands in
// require, import.meta and import() (a vm script has no import() of its own, and ESM-only vega needs one).
const WRAP = "(function (require, module, exports, __orgImportMeta, __orgImport) {";
const [result, script] = await Promise.all([build({
  ...common,
  entryPoints: [`${root}src/cli/main.ts`],
  outdir,
  splitting: true,
  format: "esm",
  // Bundled CommonJS (commander) calls require() for node built-ins.
  banner: { js: BANNER },
}), build({
  ...common,
  entryPoints: { org: `${root}src/cli/main.ts` },
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  define: { "import.meta": "__orgImportMeta" },
  banner: { js: WRAP },
  footer: { js: "})" },
  write: false,
})]);
// Written whole, then renamed: a running org process may be reading the old one.
for (const { path, text: built } of script.outputFiles) {
  let text = built;
  if (path.endsWith(".cjs")) {
    for (const name of EXTERNAL) text = text.replaceAll(`import("${name}")`, `__orgImport("${name}")`);
    if (/[^\w$.]import\(/.test(text)) throw new Error("org.cjs: an import() that bin/org.js does not hand in");
  }
  writeFileSync(`${path}.${process.pid}.tmp`, text);
  renameSync(`${path}.${process.pid}.tmp`, path);
}
// Stale chunks go after the build, not before: running org processes (tests, a live org) keep a main.js to load.
const outputs = [...Object.keys(result.metafile.outputs), ...Object.keys(script.metafile.outputs)];
const written = new Set(outputs.map((file) => relative(outdir, `${root}${file}`)));
// bin/org.js's code caches of this very org.cjs stay (its name holds the hash bin/org.js checks); older ones go.
const hash = createHash("sha256").update(readFileSync(`${outdir}/org.cjs`)).digest("hex").slice(0, 16);
// The hash with the size and mtime it belongs to: bin/org.js takes it for a bundle that still has both, and hashes
// the 2 MB itself otherwise (an install that reset the mtimes, a bundle edited in place).
const { size, mtimeNs } = statSync(`${outdir}/org.cjs`, { bigint: true });
writeFileSync(`${outdir}/org.cjs.sum.${process.pid}.tmp`, `${size} ${mtimeNs} ${hash}\n`);
renameSync(`${outdir}/org.cjs.sum.${process.pid}.tmp`, `${outdir}/org.cjs.sum`);
written.add("org.cjs.sum");
const current = (name) => written.has(name) || (name.startsWith(`org.cjs.${hash}.`) && name.endsWith(".cache"));
for (const name of readdirSync(outdir)) if (!current(name)) rmSync(`${outdir}/${name}`, { force: true });
// The banner only where require is named: each of the other chunks would pay a createRequire and an import.meta on
// every start (a command loads dozens). An empty line in its place keeps the source maps' line numbers.
for (const file of Object.keys(result.metafile.outputs).filter((name) => name.endsWith(".js"))) {
  const text = readFileSync(`${root}${file}`, "utf8");
  if (!text.startsWith(BANNER) || /\brequire\b/.test(text.slice(BANNER.length))) continue;
  writeFileSync(`${root}${file}`, text.slice(BANNER.length));
}
