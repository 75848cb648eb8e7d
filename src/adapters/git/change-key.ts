import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Change } from "../../org/experiments/tried-answer.js";
import type { Runner } from "../process.js";
import { runGit } from "./run.js";

// The diff's bytes as git wrote them: read back as a string, two different non-UTF-8 edits would look the same.
const DIFF = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];

// A commit's tree never changes: `against` (an agent's best) is asked of git once, not on every candidate built on it.
const trees = new Map<string, string>();

async function readTree(repo: string, commit: string, git: (args: string[]) => Promise<string>): Promise<string> {
  const key = `${repo}\0${commit}`;
  const known = trees.get(key);
  if (known) return known;
  const tree = (await git(["rev-parse", `${commit}^{tree}`])).trim();
  trees.set(key, tree);
  return tree;
}

/** The change from `against` to `commit`: none (or only whitespace), else its `git patch-id --stable` and `against`'s tree. */
export async function readChange(repo: string, against: string, commit: string, runner?: Runner): Promise<Change> {
  const git = async (args: string[], input?: Buffer) => {
    const result = await runGit(args, { cwd: repo, timeoutMs: 120_000, runner, ...(input ? { input } : {}) });
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${repo}: ${result.stderr.trim()}`);
    return result.stdout;
  };
  const dir = await mkdtemp(join(tmpdir(), "org-change-"));
  try {
    const file = join(dir, "change.diff");
    // The reads of the store at once, not one after another: an answer that needs fewer drops the rest.
    const [tree, spaced] = await Promise.all([
      readTree(repo, against, git),
      // `git diff -w` prints nothing for a file whose edits are whitespace; a mode change or a new empty file shows.
      git(["diff", "-w", "--ignore-blank-lines", "--no-renames", "--no-color", "--no-ext-diff", against, commit]),
      git([...DIFF, `--output=${file}`, against, commit]),
    ]);
    const diff = await readFile(file);
    // Two commits' full diff is empty exactly when their trees are the same.
    if (diff.length === 0) return { kind: "empty", whitespace: false };
    if (spaced.trim() === "") return { kind: "empty", whitespace: true };
    const id = (await git(["patch-id", "--stable"], diff)).trim().split(/\s+/)[0];
    // patch-id has nothing to hash in a diff without hunks (only new empty files): the diff's own bytes name it.
    const patchId = id || `diff-sha256:${createHash("sha256").update(diff).digest("hex")}`;
    return { kind: "change", key: { patchId, tree } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
