import type { Leaderboard } from "../org/results.js";
import type { Goal } from "../org/verdict.js";
import { renderTable } from "./status-table.js";

const fixed = (value: number | undefined, digits = 6) => (value === undefined ? "-" : value.toFixed(digits));
const signed = (value: number | undefined) => (value === undefined ? "-" : `${value > 0 ? "+" : ""}${value.toFixed(6)}`);

/** `org results`: best per agent, the org's best, deltas vs baseline, counts per status. */
export function renderLeaderboard(board: Leaderboard, metricName: string, goal: Goal = "minimize", noise: Noise = { sigma: undefined, runs: 0 }): string {
  if (board.agents.length === 0) return "no results yet: results.tsv is empty";
  const rows = board.agents.map((agent) => [
    agent.agent,
    fixed(agent.baseline),
    fixed(agent.best),
    signed(agent.delta),
    agent.bestCommit?.slice(0, 7) ?? "-",
    String(agent.runs),
    String(agent.counts.keep),
    String(agent.counts.discard),
    String(agent.counts.crash),
    String(agent.counts.reject),
  ]);
  const table = renderTable(["AGENT", "BASELINE", `BEST ${metricName}`, "DELTA", "COMMIT", "RUNS", "KEEP", "DISCARD", "CRASH", "REJECT"], rows);
  const sigma = noise.sigma === undefined ? "noise σ: unknown (needs repeated baselines)" : `noise σ: ${noise.sigma.toFixed(6)} (pooled over ${noise.runs} repeated runs)`;
  if (!board.best) return `${table}\n${sigma}\norg best: none yet`;
  const baseline = board.agents.find((agent) => agent.agent === board.best!.agent)?.baseline;
  const gain = baseline === undefined ? undefined : goal === "minimize" ? baseline - board.best.metric : board.best.metric - baseline;
  const inSigma = gain !== undefined && noise.sigma ? ` · ${(gain / noise.sigma).toFixed(1)}σ better than its baseline` : "";
  return `${table}\n${sigma}\norg best: ${metricName} ${board.best.metric.toFixed(6)} by ${board.best.agent} at ${board.best.commit.slice(0, 7)}${inSigma}`;
}

export interface Noise {
  sigma: number | undefined;
  runs: number;
}
