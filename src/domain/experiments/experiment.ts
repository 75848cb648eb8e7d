import { parseDuration } from "../config/index.js";
import { formatLogEntry } from "../log-entry.js";
import type { AgentLedger, ExperimentRequest } from "./request.js";
import { checkBudgets, mean, measureRuns, metricsOf, seeds } from "./runs.js";
import type { ExperimentContext, ExperimentOutcome, RunMeasure, VerifierPort } from "./verifier-port.js";
import { applySimplicity, decideKeep, type KeepDecision } from "./keep-rule.js";
import { summarize } from "./noise.js";
import { checkPaths, type PathCheck } from "./path-rules.js";
import { describeRebase } from "./rebase.js";
import { verdictOfRow } from "./recover.js";
import { formatHeader, formatRow, gateColumnOf, toResultStatus } from "./results-table.js";
import { judge, JUDGE_GATE, type Verdict } from "./verdict.js";
import { TamperedError } from "./protected-files.js";
import { hasGates } from "./gates.js";
import { judgeErrorOf, judgeReasonOf } from "./judge-measure.js";

/** How much of a crashed run's log `org submit` prints. */
const TAIL_LINES = 50;
/** Confirmation groups kept per agent for σ: enough to steady it, bounded so the ledger stays small. */
const NOISE_GROUPS = 20;

/** Run one experiment start to end; the results row is written before any reset of the branch. */
export async function runExperiment(
  port: VerifierPort, context: ExperimentContext, request: ExperimentRequest,
): Promise<ExperimentOutcome> {
  const { agent, ledger } = context;
  const started = context.now().getTime();
  const short = request.commit.slice(0, 7);
  const baseline = request.kind === "baseline";
  const recorded = context.recorded;
  const { verdict, measures, samples, metric, memoryGb, seconds, seed } = recorded
    ? {
      verdict: context.answer ?? verdictOfRow(recorded, request, ledger.best, context.verify.metric.goal),
      measures: [] as RunMeasure[], samples: recorded.metric === undefined ? [] : [recorded.metric],
      metric: recorded.metric, memoryGb: recorded.memoryGb, seconds: recorded.seconds, seed: ledger.runs ?? 0,
    }
    : await judgeAndRecord(port, context, request, started);

  const next: AgentLedger = { ...ledger, runs: seed };
  if (!baseline && samples.length > 1) next.noise = [...(ledger.noise ?? []), samples].slice(-NOISE_GROUPS);
  // Answered from its row after the verdict was applied once already: what that verdict set (every
  // run's sample) stands.
  const applied = recorded !== undefined && ledger.best?.commit === request.commit;
  if (baseline) {
    if (verdict.kind === "baseline" && !(applied && ledger.baseline)) next.baseline = {
      samples, mean: verdict.metric, sd: summarize(samples).sd,
    };
    delete next.baselineCrash;
    delete next.baselineLog;
    const log = measures.at(-1)?.logFile;
    // A base that fails a gate is as broken as one that crashes: nothing is tried on it.
    if (verdict.kind === "crash" || verdict.kind === "fail") Object.assign(next, {
      baselineCrash: verdict.reason, ...(log ? { baselineLog: log } : {}),
    });
  }
  let patch: string | undefined;
  let head = request.commit;
  let movedTo: string | undefined;
  // The commit the agent submitted, when the verifier judged its change rebased onto the best instead.
  const submitted = request.rebased?.from ?? request.commit;
  if (verdict.kind === "baseline" || verdict.kind === "keep") {
    next.best = applied ? ledger.best : { commit: request.commit, metric: verdict.metric, runs: samples.length };
    // A kept rebase takes the submitted commit's place on the branch, unless the agent has committed on top
    // of it since.
    const current = request.rebased ? await port.branchHead(agent.branch) : request.commit;
    const rescue = `${context.patchesDir}/${agent.name}-${short}-uncommitted.patch`;
    const moved = current === submitted && submitted !== request.commit;
    if (moved) patch = await port.resetBranch(agent, request.commit, rescue, current);
    else if (current !== undefined && current !== request.commit) movedTo = current;
  } else if (request.kind === "candidate") {
    const target = ledger.best?.commit ?? context.baseCommit;
    patch = `${context.patchesDir}/${agent.name}-${short}-${verdict.kind}.patch`;
    // A commit made on top of this one (plain, or queued by `org submit --no-wait`) would vanish with a reset:
    // leave the branch, the newer head gets its own verdict. Already at the target: a daemon killed after the reset
    // got that far. A change that would not apply on the best is saved as the agent made it, on the candidate it
    // was built on.
    const from = request.rebased?.kind === "conflict" ? request.after ?? target : target;
    const known = context.patch?.from === from ? context.patch.bytes : undefined;
    const saved = port.savePatch(from, request.commit, patch, known);
    const [, current] = await Promise.all([saved, port.branchHead(agent.branch)]);
    if (current === request.commit || current === submitted || current === target || current === undefined) {
      const rescue = `${context.patchesDir}/${agent.name}-${short}-uncommitted.patch`;
      // The head just read is the one moved from: a commit the agent makes meanwhile fails the move, never vanishes.
      const rescued = await port.resetBranch(agent, target, rescue, current);
      head = target;
      if (rescued) patch = `${patch} (uncommitted work saved to ${rescued})`;
    } else {
      movedTo = current;
    }
  }
  next.lastVerified = head;

  const title = `${agent.name} ${short} ${request.kind === "baseline" ? "baseline" : oneLine(request.description)}`;
  await port.appendLog(formatLogEntry({ date: context.now(), op: verdict.kind, title, body: verdict.reason }));
  const rebase = request.rebased?.kind === "rebased" ? `\n${describeRebase(request.rebased, request.after)}.` : "";
  const reset =
    head !== request.commit ? `\nYour branch was reset to ${head.slice(0, 7)}; the diff is saved in ${patch}.`
    : movedTo ? `\nYour branch has moved on to ${movedTo.slice(0, 7)}, so it was not reset; that commit gets its own `
      + `verdict.${patch ? ` The diff is saved in ${patch}.` : ""}`
    : rebase && verdict.kind === "keep"
      ? `\nYour branch now points at ${short}.${patch ? ` Your uncommitted work is saved in ${patch}.` : ""}`
    : "";
  // `org submit --no-wait` gets the whole reply from the verifier's loop instead: one message per verdict.
  if (request.reply !== "message") await port.appendInbox(
    agent.name,
    `## [${context.now().toISOString()}] verdict ${verdict.kind} for ${short}\n${verdict.reason}${rebase}${reset}\n`,
  );
  const last = measures.at(-1);
  // A failed gate's tail is that gate's output alone (its log is the last measure's).
  const logTail = (verdict.kind === "crash" || verdict.kind === "fail") && last ? lastLines(last.log, TAIL_LINES) : "";
  const runSeconds = measures.reduce((sum, measure) => sum + measure.runSeconds, 0);
  return {
    request, verdict, metric, memoryGb, seconds, runSeconds, samples,
    logFile: last?.logFile ?? `${context.runsDir}/${request.id}.log`, logTail, ledger: next, head, patch,
    ...(movedTo ? { movedTo } : {}),
  };
}

