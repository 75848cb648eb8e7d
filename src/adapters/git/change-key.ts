import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Change } from "../../org/experiments/tried-answer.js";
import type { Runner } from "../process.js";
import { runGit } from "./run.js";

// The diff's bytes as git wrote them: read back as a string, two different non-UTF-8 edits would look the same.
const DIFF = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];

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
    // Three reads of the store at once, not one after another: an answer that needs fewer drops the rest.
    const [trees, spaced] = await Promise.all([
      git(["rev-parse", `${against}^{tree}`, `${commit}^{tree}`]),
      // `git diff -w` prints nothing for a file whose edits are whitespace; a mode change or a new empty file still shows.
      git(["diff", "-w", "--ignore-blank-lines", "--no-renames", "--no-color", "--no-ext-diff", against, commit]),
      git([...DIFF, `--output=${file}`, against, commit]),
    ]);
    const [tree, after] = trees.trim().split("\n");
    if (tree === after) return { kind: "empty", whitespace: false };
    if (spaced.trim() === "") return { kind: "empty", whitespace: true };
    const diff = await readFile(file);
    const id = (await git(["patch-id", "--stable"], diff)).trim().split(/\s+/)[0];
    // patch-id has nothing to hash in a diff without hunks (only new empty files): the diff's own bytes name it.
    const patchId = id || `diff-sha256:${createHash("sha256").update(diff).digest("hex")}`;
    return { kind: "change", key: { patchId, tree: tree! } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
