import { buildLeaderboard } from "../../domain/experiments/results-table.js";
import { listTamperedRows, type CheckedResults } from "../../domain/experiments/journal-check.js";
import { buildResultsUsage } from "../../domain/usage/windows.js";
import { renderLeaderboard } from "../../ui/leaderboard.js";
import { measureUtilization } from "../../domain/experiments/utilization.js";
import { describeUtilization } from "../../ui/utilization-format.js";
import { summarizeDuplicates } from "../../domain/experiments/tried-list.js";
import { describeDuplicates } from "../../ui/tried-table.js";
import { describeTrust } from "../../ui/trust-lines.js";
import { countRows } from "../../domain/experiments/row-kind.js";
import { buildVerifierView } from "../../domain/views/verifier.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";
import { describeJudgeSpend, explainJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";
import { fitLines } from "../../ui/wrap-text.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import { describeGateFailures } from "../../ui/gate-failure-line.js";
import { loadResultsView, loadVerifierInput } from "../../flows/views/results-view.js";

export async function runResults(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const view = await loadResultsView(opts.root, (line) => io.err(line), new Date());
  const { checked, config, noise, judge } = view;
  const table = { metricName: checked.metricName, rows: view.rows };
  const goal = config?.verify?.metric.goal ?? "minimize";
  const board = buildLeaderboard(table.rows, goal);
  const metricName = table.metricName ?? config?.verify?.metric.name ?? "metric";
  // Tokens and dollars where the daemon kept a ledger of the agents' replies; none: the leaderboard as before.
  const ledgers = view.usageLedgers;
  const usage = ledgers.size > 0 ? buildResultsUsage(table.rows, ledgers, config?.pricing ?? {}) : undefined;
  const experiments = usage && table.rows.map((row, index) => ({
    commit: row.commit, agent: row.agent, status: row.status, description: row.description, time: row.time,
    usage: usage.windows[index] ?? null,
  }));
  // How busy the GPUs were: none before the verifier first started.
  const utilization = view.utilization && measureUtilization(view.utilization);
  // What the experiment ledger answered without a run; its broken lines are `org tried`'s to name.
  const duplicates = summarizeDuplicates(view.tried);
  // Counted as `org history`, `org compare` and the stop conditions count them: one definition of an experiment.
  const counts = countRows(table.rows);
  const totals = { experiments: counts.run, answered: counts.answer, baselines: counts.baseline };
  const spend = usage ? { usage: { agents: usage.agents, keeps: usage.keeps, experiments } } : {};
  // Which gate of verify.gates failed, how often: the FAIL column says who, this says where.
  const gateFailures = tallyGateFailures(table.rows);
  // The judge's tokens and dollars, the verifier's (judge): one line beside the agents' columns.
  const json = {
    metric: metricName, goal, sigma: noise.sigma ?? null, counts: totals, ...board, ...spend,
    utilization: utilization ?? null, duplicates, ...(gateFailures.length > 0 ? { gateFailures } : {}),
    ...describeTrustJson(checked),
    ...(judge ? { judge: judge.spend } : {}),
  };
  const duplicated = duplicates.answered > 0 ? [describeDuplicates(duplicates)] : [];
  const gates = describeGateFailures(gateFailures);
  const judged = judge ? [describeJudgeSpend(judge.spend), ...explainJudgeSpend(judge.spend, judge.maxCost)] : [];
  const notes = [
    ...judged, ...(gates ? [gates] : []), ...describeTrust(checked), ...duplicated,
    ...(utilization ? [describeUtilization(utilization)] : []),
  ];
  const leaderboard = renderLeaderboard(board, metricName, goal, noise, usage, io.columns);
  const text = [leaderboard, ...notes.map((note) => fitLines(note, io.columns))].join("\n");
  // Before a first experiment, what the verifier is doing says why ("no results yet" with eight jobs queued reads as
  // stuck); a crashed baseline, which is no experiment, is named with its reason and run log.
  const started = totals.experiments + totals.answered > 0;
  const waiting = opts.json ? [] : await describeVerifier(opts.root, started);
  io.out(opts.json ? formatJson(json) : [text, ...waiting.map((line) => fitLines(line, io.columns))].join("\n"));
  return 0;
}

async function describeVerifier(root: string, started: boolean): Promise<string[]> {
  const input = await loadVerifierInput(root);
  if (!input) return [];
  const view = buildVerifierView(input);
  return [...(started ? [] : [formatVerifierLine(view)]), ...describeCrashedBaselines(view, root)];
}

/**
 * For --json, only where there is something to say: the tampered rows, the count of unchecked legacy ones,
 * a broken journal.
 */
function describeTrustJson(checked: CheckedResults) {
  const tampered = listTamperedRows(checked).map(({ line, number, trust }) => ({
    line: number, row: line, reason: trust.reason,
  }));
  const unjournaled = checked.rows.filter((row) => row.trust.kind === "legacy").length;
  return {
    ...(tampered.length > 0 ? { tampered } : {}), ...(unjournaled > 0 ? { unjournaled } : {}),
    ...(checked.broken ? { journalBroken: checked.broken } : {}),
  };
}
