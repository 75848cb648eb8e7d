import { join, resolve } from "node:path";

/** One folder of git's worktree registry, <common>/worktrees/<name>, as read without following links. */
export interface RegisteredGitDir {
  dir: string;
  /** Its `gitdir` file: the worktree's .git it belongs to; undefined when it is not a plain file. */
  backlink?: string;
}

export type WorktreeGitDir =
  | { kind: "ok"; gitDir: string }
  /** git's registry names one folder for the worktree, but its .git names another place: use the folder, put .git back. */
  | { kind: "repair"; gitDir: string; reason: string }
  | { kind: "lost"; reason: string };

/**
 * The git folder of an agent's `worktree`, from what the org's own common folder says, never from the worktree's
 * `.git` alone: the agent can write both its .git and its own registry folder, but not another agent's. A folder
 * counts only when it is a direct child of <common>/worktrees whose backlink names this worktree; .git picks among them.
 */
export function decideWorktreeGitDir(facts: { worktree: string; common: string; pointer?: string; registry: readonly RegisteredGitDir[] }): WorktreeGitDir {
  const { worktree, common } = facts;
  const dotGit = join(worktree, ".git");
  const named = readPointer(facts.pointer, worktree);
  const claims = facts.registry.filter((entry) => entry.backlink !== undefined && resolve(worktree, entry.backlink.trim()) === dotGit);
  const chosen = claims.find((entry) => entry.dir === named);
  if (chosen) return { kind: "ok", gitDir: chosen.dir };
  const said = named === undefined ? "names no git folder" : `names ${named}`;
  if (claims.length === 1) {
    return { kind: "repair", gitDir: claims[0]!.dir, reason: `${dotGit} ${said}, not its git folder ${claims[0]!.dir}` };
  }
  const where = join(common, "worktrees");
  if (claims.length === 0) return { kind: "lost", reason: `no git folder in ${where} belongs to ${worktree} (its .git ${said})` };
  return { kind: "lost", reason: `${claims.length} git folders in ${where} claim ${worktree} (${claims.map((entry) => entry.dir).join(", ")}) and its .git ${said}` };
}

// "gitdir: <path>", absolute or relative to the worktree, as git writes it.
function readPointer(text: string | undefined, worktree: string): string | undefined {
  const match = text === undefined ? null : /^gitdir: (.+)$/m.exec(text);
  return match ? resolve(worktree, match[1]!.trim()) : undefined;
}
