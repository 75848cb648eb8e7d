// org's own reverts, in a checkout of the verifier's store that no agent and no run uses: never an agent's worktree.
import { rm } from "node:fs/promises";
import type { ChangedLines, KeptChange, RevertOutcome, RevertPort } from "../../domain/ablation/index.js";
import { describeVariant } from "../../domain/ablation/index.js";
import type { RunResult } from "../process.js";
import { runGit } from "./run.js";

type Git = (cwd: string, args: string[]) => Promise<RunResult>;

// Commits as the verifier, at a fixed date: the same reverts of the same target make the same commit every time.
// The reverse of a change as a patch: binary files whole, renames as a delete and an add, no context lines.
const DIFF = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff", "-U0"];

const CONFIG = [
  "core.hooksPath=/dev/null", "gc.auto=0", "advice.detachedHead=false", "commit.gpgSign=false",
  "user.name=org verifier", "user.email=verifier@org.invalid",
];

/** Reverts of `target`'s changes in `checkout` (made as a worktree of `store` when missing), one at a time. */
export function createRevertPort(opts: { store: string; checkout: string; target: string }): RevertPort {
  // The target's own date: set once the checkout is open, before any commit is made.
  const env: Record<string, string> = {};
  const git = (cwd: string, args: string[]) => runGit(args, { cwd, config: CONFIG, timeoutMs: 120_000, env });
  const must = async (cwd: string, args: string[]) => {
    const result = await git(cwd, args);
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr.trim()}`);
    return result.stdout.trim();
  };
  let ready: Promise<void> | undefined;
  const open = () => (ready ??= openCheckout(opts, git).then(async () => {
    const date = `${await must(opts.store, ["show", "-s", "--format=%ct", opts.target])} +0000`;
    Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }));
  return {
    async revert(changes: readonly KeptChange[]): Promise<RevertOutcome> {
      await open();
      const { checkout, target } = opts;
      await must(checkout, ["checkout", "--quiet", "--force", "--detach", target]);
      await must(checkout, ["clean", "-ffdx", "--quiet"]);
      // Newest first, as git revert would: a later change's lines come off before the ones they were written over.
      for (const change of [...changes].reverse()) {
        // Without context lines: a change conflicts only where a later one rewrote its own lines, not the next line
        // (the constants a search tunes sit one a line, next to each other).
        const back = await must(opts.store, [...DIFF, change.commit, change.from]);
        if (back === "") continue;
        const applied = await runGit(["apply", "--index", "--unidiff-zero", "--whitespace=nowarn", "-"],
          { cwd: checkout, config: CONFIG, timeoutMs: 120_000, input: `${back}\n` });
        if (applied.exitCode === 0) continue;
        await must(checkout, ["reset", "--hard", "--quiet", target]);
        return { kind: "conflict", files: readFailedFiles(applied.stderr) };
      }
      // Nothing of the changes is left in the target: later changes undid them; no variant to measure.
      const unchanged = await git(checkout, ["diff", "--cached", "--quiet", target]);
      if (unchanged.exitCode === 0) return { kind: "undone" };
      const message = describeVariant(target, changes.map((change) => change.commit));
      await must(checkout, ["commit", "--quiet", "--allow-empty", "--no-verify", "-m", message]);
      const commit = await must(checkout, ["rev-parse", "HEAD"]);
      // A ref of the store's own keeps it, and tells the verifier it holds the commit whole.
      await must(opts.store, ["update-ref", `refs/verified/${commit}`, commit]);
      return { kind: "clean", commit };
    },
    async readLines(change: KeptChange): Promise<ChangedLines[]> {
      return parseZeroDiff(await must(opts.store, [...DIFF, change.from, change.commit]));
    },
  };
}

async function openCheckout(opts: { store: string; checkout: string; target: string }, git: Git): Promise<void> {
  const { store, checkout, target } = opts;
  // One left half made (a kill mid-add) is no checkout: it is made again.
  if ((await git(checkout, ["rev-parse", "--is-inside-work-tree"]).catch(() => undefined))?.exitCode === 0) return;
  await rm(checkout, { recursive: true, force: true });
  await git(store, ["worktree", "prune"]);
  const added = await git(store, ["worktree", "add", "--force", "--detach", checkout, target]);
  if (added.exitCode !== 0) throw new Error(`git worktree add ${checkout} failed in ${store}: ${added.stderr.trim()}`);
}

// git apply names each file it could not patch: "error: patch failed: train.mjs:12", "error: a.txt: does not exist".
function readFailedFiles(stderr: string): string[] {
  const why = "does not exist|patch does not apply|already exists";
  const failed = new RegExp(`^error: (?:patch failed: (.+):\\d+|(.+?): (?:${why}).*)$`, "gm");
  const files = [...stderr.matchAll(failed)].map((match) => match[1] ?? match[2]!);
  return [...new Set(files)];
}

// A -U0 diff's lines per file: "-" lines removed, "+" lines added (a binary file has none: it is touched whole).
function parseZeroDiff(diff: string): ChangedLines[] {
  const files: ChangedLines[] = [];
  for (const line of diff.split("\n")) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) files.push({ file: header[2]!, removed: [], added: [] });
    else if (line.startsWith("--- ") || line.startsWith("+++ ")) continue;
    else if (line.startsWith("-")) files.at(-1)?.removed.push(line.slice(1));
    else if (line.startsWith("+")) files.at(-1)?.added.push(line.slice(1));
  }
  return files;
}
