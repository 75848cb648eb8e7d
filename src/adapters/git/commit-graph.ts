// The parents of the kept commits, read from the verifier's own store: a deleted branch or a rewritten research repo
// changes nothing there, and the store's git dir and a config that runs nothing are named on every call.
import { stat } from "node:fs/promises";
import type { CommitGraph } from "../../domain/lineage/index.js";
import { runGit } from "./run.js";

// Only git reads here: no hooks, no fsmonitor, no global or system config (an agent's HOME may hold one).
const CONFIG = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "gc.auto=0", "maintenance.auto=false"];

/** The full hashes the store knows for `names` (full or abbreviated), by name. */
export async function resolveStoreCommits(store: string, names: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(names)].filter((name) => /^[0-9a-f]{4,64}$/.test(name));
  const resolved = new Map<string, string>();
  if (wanted.length === 0 || !(await isDir(store))) return resolved;
  const check = ["cat-file", "--batch-check=%(objectname) %(objecttype)"];
  const result = await runGit(check, call(store, `${wanted.join("\n")}\n`));
  const lines = result.stdout.split("\n");
  wanted.forEach((name, index) => {
    const [hash, type] = (lines[index] ?? "").split(" ");
    if (type === "commit" && hash && hash.startsWith(name)) resolved.set(name, hash);
  });
  return resolved;
}

/** Every commit above `base` that the store holds under `commits`, with its parents; why not, when git cannot say. */
export async function readCommitGraph(store: string, commits: readonly string[], base: string | undefined)
  : Promise<CommitGraph | { problem: string }> {
  if (commits.length === 0) return new Map();
  if (!(await isDir(store))) return { problem: `the verifier's store ${store} does not exist` };
  const known = await resolveStoreCommits(store, base ? [...commits, base] : commits);
  const tips = commits.filter((commit) => known.has(commit));
  if (tips.length === 0) return new Map();
  const below = base && known.has(base) ? ["--not", base] : [];
  const result = await runGit(["rev-list", "--parents", ...tips, ...below], call(store));
  const why = result.stderr.trim().split("\n")[0] ?? "";
  if (result.exitCode !== 0) return { problem: `git rev-list in ${store} failed: ${why}` };
  const graph = new Map<string, string[]>();
  for (const line of result.stdout.split("\n")) {
    const [commit, ...parents] = line.trim().split(" ");
    if (commit) graph.set(commit, parents);
  }
  return graph;
}

function call(store: string, input?: string) {
  return {
    cwd: store, config: CONFIG, timeoutMs: 60_000,
    env: { GIT_DIR: store, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    ...(input === undefined ? {} : { input }),
  };
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}