/**
 * Measure, judge and append the row: the row is the verdict's record, so a request whose row exists never runs again.
 */
export async function judgeAndRecord(
  port: VerifierPort, context: ExperimentContext, request: ExperimentRequest, started: number,
) {
  // Objects that are not what their names say, or a protected file not as recorded: the verdict, with nothing measured.
  return measureAndRecord(port, context, request, started).catch((error: unknown) => {
    if (!(error instanceof TamperedError)) throw error;
    return measureAndRecord(port, { ...context, refused: error.reason }, request, started);
  });
}

async function measureAndRecord(port: VerifierPort, context: ExperimentContext, request: ExperimentRequest,
  since: number) {
  const { verify, agent, ledger } = context;
  const baseline = request.kind === "baseline";
  const refused = context.refused && `${baseline ? "crash" : "reject"}: ${context.refused}`;
  const conflict = request.rebased?.kind === "conflict" ? request.rebased.reason : refused;
  const changed = baseline || conflict ? []
    : await (context.changed ?? port.changedPaths(context.baseCommit, request.commit));
  const paths = checkPaths(changed, { protected: verify.protected, edits: agent.edits });
  // No experiment runs on a base that crashed: its numbers would mean nothing.
  const blocked = !baseline && ledger.baselineCrash !== undefined && paths.ok;
  let seed = ledger.runs ?? 0;
  // Counted while the command runs: the objects are at hand, and nothing the run does changes them.
  const counted = baseline || !paths.ok || conflict ? Promise.resolve({ added: 0, removed: 0 })
    : context.lines ? Promise.resolve(context.lines)
    : port.diffStat(ledger.best?.commit ?? context.baseCommit, request.commit);
  counted.catch(() => undefined);
  const measures = paths.ok && !blocked && !conflict
    ? await measureRuns(port, context, request, seeds(seed, baseline ? verify.repeats : 1), 0)
    : [];
  seed += measures.length;
  const first = measures[0];
  let verdict: Verdict = judge({
    metric: verify.metric, timeoutMs: parseDuration(verify.timeout), best: baseline ? undefined : ledger.best?.metric,
    candidate: measures.at(-1)?.metric,
    run: measures.at(-1)?.outcome ?? { exitCode: null, signal: null, timedOut: false }, paths,
    gate: measures.at(-1)?.gate,
    judgeError: judgeErrorOf(measures.at(-1)),
  });
  if (blocked) verdict = {
    kind: "crash",
    reason: `crash: not run: the baseline crashed, so the base is broken (${ledger.baselineCrash}) — fix it, then `
      + `\`org down && org up\``,
  };
  if (conflict) verdict = baseline ? { kind: "crash", reason: conflict } : { kind: "reject", reason: conflict };
  const budgets = ["crash", "reject", "fail"].includes(verdict.kind)
    ? ({ ok: true } as const)
    : checkBudgets(verify, measures);
  if (!budgets.ok) verdict = budgets.kind === "crash"
    ? { kind: "crash", reason: budgets.reason }
    : {
      kind: "discard", metric: first!.metric!, delta: first!.metric! - (ledger.best?.metric ?? 0),
      reason: budgets.reason,
    };
  const lines = await counted;
  if ((verdict.kind === "keep" || verdict.kind === "discard") && budgets.ok) {
    const confirmed = await confirmImprovement(port, context, request, measures, seed, paths);
    seed = confirmed.seed;
    verdict = applySimplicity(verify, confirmed.verdict, lines.added, ledger.best!.metric);
  } else if (verdict.kind === "baseline") {
    const stats = summarize(metricsOf(measures));
    verdict = {
      kind: "baseline", metric: stats.mean,
      reason: stats.n > 1
        ? `baseline: ${verify.metric.name} ${stats.mean.toFixed(6)} ± ${stats.sd.toFixed(6)} over ${stats.n} seeds`
        : verdict.reason,
    };
  }
  // The judge's paragraph on the gap goes with its score: the agent reads why, not only how much.
  const said = judgeReasonOf(measures.at(-1));
  const scored = verdict.kind === "keep" || verdict.kind === "discard" || verdict.kind === "baseline";
  if (said && scored) verdict = { ...verdict, reason: `${verdict.reason} — the judge: ${said}` };
  const samples = metricsOf(measures);
  const metric = verdict.kind === "keep" || verdict.kind === "discard" || verdict.kind === "baseline"
    ? verdict.metric
    : first?.metric;
  const memoryGb = Math.max(...measures.map((measure) => measure.memoryGb ?? 0), 0) || undefined;
  const seconds = (context.now().getTime() - since) / 1000;
  const extras = {
    ...Object.fromEntries(
      Object.keys(verify.budgets).map((name) => [name, mean(measures.map((measure) => measure.budgets[name]))]),
    ),
    lines_added: lines.added, lines_removed: lines.removed,
  };
  const description = baseline
    ? (samples.length > 1 ? `baseline (mean of ${samples.length} seeds)` : "baseline")
    : samples.length > 1 ? `${request.description} (mean of ${samples.length} runs)` : request.description;
  await port.appendResult(formatHeader(verify.metric.name, Object.keys(extras), hasGates(verify)), formatRow({
    commit: request.commit, metric, memoryGb, status: toResultStatus(verdict.kind), description,
    agent: context.rowAgent ?? agent.name, gpu: agent.gpu, seconds, time: context.now().toISOString(),
    program: context.program, extras,
    gate: gateColumnOf(verdict, hasGates(verify)),
  }));
  return { verdict, measures, samples, metric, memoryGb, seconds, seed };
}

