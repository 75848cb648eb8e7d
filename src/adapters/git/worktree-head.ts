import { join } from "node:path";
import type { RunResult } from "../process.js";
import { readUntrusted } from "../fs/untrusted.js";
import { runGitOnWorktree } from "./worktree-git.js";
import type { OrgWorktree } from "./worktree-git-dir.js";

// Only the forms git writes: a name of printable ASCII (JS's \s would strip a no-break space git keeps), one newline.
const SYMBOLIC = /^ref: (refs\/heads\/[\x21-\x7e]+)\n?$/;
const DETACHED = /^[0-9a-f]{40}([0-9a-f]{24})?\n?$/;
// A reftable repo's HEAD file: the real HEAD is in its tables, which only git reads.
const REFTABLE_STUB = "refs/heads/.invalid";

/**
 * `git symbolic-ref -q --no-recurse HEAD` on the org's git folder of a worktree, answered from its HEAD file when
 * that file says it plainly (a branch, or a detached commit): exit 0 and the ref, or exit 1. The file is read as
 * git reads it, through no link (a HEAD that is a link, or says anything else, is git's to answer).
 */
export async function readHeadRef(
  worktree: OrgWorktree, call: { timeoutMs?: number } = {},
): Promise<Pick<RunResult, "exitCode" | "stdout" | "stderr">> {
  const text = await readUntrusted(worktree.gitDir, join(worktree.gitDir, "HEAD"), 4096).catch(() => undefined);
  const named = text === undefined ? undefined : SYMBOLIC.exec(text)?.[1];
  if (named && named !== REFTABLE_STUB) return { exitCode: 0, stdout: `${named}\n`, stderr: "" };
  if (text !== undefined && DETACHED.test(text)) return { exitCode: 1, stdout: "", stderr: "" };
  return runGitOnWorktree(worktree, ["symbolic-ref", "-q", "--no-recurse", "HEAD"], call);
}
