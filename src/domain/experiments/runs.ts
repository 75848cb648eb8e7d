import { parseDuration, type VerifyConfig } from "../config/index.js";
import { OrgError } from "../errors.js";
import { TamperedError } from "./protected-files.js";
import type { ExperimentContext, RunMeasure, VerifierPort } from "./verifier-port.js";
import type { ExperimentRequest } from "./request.js";
import { parseMemoryGb, parseMetric } from "./metric.js";
import { hasGates, runGates } from "./gates.js";
import { measureByJudge } from "./judge-measure.js";

/** Run the candidate once per seed, each in a freshly cleaned checkout with protected paths restored. */
export async function measureRuns(
  port: VerifierPort, context: ExperimentContext, request: ExperimentRequest, seeds: number[], first: number,
): Promise<RunMeasure[]> {
  const { verify, agent } = context;
  const measures: RunMeasure[] = [];
  for (const [index, seed] of seeds.entries()) {
    const number = first + index;
    const logFile = `${context.runsDir}/${request.id}${number === 0 ? "" : `-run${number + 1}`}.log`;
    // One made early for this request serves its first run only: every later run gets a fresh clean.
    const early = number === 0 ? context.checkout : undefined;
    const checkout = await (early ?? port.prepareCheckout(context.slot, request.commit));
    // Before every run: the scorer the run would use is the base's as org recorded it, or nothing runs.
    const tampered = await port.restoreProtected(checkout, context.baseCommit, verify.protected);
    if (tampered) throw new TamperedError(tampered);
    const env = {
      CUDA_VISIBLE_DEVICES: agent.gpu === null ? "" : String(agent.gpu), ORG_AGENT: agent.name,
      ORG_COMMIT: request.commit, ORG_SEED: String(seed),
    };
    const argv = (verify.command ?? []).map((element) => (element === "{seed}" ? String(seed) : element));
    // A candidate's runs after its first are confirmation runs, asked for by the keep rule.
    const kind = request.kind === "candidate" && number > 0 ? "confirmation" : request.kind;
    const run = {
      slot: context.slot, gpu: agent.gpu, agent: agent.name, commit: request.commit, kind, run: number + 1,
    } as const;
    // The gates once per experiment, before its first run: the metric counts only when every one passes.
    const gated = number === 0 ? await runGates(port, context, request, { checkout, env, run, seed }) : { seconds: 0 };
    if (gated.failed) {
      measures.push(gated.failed);
      break;
    }
    // A gate runs the candidate's code too: what it changed of the scorer is put back before the metric runs.
    const changed = number === 0 && hasGates(verify) && (await port.restoreProtected(
      checkout, context.baseCommit, verify.protected,
    ));
    if (changed) throw new TamperedError(changed);
    if (verify.judge) {
      const judged = await measureByJudge(port, context, request, { checkout, logFile, run, seed });
      measures.push({ ...judged, runSeconds: gated.seconds + judged.runSeconds });
      if (judged.metric === undefined) break;
      continue;
    }
    const result = await port.runCommand(argv, {
      cwd: checkout, env, logFile, timeoutMs: parseDuration(verify.timeout), signal: context.signal, run,
    });
    if (result.aborted) throw new OrgError(
      `run of ${request.commit.slice(0, 7)} for ${agent.name} interrupted by shutdown; it stays queued`, "aborted",
    );
    const log = await port.readLog(logFile);
    const runSeconds = gated.seconds + result.durationMs / 1000;
    measures.push({ seed, outcome: result, log, logFile, runSeconds, ...readNumbers(verify, log) });
    // A crash ends the experiment: more seeds of a broken commit teach nothing.
    if (result.exitCode !== 0 || parseMetric(log, verify.metric.pattern) === undefined) break;
  }
  return measures;
}

function readNumbers(verify: VerifyConfig, log: string): Pick<RunMeasure, "metric" | "memoryGb" | "budgets"> {
  const budgets = Object.fromEntries(
    Object.entries(verify.budgets).map(([name, budget]) => [name, parseMetric(log, budget.pattern)]),
  );
  return {
    metric: parseMetric(log, verify.metric.pattern),
    memoryGb: verify.memory ? parseMemoryGb(log, verify.memory.pattern) : undefined, budgets,
  };
}

export type BudgetCheck = { ok: true } | { ok: false; kind: "crash" | "discard"; reason: string };

/** Every budget metric must be printed, and each with a max must stay under it. */
export function checkBudgets(verify: VerifyConfig, measures: RunMeasure[]): BudgetCheck {
  for (const [name, budget] of Object.entries(verify.budgets)) {
    const values = measures.map((measure) => measure.budgets[name]);
    if (values.some((value) => value === undefined)) return {
      ok: false, kind: "crash", reason: `crash: budget ${name}: no line matched /${budget.pattern}/`,
    };
    const worst = Math.max(...(values as number[]));
    if (budget.max !== undefined && worst > budget.max) return {
      ok: false, kind: "discard", reason: `discard: over budget: ${name} ${worst} > max ${budget.max}`,
    };
  }
  return { ok: true };
}

/** `count` seeds from `from` on: every run of an agent gets a fresh one. */
export function seeds(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => from + index);
}

/** The metrics the runs printed, in order; a run that printed none has none here. */
export function metricsOf(measures: RunMeasure[]): number[] {
  return measures.map((measure) => measure.metric).filter((value): value is number => value !== undefined);
}

export function mean(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0) / known.length;
}
