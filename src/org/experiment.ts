import type { VerifyConfig } from "./config/schema.js";
import { parseDuration } from "./config/schema.js";
import { OrgError } from "./errors.js";
import { formatLogEntry } from "./log-entry.js";
import { parseMemoryGb, parseMetric } from "./metric.js";
import { checkPaths, type ChangedPath } from "./path-rules.js";
import { formatHeader, formatRow, toResultStatus } from "./results.js";
import { judge, type RunOutcome, type Verdict } from "./verdict.js";

/** How much of a crashed run's log `org submit` prints. */
const TAIL_LINES = 50;

/** One experiment waiting for the verifier: an agent's commit, or its baseline (the base, unmodified). */
export interface ExperimentRequest {
  id: string;
  agent: string;
  commit: string;
  description: string;
  kind: "baseline" | "candidate";
  submittedAt: string;
}

/** What the verifier remembers per agent between runs. */
export interface AgentLedger {
  best: { commit: string; metric: number } | null;
  /** The branch head after the last verdict was applied; a different head is a new commit to verify. */
  lastVerified: string | null;
}

export interface ExperimentOutcome {
  request: ExperimentRequest;
  verdict: Verdict;
  metric: number | undefined;
  memoryGb: number | undefined;
  seconds: number;
  /** The verify command's own run time; seconds minus this is the harness's overhead. */
  runSeconds: number;
  logFile: string;
  logTail: string;
  ledger: AgentLedger;
  /** Where the verifier left the branch: the best commit after a reset, else the judged commit. */
  head: string;
  patch?: string;
}

/** The verifier's hands: a private checkout, the run, git surgery on the agent's branch, files. */
export interface VerifierPort {
  prepareCheckout(slot: string, commit: string): Promise<string>;
  changedPaths(from: string, to: string): Promise<ChangedPath[]>;
  restoreProtected(checkout: string, baseCommit: string, paths: string[]): Promise<void>;
  runCommand(argv: string[], options: { cwd: string; env: Record<string, string>; logFile: string; timeoutMs: number; signal?: AbortSignal }): Promise<RunOutcome & { durationMs: number; aborted?: boolean }>;
  readLog(logFile: string): Promise<string>;
  savePatch(from: string, to: string, file: string): Promise<void>;
  /** The commit a branch points at now; undefined when it does not exist. */
  branchHead(branch: string): Promise<string | undefined>;
  /** Points the agent's branch (and its worktree, keeping uncommitted work safe) at `commit`. */
  resetBranch(agent: { branch: string; worktree: string }, commit: string, rescueFile: string): Promise<string | undefined>;
  appendResult(header: string, line: string): Promise<void>;
  appendLog(entry: string): Promise<void>;
  appendInbox(agent: string, text: string): Promise<void>;
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
  /** Shutdown: the run is killed and nothing is recorded, so the request runs again at the next `org up`. */
  signal?: AbortSignal;
}

/** Run one experiment start to end; the results row is written before any reset of the branch. */
export async function runExperiment(port: VerifierPort, context: ExperimentContext, request: ExperimentRequest): Promise<ExperimentOutcome> {
  const { verify, agent, ledger } = context;
  const started = context.now().getTime();
  const short = request.commit.slice(0, 7);
  const logFile = `${context.runsDir}/${request.id}.log`;
  const timeoutMs = parseDuration(verify.timeout);
  const changed = request.kind === "baseline" ? [] : await port.changedPaths(context.baseCommit, request.commit);
  const paths = checkPaths(changed, { protected: verify.protected, edits: agent.edits });
  let run: RunOutcome = { exitCode: null, signal: null, timedOut: false };
  let runSeconds = 0;
  if (paths.ok) {
    const checkout = await port.prepareCheckout(context.slot, request.commit);
    await port.restoreProtected(checkout, context.baseCommit, verify.protected);
    const env = { CUDA_VISIBLE_DEVICES: agent.gpu === null ? "" : String(agent.gpu), ORG_AGENT: agent.name, ORG_COMMIT: request.commit };
    const result = await port.runCommand(verify.command, { cwd: checkout, env, logFile, timeoutMs, signal: context.signal });
    if (result.aborted) throw new OrgError(`run of ${short} for ${agent.name} interrupted by shutdown; it stays queued`, "aborted");
    run = result;
    runSeconds = result.durationMs / 1000;
  }
  const log = paths.ok ? await port.readLog(logFile) : "";
  const metric = parseMetric(log, verify.metric.pattern);
  const memoryGb = verify.memory ? parseMemoryGb(log, verify.memory.pattern) : undefined;
  const verdict = judge({ metric: verify.metric, timeoutMs, best: request.kind === "baseline" ? undefined : ledger.best?.metric, candidate: metric, run, paths });
  const seconds = (context.now().getTime() - started) / 1000;
  const status = toResultStatus(verdict.kind);
  await port.appendResult(formatHeader(verify.metric.name), formatRow({
    commit: request.commit, metric, memoryGb, status, description: request.kind === "baseline" ? "baseline" : request.description,
    agent: agent.name, gpu: agent.gpu, seconds, time: context.now().toISOString(),
  }));

  const next: AgentLedger = { ...ledger };
  let patch: string | undefined;
  let head = request.commit;
  let movedTo: string | undefined;
  if (verdict.kind === "baseline" || verdict.kind === "keep") {
    next.best = { commit: request.commit, metric: verdict.metric };
  } else if (request.kind === "candidate") {
    const target = ledger.best?.commit ?? context.baseCommit;
    patch = `${context.patchesDir}/${agent.name}-${short}-${verdict.kind}.patch`;
    await port.savePatch(target, request.commit, patch);
    // A plain commit made while this one ran would vanish with a reset: leave the branch, the newer head gets its own verdict.
    const current = await port.branchHead(agent.branch);
    if (current === request.commit || current === undefined) {
      const rescued = await port.resetBranch(agent, target, `${context.patchesDir}/${agent.name}-${short}-uncommitted.patch`);
      head = target;
      if (rescued) patch = `${patch} (uncommitted work saved to ${rescued})`;
    } else {
      movedTo = current;
    }
  }
  next.lastVerified = head;

  const title = `${agent.name} ${short} ${request.kind === "baseline" ? "baseline" : oneLine(request.description)}`;
  await port.appendLog(formatLogEntry({ date: context.now(), op: verdict.kind, title, body: verdict.reason }));
  const reset = head !== request.commit ? `\nYour branch was reset to ${head.slice(0, 7)}; the diff is saved in ${patch}.`
    : movedTo ? `\nYour branch has moved on to ${movedTo.slice(0, 7)}, so it was not reset; that commit gets its own verdict. The diff is saved in ${patch}.`
    : "";
  await port.appendInbox(agent.name, `## [${context.now().toISOString()}] verdict ${verdict.kind} for ${short}\n${verdict.reason}${reset}\n`);
  const logTail = verdict.kind === "crash" ? lastLines(log, TAIL_LINES) : "";
  return { request, verdict, metric, memoryGb, seconds, runSeconds, logFile, logTail, ledger: next, head, patch };
}

// A log that ends in a newline has no line after it; one cut off mid-line (a killed run) still has its last line.
function lastLines(text: string, count: number): string {
  return text.replace(/\n$/, "").split("\n").slice(-count).join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 120);
}
