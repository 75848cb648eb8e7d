// What each kept change contributes to the best: the best's metric against the best without it, over the repeats.
import { measureNoise, type KeepRule } from "../experiments/keep-rule.js";
import type { Goal } from "../experiments/verdict.js";
import type { VariantPlan } from "./plan-variants.js";
import type { KeptChange } from "./split-changes.js";

/** A variant's runs as the verifier measured them (or its recorded row: a mean over n runs, no spread). */
export interface VariantMeasure {
  n: number;
  /** The commit the ledger measured the same change on, when it answered instead of a run. */
  from?: string;
  mean?: number;
  sd?: number;
  crashed?: string;
}

export type Effect = "carries" | "noise" | "hurts";

export const NOISE_NOTE = "no measurable effect here: dropping it simplifies the best";
const HURTS_NOTE = "the best measures better without it";

export interface ContributionRow {
  reverted: Pick<KeptChange, "commit" | "agent" | "description" | "kind">[];
  entangled?: { with: string[]; files: string[] };
  state: "measured" | "pending" | "crashed" | "skipped" | "cancelled";
  variant?: string;
  metric?: number;
  runs?: number;
  /** best − variant: how the change moves the metric. */
  delta?: number;
  /** delta signed by the goal: positive is a gain. */
  gain?: number;
  /** delta's 95 % interval; absent while σ is unknown and the variant has one run. */
  interval?: [number, number];
  /** The gap the keep rule asks of a gain over this many runs. */
  threshold?: number;
  effect?: Effect;
  note: string;
}

export interface AblationInput {
  goal: Goal;
  best: { metric: number; runs: number };
  sigma: number | undefined;
  rule: Pick<KeepRule, "k" | "minDelta">;
  changes: readonly KeptChange[];
  variants: readonly (VariantPlan & { measure?: VariantMeasure; cancelled?: string })[];
}

const Z95 = 1.96;

const REFERENCE_NOTE = "the best itself, measured again beside its variants: each Δ is against this";

/**
 * One row per variant, in the changes' order. The best measured again (the variant that reverts nothing) is what each
 * Δ is against, over as many seeds as the variants: its kept metric was a lucky draw as often as not.
 */
export function buildContributions(input: AblationInput): ContributionRow[] {
  const byCommit = new Map(input.changes.map((change) => [change.commit, change]));
  const again = input.variants.find((variant) => variant.reverted.length === 0)?.measure;
  const measured = again?.mean !== undefined && again.crashed === undefined;
  const best = measured ? { metric: again.mean!, runs: again.n } : input.best;
  return input.variants.map((variant) => {
    const reverted = variant.reverted.map((commit) => pick(byCommit.get(commit), commit));
    const head = { reverted, ...(variant.entangled ? { entangled: variant.entangled } : {}) };
    if (variant.skipped) return { ...head, state: "skipped", note: variant.skipped };
    const at = variant.commit ? { variant: variant.commit } : {};
    const { measure } = variant;
    if (variant.cancelled && !measure) return { ...head, ...at, state: "cancelled", note: variant.cancelled };
    if (!measure) return { ...head, ...at, state: "pending", note: "queued" };
    if (measure.crashed !== undefined || measure.mean === undefined) {
      return { ...head, ...at, state: "crashed", runs: measure.n, note: measure.crashed ?? "no metric" };
    }
    if (variant.reverted.length === 0) {
      return { ...head, ...at, state: "measured", metric: measure.mean, runs: measure.n, note: REFERENCE_NOTE };
    }
    const judged = judgeEffect({ ...input, best }, measure.mean, measure);
    const from = measure.from ? ` (the ledger's measure of ${measure.from.slice(0, 7)}, not run again)` : "";
    return { ...head, ...at, ...judged, note: `${judged.note}${from}` };
  });
}

function judgeEffect(input: AblationInput, mean: number, measure: VariantMeasure): Omit<ContributionRow, "reverted"> {
  const { best, goal } = input;
  const delta = best.metric - mean;
  const gain = goal === "minimize" ? -delta : delta;
  const { threshold } = measureNoise(input.rule, input.sigma, measure.n, best.runs);
  // The spread of a gap between two means: the org's pooled σ, else the variant's own repeats.
  const sd = input.sigma ?? (measure.n > 1 ? measure.sd : undefined);
  const half = sd === undefined ? undefined : Z95 * sd * Math.sqrt(1 / measure.n + 1 / best.runs);
  const effect: Effect = Math.abs(gain) <= threshold ? "noise" : gain > 0 ? "carries" : "hurts";
  const note = effect === "noise" ? NOISE_NOTE : effect === "hurts" ? HURTS_NOTE : "carries a gain";
  return {
    state: "measured", metric: mean, runs: measure.n, delta, gain, threshold, effect, note,
    ...(half === undefined ? {} : { interval: [delta - half, delta + half] as [number, number] }),
  };
}

function pick(change: KeptChange | undefined, commit: string): ContributionRow["reverted"][number] {
  if (!change) return { commit, agent: "unknown", description: "", kind: "keep" };
  return { commit, agent: change.agent, description: change.description, kind: change.kind };
}
