import { join, resolve } from "node:path";

/** One folder of git's worktree registry, <common>/worktrees/<name>, as read without following links. */
export interface RegisteredGitDir {
  dir: string;
  /** Its `gitdir` file: the worktree's .git it belongs to (relative to `dir`); undefined when not a plain file. */
  backlink?: string;
}

export type WorktreeGitDir =
  | { kind: "ok"; gitDir: string }
  /** git's registry names one folder for the worktree, its .git another place: use the folder, put .git back. */
  | { kind: "repair"; gitDir: string; reason: string }
  | { kind: "lost"; reason: string };

/**
 * The git folder of an agent's `worktree`, from what the org's own common folder says, never from the worktree's
 * `.git` alone: the agent can write both its .git and its own registry folder, but not another agent's. A folder
 * counts only when it is a direct child of <common>/worktrees whose backlink names this worktree; .git picks one.
 */
export function decideWorktreeGitDir(facts: {
  worktree: string; common: string; pointer?: string; registry: readonly RegisteredGitDir[];
}): WorktreeGitDir {
  const { worktree, common } = facts;
  const dotGit = join(worktree, ".git");
  const named = readPointer(facts.pointer, worktree);
  const claims = facts.registry.filter((entry) => entry.backlink !== undefined
    && resolve(entry.dir, entry.backlink.trim()) === dotGit);
  const chosen = claims.find((entry) => entry.dir === named);
  if (chosen) return { kind: "ok", gitDir: chosen.dir };
  const said = named === undefined ? "names no git folder" : `names ${named}`;
  if (claims.length === 1) {
    const [only] = claims as [RegisteredGitDir];
    return { kind: "repair", gitDir: only.dir, reason: `${dotGit} ${said}; its git folder is ${only.dir}` };
  }
  const where = join(common, "worktrees");
  if (claims.length === 0) {
    return { kind: "lost", reason: `no git folder in ${where} belongs to ${worktree} (its .git ${said})` };
  }
  const dirs = claims.map((entry) => entry.dir).join(", ");
  const reason = `${claims.length} git folders in ${where} claim ${worktree} (${dirs}) and its .git ${said}`;
  return { kind: "lost", reason };
}

// "gitdir: <path>", absolute or relative to the worktree, as git writes it.
function readPointer(text: string | undefined, worktree: string): string | undefined {
  const match = text === undefined ? null : /^gitdir: (.+)$/m.exec(text);
  return match ? resolve(worktree, match[1]!.trim()) : undefined;
}

// What a per-worktree config may set for org's git to read it: sparse checkout's switches, nothing naming a program.
const HARMLESS_KEYS: Record<string, string[]> = { core: ["sparsecheckout", "sparsecheckoutcone"], index: ["sparse"] };

/**
 * Whether a worktree's config.worktree holds only harmless settings. Read conservatively: a line this does not
 * understand (an include, a driver, a section with a name, a continued value) makes the file not harmless.
 */
export function isHarmlessWorktreeConfig(text: string): boolean {
  let section: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([A-Za-z0-9-]+)\]$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=\s*(true|false|yes|no|on|off|0|1)\s*)?$/i.exec(line)?.[1]?.toLowerCase();
    if (!key || !section || !HARMLESS_KEYS[section]?.includes(key)) return false;
  }
  return true;
}
