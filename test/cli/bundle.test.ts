// scripts/bundle.mjs, run in a copy of the tree: org.cjs and its map, no ESM chunks, and what another build running in
// the same tree has in flight left alone.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "../../src/adapters/package-root.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";

const trees: string[] = [];
afterAll(() => trees.forEach(removeDir));

// A copy of the tree with the script, and its sources by link: no dist/ yet, as in a fresh clone.
function copyTree(): string {
  const tree = makeTempDir("org-bundle-");
  trees.push(tree);
  mkdirSync(join(tree, "scripts"));
  cpSync(join(PACKAGE_ROOT, "scripts", "bundle.mjs"), join(tree, "scripts", "bundle.mjs"));
  for (const name of ["src", "node_modules", "package.json", "tsconfig.json"]) {
    symlinkSync(join(PACKAGE_ROOT, name), join(tree, name));
  }
  return tree;
}

function bundleInCopy(tree: string): { status: number | null; stderr: string } {
  return spawnSync(process.execPath, [join(tree, "scripts", "bundle.mjs")], { cwd: tree, encoding: "utf8" });
}

describe("scripts/bundle.mjs", () => {
  test("writes org.cjs and its map, removes old chunks and a killed build's temporary file, leaves a fresh one", () => {
    const tree = copyTree();
    const outdir = join(tree, "dist", "bundle");
    mkdirSync(outdir, { recursive: true });
    // Another build's org.cjs on its way (just written), a killed one's (an hour old), an ESM chunk of an old build.
    const inFlight = "org.cjs.4242-0a1b2c3d.tmp";
    const killed = "org.cjs.4243-0a1b2c3d.tmp";
    for (const name of [inFlight, killed, "main.js", "chunk-ABCDEFGH.js"]) writeFileSync(join(outdir, name), "x");
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(join(outdir, killed), hourAgo, hourAgo);
    const built = bundleInCopy(tree);
    expect([built.status, built.stderr]).toEqual([0, ""]);
    const left = readdirSync(outdir);
    expect(left).toEqual(expect.arrayContaining(["org.cjs", "org.cjs.map", inFlight]));
    expect(left.filter((name) => name.endsWith(".js") || name === killed)).toEqual([]);
    const bundle = readFileSync(join(outdir, "org.cjs"), "utf8");
    expect(bundle.startsWith("(function (require, module, exports, __orgImportMeta, __orgImport) {")).toBe(true);
    // ASCII only, for bin/org.js's latin1 decoding: a screen pattern's "■" is there as \u25a0.
    expect(bundle.match(/[^\x00-\x7f]/g)).toBeNull();
    expect(bundle).toContain(String.raw`^\s*\u25a0 `);
  }, 60_000);

  test("builds in a tree with no dist/ yet, as a fresh clone's first build does", () => {
    const tree = copyTree();
    const built = bundleInCopy(tree);
    expect([built.status, built.stderr]).toEqual([0, ""]);
    expect(readdirSync(join(tree, "dist", "bundle")).sort()).toEqual(["org.cjs", "org.cjs.map", "org.cjs.sum"]);
  }, 60_000);
});
