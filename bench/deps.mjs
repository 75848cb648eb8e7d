// What execa and simple-git would cost next to our adapters (adapters/process.ts, adapters/git/): import time in a
// fresh node, unbundled and esbuild-bundled as the CLI ships, and per-call time, side by side in one run.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ORG, ROOT, createRepo, median, percentile, removeDir } from "./lib.mjs";

// execa 10 needs Node 22: 9.6.1 is the newest our engines floor (Node 20.19) can run.
const VERSIONS = { execa: "9.6.1", "simple-git": "4.0.2" };
const PREFIX = join(
  tmpdir(),
  `org-bench-deps-${Object.entries(VERSIONS)
    .map(([name, version]) => `${name}@${version}`)
    .join("-")}`,
);
const round1 = (value) => Number(value.toFixed(1));
const round2 = (value) => Number(value.toFixed(2));

function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(PREFIX, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

/** The two libraries at pinned versions in a temp prefix, never in the project's package.json or node_modules. */
function install() {
  if (Object.entries(VERSIONS).every(([name, version]) => installedVersion(name) === version)) return;
  mkdirSync(PREFIX, { recursive: true });
  const specs = Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`);
  process.stderr.write(`deps: installing ${specs.join(" ")} into ${PREFIX}\n`);
  // cwd is the prefix: run from the project, npm would read its package.json and lockfile.
  execFileSync(
    "npm",
    ["install", "--prefix", PREFIX, "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", ...specs],
    { cwd: PREFIX, stdio: ["ignore", "ignore", "inherit"] },
  );
}

// Each subject bundled as one ESM file, as the CLI's bundle once was (scripts/bundle.mjs now writes CommonJS).
const SUBJECTS = {
  execa: { source: 'export { execa } from "execa";', dir: PREFIX, unbundled: "execa" },
  processRunner: {
    source: 'export { processRunner } from "./src/adapters/process.ts";',
    dir: ROOT,
    unbundled: pathToFileURL(join(ROOT, "dist/adapters/process.js")).href,
  },
  "simple-git": { source: 'export { simpleGit } from "simple-git";', dir: PREFIX, unbundled: "simple-git" },
  gitAdapter: {
    source: 'export { gitAdapter } from "./src/adapters/git/git.ts";',
    dir: ROOT,
    unbundled: pathToFileURL(join(ROOT, "dist/adapters/git/git.js")).href,
  },
};

async function bundle(name, { source, dir }) {
  const outfile = join(PREFIX, "bundles", `${name}.mjs`);
  await build({
    stdin: { contents: source, resolveDir: dir, loader: "ts" },
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    // Bundled CommonJS (simple-git's `debug`) calls require() for node built-ins.
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; " +
        "const require = __benchCreateRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** ms to import `specifier` in a fresh node, timed inside it: node's own start-up, the same for all, stays out. */
function importMs(specifier) {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); ` +
    `process.stdout.write(String(performance.now() - t));`;
  // Bare names resolve from cwd under `-e`: the prefix, where the libraries are.
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: PREFIX, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`importing ${specifier} failed: ${result.stderr}`);
  return Number(result.stdout);
}

function processMs(argv) {
  const start = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { cwd: PREFIX, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${argv.join(" ")} failed: ${result.stderr}`);
  return performance.now() - start;
}

/** `calls` sequential calls of each, alternating which goes first, so load on the machine falls on both alike. */
async function perCall(calls, subjects) {
  const times = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  const entries = Object.entries(subjects);
  for (let i = 0; i < calls; i++) {
    for (const [name, call] of i % 2 ? [...entries].reverse() : entries) {
      const start = performance.now();
      await call();
      times[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, values]) => [
      name,
      {
        median_ms: round2(median(values)),
        p90_ms: round2(percentile(values, 90)),
        total_ms: round1(values.reduce((a, b) => a + b, 0)),
      },
    ]),
  );
}

export async function benchDeps({ rounds = 20, calls = 200 } = {}) {
  install();
  const bundles = {};
  for (const [name, subject] of Object.entries(SUBJECTS)) bundles[name] = await bundle(name, subject);
  // An empty module's import is the ESM loader's own cost: the floor under every figure here.
  const empty = await bundle("empty", { source: "export {};", dir: ROOT });

  // Every candidate once per round, in turn: a busy moment on the machine hits a whole round, not one candidate.
  const samples = {};
  const add = (key, value) => (samples[key] ??= []).push(value);
  for (let round = 0; round < rounds; round++) {
    for (const [name, subject] of Object.entries(SUBJECTS)) {
      add(`${name}.unbundled`, importMs(subject.unbundled));
      add(`${name}.bundled`, importMs(pathToFileURL(bundles[name]).href));
    }
    add("empty_module", importMs(pathToFileURL(empty).href));
    add("node_empty", processMs([process.execPath, "-e", ""]));
    add("org_version", processMs([process.execPath, ORG, "--version"]));
  }
  const importCost = Object.fromEntries(
    Object.keys(SUBJECTS).map((name) => [
      name,
      {
        unbundled_ms: round1(median(samples[`${name}.unbundled`])),
        bundled_ms: round1(median(samples[`${name}.bundled`])),
        bundle_kb: Math.round(statSync(bundles[name]).size / 1024),
      },
    ]),
  );
  process.stderr.write(`deps import (median of ${rounds}): ${JSON.stringify(importCost)}\n`);

  const { execa } = await import(pathToFileURL(bundles.execa).href);
  const { processRunner } = await import(pathToFileURL(bundles.processRunner).href);
  const { simpleGit } = await import(pathToFileURL(bundles["simple-git"]).href);
  const { gitAdapter } = await import(pathToFileURL(bundles.gitAdapter).href);
  const repo = createRepo({ "a.txt": "a\n" });
  try {
    // The same argv both ways: git -c gc.auto=0 rev-parse --verify --quiet HEAD^{commit}.
    const sg = simpleGit({ baseDir: repo, config: ["gc.auto=0"] });
    const [theirs, ours] = [
      (await sg.revparse(["--verify", "--quiet", "HEAD^{commit}"])).trim(),
      await gitAdapter.revParse(repo, "HEAD"),
    ];
    if (!ours || theirs !== ours) throw new Error(`rev-parse disagrees: simple-git ${theirs}, ours ${ours}`);
    const revParse = await perCall(calls, {
      "simple-git": async () => sg.revparse(["--verify", "--quiet", "HEAD^{commit}"]),
      gitAdapter: async () => gitAdapter.revParse(repo, "HEAD"),
    });
    const runTrue = await perCall(calls, {
      execa: async () => {
        if ((await execa("true")).exitCode !== 0) throw new Error("execa: true failed");
      },
      processRunner: async () => {
        if ((await processRunner.run(["true"])).exitCode !== 0) throw new Error("processRunner: true failed");
      },
    });
    process.stderr.write(
      `deps per call (${calls}): rev-parse ${JSON.stringify(revParse)}, true ${JSON.stringify(runTrue)}\n`,
    );
    return {
      versions: { ...VERSIONS, node: process.version }, prefix: PREFIX, rounds, calls,
      import_ms: { empty_module_floor_ms: round1(median(samples.empty_module)), ...importCost },
      process_ms: { node_empty: round1(median(samples.node_empty)), org_version: round1(median(samples.org_version)) },
      per_call: { git_rev_parse_head: revParse, run_true: runTrue },
    };
  } finally {
    removeDir(repo);
  }
}
