// results.tsv as the points of autoresearch's progress plot: every experiment, kept ones
// marked, each agent's running best.
import type { ResultRow, ResultStatus } from "../domain/experiments/results-table.js";
import type { Goal } from "../domain/experiments/verdict.js";
import type { ProgramEvent } from "../domain/config-versions/version-timeline.js";

export interface ProgressPoint {
  /** 1-based position in results.tsv: the experiment's number. */
  n: number;
  time: string;
  agent: string;
  status: ResultStatus;
  /** Undefined for crash and reject, which measured nothing. */
  metric: number | undefined;
  kept: boolean;
  description: string;
  commit: string;
}

/** One corner of an agent's running-best step line. */
export interface BestStep {
  n: number;
  time: string;
  agent: string;
  best: number;
}

export interface Progress {
  measured: ProgressPoint[];
  failed: ProgressPoint[];
  steps: BestStep[];
  agents: string[];
}

export function buildProgress(rows: ResultRow[], goal: Goal): Progress {
  const points = rows.map((row, index): ProgressPoint => ({
    n: index + 1, time: row.time, agent: row.agent || "(none)", status: row.status, metric: row.metric,
    kept: row.status === "keep", description: row.description, commit: row.commit.slice(0, 7),
  }));
  const measured = points.filter((point) => point.metric !== undefined);
  const best = new Map<string, number>();
  const steps: BestStep[] = [];
  for (const point of measured) {
    const current = best.get(point.agent);
    if (!point.kept) continue;
    if (current !== undefined && !(goal === "minimize" ? point.metric! < current : point.metric! > current)) continue;
    best.set(point.agent, point.metric!);
    steps.push({ n: point.n, time: point.time, agent: point.agent, best: point.metric! });
  }
  // Carry each line to the last experiment, as autoresearch's plot does, so a plateau reads as one;
  // rows are appended as verdicts land, so the latest time need not be on the last row.
  const last = points[points.length - 1];
  const latest = points.reduce(
    (max, point) => (Date.parse(point.time) > Date.parse(max) ? point.time : max),
    last?.time ?? "",
  );
  if (last) for (const [agent, value] of best) steps.push({ n: last.n, time: latest, agent, best: value });
  const agents = [...new Set(points.map((point) => point.agent))].sort();
  return { measured, failed: points.filter((point) => point.metric === undefined), steps, agents };
}

/** Where a program version started: a vertical marker on the plot, at its time or between the experiments around it. */
export interface VersionMark {
  n: number;
  time: string;
  version: string;
}

/** Each use of a version other than the one already running (a restore counts), placed among the rows by time. */
export function buildVersionMarks(rows: readonly ResultRow[], events: readonly ProgramEvent[]): VersionMark[] {
  let running: string | undefined;
  return events.flatMap((event) => {
    if (event.kind !== "use" || event.version === running) return [];
    running = event.version;
    const at = Date.parse(event.at);
    return [{
      n: rows.filter((row) => Date.parse(row.time) < at).length + 0.5,
      time: event.at,
      version: event.version,
    }];
  });
}
