// What one program's experiments say of it: org-best improvement, GPU-hours, keep and crash rates, experiments to the first keep.
import type { ResultRow } from "../experiments/results.js";
import type { Goal } from "../experiments/verdict.js";

export type Experiment = Pick<ResultRow, "status" | "metric" | "seconds">;

export interface SequenceMeasures {
  /** How far its own keeps moved the org best it started from, in the goal's direction (≥ 0). */
  improvement: number;
  gpuHours: number;
  keepRate: number;
  crashRate: number;
  /** 1-based position of the first keep; n + 1 when none (censored). */
  toFirstKeep: number;
}

/** One program's experiments (baselines left out, file order) and the org best just before its first. */
export function selectExperiments(rows: readonly ResultRow[], program: string, goal: Goal): { experiments: Experiment[]; startBest: number | undefined } {
  const own = (row: ResultRow) => (row.program || "unversioned") === program && !row.description.startsWith("baseline");
  const first = rows.findIndex(own);
  let startBest: number | undefined;
  for (const row of rows.slice(0, first < 0 ? 0 : first)) if (row.status === "keep") startBest = pickBetter(startBest, row.metric, goal);
  return { experiments: rows.filter(own), startBest };
}

/**
 * The measures over a sequence; `counts` (a resample) says how often each experiment occurs, in time order.
 * The org best is recomputed over the sequence, so a resampled keep counts once it beats what came before it.
 */
export function measureSequence(experiments: readonly Experiment[], startBest: number | undefined, goal: Goal, counts?: Uint32Array): SequenceMeasures {
  let best = startBest;
  let n = 0, keeps = 0, crashes = 0, seconds = 0, firstKeep = 0;
  experiments.forEach((experiment, index) => {
    const times = counts ? counts[index]! : 1;
    if (times === 0) return;
    if (experiment.status === "keep" && firstKeep === 0) firstKeep = n + 1;
    n += times;
    seconds += experiment.seconds * times;
    if (experiment.status === "keep") {
      keeps += times;
      best = best === undefined ? experiment.metric : pickBetter(best, experiment.metric, goal);
    } else if (experiment.status === "crash") crashes += times;
  });
  // With no start (the org's first rows), the first keep sets it and only later keeps count as improvement.
  const start = startBest ?? experiments.find((experiment, index) => experiment.status === "keep" && (counts ? counts[index]! : 1) > 0)?.metric;
  const improvement = start === undefined || best === undefined ? 0 : Math.max(0, goal === "minimize" ? start - best : best - start);
  return { improvement, gpuHours: seconds / 3600, keepRate: n === 0 ? 0 : keeps / n, crashRate: n === 0 ? 0 : crashes / n, toFirstKeep: firstKeep === 0 ? n + 1 : firstKeep };
}

function pickBetter(best: number | undefined, metric: number | undefined, goal: Goal): number | undefined {
  if (metric === undefined) return best;
  if (best === undefined) return metric;
  return goal === "minimize" ? Math.min(best, metric) : Math.max(best, metric);
}