// A log that ends in a newline has no line after it; one cut off mid-line (a killed run) still has its last line.
function lastLines(text: string, count: number): string {
  return text.replace(/\n$/, "").split("\n").slice(-count).join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 120);
}

/** The keep rule over one run, and over the confirmation runs it asks for; a crashing confirmation run is a crash. */
async function confirmImprovement(
  port: VerifierPort, context: ExperimentContext, request: ExperimentRequest, measures: RunMeasure[], seed: number,
  paths: PathCheck,
): Promise<{ verdict: Verdict; seed: number }> {
  const { verify, ledger } = context;
  const rule = { k: verify.keep.k, minDelta: verify.keep.min_delta, confirm: verify.keep.confirm };
  const decide = () => decideKeep({
    goal: verify.metric.goal, metric: verify.metric.name, best: ledger.best!.metric, bestRuns: ledger.best!.runs ?? 1,
    samples: metricsOf(measures), sigma: context.sigma, rule,
  });
  let decision = decide();
  if (decision.kind === "confirm") {
    const more = await measureRuns(port, context, request, seeds(seed, decision.runs), measures.length);
    seed += more.length;
    measures.push(...more);
    const last = more.at(-1)!;
    const judgeError = judgeErrorOf(last);
    const reason = `${judgeError} (confirmation run ${measures.length})`;
    if (judgeError) return { verdict: { kind: "fail", gate: JUDGE_GATE, reason }, seed };
    if (last.outcome.exitCode !== 0 || last.metric === undefined) {
      const crash = judge({
        metric: verify.metric, timeoutMs: parseDuration(verify.timeout), best: ledger.best?.metric,
        candidate: last.metric, run: last.outcome, paths,
      });
      return { verdict: { kind: "crash", reason: `${crash.reason} (confirmation run ${measures.length})` }, seed };
    }
    decision = decide();
  }
  return { verdict: toVerdict(decision, ledger.best!.metric), seed };
}

function toVerdict(decision: KeepDecision, best: number): Verdict {
  const kind = decision.kind === "keep" ? "keep" : "discard";
  // A confirm left over (its runs never came) is not a keep either.
  return { kind, metric: decision.mean, delta: decision.mean - best, reason: decision.reason };
}
