// What the built-in researcher asks git to follow the org: move onto the org best, and name the tree it stands on.
import { runGit } from "./run.js";

/** Reset the worktree's branch to `ref` unless HEAD already holds it; a message when it moved, undefined when not. */
export async function moveOntoBest(cwd: string, ref: string): Promise<string | undefined> {
  const best = await runGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd, timeoutMs: 30_000 });
  // No org best yet (no baseline): nothing to follow.
  if (best.exitCode !== 0) return undefined;
  const commit = best.stdout.trim();
  const held = await runGit(["merge-base", "--is-ancestor", commit, "HEAD"], { cwd, timeoutMs: 30_000 });
  if (held.exitCode === 0) return undefined;
  const reset = await runGit(["reset", "-q", "--hard", commit], { cwd, timeoutMs: 30_000 });
  if (reset.exitCode !== 0) throw new Error(`git reset --hard ${ref} failed in ${cwd}: ${reset.stderr.trim()}`);
  return `moved onto the org best ${ref} (${commit.slice(0, 7)})`;
}

/** The tree a commit (HEAD by default) points at: the ledger keys a change by the tree it was judged on. */
export async function readHeadTree(cwd: string, rev = "HEAD"): Promise<string | undefined> {
  const result = await runGit(["rev-parse", "--verify", "--quiet", `${rev}^{tree}`], { cwd, timeoutMs: 30_000 });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}
