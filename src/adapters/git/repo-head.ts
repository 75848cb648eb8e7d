// What `org init` asks git of a folder: is it a repo's root, which commit and branch, which files that commit holds.
import { resolveCommit, runGit } from "./run.js";

export type RepoHead =
  | { kind: "not-repo" }
  | { kind: "subfolder"; top: string }
  | { kind: "no-commit" }
  | { kind: "head"; commit: string; branch: string | undefined; files: string[] };

/** The repo at `dir` as its HEAD commit holds it: files from the commit, not the work tree, as the agents get them. */
export async function readRepoHead(dir: string): Promise<RepoHead> {
  const top = await runGit(["rev-parse", "--show-toplevel"], { cwd: dir, timeoutMs: 30_000 });
  if (top.exitCode !== 0) return { kind: "not-repo" };
  const root = await runGit(["rev-parse", "--show-prefix"], { cwd: dir, timeoutMs: 30_000 });
  if (root.stdout.trim() !== "") return { kind: "subfolder", top: top.stdout.trim() };
  const commit = await resolveCommit(dir, "HEAD");
  if (commit === undefined) return { kind: "no-commit" };
  const branch = await runGit(["symbolic-ref", "--short", "-q", "HEAD"], { cwd: dir, timeoutMs: 30_000 });
  const files = await runGit(["ls-tree", "-r", "-z", "--name-only", commit], { cwd: dir, timeoutMs: 60_000 });
  return {
    kind: "head",
    commit,
    branch: branch.exitCode === 0 && branch.stdout.trim() !== "" ? branch.stdout.trim() : undefined,
    files: files.stdout.split("\0").filter(Boolean),
  };
}
