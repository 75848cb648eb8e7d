// What one program's experiments say of it: org-best improvement, GPU-hours, keep and crash
// rates, experiments to the first keep.
import type { ResultRow } from "../experiments/results-table.js";
import { ranAsExperiment } from "../experiments/row-kind.js";
import type { Goal } from "../experiments/verdict.js";

export type Experiment = Pick<ResultRow, "status" | "metric" | "seconds">;

export interface SequenceMeasures {
  /** The sum of what each of its keeps moved the org best by (its own keeps only), in the goal's direction (≥ 0). */
  improvement: number;
  gpuHours: number;
  keepRate: number;
  crashRate: number;
  /** 1-based position of the first keep; undefined while none: how long it takes is only known to exceed the length. */
  toFirstKeep: number | undefined;
}

/**
 * One program's experiments (baselines and the ledger's answers left out, file order) and the
 * org best just before its first.
 */
export function selectExperiments(rows: readonly ResultRow[], program: string, goal: Goal): {
  experiments: Experiment[]; startBest: number | undefined;
} {
  const own = (row: ResultRow) => (row.program || "unversioned") === program && ranAsExperiment(row);
  const first = rows.findIndex(own);
  let startBest: number | undefined;
  for (const row of rows.slice(0, first < 0
    ? 0
    : first)) if (row.status === "keep") startBest = pickBetter(startBest, row.metric, goal);
  return { experiments: rows.filter(own), startBest };
}

/**
 * The measures over a sequence; `counts` (a resample) says how often each experiment occurs, in time order.
 * Each experiment's gain is what it moved the org best when it ran; a resample sums the gains it drew (a sum, unlike a
 * running best, is something a bootstrap estimates well).
 */
export function measureSequence(
  experiments: readonly Experiment[], startBest: number | undefined, goal: Goal, counts?: Uint32Array,
): SequenceMeasures {
  let best = startBest;
  let n = 0, keeps = 0, crashes = 0, seconds = 0, firstKeep = 0, improvement = 0;
  experiments.forEach((experiment, index) => {
    const times = counts ? counts[index]! : 1;
    // With no start (the org's first rows), the first keep sets the best and gains nothing.
    const gain = experiment.status === "keep" && best !== undefined && experiment.metric !== undefined
      ? Math.max(0, goal === "minimize" ? best - experiment.metric : experiment.metric - best)
      : 0;
    if (experiment.status === "keep") best = pickBetter(best, experiment.metric, goal);
    if (times === 0) return;
    if (experiment.status === "keep" && firstKeep === 0) firstKeep = n + 1;
    n += times;
    seconds += experiment.seconds * times;
    improvement += gain * times;
    if (experiment.status === "keep") keeps += times;
    else if (experiment.status === "crash") crashes += times;
  });
  return {
    improvement,
    gpuHours: seconds / 3600,
    keepRate: n === 0 ? 0 : keeps / n,
    crashRate: n === 0 ? 0 : crashes / n,
    toFirstKeep: firstKeep === 0 ? undefined : firstKeep,
  };
}

function pickBetter(best: number | undefined, metric: number | undefined, goal: Goal): number | undefined {
  if (metric === undefined) return best;
  if (best === undefined) return metric;
  return goal === "minimize" ? Math.min(best, metric) : Math.max(best, metric);
}
