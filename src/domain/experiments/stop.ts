// When the org stops by itself: org.yaml's stop section over results.tsv, the agents' costs and the clock.
import type { StopSettings } from "../config/index.js";
import { parseDuration } from "../units/index.js";
import type { ResultRow } from "./results-table.js";
import { ranAsExperiment } from "./row-kind.js";
import { isFields } from "../json-fields.js";
import type { Goal } from "./verdict.js";

export type StopKey = "target" | "max_experiments" | "max_gpu_hours" | "max_cost" | "deadline" | "stall";
// Several met at one look: a reached target says more than any limit, and limits more than a stall.
const ORDER: StopKey[] = ["target", "max_experiments", "max_gpu_hours", "max_cost", "deadline", "stall"];

export interface StopFigures {
  /** results.tsv rows that ran: neither baselines nor the ledger's answers. */
  experiments: number;
  /** The seconds column summed: every run of a row (baseline repeats, confirmations) ran in its one slot. */
  gpuHours: number;
  costUsd: number;
  /** Some agent's or the judge's models have no price (or usage unknown): costUsd counts only the priced ones. */
  costPartial: boolean;
  best: { name: string; metric: number; agent: string; commit: string } | undefined;
  /** Experiments since the org's best last improved. */
  sinceBest: number;
  /** When the deadline falls, ISO; undefined without one. */
  deadline: string | undefined;
}

/** How far one configured condition is from stopping the org, as `org status` shows it. */
export interface StopDistance {
  key: StopKey;
  text: string;
}

/** Conditions `org up --resume` went on past, each at the org.yaml value it had: a new value applies again. */
export type StopWaivers = Partial<Record<StopKey, unknown>>;

/** stop-waivers.json's JSON as waivers; undefined when it is no object, or names a key that is no stop condition. */
export function parseStopWaivers(value: unknown): StopWaivers | undefined {
  return isFields(value) && Object.keys(value).every((key) => (ORDER as string[]).includes(key))
    ? (value as StopWaivers) : undefined;
}

export type StopDecision =
  | { kind: "running"; figures: StopFigures; distances: StopDistance[] }
  | { kind: "stop"; key: StopKey; reason: string; figures: StopFigures; met: StopKey[]; cancel: boolean };

export interface StopInput {
  stop: StopSettings | undefined;
  metric: { name: string; goal: Goal } | undefined;
  rows: ResultRow[];
  baseCommit: string;
  /** Each agent's dollars, then the verifier's judge's; null for a share with no price or whose usage is unknown. */
  costs: (number | null)[];
  /** The org's start (`org up`), which a duration deadline counts from. */
  startedAt: Date;
  now: Date;
  waived?: StopWaivers;
}

/** The first condition met stops the org, with its reason; otherwise the distance to each one configured. */
export function decideStop(input: StopInput): StopDecision {
  const figures = measureStop(input);
  const stop: Partial<StopSettings> = input.stop ?? {};
  const configured = ORDER.filter((key) => stop[key] !== undefined);
  const waived = (key: StopKey) => input.waived?.[key] !== undefined
    && JSON.stringify(input.waived[key]) === JSON.stringify(stop[key]);
  const met = configured.filter((key) => !waived(key) && isMet(key, input, figures));
  const first = met[0];
  if (first !== undefined) {
    // The GPU-hour and cost limits are spent by runs: queued ones are cancelled rather than run past the limit.
    return {
      kind: "stop", key: first, reason: explainStop(first, input, figures), figures, met,
      cancel: first === "max_gpu_hours" || first === "max_cost",
    };
  }
  return {
    kind: "running", figures,
    distances: configured.map((key) => ({
      key, text: `${measureDistance(key, input, figures)}${waived(key) ? " (waived)" : ""}`,
    })),
  };
}

/** `503 experiments · 41.2 GPU-h · $12.40 · best val_bpb 0.948 (researcher-2 abc1234)` */
export function describeFigures(figures: StopFigures): string {
  const best = figures.best
    ? ` · best ${figures.best.name} ${formatNumber(figures.best.metric)} (${figures.best.agent} `
      + `${figures.best.commit.slice(0, 7)})`
    : "";
  return `${figures.experiments} experiments · ${figures.gpuHours.toFixed(1)} GPU-h · `
    + `${formatUsd(figures.costUsd, figures.costPartial)}${best}`;
}

