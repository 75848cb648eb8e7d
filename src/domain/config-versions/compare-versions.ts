// `org compare`: two program versions side by side, each measure with a 95 % bootstrap interval
// and one for B − A (at 99 %, see DIFF_LEVEL).
import type { Goal } from "../experiments/verdict.js";
import { findInterval, resampleCounts } from "./bootstrap.js";
import { measureSequence, type Experiment, type SequenceMeasures } from "./compare-measures.js";

/** Fewer experiments than this on either side and no measure names a winner. */
export const MIN_EXPERIMENTS = 5;
export const RESAMPLES = 2000;
/** One fixed seed: the same rows give the same intervals on every run and machine. */
export const COMPARE_SEED = 18;

export interface ProgramSample {
  program: string;
  experiments: Experiment[];
  startBest: number | undefined;
  /** Dollars spent while it ran; null where usage is unpriced or none was recorded (`unpriced` says which). */
  costUsd: number | null;
  unpriced?: string;
}

export type MeasureName = "improvementPerGpuHour" | "improvementPerUsd" | "keepRate" | "crashRate" | "toFirstKeep";
const MEASURES: { name: MeasureName; higherIsBetter: boolean }[] = [
  { name: "improvementPerGpuHour", higherIsBetter: true }, { name: "improvementPerUsd", higherIsBetter: true },
  { name: "keepRate", higherIsBetter: true },
  { name: "crashRate", higherIsBetter: false },
  { name: "toFirstKeep", higherIsBetter: false },
];

// Five measures read at once would name a false winner 20 % of the time at 95 % each: B − A is
// read at 1 − 5 %/5 (Bonferroni).
export const DIFF_LEVEL = 1 - 0.05 / MEASURES.length;

export interface Estimate {
  value: number | undefined;
  interval: [number, number] | undefined;
}

export type MeasureVerdict =
  | { kind: "better"; program: string; reason: string }
  | { kind: "unclear" | "too-few" | "unpriced"; reason: string };

export interface MeasureComparison {
  measure: MeasureName;
  a: Estimate;
  b: Estimate;
  /** B − A. */
  diff: Estimate;
  verdict: MeasureVerdict;
}

export interface Comparison {
  a: { program: string; experiments: number; gpuHours: number; costUsd: number | null };
  b: { program: string; experiments: number; gpuHours: number; costUsd: number | null };
  measures: MeasureComparison[];
  resamples: number;
  minExperiments: number;
  /** The level of every B − A interval, which decides. */
  diffLevel: number;
}

/** Each side resampled on its own `resamples` times from `random`; a measure's B − A interval decides it. */
export function compareSamples(
  a: ProgramSample, b: ProgramSample, goal: Goal, random: () => number, resamples = RESAMPLES,
): Comparison {
  const drawOnce = (sample: ProgramSample) => {
    const counts = resampleCounts(sample.experiments.length, random);
    return readMeasures(sample, measureSequence(sample.experiments, sample.startBest, goal, counts));
  };
  const draw = (sample: ProgramSample) =>
    sample.experiments.length === 0 ? [] : Array.from({ length: resamples }, () => drawOnce(sample));
  const [pointA, pointB] = [a, b].map((sample) =>
    readMeasures(sample, measureSequence(sample.experiments, sample.startBest, goal)));
  const [drawsA, drawsB] = [draw(a), draw(b)];
  const measures = MEASURES.map(({ name, higherIsBetter }): MeasureComparison => {
    const estimate = (
      sample: ProgramSample, point: Record<MeasureName, number | undefined>,
      draws: Record<MeasureName, number | undefined>[],
    ): Estimate =>
      sample.experiments.length === 0
        ? { value: undefined, interval: undefined }
        : { value: point[name], interval: findInterval(draws.map((one) => one[name])) };
    const diffs = drawsA.length === 0 || drawsB.length === 0
      ? []
      : drawsA.map((one, index) => subtract(drawsB[index]![name], one[name]));
    const diff = {
      value: subtract(pointB![name], pointA![name]),
      interval: diffs.length === 0 ? undefined : findInterval(diffs, DIFF_LEVEL),
    };
    const [estimateA, estimateB] = [estimate(a, pointA!, drawsA), estimate(b, pointB!, drawsB)];
    const censored = name === "toFirstKeep" && (estimateA.value === undefined || estimateB.value === undefined);
    const verdict = censored
      ? decideCensoredFirstKeep(a, b, estimateA.value, estimateB.value, [drawsA, drawsB])
      : decideMeasure(name, higherIsBetter, a, b, diff);
    return { measure: name, a: estimateA, b: estimateB, diff, verdict };
  });
  const side = (sample: ProgramSample) =>
    ({
      program: sample.program,
      experiments: sample.experiments.length,
      gpuHours: measureSequence(sample.experiments, sample.startBest, goal).gpuHours,
      costUsd: sample.costUsd,
    });
  return { a: side(a), b: side(b), measures, resamples, minExperiments: MIN_EXPERIMENTS, diffLevel: DIFF_LEVEL };
}

