// results.tsv: autoresearch's five columns (commit, metric, memory_gb, status, description) plus who, where, how
// long, when, under which program.
import { join } from "node:path";
import type { Goal, Verdict } from "./verdict.js";
import { STACK_AGENT } from "./stack.js";
import { cleanLine } from "../safe-text.js";
import { classifyRow } from "./row-kind.js";

/**
 * autoresearch's statuses plus reject and fail (a gate); a baseline is recorded as keep with the description
 * "baseline".
 */
export type ResultStatus = "keep" | "discard" | "crash" | "reject" | "fail";
const STATUSES: readonly ResultStatus[] = ["keep", "discard", "crash", "reject", "fail"];
const EXTRA_COLUMNS = ["agent", "gpu", "seconds", "time", "program"];
const GATE_COLUMN = "gate";

export interface ResultRow {
  commit: string;
  /** Undefined for crash and reject rows, written as 0.000000 like autoresearch. */
  metric: number | undefined;
  memoryGb: number | undefined;
  status: ResultStatus;
  description: string;
  agent: string;
  /** null in CPU mode, written as "cpu". */
  gpu: number | null;
  seconds: number;
  /** ISO 8601 time the verdict was reached. */
  time: string;
  /** The program version the experiment was submitted under; undefined (written empty) for rows before versions. */
  program?: string;
  /** The gate column (written only where verify.gates is set): the gate that failed, "" where none did. */
  gate?: string;
  /** Budget metrics and lines added/removed, in the header's order after the standard columns. */
  extras?: Record<string, number | undefined>;
}

export interface ResultsTable {
  metricName: string | undefined;
  rows: ResultRow[];
}

export interface AgentStanding {
  agent: string;
  /** Experiments that ran, as `org history` and stop.max_experiments count them: no baselines, no ledger answers. */
  runs: number;
  /** Rows the experiment ledger answered without a run (duplicates, adopted keeps). */
  answered: number;
  /** The statuses of the runs. */
  counts: Record<ResultStatus, number>;
  /** The agent's first kept metric. */
  baseline: number | undefined;
  best: number | undefined;
  bestCommit: string | undefined;
  /** best − baseline, signed: negative is progress when minimizing. */
  delta: number | undefined;
}

export interface Leaderboard {
  agents: AgentStanding[];
  best: { agent: string; commit: string; metric: number } | undefined;
}

/**
 * state/results.tsv, the verifier's table of every judged experiment. Read and written by
 * adapters/store/results-file.ts alone; the dashboard reads it through its file port, and messages name it.
 */
export function resultsPath(state: string): string {
  return join(state, "results.tsv");
}

/** The results.tsv status of a verdict: the baseline is a keep, so the column keeps autoresearch's values. */
export function toResultStatus(kind: Verdict["kind"]): ResultStatus {
  return kind === "baseline" ? "keep" : kind;
}

/** The header; a gate column where verify.gates is set, then `extras` (budget metrics, lines added/removed). */
export function formatHeader(metricName: string, extras: string[] = [], gates = false): string {
  return [
    "commit", metricName, "memory_gb", "status", "description", ...EXTRA_COLUMNS, ...(gates ? [GATE_COLUMN] : []),
    ...extras,
  ].join("\t");
}

/** A row's gate column: the failed gate's name for a fail, "" for any other row; none where no gate is configured. */
export function gateColumnOf(verdict: Verdict, gates: boolean): string | undefined {
  if (!gates) return undefined;
  return verdict.kind === "fail" ? verdict.gate : "";
}

/** One line without its newline; a row that did not measure anything shows 0.000000 and 0.0 like autoresearch. */
export function formatRow(row: ResultRow): string {
  const measured = row.status === "keep" || row.status === "discard";
  return [
    row.commit.slice(0, 7),
    (measured ? (row.metric ?? 0) : 0).toFixed(6),
    (measured ? (row.memoryGb ?? 0) : 0).toFixed(1),
    row.status,
    flattenField(row.description),
    flattenField(row.agent),
    row.gpu === null ? "cpu" : String(row.gpu),
    row.seconds.toFixed(1),
    row.time,
    row.program ?? "",
    ...(row.gate === undefined ? [] : [flattenField(row.gate)]),
    ...Object.values(row.extras ?? {})
      .map((value) => (value === undefined ? "" : String(Number(value.toPrecision(8))))),
  ].join("\t");
}

