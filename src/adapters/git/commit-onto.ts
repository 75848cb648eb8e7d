import { OrgError } from "../../domain/errors.js";

/** git in the agent's worktree, its result as data. */
export type WorktreeGit = (args: string[]) => Promise<{ exitCode: number | null; stdout: string; stderr: string }>;

export type CommitOnto = { kind: "committed"; commit: string } | { kind: "moved"; reason: string };

/**
 * The index as a commit on `before`; `ref` (the branch, or a detached HEAD) takes it only if it still points at
 * `before`. The verifier resets branches after its verdicts: a plain `git commit` racing that reset lands on the
 * wrong parent or vanishes, and reading HEAD afterwards names someone else's commit.
 */
export async function commitOnto(
  git: WorktreeGit, before: string, message: string, ref: string, written?: string,
): Promise<CommitOnto> {
  // The index's tree, when the caller wrote it already (submit does, to tell whether anything is staged).
  const tree = written ? { exitCode: 0, stdout: written, stderr: "" } : await git(["write-tree"]);
  const made = tree.exitCode === 0 ? await git(["commit-tree", tree.stdout.trim(), "-p", before, "-m", message]) : tree;
  if (made.exitCode !== 0) throw new OrgError(`git commit failed: ${made.stderr.trim()}`, "git");
  const commit = made.stdout.trim();
  // --no-deref: a ref the agent made symbolic (its branch, HEAD) must not carry the daemon's write to the ref it names.
  const moved = await git(["update-ref", "--no-deref", "-m", `commit: ${message.split("\n")[0]}`, ref, commit, before]);
  if (moved.exitCode === 0) return { kind: "committed", commit };
  const now = (await git(["rev-parse", "--short", "HEAD"])).stdout.trim();
  return {
    kind: "moved",
    reason: `your branch moved from ${before.slice(0, 7)} to ${now} while committing (the verifier applied a verdict; `
      + `see \`org inbox\`); nothing was committed — run org submit again`,
  };
}