function readMeasures(sample: ProgramSample, measured: SequenceMeasures): Record<MeasureName, number | undefined> {
  return {
    improvementPerGpuHour: measured.gpuHours > 0 ? measured.improvement / measured.gpuHours : undefined,
    // Usage is recorded per time window, not per experiment: the program's dollars are held fixed across resamples.
    improvementPerUsd: sample.costUsd !== null && sample.costUsd > 0
      ? measured.improvement / sample.costUsd
      : undefined,
    keepRate: measured.keepRate, crashRate: measured.crashRate, toFirstKeep: measured.toFirstKeep,
  };
}

function subtract(b: number | undefined, a: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : b - a;
}

/** A winner only with enough experiments on both sides and a B − A interval that leaves out 0. */
function decideMeasure(
  name: MeasureName, higherIsBetter: boolean, a: ProgramSample, b: ProgramSample, diff: Estimate,
): MeasureVerdict {
  const few = [a, b].find((sample) => sample.experiments.length < MIN_EXPERIMENTS);
  if (few) return describeTooFew(few);
  if (name === "improvementPerUsd") {
    const unpriced = [a, b].find((sample) => sample.costUsd === null || sample.costUsd <= 0);
    if (unpriced) return {
      kind: "unpriced",
      reason: `${unpriced.program}: ${unpriced.unpriced ?? "no usage recorded while it ran"}`,
    };
  }
  if (!diff.interval) return { kind: "unclear", reason: "no interval: too few resamples had a value" };
  const [low, high] = diff.interval;
  if (low <= 0 && high >= 0) return {
    kind: "unclear",
    reason: `the ${formatLevel(DIFF_LEVEL)} interval of B − A contains 0: not enough data to tell them apart`,
  };
  const winner = (low > 0) === higherIsBetter ? b.program : a.program;
  return {
    kind: "better",
    program: winner,
    reason: `the ${formatLevel(DIFF_LEVEL)} interval of B − A excludes 0: ${winner} is better`,
  };
}

/**
 * Experiments to the first keep when a side has none: that side has no value to subtract,
 * rather than a made-up n + 1.
 */
function decideCensoredFirstKeep(
  a: ProgramSample, b: ProgramSample, valueA: number | undefined, valueB: number | undefined,
  [drawsA, drawsB]: Record<MeasureName, number | undefined>[][],
): MeasureVerdict {
  if (valueA !== undefined) return decideFirstKeep(b, a, drawsA!);
  if (valueB !== undefined) return decideFirstKeep(a, b, drawsB!);
  return decideNoKeeps(a, b);
}

/**
 * One side has a keep, the other none yet: its first keep is only known to lie beyond its length. It is named the
 * slower only when no keep in that many would be rare (under 1 − DIFF_LEVEL) even at the low end of the other's keep
 * rate.
 */
function decideFirstKeep(
  keepless: ProgramSample, kept: ProgramSample, keptDraws: Record<MeasureName, number | undefined>[],
): MeasureVerdict {
  const few = [keepless, kept].find((sample) => sample.experiments.length < MIN_EXPERIMENTS);
  if (few) return describeTooFew(few);
  const low = findInterval(keptDraws.map((one) => one.keepRate), DIFF_LEVEL)?.[0] ?? 0;
  const n = keepless.experiments.length;
  const chance = (1 - low) ** n;
  const why = `${keepless.program} has no keep in ${n} experiments; `
    + `at ${kept.program}'s keep rate (${formatPercent(low)} or more at ${formatLevel(DIFF_LEVEL)}) `
    + `that happens by chance ${formatPercent(chance)} of the time`;
  if (chance >= 1 - DIFF_LEVEL) return { kind: "unclear", reason: `${why}: not enough data to tell them apart` };
  return { kind: "better", program: kept.program, reason: `${why}: ${kept.program} is better` };
}

function formatPercent(value: number): string {
  return `${Number((value * 100).toPrecision(2))} %`;
}

function decideNoKeeps(a: ProgramSample, b: ProgramSample): MeasureVerdict {
  const few = [a, b].find((sample) => sample.experiments.length < MIN_EXPERIMENTS);
  return few ? describeTooFew(few) : { kind: "unclear", reason: "neither has a keep yet: no first keep to compare" };
}

function describeTooFew(few: ProgramSample): MeasureVerdict {
  return {
    kind: "too-few",
    reason: `${few.program} has ${few.experiments.length} experiment${few.experiments.length === 1 ? "" : "s"}, `
      + `fewer than ${MIN_EXPERIMENTS}: not enough data to tell them apart`,
  };
}

/** 0.99 → `99 %`. */
export function formatLevel(level: number): string {
  return `${Number((level * 100).toFixed(1))} %`;
}
