import { findAgentProgram, type AbRun } from "../config-versions/ab-run-record.js";
// What `org watch` shows, built purely from what was read: the dashboard renders it and decides nothing.
import type { PaneInfo } from "../ports.js";
import { buildLeaderboard, type ResultRow } from "../experiments/results-table.js";
import { buildSnapshot, type AgentView } from "./snapshot.js";
import type { AgentStatus, OrgRecord } from "../state.js";
import type { AgentUsage } from "../usage/summary.js";
import type { Goal } from "../experiments/verdict.js";
import type { VerifierView } from "./verifier.js";

export interface DashboardAgent extends AgentView {
  paneId: string | null;
  /** The pane's visible text, one string per line, trailing blank lines dropped. */
  screen: string[];
}

export interface Standing {
  agent: string;
  best: number | undefined;
  delta: number | undefined;
  runs: number;
  keeps: number;
  /** Every measured metric (keep or discard) of the agent, oldest first: its sparkline. */
  series: number[];
  /** Tokens and dollars as the daemon last summed them; null: its program records none; undefined: not read. */
  usage?: AgentUsage | null;
}

/** One `## [date] op | title` heading of log.md. */
export interface FeedEvent {
  date: string;
  op: string;
  title: string;
}

export interface DashboardModel {
  org: string;
  running: boolean;
  cpuMode: boolean;
  socket: string;
  uptimeMs: number | null;
  /** Each leased GPU with the agents holding it, by GPU index. */
  gpus: { gpu: number; agents: string[] }[];
  /** verify.gpus: pool — the GPUs every agent's runs share; empty otherwise. */
  pool: number[];
  agents: DashboardAgent[];
  metricName: string;
  goal: Goal;
  /** Best first; agents without a measured run yet come last. */
  standings: Standing[];
  orgBest: { agent: string; metric: number } | undefined;
  /** Newest last. */
  events: FeedEvent[];
  /** The verifier's queue and baselines, where it has started; `root` makes its run-log paths short. */
  verifier?: VerifierView & { root: string };
}

export interface DashboardInput {
  record: OrgRecord;
  panes: PaneInfo[];
  screens: Map<string, string>;
  statuses: Map<string, AgentStatus | undefined>;
  isAlive: (pid: number) => boolean;
  rows: ResultRow[];
  metricName: string;
  goal: Goal;
  logText: string;
  now: Date;
  feedSize?: number;
  /** Each agent's usage.json view, when read. */
  usage?: Map<string, AgentUsage | null>;
  /** An A/B run: each agent is tagged with its half's program. */
  ab?: AbRun;
  verifier?: VerifierView;
}

export function buildDashboardModel(input: DashboardInput): DashboardModel {
  const { record } = input;
  const snapshot = buildSnapshot({
    record,
    running: input.panes.length > 0,
    panes: input.panes,
    statuses: input.statuses,
    heads: new Map(),
    isAlive: input.isAlive,
    now: input.now,
  });
  const paneIds = new Map(record.agents.map((agent) => [agent.name, agent.paneId ?? null]));
  const agents = snapshot.agents.map((view): DashboardAgent => {
    const paneId = paneIds.get(view.name) ?? null;
    const program = input.ab && findAgentProgram(input.ab, view.name);
    return {
      ...view,
      ...(program ? { program } : {}),
      paneId,
      screen: splitScreen(paneId === null ? undefined : input.screens.get(paneId)),
    };
  });
  const upAt = Date.parse(record.upAt);
  return {
    org: record.name,
    running: snapshot.running,
    cpuMode: record.cpuMode,
    socket: record.socket,
    uptimeMs: snapshot.running && !Number.isNaN(upAt) ? Math.max(0, input.now.getTime() - upAt) : null,
    gpus: mapGpus(record),
    pool: record.pool ?? [],
    agents,
    metricName: input.metricName,
    goal: input.goal,
    ...withUsage(rankStandings(input.rows, input.goal, record.agents.map((agent) => agent.name)), input.usage),
    events: parseLogHeadings(input.logText, input.feedSize ?? 50),
    ...(input.verifier ? { verifier: { ...input.verifier, root: record.root } } : {}),
  };
}

/** The last `limit` event headings of log.md, oldest first; body lines and escaped headings are skipped. */
export function parseLogHeadings(text: string, limit: number): FeedEvent[] {
  const events: FeedEvent[] = [];
  for (const line of text.split("\n")) {
    const match = /^## \[([^\]]*)\] (.*?)(?: \| (.*))?$/.exec(line.replace(/\r$/, ""));
    if (match) events.push({ date: match[1]!, op: match[2]!, title: match[3] ?? "" });
  }
  return limit <= 0 ? [] : events.slice(-limit);
}

function withUsage(
  ranked: Pick<DashboardModel, "standings" | "orgBest">, usage: Map<string, AgentUsage | null> | undefined,
): Pick<DashboardModel, "standings" | "orgBest"> {
  if (!usage) return ranked;
  return {
    ...ranked,
    standings: ranked.standings.map((standing) => ({ ...standing, usage: usage.get(standing.agent) })),
  };
}

function splitScreen(text: string | undefined): string[] {
  const lines = (text ?? "").split("\n").map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function mapGpus(record: OrgRecord): DashboardModel["gpus"] {
  const byGpu = new Map<number, string[]>();
  for (const agent of record.agents) {
    if (agent.gpu !== null) byGpu.set(agent.gpu, [...(byGpu.get(agent.gpu) ?? []), agent.name]);
  }
  return [...byGpu].sort(([a], [b]) => a - b).map(([gpu, agents]) => ({ gpu, agents }));
}

// Agents of the record with no result yet still get a row: the leaderboard lists the whole org.
function rankStandings(rows: ResultRow[], goal: Goal, agents: string[]): Pick<DashboardModel, "standings" | "orgBest"> {
  const board = buildLeaderboard(rows, goal);
  const series = new Map<string, number[]>();
  for (const row of rows) {
    if (row.metric === undefined || (row.status !== "keep" && row.status !== "discard")) continue;
    const values = series.get(row.agent) ?? [];
    values.push(row.metric);
    series.set(row.agent, values);
  }
  const standings: Standing[] = board.agents.map((standing) => ({
    agent: standing.agent,
    best: standing.best,
    delta: standing.delta,
    runs: standing.runs,
    keeps: standing.counts.keep,
    series: series.get(standing.agent) ?? [],
  }));
  for (const agent of agents) {
    if (!standings.some((standing) => standing.agent === agent)) standings.push({
      agent,
      best: undefined,
      delta: undefined,
      runs: 0,
      keeps: 0,
      series: [],
    });
  }
  return { standings, orgBest: board.best && { agent: board.best.agent, metric: board.best.metric } };
}
