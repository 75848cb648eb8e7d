// `git worktree add --no-checkout` of a new branch is four small files and two git processes (git and the
// symbolic-ref it forks), one add at a time: org writes the four files itself.
import { lstatSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { NewWorktree } from "../../domain/ports.js";

// The names git keeps as they are for a worktree's folder in .git/worktrees; any other is left to git to choose.
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** A worktree registered here: its folder and its entry in the repo's .git/worktrees, both made by org. */
export interface RegisteredWorktree {
  entry: NewWorktree;
  admin: string;
}

/**
 * Registers each entry the way `git worktree add --no-checkout` does, for a repo whose .git is a folder. Only new
 * branches (nobody has one checked out); an entry whose folder or name is taken is left for git, which says why.
 * Synchronous on purpose: the checkouts wait for it, and node's file threads are busy with the agents' files.
 */
export function registerWorktrees(repo: string, entries: NewWorktree[]): RegisteredWorktree[] {
  const dotGit = join(repo, ".git");
  if (!lstatIfAny(dotGit)?.isDirectory()) return [];
  const common = realpathSync(dotGit);
  mkdirSync(join(common, "worktrees"), { recursive: true });
  const parents = new Map<string, string>();
  const made: RegisteredWorktree[] = [];
  for (const entry of entries) {
    const id = basename(entry.path);
    if (entry.branchExists || !PLAIN_ID.test(id)) continue;
    const parent = dirname(entry.path);
    if (!parents.has(parent)) {
      mkdirSync(parent, { recursive: true });
      parents.set(parent, realpathSync(parent));
    }
    const one = registerWorktree(common, entry, join(parents.get(parent)!, id));
    if (one) made.push(one);
  }
  return made;
}

function registerWorktree(common: string, entry: NewWorktree, path: string): RegisteredWorktree | undefined {
  // Not recursive: an existing folder, even empty, goes to git.
  try {
    mkdirSync(entry.path);
  } catch {
    return undefined;
  }
  const admin = join(common, "worktrees", basename(path));
  let claimed = false;
  try {
    mkdirSync(admin);
    claimed = true;
    writeFileSync(join(admin, "gitdir"), `${path}/.git\n`);
    writeFileSync(join(admin, "commondir"), "../..\n");
    writeFileSync(join(admin, "HEAD"), `ref: refs/heads/${entry.branch}\n`);
    writeFileSync(join(entry.path, ".git"), `gitdir: ${admin}\n`);
    return { entry, admin };
  } catch {
    // A name git has already given (EEXIST) or a write that failed: git's own add gets the entry.
    unregisterWorktree({ entry, admin }, { withAdmin: claimed });
    return undefined;
  }
}

/** Takes back what registerWorktree made: its folder, and with `withAdmin` its entry in .git/worktrees. */
export function unregisterWorktree(made: RegisteredWorktree, { withAdmin }: { withAdmin: boolean }): void {
  rmSync(made.entry.path, { recursive: true, force: true });
  if (withAdmin) rmSync(made.admin, { recursive: true, force: true });
}

function lstatIfAny(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
