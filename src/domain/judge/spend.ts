// The verifier's own spend: every judge run's tokens, priced as the agents' are, apart from theirs.
import { priceModels, type Pricing } from "../usage/pricing.js";
import { addCounts, ZERO_COUNTS, type TokenCounts } from "../usage/token-counts.js";
import type { JudgeUsage } from "./judge-usage.js";

/** One judge run as state/verifier/judge-usage.json keeps it: tokens per model, or why they are unknown. */
export interface JudgeRunRecord {
  at: string;
  /** A verdict's run (its agent and commit), or one of calibration's at `org up` (agent "judge", the base). */
  kind: "verdict" | "calibration";
  agent: string;
  commit: string;
  run: number;
  cli: string;
  byModel?: Record<string, TokenCounts>;
  /** The dollars the CLI itself reported (Claude's total_cost_usd, opencode's cost): shown, never counted. */
  cliUsd?: number;
  unknown?: string;
}

export function recordJudgeUsage(
  run: Omit<JudgeRunRecord, "byModel" | "cliUsd" | "unknown">, usage: JudgeUsage,
): JudgeRunRecord {
  if (usage.kind === "unknown") return { ...run, unknown: usage.why };
  return { ...run, byModel: usage.byModel, ...(usage.cliUsd === undefined ? {} : { cliUsd: usage.cliUsd }) };
}

/** The judge's tokens and dollars over its runs; dollars null where a model has no price (`unpriced` says which). */
export interface JudgeSpend extends TokenCounts {
  runs: number;
  calibrationRuns: number;
  /** Distinct verdicts (agent and commit) the judge's runs were for. */
  verdicts: number;
  costUsd: number | null;
  unpriced?: string;
  /** Runs whose output gave no usage: their tokens and dollars are not in the sums. */
  unknownRuns: number;
  unknown?: string;
  /** Dollars of the verdicts' runs over the verdicts; null when unpriced or none. */
  perVerdictUsd: number | null;
  /** Dollars of calibration's runs; null when unpriced or none. */
  calibrationUsd: number | null;
  cliUsd?: number;
}

export function summarizeJudgeSpend(runs: readonly JudgeRunRecord[], pricing: Pricing): JudgeSpend {
  const sum = (subset: readonly JudgeRunRecord[]) => {
    const byModel: Record<string, TokenCounts> = {};
    for (const run of subset) {
      for (const [model, counts] of Object.entries(run.byModel ?? {})) {
        byModel[model] = addCounts(byModel[model] ?? ZERO_COUNTS, counts);
      }
    }
    return { byModel, ...priceModels(byModel, pricing) };
  };
  const all = sum(runs);
  const verdictRuns = runs.filter((run) => run.kind === "verdict");
  const verdicts = new Set(verdictRuns.map((run) => `${run.agent}\0${run.commit}`)).size;
  const calibration = runs.filter((run) => run.kind === "calibration");
  const ofVerdicts = sum(verdictRuns).costUsd;
  const unknown = runs.filter((run) => run.unknown !== undefined);
  const cli = runs.filter((run) => run.cliUsd !== undefined);
  const total = Object.values(all.byModel).reduce(addCounts, ZERO_COUNTS);
  return {
    ...total, runs: runs.length, calibrationRuns: calibration.length, verdicts, costUsd: all.costUsd,
    ...(all.unpriced ? { unpriced: all.unpriced } : {}), unknownRuns: unknown.length,
    ...(unknown[0] ? { unknown: `${unknown.length} of ${runs.length} runs gave no usage: ${unknown[0].unknown}` } : {}),
    perVerdictUsd: ofVerdicts !== null && verdicts > 0 ? ofVerdicts / verdicts : null,
    calibrationUsd: calibration.length > 0 ? sum(calibration).costUsd : null,
    ...(cli.length > 0 ? { cliUsd: cli.reduce((usd, run) => usd + run.cliUsd!, 0) } : {}),
  };
}

/** The judge's dollars as the stop rule counts them: the priced sum, and null beside it for what is not known. */
export function judgeCostsForStop(spend: JudgeSpend | undefined): (number | null)[] {
  if (!spend || spend.runs === 0) return [];
  return [spend.costUsd, ...(spend.unknownRuns > 0 ? [null] : [])];
}
