import { OrgError } from "../../domain/errors.js";
import type { BaseTree, DirtyFile } from "../../domain/preflight/index.js";
import { runGit } from "./run.js";

const TIMEOUT_MS = 30_000;

/** Every file of `commit` and which of them are executable, from one `git ls-tree`. */
export async function readBaseTree(repo: string, base: string, commit: string): Promise<BaseTree> {
  const args = ["ls-tree", "-r", "-z", "--full-tree", commit];
  const result = await runGit(args, { cwd: repo, timeoutMs: TIMEOUT_MS });
  if (result.exitCode !== 0) {
    throw new OrgError(`git ls-tree ${commit} failed in ${repo}: ${result.stderr.trim()}`, "git");
  }
  const files: string[] = [];
  const executables: string[] = [];
  for (const entry of result.stdout.split("\0")) {
    // `<mode> <type> <object>\t<path>`; a submodule (commit) is a folder of the tree as well.
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    files.push(path);
    // A committed link runs as its target does: not ours to call it not executable.
    if (entry.startsWith("100755 ") || entry.startsWith("120000 ")) executables.push(path);
  }
  return { base, commit, files, executables };
}

/** Tracked files whose working copy or index differs from HEAD (`git status`, untracked files left aside). */
export async function readDirtyFiles(repo: string): Promise<DirtyFile[]> {
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=no", "--no-renames"];
  const result = await runGit(args, { cwd: repo, timeoutMs: TIMEOUT_MS });
  if (result.exitCode !== 0) throw new OrgError(`git status failed in ${repo}: ${result.stderr.trim()}`, "git");
  return result.stdout.split("\0").filter((entry) => entry.length > 3)
    .map((entry) => ({ status: entry.slice(0, 2), path: entry.slice(3) }));
}
