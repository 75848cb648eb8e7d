import { OrgError } from "../../domain/errors.js";

/** git in the agent's worktree, its result as data. */
export type WorktreeGit = (args: string[]) => Promise<{ exitCode: number | null; stdout: string; stderr: string }>;

/**
 * Points `ref` at `commit` if it is still at `before`; false when it moved. Never through a symbolic ref the agent made
 * (its branch, HEAD), nor a reflog it linked elsewhere.
 */
export type MoveRef = (ref: string, commit: string, before: string) => Promise<boolean>;

export type CommitOnto = { kind: "committed"; commit: string } | { kind: "moved"; reason: string };

/**
 * The index as a commit on `before`; `ref` (the branch, or a detached HEAD) takes it only if it still points at
 * `before`. The verifier resets branches after its verdicts: a plain `git commit` racing that reset lands on the
 * wrong parent or vanishes, and reading HEAD afterwards names someone else's commit.
 */
export async function commitOnto(
  git: WorktreeGit, move: MoveRef, before: string, message: string, ref: string, written?: string,
): Promise<CommitOnto> {
  // The index's tree, when the caller wrote it already (submit does, to tell whether anything is staged).
  const tree = written ? { exitCode: 0, stdout: written, stderr: "" } : await git(["write-tree"]);
  const made = tree.exitCode === 0 ? await git(["commit-tree", tree.stdout.trim(), "-p", before, "-m", message]) : tree;
  if (made.exitCode !== 0) throw new OrgError(`git commit failed: ${made.stderr.trim()}`, "git");
  const commit = made.stdout.trim();
  if (await move(ref, commit, before)) return { kind: "committed", commit };
  const now = (await git(["rev-parse", "--short", "HEAD"])).stdout.trim();
  return {
    kind: "moved",
    reason: `your branch moved from ${before.slice(0, 7)} to ${now} while committing (the verifier applied a verdict; `
      + `see \`org inbox\`); nothing was committed — run org submit again`,
  };
}
