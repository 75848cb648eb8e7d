import { appendFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { GitError, simpleGit, type SimpleGit } from "simple-git";
import { OrgError } from "../org/errors.js";
import type { GitPort, WorktreeEntry } from "../org/ports.js";
import { parseWorktreeList } from "../org/worktrees.js";

function git(dir: string): SimpleGit {
  // Auto-gc never runs on our behalf: it would race the agents' own git calls.
  return simpleGit(dir, { config: ["gc.auto=0"] });
}

// simple-git's message starts with git's progress lines; the fatal line is what a person needs.
function fatalLine(error: unknown): string {
  const text = error instanceof GitError ? error.message : String(error);
  return /^(fatal|error): .*/m.exec(text)?.[0] ?? text.trim().split("\n").pop() ?? text;
}

async function raw(dir: string, args: string[]): Promise<string> {
  try {
    return await git(dir).raw(args);
  } catch (error) {
    throw new OrgError(`git ${args.join(" ")} in ${dir} failed: ${fatalLine(error)}`, "git");
  }
}

/** Git for the orchestrator: worktrees, branches, dirt. */
export const gitAdapter: GitPort = {
  async worktreeList(repo): Promise<WorktreeEntry[]> {
    return parseWorktreeList(await raw(repo, ["worktree", "list", "--porcelain"]));
  },
  async revParse(dir, rev) {
    try {
      return (await git(dir).raw(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`])).trim() || null;
    } catch {
      return null;
    }
  },
  async branchHeads(repo, prefix) {
    const out = await raw(repo, ["for-each-ref", "--format=%(refname:strip=2) %(objectname)", `refs/heads/${prefix}`]);
    return new Map(out.split("\n").filter(Boolean).map((line) => line.split(" ") as [string, string]));
  },
  async addWorktree(repo, path, branch, base, branchExists) {
    await raw(repo, branchExists ? ["worktree", "add", path, branch] : ["worktree", "add", "-b", branch, path, base]);
  },
  async dirtyFiles(worktree) {
    const out = await raw(worktree, ["status", "--porcelain", "--untracked-files=all"]);
    return out.split("\n").filter((line) => line.trim() !== "");
  },
  async removeWorktree(repo, path) {
    await raw(repo, ["worktree", "remove", path]);
  },
  async pruneWorktrees(repo) {
    await raw(repo, ["worktree", "prune"]);
  },
  async excludePaths(repo, patterns) {
    const common = (await raw(repo, ["rev-parse", "--git-common-dir"])).trim();
    const file = join(common.startsWith("/") ? common : join(repo, common), "info", "exclude");
    const current = await readFile(file, "utf8").catch(() => "");
    const have = new Set(current.split("\n"));
    const missing = patterns.filter((pattern) => !have.has(pattern));
    if (missing.length === 0) return;
    await mkdir(join(file, ".."), { recursive: true });
    const prefix = current === "" || current.endsWith("\n") ? "" : "\n";
    await appendFile(file, `${prefix}# added by org\n${missing.join("\n")}\n`);
  },
};
