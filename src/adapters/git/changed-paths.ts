import type { ChangedPath } from "../../domain/experiments/path-rules.js";
import { runGit, type GitCall } from "./run.js";
import { createStoreReader } from "./store-objects.js";
import { diffCommits } from "./tree-diff.js";

const SYMLINK_MODE = "120000";

/**
 * What changed from `from` to `to` in the bare repository `repo` (the verifier's own store), renames as delete and
 * add; a path that is a symbolic link at `to` carries its target, read from the blob (never through the link), so the
 * path rules can see where it points.
 */
export async function listChangedPaths(
  repo: string, from: string, to: string, call: Omit<GitCall, "cwd">,
): Promise<ChangedPath[]> {
  // Read off the trees by node where the verifier's store has them plainly: one git process less before each run.
  const read = diffCommits(createStoreReader(repo), from, to);
  if (read) return read;
  const result = await runGit(["diff", "--raw", "--no-renames", "--no-abbrev", "-z", from, to], { ...call, cwd: repo });
  if (result.exitCode !== 0) throw new Error(`git diff --raw ${from} ${to} failed in ${repo}: ${result.stderr.trim()}`);
  const fields = result.stdout.split("\0").filter(Boolean);
  const changed: ChangedPath[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    // ":<old mode> <new mode> <old blob> <new blob> <status>", then the path.
    const [, newMode, , blob, status] = fields[index]!.slice(1).split(" ");
    const path = fields[index + 1]!;
    const change: ChangedPath = { status: status!, path };
    if (newMode === SYMLINK_MODE) {
      const target = await runGit(["cat-file", "blob", blob!], { ...call, cwd: repo });
      if (target.exitCode !== 0) throw new Error(
        `git cat-file blob ${blob} failed in ${repo}: ${target.stderr.trim()}`,
      );
      change.link = target.stdout;
    }
    changed.push(change);
  }
  return changed;
}