function measureStop(input: StopInput): StopFigures {
  const goal = input.metric?.goal ?? "minimize";
  let experiments = 0;
  let seconds = 0;
  let sinceBest = 0;
  let best: StopFigures["best"];
  for (const row of input.rows) {
    seconds += row.seconds;
    const better = row.status === "keep" && row.metric !== undefined && (!best || (goal === "minimize"
      ? row.metric < best.metric
      : row.metric > best.metric));
    if (better) best = {
      name: input.metric?.name ?? "metric", metric: row.metric!, agent: row.agent, commit: row.commit,
    };
    if (!ranAsExperiment(row)) continue;
    experiments += 1;
    sinceBest = better ? 0 : sinceBest + 1;
  }
  const known = input.costs.filter((cost): cost is number => cost !== null);
  return {
    experiments, gpuHours: seconds / 3600, costUsd: known.reduce((sum, cost) => sum + cost, 0),
    costPartial: known.length < input.costs.length,
    best, sinceBest, deadline: deadlineOf(input),
  };
}

function deadlineOf(input: StopInput): string | undefined {
  const deadline = input.stop?.deadline;
  if (deadline === undefined) return undefined;
  if (typeof deadline === "string" && /^\d{4}-/.test(deadline)) return new Date(Date.parse(deadline)).toISOString();
  return new Date(input.startedAt.getTime() + parseDuration(deadline)).toISOString();
}

function isMet(key: StopKey, input: StopInput, figures: StopFigures): boolean {
  const stop = input.stop!;
  switch (key) {
    case "target":
      return figures.best !== undefined && input.metric !== undefined && (input.metric.goal === "minimize"
        ? figures.best.metric <= stop.target!
        : figures.best.metric >= stop.target!);
    case "max_experiments":
      return figures.experiments >= stop.max_experiments!;
    case "max_gpu_hours":
      return figures.gpuHours >= stop.max_gpu_hours!;
    case "max_cost":
      return figures.costUsd >= stop.max_cost!;
    case "deadline":
      return input.now.getTime() >= Date.parse(figures.deadline!);
    case "stall":
      return figures.sinceBest >= stop.stall!;
  }
}

function explainStop(key: StopKey, input: StopInput, figures: StopFigures): string {
  const stop = input.stop!;
  const best = figures.best!;
  switch (key) {
    case "target":
      return `target reached: ${best.name} ${formatNumber(best.metric)} `
        + `${input.metric!.goal === "minimize" ? "≤" : "≥"} ${stop.target} (${best.agent} ${best.commit.slice(0, 7)})`;
    case "max_experiments":
      return `max_experiments reached: ${figures.experiments} experiments of ${stop.max_experiments}`;
    case "max_gpu_hours":
      return `max_gpu_hours reached: ${figures.gpuHours.toFixed(1)} of ${stop.max_gpu_hours} GPU-hours of verify runs`;
    case "max_cost":
      return `max_cost reached: ${formatUsd(figures.costUsd, figures.costPartial)} of $${stop.max_cost} in tokens`;
    case "deadline":
      return typeof stop.deadline === "string" && /^\d{4}-/.test(stop.deadline)
        ? `deadline passed: ${figures.deadline}`
        : `deadline passed: ${figures.deadline} (${stop.deadline} after org up)`;
    case "stall":
      return `stall: ${figures.sinceBest} experiments without an org-best improvement`
        + (figures.best
          ? ` (best ${best.name} ${formatNumber(best.metric)}, ${best.agent} ${best.commit.slice(0, 7)})`
          : "");
  }
}

function measureDistance(key: StopKey, input: StopInput, figures: StopFigures): string {
  const stop = input.stop!;
  switch (key) {
    case "target":
      return `${figures.best ? `best ${formatNumber(figures.best.metric)}` : "no best yet"} → target ${stop.target}`;
    case "max_experiments":
      return `${figures.experiments}/${stop.max_experiments} experiments`;
    case "max_gpu_hours":
      return `${figures.gpuHours.toFixed(1)}/${stop.max_gpu_hours} GPU-h`;
    case "max_cost":
      return `${formatUsd(figures.costUsd, figures.costPartial)}/$${stop.max_cost}`;
    case "deadline":
      return `${formatLeft(Date.parse(figures.deadline!) - input.now.getTime())} left`;
    case "stall":
      return `stall ${figures.sinceBest}/${stop.stall}`;
  }
}

/** 2d4h, 31h, 12m, 40s: the time left to a deadline, to the unit that matters. */
function formatLeft(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  const hours = Math.floor(seconds / 3600);
  return hours < 48 ? `${hours}h` : `${Math.floor(hours / 24)}d${hours % 24}h`;
}

// A sum that leaves out unpriced agents is a floor: the "+" says so.
function formatUsd(value: number, partial: boolean): string {
  return `$${value.toFixed(2)}${partial ? "+" : ""}`;
}

function formatNumber(value: number): string {
  return String(Number(value.toPrecision(6)));
}
