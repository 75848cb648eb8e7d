import type { Leaderboard } from "../domain/experiments/results-table.js";
import type { Goal } from "../domain/experiments/verdict.js";
import type { ResultsUsage } from "../domain/usage/windows.js";
import { renderTable } from "./fit-table.js";
import { fitLines } from "./wrap-text.js";
import { describeSpan, formatTokens, formatUsd } from "./usage-format.js";
import { totalTokens } from "../domain/usage/token-counts.js";

const fixed = (value: number | undefined, digits = 6) => (value === undefined ? "-" : value.toFixed(digits));
const signed = (value: number | undefined) =>
  (value === undefined ? "-" : `${value > 0 ? "+" : ""}${value.toFixed(6)}`);

/**
 * One agent's leaderboard cells, as `org results` and the report's table show them: baseline, best, delta, commit,
 * runs, answered and each verdict's count (the fail count only where a gate failed something).
 */
export function describeBoardRow(agent: Leaderboard["agents"][number], fails: boolean): string[] {
  const { counts } = agent;
  const verdicts = [counts.keep, counts.discard, counts.crash, counts.reject, ...(fails ? [counts.fail] : [])];
  const best = [fixed(agent.baseline), fixed(agent.best), signed(agent.delta), agent.bestCommit?.slice(0, 7) ?? "-"];
  return [agent.agent, ...best, String(agent.runs), String(agent.answered), ...verdicts.map(String)];
}

/** Kept improvements listed with their cost: the latest ones, the rest counted. */
const KEEPS_SHOWN = 10;

/**
 * `org results`: best per agent, the org's best, deltas vs baseline, counts per status; with `usage`, tokens and
 * dollars too. Fitted to `width`, a terminal's, the spend columns go first, then the two a reader can work out from the
 * rest.
 */
export function renderLeaderboard(
  board: Leaderboard,
  metricName: string,
  goal: Goal = "minimize",
  noise: Noise = { sigma: undefined, runs: 0 },
  usage?: ResultsUsage,
  width?: number,
): string {
  if (board.agents.length === 0) return "no results yet: results.tsv is empty";
  // A FAIL column only where verify.gates failed something: an org without gates reads as before.
  const fails = board.agents.some((agent) => agent.counts.fail > 0);
  const rows = board.agents.map((agent) => [
    ...describeBoardRow(agent, fails),
    ...(usage ? spendCells(usage.agents[agent.agent]) : []),
  ]);
  const counts = ["RUNS", "ANSWERED", "KEEP", "DISCARD", "CRASH", "REJECT", ...(fails ? ["FAIL"] : [])];
  const header = [
    "AGENT",
    "BASELINE",
    `BEST ${metricName}`,
    "DELTA",
    "COMMIT",
    ...counts,
    ...(usage ? ["TOKENS", "COST", "COST/KEEP"] : []),
  ];
  const fit = { width, drop: ["COST/KEEP", "TOKENS", "COST", "DISCARD", "BASELINE", "ANSWERED"] };
  const keeps = usage ? renderKeeps(usage, metricName).map((line) => fitLines(line, width)) : [];
  const table = [renderTable(header, rows, fit), fitLines(describeCounts(board), width), ...keeps].join("\n");
  const sigma = noise.sigma === undefined
    ? "noise σ: unknown (needs repeated baselines)"
    : `noise σ: ${noise.sigma.toFixed(6)} (pooled over ${noise.runs} repeated runs)`;
  if (!board.best) return `${table}\n${fitLines(sigma, width)}\norg best: none yet`;
  const baseline = board.agents.find((agent) => agent.agent === board.best!.agent)?.baseline;
  const gain = baseline === undefined
    ? undefined
    : goal === "minimize" ? baseline - board.best.metric : board.best.metric - baseline;
  const inSigma = gain !== undefined && noise.sigma
    ? ` · ${(gain / noise.sigma).toFixed(1)}σ better than its baseline`
    : "";
  const { metric, agent, commit } = board.best;
  const best = `org best: ${metricName} ${metric.toFixed(6)} by ${agent} at ${commit.slice(0, 7)}${inSigma}`;
  return `${table}\n${fitLines(`${sigma}\n${best}`, width)}`;
}

/** The org's totals, counted as `org history` and the stop conditions count them. */
export function describeCounts(board: Leaderboard): string {
  const runs = board.agents.reduce((total, agent) => total + agent.runs, 0);
  const answered = board.agents.reduce((total, agent) => total + agent.answered, 0);
  const experiments = `${runs} experiment${runs === 1 ? "" : "s"} ran (baselines left out)`;
  return answered === 0 ? experiments : `${experiments}; ${answered} more answered by the ledger without a run`;
}

export interface Noise {
  sigma: number | undefined;
  runs: number;
}

function spendCells(spend: ResultsUsage["agents"][string] | undefined): string[] {
  if (!spend) return ["-", "-", "-"];
  const cost = spend.costUsd === null ? "unpriced" : formatUsd(spend.costUsd);
  const perKeep = spend.costPerKeepUsd === null ? "-" : formatUsd(spend.costPerKeepUsd);
  return [formatTokens(totalTokens(spend)), cost, perKeep];
}

// What each kept improvement took: every reply of its agent since the agent's previous keep, up to its submit.
function renderKeeps(usage: ResultsUsage, metricName: string): string[] {
  if (usage.keeps.length === 0) return [];
  const shown = usage.keeps.slice(-KEEPS_SHOWN);
  const earlier = usage.keeps.length - shown.length;
  const lines = shown.map((keep) => {
    const metric = keep.metric === undefined ? "" : ` ${metricName} ${keep.metric.toFixed(6)}`;
    return `  ${keep.commit.slice(0, 7)} ${keep.agent}${metric}: ${describeSpan(keep.usage)} over ${keep.experiments} `
      + `experiment${keep.experiments === 1 ? "" : "s"}`;
  });
  return [`cost per kept improvement${earlier > 0 ? ` (latest ${shown.length}; ${earlier} earlier)` : ""}:`, ...lines];
}
