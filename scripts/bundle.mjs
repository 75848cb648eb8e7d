// Bundles the CLI into dist/bundle/org.cjs for bin/org.js: one file to load instead of ~400 small ones (zod, yaml,
// commander, ours), which is most of a command's start-up time. Lazy commands stay lazy as esbuild's init functions.
import { build } from "esbuild";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = `${root}dist/bundle`;
const EXTERNAL = ["node-pty", "blessed", "@xterm/headless", "vega", "vega-lite"];
// This build's temporary files: two builds in one tree never write, rename or remove each other's.
const TMP = `${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
// Older than this, a temporary file is a killed build's: no build takes this long.
const STALE_TMP_MS = 10 * 60_000;
// org.cjs, what bin/org.js runs: the whole CLI as one function, compiled through node:vm with V8's code cache. ESM
// has no cached-data API in node 20; lazy commands stay lazy as the bundle's init functions. bin/org.js hands in
// require, import.meta and import() (a vm script has no import() of its own, and ESM-only vega needs one).
const WRAP = "(function (require, module, exports, __orgImportMeta, __orgImport) {";
const script = await build({
  absWorkingDir: root, bundle: true, platform: "node", target: "node20", sourcemap: "linked", logLevel: "warning",
  metafile: true,
  // CommonJS packages with native parts or big trees, loaded only by the commands that need them.
  external: EXTERNAL,
  entryPoints: { org: `${root}src/cli/main.ts` },
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  define: { "import.meta": "__orgImportMeta" },
  banner: { js: WRAP },
  footer: { js: "})" },
  write: false,
});
// Written whole, then renamed: a running org process may be reading the old one. A fresh clone has no folder yet.
mkdirSync(outdir, { recursive: true });
for (const { path, text: built } of script.outputFiles) {
  let text = built;
  if (path.endsWith(".cjs")) {
    for (const name of EXTERNAL) text = text.replaceAll(`import("${name}")`, `__orgImport("${name}")`);
    if (/[^\w$.]import\(/.test(text)) throw new Error("org.cjs: an import() that bin/org.js does not hand in");
    text = escapeNonAscii(text);
  }
  writeFileSync(`${path}.${TMP}`, text);
  renameSync(`${path}.${TMP}`, path);
}
// What older builds left goes after the build, not before: a running org process may still read it. That includes
// the ESM chunks builds wrote before org.cjs was all bin/org.js loaded.
const outputs = Object.keys(script.metafile.outputs);
const written = new Set(outputs.map((file) => relative(outdir, `${root}${file}`)));
// bin/org.js's code caches of this very org.cjs stay (its name holds the hash bin/org.js checks); older ones go.
const hash = createHash("sha256").update(readFileSync(`${outdir}/org.cjs`)).digest("hex").slice(0, 16);
// The hash with the size and mtime it belongs to: bin/org.js takes it for a bundle that still has both, and hashes
// the 2 MB itself otherwise (an install that reset the mtimes, a bundle edited in place).
const { size, mtimeNs } = statSync(`${outdir}/org.cjs`, { bigint: true });
const sumTmp = `${outdir}/org.cjs.sum.${TMP}`;
writeFileSync(sumTmp, `${size} ${mtimeNs} ${hash}\n`);
renameSync(sumTmp, `${outdir}/org.cjs.sum`);
written.add("org.cjs.sum");
// Another build's temporary file stays while that build may still be running.
const building = (name) => name.endsWith(".tmp")
  && Date.now() - (statSync(`${outdir}/${name}`, { throwIfNoEntry: false })?.mtimeMs ?? 0) < STALE_TMP_MS;
const current = (name) => written.has(name) || (name.startsWith(`org.cjs.${hash}.`) && name.endsWith(".cache"))
  || building(name);
for (const name of readdirSync(outdir)) if (!current(name)) rmSync(`${outdir}/${name}`, { force: true });

// esbuild escapes strings but leaves a few comments, regex literals and String.raw texts (all screen patterns) with
// characters past ASCII: escaped too, the bundle is ASCII, and bin/org.js decodes 2 MB as latin1 (0.8 ms) instead of
// UTF-8 (3.2 ms) at every start. \uXXXX means the same character in each of those places; one after a backslash would
// not, so the build refuses it.
function escapeNonAscii(text) {
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, char) => {
    if (slashes.length % 2 === 1) throw new Error(`org.cjs: an escaped ${char} that \\u would change`);
    return `${slashes}\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
