// `git worktree add --no-checkout` of a new branch is four small files and two git processes (git and the
// symbolic-ref it forks), one add at a time: org writes the four files itself, every worktree at once.
import { lstat, mkdir, realpath, rm, writeFile } from "node:fs/promises";
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
 */
export async function registerWorktrees(repo: string, entries: NewWorktree[]): Promise<RegisteredWorktree[]> {
  const dotGit = join(repo, ".git");
  if (!(await lstat(dotGit).catch(() => undefined))?.isDirectory()) return [];
  const common = await realpath(dotGit);
  await mkdir(join(common, "worktrees"), { recursive: true });
  const made = await Promise.all(entries.map((entry) => registerWorktree(common, entry)));
  return made.filter((one) => one !== undefined);
}

async function registerWorktree(common: string, entry: NewWorktree): Promise<RegisteredWorktree | undefined> {
  const id = basename(entry.path);
  if (entry.branchExists || !PLAIN_ID.test(id)) return undefined;
  await mkdir(dirname(entry.path), { recursive: true });
  // Not recursive: an existing folder, even empty, goes to git.
  if (!(await mkdir(entry.path).then(() => true, () => false))) return undefined;
  const admin = join(common, "worktrees", id);
  let claimed = false;
  try {
    await mkdir(admin);
    claimed = true;
    const path = join(await realpath(dirname(entry.path)), id);
    await Promise.all([
      writeFile(join(admin, "gitdir"), `${path}/.git\n`),
      writeFile(join(admin, "commondir"), "../..\n"),
      writeFile(join(admin, "HEAD"), `ref: refs/heads/${entry.branch}\n`),
      writeFile(join(entry.path, ".git"), `gitdir: ${admin}\n`),
    ]);
    return { entry, admin };
  } catch {
    // A name git has already given (EEXIST) or a write that failed: git's own add gets the entry.
    await unregisterWorktree({ entry, admin }, { withAdmin: claimed });
    return undefined;
  }
}

/** Takes back what registerWorktree made: its folder, and with `withAdmin` its entry in .git/worktrees. */
export async function unregisterWorktree(
  made: RegisteredWorktree, { withAdmin }: { withAdmin: boolean },
): Promise<void> {
  await rm(made.entry.path, { recursive: true, force: true });
  if (withAdmin) await rm(made.admin, { recursive: true, force: true });
}