/**
 * Rows of a results.tsv; a last line without its newline is still being written and is skipped, as is any malformed
 * line. Each header line names the columns of the rows after it: a file from before a column was added goes on under
 * a new header.
 */
export function parseResults(text: string): ResultsTable {
  const lines = text.split("\n");
  lines.pop();
  let metricName: string | undefined;
  let columns = { program: -1, gate: -1 };
  const rows: ResultRow[] = [];
  for (const line of lines) {
    const fields = line.replace(/\r$/, "").split("\t");
    if (fields[0] === "commit") {
      metricName = fields[1];
      columns = { program: fields.indexOf("program"), gate: fields.indexOf(GATE_COLUMN) };
    } else if (line.trim() !== "") pushIfValid(rows, fields, columns);
  }
  return { metricName, rows };
}

/** Per-agent baseline, best and counts, best first, and the org's best kept commit. */
export function buildLeaderboard(rows: ResultRow[], goal: Goal): Leaderboard {
  const standings = new Map<string, AgentStanding>();
  let best: Leaderboard["best"];
  let base: number | undefined;
  for (const row of rows) {
    const standing = standings.get(row.agent) ?? createStanding(row.agent);
    standings.set(row.agent, standing);
    const kind = classifyRow(row);
    if (kind === "answer") standing.answered += 1;
    if (kind === "run") {
      standing.runs += 1;
      standing.counts[row.status] += 1;
    }
    if (row.status !== "keep" || row.metric === undefined) continue;
    if (kind === "baseline") base ??= row.metric;
    // The org's stacks are measured from the base too: their first keep is no baseline.
    standing.baseline ??= row.agent === STACK_AGENT ? (base ?? row.metric) : row.metric;
    if (standing.best === undefined || isBetter(row.metric, standing.best, goal)) {
      standing.best = row.metric;
      standing.bestCommit = row.commit;
      standing.delta = row.metric - standing.baseline;
    }
    if (best === undefined || isBetter(row.metric, best.metric, goal)) best = {
      agent: row.agent, commit: row.commit, metric: row.metric,
    };
  }
  const agents = [...standings.values()].sort((a, b) => compareStandings(a, b, goal));
  return { agents, best };
}

// An autoresearch five-column file parses too: the extra columns default.
function pushIfValid(rows: ResultRow[], fields: string[], columns: { program: number; gate: number }): void {
  const [commit, metricText, memoryText, status, description, agent, gpu, seconds, time] = fields;
  if (fields.length < 5 || !commit || !STATUSES.includes(status as ResultStatus)) return;
  const measured = status === "keep" || status === "discard";
  const metric = Number(metricText);
  if (measured && (metricText?.trim() === "" || !Number.isFinite(metric))) return;
  const memoryGb = Number(memoryText);
  rows.push({
    commit,
    metric: measured ? metric : undefined,
    memoryGb: measured && Number.isFinite(memoryGb) ? memoryGb : undefined,
    status: status as ResultStatus,
    description: description ?? "",
    agent: agent ?? "",
    gpu: gpu !== undefined && /^\d+$/.test(gpu) ? Number(gpu) : null,
    seconds: Number(seconds ?? 0) || 0,
    time: time ?? "",
    ...(fields[columns.program] ? { program: fields[columns.program] } : {}),
    // Only a fail names a gate: a column of that name elsewhere (a budget called gate) is no gate's.
    ...(status === "fail" && fields[columns.gate] ? { gate: fields[columns.gate] } : {}),
  });
}

// A tab or newline would shift the columns, an escape would reach whoever `cat`s the file.
function flattenField(text: string): string {
  return cleanLine(text).trim();
}

function createStanding(agent: string): AgentStanding {
  return {
    agent, runs: 0, answered: 0, counts: { keep: 0, discard: 0, crash: 0, reject: 0, fail: 0 }, baseline: undefined,
    best: undefined, bestCommit: undefined, delta: undefined,
  };
}

function isBetter(candidate: number, best: number, goal: Goal): boolean {
  return goal === "minimize" ? candidate < best : candidate > best;
}

function compareStandings(a: AgentStanding, b: AgentStanding, goal: Goal): number {
  if (a.best !== undefined && b.best !== undefined && a.best !== b.best) return isBetter(a.best, b.best, goal) ? -1 : 1;
  if ((a.best === undefined) !== (b.best === undefined)) return a.best === undefined ? 1 : -1;
  return a.agent.localeCompare(b.agent);
}
