import { join } from "node:path";
import { readUntrusted } from "../fs/untrusted.js";
import { runGit } from "./run.js";
import { readCommonDir } from "./worktree-git-dir.js";

/** A best's refs: its branch, in the folder every agent writes, and the frontier ref it follows under the sandbox. */
export interface BestRefs {
  branch: string;
  frontier: string;
}

/** Point a best at `commit`, with `reason` in the reflog; git's refusal is thrown. */
export async function moveRef(repo: string, refs: BestRefs, commit: string, reason: string): Promise<void> {
  const ref = await findWritableRef(repo, refs);
  const args = ["update-ref", "--no-deref", "--create-reflog", "-m", `org: ${reason}`, ref, commit];
  const moved = await runGit(args, { cwd: repo, timeoutMs: 30_000 });
  if (moved.exitCode !== 0) throw new Error(`git update-ref ${ref} failed: ${moved.stderr.trim()}`);
}

/**
 * The ref to write for a best: its frontier ref when the branch is the sandbox's symbolic ref to it, so git locks and
 * logs nothing in the agents' folder (a best.lock there, or its reflog linked to a file of ours); else the branch
 * itself, written --no-deref, never through a symbolic ref an agent made (to main, to the other half's frontier).
 */
async function findWritableRef(repo: string, refs: BestRefs): Promise<string> {
  const common = await readCommonDir(repo);
  const text = await readUntrusted(common, join(common, refs.branch), 4096).catch(() => undefined);
  return text === `ref: ${refs.frontier}\n` ? refs.frontier : refs.branch;
}

/** Every ref under `prefix` with the `%(…)` fields asked for, one array per ref; none when git fails. */
export async function listRefs(repo: string, prefix: string, fields: string[]): Promise<string[][]> {
  const result = await runGit(
    ["for-each-ref", `--format=${fields.map((field) => `%(${field})`).join("%09")}`, prefix],
    { cwd: repo, timeoutMs: 30_000 },
  );
  return result.stdout.split("\n").filter(Boolean).map((line) => line.split("\t"));
}

/** Short names of the branches matching `pattern` that contain `commit`. */
export async function branchesContaining(repo: string, commit: string, pattern: string): Promise<string[]> {
  const result = await runGit(
    ["branch", "--contains", commit, "--format=%(refname:short)", "--list", pattern], { cwd: repo },
  );
  return result.stdout.split("\n").map((line) => line.trim()).filter(Boolean);
}

/** `git --version`'s line, or undefined when git does not run. */
export async function readGitVersion(): Promise<string | undefined> {
  const result = await runGit(["--version"], { timeoutMs: 10_000 });
  return result.spawnError || result.exitCode !== 0 ? undefined : result.stdout.trim().split("\n")[0];
}

/** A unified diff of two files outside any repository. */
export async function diffFilesNoIndex(before: string, after: string): Promise<string> {
  return (await runGit([
    "diff", "--no-index", "--no-color", "--no-ext-diff", before, after,
  ], { timeoutMs: 10_000 })).stdout;
}

/** Remove a best (its frontier ref under the sandbox, as moveRef writes it); one already gone is no error. */
export async function deleteRef(repo: string, refs: BestRefs): Promise<void> {
  const ref = await findWritableRef(repo, refs);
  const removed = await runGit(["update-ref", "--no-deref", "-d", ref], { cwd: repo, timeoutMs: 30_000 });
  if (removed.exitCode !== 0) throw new Error(`git update-ref -d ${ref} failed: ${removed.stderr.trim()}`);
}
