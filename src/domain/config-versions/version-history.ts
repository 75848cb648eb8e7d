// `org history`: one line per program version, in order of first use, with what the org did while it ran.
import type { ResultRow } from "../experiments/results-table.js";
import { ranAsExperiment } from "../experiments/row-kind.js";
import type { Goal } from "../experiments/verdict.js";
import { priceModels, type Pricing } from "../usage/pricing.js";
import { addCounts, ZERO_COUNTS, type TokenCounts, type UsageRecord } from "../usage/token-counts.js";
import { listSpans, type ProgramEvent, type ProgramSpan } from "./version-timeline.js";
import { UNVERSIONED } from "./version.js";
import type { AbSpan } from "./ab-run-record.js";
import { tallyGateFailures, type GateFailures } from "../experiments/gate-failures.js";

/** What a saved program says of itself: who first ran it and how many agents it has. */
export interface SavedProgram {
  by: string;
  agents: number;
}

export interface HistoryInput {
  events: ProgramEvent[];
  saved: Map<string, SavedProgram>;
  rows: ResultRow[];
  /** Every agent's replies, by agent. */
  usage: Map<string, UsageRecord[]>;
  pricing: Pricing;
  goal: Goal;
  /** A/B runs: while one ran, a reply belongs to its agent's half, not to the program whose window it falls in. */
  ab?: AbSpan[];
}

export interface ProgramHistoryRow {
  program: string;
  /** Who brought it in first (`by` as recorded); null for unversioned rows. */
  by: string | null;
  /** ISO times: its first start, and its last end (null while it runs, or with no time known). */
  from: string | null;
  to: string | null;
  /** How many separate stretches it ran (a restore runs an old version again). */
  runs: number;
  agents: number;
  /** results.tsv rows that ran, baselines and the ledger's answers left out, as stop.max_experiments counts them. */
  experiments: number;
  keeps: number;
  crashes: number;
  /** Where verify.gates failed its experiments, per gate; absent when none did. */
  gateFailures?: GateFailures[];
  /** The org's best when its first row came, and after its last. */
  bestBefore: number | null;
  bestAfter: number | null;
  /** Its rows' seconds summed, as stop.max_gpu_hours counts them. */
  gpuHours: number;
  /** The replies of every agent inside its time window (tokens are not recorded per program). */
  usage: TokenCounts & { replies: number; costUsd: number | null; unpriced?: string };
  saved: boolean;
}

/** Rows and replies attributed: rows by their program column, replies by the time window each program ran in. */
export function buildProgramHistory(input: HistoryInput): ProgramHistoryRow[] {
  const spans = listSpans(input.events);
  const order = [...new Set([
    ...(input.rows.some((row) => !row.program) ? [UNVERSIONED] : []),
    ...spans.map((span) => span.version),
    ...input.rows.map((row) => row.program || UNVERSIONED),
  ])];
  const best = trackBest(input.rows, input.goal, input.ab ?? []);
  const firstUse = spans[0]?.from ?? Infinity;
  return order.map((program) => {
    const rows = input.rows.filter((row) => (row.program || UNVERSIONED) === program);
    const own = spans.filter((span) => span.version === program);
    // Before the first recorded version, every reply belongs to the unversioned org.
    const windows: ProgramSpan[] = program === UNVERSIONED
      ? [{ version: program, from: -Infinity, to: firstUse }]
      : own;
    const indexes = input.rows.flatMap((row, index) => ((row.program || UNVERSIONED) === program ? [index] : []));
    const saved = input.saved.get(program);
    return {
      program, by: saved?.by ?? null, ...describeWindow(own, rows), runs: own.length,
      agents: saved?.agents ?? new Set(rows.map((row) => row.agent)).size,
      experiments: rows.filter(ranAsExperiment).length,
      keeps: rows.filter((row) => row.status === "keep" && ranAsExperiment(row)).length,
      crashes: rows.filter((row) => row.status === "crash" && ranAsExperiment(row)).length,
      ...withGateFailures(rows),
      bestBefore: indexes.length > 0 ? (best[indexes[0]!]!.before ?? null) : null,
      bestAfter: indexes.length > 0 ? (best[indexes[indexes.length - 1]!]!.after ?? null) : null,
      gpuHours: rows.reduce((sum, row) => sum + row.seconds, 0) / 3600,
      usage: sumWindows(input.usage, windows, input.pricing, { program, ab: input.ab ?? [] }),
      saved: saved !== undefined,
    };
  });
}

function withGateFailures(rows: ResultRow[]): { gateFailures?: GateFailures[] } {
  const failures = tallyGateFailures(rows);
  return failures.length > 0 ? { gateFailures: failures } : {};
}

/** From its first start to its last end; a program with no recorded use (unversioned) spans its rows. */
function describeWindow(spans: ProgramSpan[], rows: ResultRow[]): { from: string | null; to: string | null } {
  if (spans.length > 0) {
    const end = spans[spans.length - 1]!.to;
    return { from: new Date(spans[0]!.from).toISOString(), to: end === undefined ? null : new Date(end).toISOString() };
  }
  const times = rows.map((row) => Date.parse(row.time)).filter((time) => !Number.isNaN(time));
  if (times.length === 0) return { from: null, to: null };
  const starts = rows.map((row) => Date.parse(row.time) - row.seconds * 1000).filter((time) => !Number.isNaN(time));
  return { from: new Date(Math.min(...starts)).toISOString(), to: new Date(Math.max(...times)).toISOString() };
}

/** Per row, the best kept metric just before it and just after it: the org's, or during an A/B run B's half's own. */
function trackBest(
  rows: ResultRow[], goal: Goal, ab: AbSpan[],
): { before: number | undefined; after: number | undefined }[] {
  const bests = new Map<string, number | undefined>();
  return rows.map((row) => {
    const time = Date.parse(row.time);
    const span = ab.find((one) => one.b === row.program && time >= one.from && time <= (one.to ?? Infinity));
    const track = span ? `b@${span.from}` : "org";
    const before = bests.get(track);
    const better = row.status === "keep" && row.metric !== undefined
      && (before === undefined || (goal === "minimize" ? row.metric < before : row.metric > before));
    if (better) bests.set(track, row.metric);
    return { before, after: bests.get(track) };
  });
}

/** Every agent's replies with from < at ≤ to in any window (an open one has no end yet), summed and priced. */
function sumWindows(
  usage: Map<string, UsageRecord[]>, windows: ProgramSpan[], pricing: Pricing, own: { program: string; ab: AbSpan[] },
): ProgramHistoryRow["usage"] {
  let counts: TokenCounts = ZERO_COUNTS;
  let replies = 0;
  const byModel: Record<string, TokenCounts> = {};
  const inside = (record: UsageRecord, window: { from: number; to: number | undefined }) =>
    record.at > window.from && record.at <= (window.to ?? Infinity);
  for (const [agent, records] of usage) for (const record of records) {
    const run = own.ab.find((span) => inside(record, span));
    if (run ? run.programs.get(agent) !== own.program : !windows.some((window) => inside(record, window))) continue;
    replies++;
    counts = addCounts(counts, record);
    byModel[record.model] = addCounts(byModel[record.model] ?? ZERO_COUNTS, record);
  }
  const { costUsd, unpriced } = priceModels(byModel, pricing);
  return { ...counts, replies, costUsd, ...(unpriced ? { unpriced } : {}) };
}
