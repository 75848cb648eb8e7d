import { runGit } from "./run.js";

/** Point `ref` at `commit`, with `reason` in the reflog; git's refusal is thrown. */
export async function moveRef(repo: string, ref: string, commit: string, reason: string): Promise<void> {
  const moved = await runGit(["update-ref", "-m", `org: ${reason}`, ref, commit], { cwd: repo, timeoutMs: 30_000 });
  if (moved.exitCode !== 0) throw new Error(`git update-ref ${ref} failed: ${moved.stderr.trim()}`);
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

/** Remove `ref`; one already gone is no error. */
export async function deleteRef(repo: string, ref: string): Promise<void> {
  const removed = await runGit(["update-ref", "-d", ref], { cwd: repo, timeoutMs: 30_000 });
  if (removed.exitCode !== 0) throw new Error(`git update-ref -d ${ref} failed: ${removed.stderr.trim()}`);
}
