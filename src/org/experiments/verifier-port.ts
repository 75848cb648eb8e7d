// The verifier's hands, as the experiment sees them: every process, git and file step is behind this port.
import type { JudgedWork } from "../judge/prompt.js";
import type { RunSlot } from "./gpu-runs.js";
import type { ChangedPath } from "./path-rules.js";
import type { RunOutcome } from "./verdict.js";

export interface RunCommandOptions {
  cwd: string; env: Record<string, string>; logFile: string; timeoutMs: number; signal?: AbortSignal; run: RunSlot;
  /** A judge's run: the checkout read-only, this folder (its CLI's config) the one it writes. */
  judgeHome?: string;
}

export type CommandOutcome = RunOutcome & { durationMs: number; aborted?: boolean };

/** The verifier's hands: a private checkout, the run, git surgery on the agent's branch, files. */
export interface VerifierPort {
  prepareCheckout(slot: string, commit: string): Promise<string>;
  changedPaths(from: string, to: string): Promise<ChangedPath[]>;
  /** Restores the protected paths from the base, then checks them against org's record of it: why not, or undefined. */
  restoreProtected(checkout: string, baseCommit: string, paths: string[]): Promise<string | undefined>;
  /** Takes commits into the verifier's own object store, checked, before any is read or run: why not, or undefined. */
  admit(commits: (string | undefined)[]): Promise<string | undefined>;
  /** A commit the verifier made in its store, copied into the research repo for the branches that move to it. */
  publish(commit: string): Promise<void>;
  /** `run` says which slot it holds, for state/gpu-runs.jsonl. */
  runCommand(argv: string[], options: RunCommandOptions): Promise<CommandOutcome>;
  /** One headless run of verify.judge on `work` in the checkout, read-only to it; its output in logFile. */
  runJudge?(work: JudgedWork, options: Omit<RunCommandOptions, "env">): Promise<CommandOutcome>;
  readLog(logFile: string): Promise<string>;
  savePatch(from: string, to: string, file: string): Promise<void>;
  /** The commit a branch points at now; undefined when it does not exist. */
  branchHead(branch: string): Promise<string | undefined>;
  /** Points the agent's branch (and its worktree, keeping uncommitted work safe) at `commit`. */
  resetBranch(
    agent: { name: string; branch: string; worktree: string }, commit: string, rescueFile: string,
  ): Promise<string | undefined>;
  appendResult(header: string, line: string): Promise<void>;
  /** Lines added and removed from one commit to another (the simplicity record). */
  diffStat(from: string, to: string): Promise<{ added: number; removed: number }>;
  appendLog(entry: string): Promise<void>;
  /** A message of kind verdict from the verifier; `extra` goes into its front matter. */
  appendInbox(agent: string, text: string, extra?: Record<string, string>): Promise<void>;
}
