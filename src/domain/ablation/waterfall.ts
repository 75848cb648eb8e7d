// The waterfall: the baseline, each measured change's gain, what the single ablations leave unexplained, the best.
import type { ContributionRow } from "./contribution.js";

export interface WaterfallStep {
  label: string;
  /** The metric before and after this step. */
  from: number;
  to: number;
  kind: "baseline" | "change" | "rest" | "best";
}

/**
 * From the baseline to the best: each change alone moves the metric by its delta; the interactions between
 * changes (and the noise) are the rest, so the steps add up to the best. Undefined without a baseline.
 */
export function buildWaterfall(input: { baseline: number | undefined; best: number; rows: readonly ContributionRow[] })
  : WaterfallStep[] | undefined {
  if (input.baseline === undefined) return undefined;
  const steps: WaterfallStep[] = [{ label: "baseline", from: input.baseline, to: input.baseline, kind: "baseline" }];
  let level = input.baseline;
  // The best measured again, when it was: the level each Δ was taken against.
  const best = input.rows.find((row) => row.reverted.length === 0)?.metric ?? input.best;
  for (const row of input.rows) {
    if (row.delta === undefined) continue;
    const label = row.reverted.map((change) => `${change.commit.slice(0, 7)} ${change.agent}`).join(" + ");
    steps.push({ label, from: level, to: level + row.delta, kind: "change" });
    level += row.delta;
  }
  if (Math.abs(best - level) > 1e-12) steps.push({ label: "interactions, noise", from: level, to: best, kind: "rest" });
  steps.push({ label: "best", from: best, to: best, kind: "best" });
  return steps;
}
