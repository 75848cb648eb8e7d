import type { Leaderboard } from "../org/results.js";
import { renderTable } from "./status-table.js";

const fixed = (value: number | undefined, digits = 6) => (value === undefined ? "-" : value.toFixed(digits));
const signed = (value: number | undefined) => (value === undefined ? "-" : `${value > 0 ? "+" : ""}${value.toFixed(6)}`);

/** `org results`: best per agent, the org's best, deltas vs baseline, counts per status. */
export function renderLeaderboard(board: Leaderboard, metricName: string): string {
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
  const best = board.best ? `org best: ${metricName} ${board.best.metric.toFixed(6)} by ${board.best.agent} at ${board.best.commit.slice(0, 7)}` : "org best: none yet";
  return `${table}\n${best}`;
}
