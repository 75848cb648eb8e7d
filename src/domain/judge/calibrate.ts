// Calibration before trust: the judge scores every reference `repeats` times; good must beat bad beyond its noise.
import { basename } from "node:path";
import { pooledSigma, summarize } from "../experiments/noise.js";

/** One reference's scores over the repeats. */
export interface ReferenceScores {
  path: string;
  kind: "good" | "bad";
  samples: number[];
}

export type Calibration =
  | { kind: "calibrated"; sigma: number; margin: number; summary: string }
  | { kind: "refused"; message: string };

/**
 * The lowest good mean must beat the highest bad mean by more than k·σ (σ pooled over every reference's repeats,
 * as the keep rule pools its baselines) and by more than min_delta: less, and the judge cannot tell them apart.
 */
export function decideCalibration(
  references: readonly ReferenceScores[], rule: { k: number; minDelta: number },
): Calibration {
  const sigma = pooledSigma(references.map((reference) => reference.samples)) ?? 0;
  const means = references.map((reference) => ({ ...reference, stats: summarize(reference.samples) }));
  const good = means.filter((reference) => reference.kind === "good");
  const bad = means.filter((reference) => reference.kind === "bad");
  const lowestGood = Math.min(...good.map((reference) => reference.stats.mean));
  const highestBad = Math.max(...bad.map((reference) => reference.stats.mean));
  const margin = lowestGood - highestBad;
  const needed = Math.max(rule.k * sigma, rule.minDelta);
  if (good.length > 0 && bad.length > 0 && margin > needed && margin > 0) {
    const noise = `${rule.k}σ = ${(rule.k * sigma).toFixed(2)}`;
    const summary = `the judge separates your references: good ≥ ${lowestGood.toFixed(2)}, `
      + `bad ≤ ${highestBad.toFixed(2)}, a margin of ${margin.toFixed(2)} > ${noise}`;
    return { kind: "calibrated", sigma, margin, summary };
  }
  const shown = means.map(({ stats, ...reference }) =>
    `${describeReference(reference)} ${stats.mean.toFixed(2)} ± ${stats.sd.toFixed(2)}`);
  return {
    kind: "refused",
    message: `the rubric does not separate your references: ${shown.join(", ")}`
      + " — sharpen the rubric or change the references",
  };
}

/** good/landing.html: which side a reference is on, and its file. */
export function describeReference(reference: Pick<ReferenceScores, "path" | "kind">): string {
  return `${reference.kind}/${basename(reference.path)}`;
}
