import type { VerifyConfig } from "../config/index.js";
import type { Goal, Verdict } from "./verdict.js";
import { summarize } from "./noise.js";

export interface KeepRule {
  k: number;
  minDelta: number;
  confirm: number;
}

export type KeepDecision =
  | { kind: "keep"; mean: number; delta: number; reason: string }
  | { kind: "discard"; mean: number; delta: number; reason: string }
  | { kind: "confirm"; mean: number; runs: number; reason: string };

/**
 * Whether a candidate's runs beat the best by more than the noise. The gap between two means of n and m runs
 * has noise σ·√(1/n + 1/m), so the rule is gain > max(k·σ·√(1/n + 1/m), min_delta). A candidate whose first
 * run beats the best earns `confirm` more runs with fresh seeds; the mean of all of them then faces the rule.
 */
export function decideKeep(
  input: {
    goal: Goal; metric: string; best: number; bestRuns?: number; samples: number[]; sigma: number | undefined;
    rule: KeepRule;
  },
): KeepDecision {
  const { goal, best, samples, sigma, rule } = input;
  const { mean, n } = summarize(samples);
  const bestRuns = input.bestRuns ?? 1;
  const delta = mean - best;
  const gain = goal === "minimize" ? -delta : delta;
  const { noise, threshold } = measureNoise(rule, sigma, n, bestRuns);
  const digits = decimals(Math.max(Math.abs(delta), threshold));
  const shown = `${input.metric} ${format(mean, digits)}${n > 1 ? ` (mean of ${n})` : ""}`;
  const bar = describeThreshold(rule, sigma, `${rule.k}σ·√(1/${n}+1/${bestRuns})`, noise, threshold, digits);
  const signed = `${delta >= 0 ? "+" : ""}${format(delta, digits)}`;
  // Every apparent gain is re-run before it is kept: a best measured once is a lucky draw that hides later gains.
  if (gain > 0 && n < 1 + rule.confirm) {
    return {
      kind: "confirm", mean, runs: 1 + rule.confirm - n,
      reason: `confirm: ${signed} beats the best; ${1 + rule.confirm - n} more run(s) with fresh seeds before it can `
        + `be kept`,
    };
  }
  if (gain > threshold) {
    return {
      kind: "keep", mean, delta,
      reason: `keep: ${shown} beats best ${format(best, digits)} by ${format(gain, digits)} > ${bar}`,
    };
  }
  const why = gain > 0 ? `${signed} < ${bar}` : `not better than best ${format(best, digits)} (${signed})`;
  return { kind: "discard", mean, delta, reason: `discard: ${shown} ${why}` };
}

/** The gap two means of n and m runs must clear to be more than noise: max(k·σ·√(1/n + 1/m), min_delta). */
export function measureNoise(rule: Pick<KeepRule, "k" | "minDelta">, sigma: number | undefined, n: number, m: number)
  : { noise: number; threshold: number } {
  const noise = sigma === undefined || sigma === 0 ? 0 : rule.k * sigma * Math.sqrt(1 / n + 1 / m);
  return { noise, threshold: Math.max(noise, rule.minDelta) };
}

function describeThreshold(
  rule: KeepRule, sigma: number | undefined, scaled: string, noise: number, threshold: number, digits: number,
): string {
  if (sigma === undefined) return `min_delta ${format(rule.minDelta, digits)} (σ unknown: no repeated baseline yet)`;
  if (sigma === 0) return `min_delta ${format(rule.minDelta, digits)} (σ is 0: a deterministic task)`;
  return noise >= rule.minDelta
    ? `${scaled} (${format(threshold, digits)})`
    : `min_delta ${format(rule.minDelta, digits)} (${scaled} is ${format(noise, digits)})`;
}

function decimals(magnitude: number): number {
  if (magnitude === 0 || !Number.isFinite(magnitude)) return 4;
  return Math.min(10, Math.max(4, 2 - Math.floor(Math.log10(magnitude))));
}

function format(value: number, digits: number): string {
  return value.toFixed(digits);
}

// autoresearch's simplicity criterion: a small gain is not worth many added lines.
export function applySimplicity(verify: VerifyConfig, verdict: Verdict, added: number, best: number): Verdict {
  if (verdict.kind !== "keep" || !verify.simplicity) return verdict;
  const gain = Math.abs(verdict.metric - best);
  if (added <= verify.simplicity.max_lines || gain >= verify.simplicity.min_improvement) return verdict;
  const { min_improvement: least, max_lines: most } = verify.simplicity;
  const reason = `discard: simplicity: gain ${gain.toPrecision(3)} < ${least} with ${added} lines added (max ${most})`;
  return { kind: "discard", metric: verdict.metric, delta: verdict.delta, reason };
}
