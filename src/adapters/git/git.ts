import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import type { GitPort, WorktreeEntry } from "../../domain/ports.js";
import { parseWorktreeList } from "../../domain/lifecycle/worktree-list.js";
import { addWorktrees } from "./worktrees.js";
import { prepareSandboxGit } from "./sandbox-git.js";
import { prepareVerifierStore } from "../verifier/prepare-store.js";
import type { RunResult } from "../process.js";
import { readBranchHeads } from "./list-branch-heads.js";
import { resolveCommit, runGit } from "./run.js";
import { openOrgWorktree } from "./worktree-git-dir.js";
import { runGitOnWorktree } from "./worktree-git.js";

// Auto-gc never runs on our behalf: it would race the agents' own git calls.
const GIT_CONFIG = ["gc.auto=0"];

/** git's output, or an OrgError carrying git's own fatal line (the part a person needs). */
async function raw(dir: string, args: string[]): Promise<string> {
  const result = await runGit(args, { cwd: dir, config: GIT_CONFIG, timeoutMs: 120_000 });
  if (result.exitCode === 0) return result.stdout;
  throw new OrgError(`git ${args.join(" ")} in ${dir} failed: ${fatalLine(result)}`, "git");
}

function fatalLine(result: RunResult): string {
  const text = result.spawnError ?? `${result.stderr}${result.stdout}`;
  return /^(fatal|error): .*/m.exec(text)?.[0] ?? text.trim().split("\n").pop() ?? `exit ${result.exitCode}`;
}

/** Git for the orchestrator: worktrees, branches, dirt. Plain git calls: they are what the agents see too. */
export const gitAdapter: GitPort = {
  async worktreeList(repo): Promise<WorktreeEntry[]> {
    return parseWorktreeList(await raw(repo, ["worktree", "list", "--porcelain"]));
  },
  async revParse(dir, rev) {
    return (await resolveCommit(dir, rev, { config: GIT_CONFIG })) ?? null;
  },
  branchHeads: readBranchHeads,
  async addWorktrees(repo, entries) {
    await addWorktrees(repo, entries);
  },
  async dirtyFiles({ repo, state, worktree: path, agent }) {
    const worktree = await openOrgWorktree(repo, path, agent, () => {}, state);
    const args = ["status", "--porcelain", "--untracked-files=all"];
    const result = await runGitOnWorktree(worktree, args, { timeoutMs: 120_000 });
    if (result.exitCode !== 0) throw new OrgError(`git status in ${path} failed: ${fatalLine(result)}`, "git");
    return result.stdout.split("\n").filter((line) => line.trim() !== "");
  },
  async removeWorktree(repo, path) {
    // --force: dirtyFiles found it clean; git's own check would run git in it again, nested repos and all.
    await raw(repo, ["worktree", "remove", "--force", path]);
  },
  async pruneWorktrees(repo) {
    await raw(repo, ["worktree", "prune"]);
  },
  async excludePaths(repo, patterns) {
    // The repo's own .git folder is its common dir; a linked worktree or a subfolder asks git.
    const dotGit = join(repo, ".git");
    const common = (await stat(dotGit).then((info) => info.isDirectory(), () => false))
      ? dotGit
      : (await raw(repo, ["rev-parse", "--git-common-dir"])).trim();
    const file = join(common.startsWith("/") ? common : join(repo, common), "info", "exclude");
    const current = await readFile(file, "utf8").catch(() => "");
    const have = new Set(current.split("\n"));
    const missing = patterns.filter((pattern) => !have.has(pattern));
    if (missing.length === 0) return;
    await mkdir(join(file, ".."), { recursive: true });
    const prefix = current === "" || current.endsWith("\n") ? "" : "\n";
    await appendFile(file, `${prefix}# added by org\n${missing.join("\n")}\n`);
  },
  prepareSandbox: prepareSandboxGit,
  prepareVerifier: prepareVerifierStore,
};
