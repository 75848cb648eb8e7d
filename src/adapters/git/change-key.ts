import { createHash } from "node:crypto";
import { countDiffLines, type DiffLines } from "../../domain/experiments/diff-lines.js";
import { hasNonWhitespaceEdit } from "../../domain/experiments/whitespace-edit.js";
import { computePatchId } from "../../domain/experiments/patch-id.js";
import type { Change } from "../../domain/experiments/tried-answer.js";
import type { Runner } from "../process.js";
import { readGitBytes } from "./read-bytes.js";
import { readLooseCommitTree } from "./loose-commit.js";
import { runGit } from "./run.js";

// The diff's bytes as git wrote them, their patch-id computed or the bytes hashed.
const DIFF = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];

// A commit's tree never changes: `against` (an agent's best) is asked of git once, not on every candidate built on it.
const trees = new Map<string, string>();

async function readTree(repo: string, commit: string, git: (args: string[]) => Promise<string>): Promise<string> {
  const key = `${repo}\0${commit}`;
  const known = trees.get(key);
  if (known) return known;
  // A new best was a candidate the store took loose: its object says its tree, with no git process.
  const tree = (await readLooseCommitTree(repo, commit)) ?? (await git(["rev-parse", `${commit}^{tree}`])).trim();
  trees.set(key, tree);
  return tree;
}

/**
 * The change from `against` to `commit`: none (or whitespace alone), else its `patch-id --stable` and `against`'s
 * tree; with the lines it adds and removes, counted from the same diff (no `diff --numstat` of its own), and that
 * diff's bytes (a binary patch that applies to `against`), for the patch a discard saves.
 */
export async function readChange(repo: string, against: string, commit: string, runner?: Runner)
  : Promise<Change & { lines: DiffLines; diff: Buffer }> {
  const git = async (args: string[]) => {
    const result = await runGit(args, { cwd: repo, timeoutMs: 120_000, runner });
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${repo}: ${result.stderr.trim()}`);
    return result.stdout;
  };
  // The reads of the store at once: one round of git, no file written.
  const [tree, { id, diff }] = await Promise.all([readTree(repo, against, git), readPatchId(repo, against, commit)]);
  const text = diff.toString("latin1");
  // `git diff -w` prints nothing for a file whose edits are whitespace; a mode change or a new empty file shows.
  // Asked only when the diff itself cannot tell: an edit of a line's words needs no git process to see.
  const spaced = hasNonWhitespaceEdit(text) ? "edited"
    : await git(["diff", "-w", "--ignore-blank-lines", "--no-renames", "--no-color", "--no-ext-diff", against, commit]);
  const blank = spaced.trim() === "";
  const lines = countDiffLines(text);
  if (id && blank) return { kind: "empty", whitespace: true, lines, diff };
  if (id) return { kind: "change", key: { patchId: id, tree }, lines, diff };
  // No hunks to hash (no change at all, or only new empty files): the diff's own bytes say which, and name it.
  // Two commits' full diff is empty exactly when their trees are the same.
  if (diff.length === 0) return { kind: "empty", whitespace: false, lines, diff };
  if (blank) return { kind: "empty", whitespace: true, lines, diff };
  const patchId = `diff-sha256:${createHash("sha256").update(diff).digest("hex")}`;
  return { kind: "change", key: { patchId, tree }, lines, diff };
}

// The diff in the store, as bytes (read back as a string, two different non-UTF-8 edits would look the same), and
// its `git patch-id --stable` ("" when git prints none) computed here: one git process, not two in a pipe.
async function readPatchId(repo: string, against: string, commit: string): Promise<{ id: string; diff: Buffer }> {
  const diffed = await readGitBytes([...DIFF, against, commit], repo, 120_000);
  const why = diffed.stderr.trim();
  if (diffed.exitCode !== 0) throw new Error(`git diff ${against} ${commit} failed in ${repo}: ${why}`);
  return { id: computePatchId(diffed.bytes), diff: diffed.bytes };
}
