import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { bestBranchOf, frontierRefOf } from "../../domain/config-versions/ab-run-record.js";
import type { SandboxGit } from "../../domain/ports.js";
import { runGit } from "./run.js";
import type { RegisteredGitDir } from "../../domain/sandbox/git-dir.js";
import { openOrgWorktree, readWorktreeRegistry } from "./worktree-git-dir.js";

/**
 * Readies the repo for sandboxed agents: the org's reflog folder exists (bwrap binds only what exists), and
 * org/<name>/best is a symbolic ref to refs/frontier/<name>, org/<name>/b-best (program B's best in an A/B run) one to
 * refs/frontier-b/<name>. The verifier's `update-ref` then rewrites the target, outside every sandbox, and never the
 * file each sandbox mounts read-only: a file renamed over would lose the mount.
 */
export async function prepareSandboxGit(repo: string, org: string): Promise<SandboxGit> {
  // Read, not asked of git, once the repo is ready: every spawned git is time a person waits on `org up`.
  const dotGit = join(repo, ".git");
  const common = (await stat(dotGit).then((info) => info.isDirectory(), () => false))
    ? dotGit
    : resolve(repo, (await git(repo, ["rev-parse", "--git-common-dir"])).trim());
  await mkdir(join(common, "logs", dirname(`refs/heads/${bestBranchOf(org, undefined)}`)), { recursive: true });
  // b-best always: a best an agent could write (or point at main) is one the verifier's update-ref writes through.
  for (const half of [undefined, "b"] as const) {
    await pointAtFrontier(repo, common, `refs/heads/${bestBranchOf(org, half)}`, frontierRefOf(org, half));
  }
  // Asked for every agent once the worktrees are made: git's registry is read once, not once per agent (N² reads).
  let registry: Promise<RegisteredGitDir[]> | undefined;
  const readRegistry = (at: string) => (registry ??= readWorktreeRegistry(at));
  return { common, findWorktreeDir: (worktree, agent) => findWorktreeDir(repo, worktree, agent, readRegistry) };
}

async function pointAtFrontier(repo: string, common: string, best: string, target: string): Promise<void> {
  const current = await readFile(join(common, best), "utf8").catch(() => undefined);
  if (current === `ref: ${target}\n`) return;
  // A best made before the sandbox is a plain branch (loose or packed): its commit moves to the target first.
  if (current !== undefined || (await isPacked(common, best))) {
    const head = await runGit(["rev-parse", "--verify", "-q", `${best}^{commit}`], { cwd: repo });
    if (head.exitCode === 0) await git(repo, [
      "update-ref", "-m", "org: best becomes a symbolic ref for the sandbox", target, head.stdout.trim(),
    ]);
  }
  await git(repo, ["symbolic-ref", "-m", "org: sandbox", best, target]);
}

// packed-refs lines are "<sha> <ref>": a best that no file holds may still be there (after a `git pack-refs`).
async function isPacked(common: string, ref: string): Promise<boolean> {
  const packed = await readFile(join(common, "packed-refs"), "utf8").catch(() => "");
  return packed.split("\n").some((line) => line.endsWith(` ${ref}`));
}

/**
 * A worktree's own git folder, from git's registry (a .git pointed elsewhere is put back), with a config.worktree
 * the sandbox mounts read-only, so the agent writes no config the daemon's git would read.
 */
async function findWorktreeDir(
  repo: string, worktree: string, agent: string, registry: (common: string) => Promise<RegisteredGitDir[]>,
): Promise<string> {
  const warn = (line: string) => process.stderr.write(`org: warning: ${line}\n`);
  const { gitDir } = await openOrgWorktree(repo, worktree, agent, warn, undefined, registry);
  // bwrap mounts only what exists; one already there is plain and harmless (openOrgWorktree set any other aside).
  await writeFile(join(gitDir, "config.worktree"), "", { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return gitDir;
}

async function git(repo: string, args: string[]): Promise<string> {
  const result = await runGit(args, { cwd: repo, timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} in ${repo} failed: ${result.stderr.trim()}`);
  return result.stdout;
}
