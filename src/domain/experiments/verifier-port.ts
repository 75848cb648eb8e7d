// The verifier's hands (the port), what one experiment runs with, and what it yields.
import type { VerifyConfig } from "../config/index.js";
import type { JudgeOutput } from "../judge/judge-usage.js";
import type { JudgedWork } from "../judge/prompt.js";
import type { JudgeRunRecord } from "../judge/spend.js";
import type { RunSlot } from "./gpu-runs.js";
import type { ChangedPath } from "./path-rules.js";
import type { DiffLines } from "./diff-lines.js";
import type { AgentLedger, ExperimentRequest } from "./request.js";
import type { ResultRow } from "./results-table.js";
import type { RunOutcome, Verdict } from "./verdict.js";

/** One run of the verify command: how it ended and what it printed. */
export interface RunMeasure {
  seed: number;
  outcome: RunOutcome;
  metric: number | undefined;
  memoryGb: number | undefined;
  budgets: Record<string, number | undefined>;
  log: string;
  logFile: string;
  runSeconds: number;
  /** Set when this is the run of a gate that did not pass, not of the metric command. */
  gate?: { name: string; timeoutMs: number };
  /** Set when verify.judge measured: its reason and scores, or the judge-error that stands for the metric. */
  judge?: { reason: string; scores: Record<string, number> } | { error: string };
}

export interface ExperimentOutcome {
  request: ExperimentRequest;
  verdict: Verdict;
  metric: number | undefined;
  memoryGb: number | undefined;
  seconds: number;
  /** The verify command's own run time; seconds minus this is the harness's overhead. */
  runSeconds: number;
  /** Every run's metric, in order (several for a baseline or a confirmed candidate). */
  samples: number[];
  logFile: string;
  logTail: string;
  ledger: AgentLedger;
  /** Where the verifier left the branch: the best commit after a reset, else the judged commit. */
  head: string;
  patch?: string;
  /** The branch's head when a commit made on top of this one kept it from being reset. */
  movedTo?: string;
}

/** Where and how one command of a verify run runs. */
export interface RunCommandOptions {
  cwd: string;
  env: Record<string, string>;
  logFile: string;
  timeoutMs: number;
  signal?: AbortSignal;
  run: RunSlot;
  /** A judge's run: the checkout read-only, this folder (its CLI's config) the one it writes. */
  judgeHome?: string;
}

export type CommandOutcome = RunOutcome & { durationMs: number; aborted?: boolean };

/** A judge run: how it ended, and what its CLI's machine-readable output says (the answer's text, the tokens). */
export type JudgeRunOutcome = CommandOutcome & { cli: string; output: JudgeOutput };

/** The verifier's hands: a private checkout, the run, git surgery on the agent's branch, files. */
export interface VerifierPort {
  prepareCheckout(slot: string, commit: string): Promise<string>;
  /** The slot's next checkout cleaned now, beside other work: its prepareCheckout then only checks out. */
  startClean?(slot: string): void;
  /** The slot's request is done: its clean starts now where nothing of its runs can still write there. */
  cleanAfterRun?(slot: string): void;
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
  runJudge?(work: JudgedWork, options: Omit<RunCommandOptions, "env">): Promise<JudgeRunOutcome>;
  /** Adds a judge run's tokens to the verifier's own spend (state/verifier/judge-usage.json). */
  recordJudgeRun?(run: JudgeRunRecord): Promise<void>;
  readLog(logFile: string): Promise<string>;
  /** The diff from `from` to `to` into `file`; `known` the same diff read already, written as it is. */
  savePatch(from: string, to: string, file: string, known?: Uint8Array): Promise<void>;
  /** The commit a branch points at now; undefined when it does not exist. */
  branchHead(branch: string): Promise<string | undefined>;
  /**
   * Points the agent's branch (and its worktree, keeping uncommitted work safe) at `commit`; `from`, the branch's
   * commit as branchHead just read it, is the only commit it moves from (git is not asked again).
   */
  resetBranch(
    agent: { name: string; branch: string; worktree: string }, commit: string, rescueFile: string, from?: string,
  ): Promise<string | undefined>;
  appendResult(header: string, line: string): Promise<void>;
  /** Lines added and removed from one commit to another (the simplicity record). */
  diffStat(from: string, to: string): Promise<{ added: number; removed: number }>;
  appendLog(entry: string): Promise<void>;
  /** A message of kind verdict from the verifier; `extra` goes into its front matter. */
  appendInbox(agent: string, text: string, extra?: Record<string, string>): Promise<void>;
}

export interface ExperimentContext {
  verify: VerifyConfig;
  baseCommit: string;
  agent: { name: string; branch: string; worktree: string; gpu: number | null; edits: string[] };
  slot: string;
  ledger: AgentLedger;
  runsDir: string;
  patchesDir: string;
  now: () => Date;
  /** The noise σ pooled over every agent's baseline; undefined until one exists. */
  sigma: number | undefined;
  /**
   * The row results.tsv already holds for this commit (a daemon killed after writing it, or an earlier request): it is
   * the verdict, and nothing runs again.
   */
  recorded?: ResultRow;
  /** A verdict reached without a run (a change already tried on this tree, an empty one); `recorded` is its row. */
  answer?: Verdict;
  /** Shutdown: the run is killed and nothing is recorded, so the request runs again at the next `org up`. */
  signal?: AbortSignal;
  /** The program version the request was submitted under, for its results row. */
  program?: string;
  /** The results row's agent when not the one whose slot runs it: org, for a stack. */
  rowAgent?: string;
  /** Why the commit's objects could not be taken into the verifier's store: the verdict, and nothing runs. */
  refused?: string;
  /** prepareCheckout(slot, commit) already under way: the first run of this request takes it instead of another. */
  checkout?: Promise<string>;
  /** changedPaths(baseCommit, commit) already under way. */
  changed?: Promise<ChangedPath[]>;
  /** diffStat(best or base, commit), counted already from the tried ledger's diff of the same two commits. */
  lines?: DiffLines;
  /** The diff from `from` to the commit, read already from the verifier's store (the tried ledger's). */
  patch?: KnownPatch;
}

/** A diff's bytes as git wrote them (`--binary --full-index`), from `from` to the request's commit. */
export interface KnownPatch {
  from: string;
  bytes: Uint8Array;
}
