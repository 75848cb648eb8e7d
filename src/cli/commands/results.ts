import { orgPaths } from "../../domain/paths.js";
import { buildLeaderboard } from "../../domain/experiments/results-table.js";
import { listTamperedRows, listTrustedRows } from "../../domain/experiments/journal-check.js";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pooledSigma } from "../../domain/experiments/noise.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { readCheckedResults } from "../../adapters/verifier/checked-results.js";
import { readLedgers } from "../../adapters/usage/store.js";
import { buildResultsUsage } from "../../domain/usage/windows.js";
import { renderLeaderboard } from "../../ui/leaderboard.js";
import { readUtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { measureUtilization } from "../../domain/experiments/utilization.js";
import { describeUtilization } from "../../ui/utilization-format.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { summarizeDuplicates } from "../../domain/experiments/tried-list.js";
import { describeDuplicates } from "../../ui/tried-table.js";
import { describeTrust } from "../../ui/trust-lines.js";
import { assertOrgState, readOptionalRecord } from "../../adapters/store/org-record.js";
import { countRows } from "../../domain/experiments/row-kind.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { buildVerifierView } from "../../domain/views/verifier.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { describeJudgeSpend, explainJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";
import { fitLines } from "../../ui/wrap-text.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import { describeGateFailures } from "../../ui/gate-failure-line.js";
import { readAgentLedgers } from "../../adapters/store/agent-ledger.js";

/** `org results [--json]`: the leaderboard from state/results.tsv, with tokens and dollars per agent and per kept improvement. */
export async function runResults(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  await assertOrgState(opts.root);
  // Only the verifier's rows count: a row it never journaled is shown as tampered, and told.
  const checked = await readCheckedResults(opts.root, (line) => io.err(line));
  const table = { metricName: checked.metricName, rows: listTrustedRows(checked) };
  const read = await readAndLoadConfig({ cwd: opts.root });
  const goal = "loaded" in read ? (read.loaded.config.verify?.metric.goal ?? "minimize") : "minimize";
  const board = buildLeaderboard(table.rows, goal);
  const metricName = table.metricName ?? ("loaded" in read ? read.loaded.config.verify?.metric.name : undefined) ?? "metric";
  const noise = await readNoise(opts.root);
  // Tokens and dollars where the daemon kept a ledger of the agents' replies; none: the leaderboard as before.
  const ledgers = await readLedgers(orgPaths(opts.root).state, table.rows.map((row) => row.agent));
  const usage = ledgers.size > 0 ? buildResultsUsage(table.rows, ledgers, ("loaded" in read ? read.loaded.config.pricing : undefined) ?? {}) : undefined;
  const experiments = usage && table.rows.map((row, index) => ({ commit: row.commit, agent: row.agent, status: row.status, description: row.description, time: row.time, usage: usage.windows[index] ?? null }));
  // How busy the GPUs were: none before the verifier first started.
  const input = await readUtilizationInput(orgPaths(opts.root).state, new Date());
  const utilization = input && measureUtilization(input);
  // What the experiment ledger answered without a run; its broken lines are `org tried`'s to name.
  const duplicates = summarizeDuplicates((await readTriedLedger(orgPaths(opts.root).state)).entries);
  // Counted as `org history`, `org compare` and the stop conditions count them: one definition of an experiment.
  const counts = countRows(table.rows);
  const totals = { experiments: counts.run, answered: counts.answer, baselines: counts.baseline };
  const spend = usage ? { usage: { agents: usage.agents, keeps: usage.keeps, experiments } } : {};
  // Which gate of verify.gates failed, how often: the FAIL column says who, this says where.
  const gateFailures = tallyGateFailures(table.rows);
  // The judge's tokens and dollars, the verifier's: one line beside the agents' columns.
  const judge = await readJudgeSpendView(opts.root, "loaded" in read ? read.loaded.config : undefined);
  const json = {
    metric: metricName, goal, sigma: noise.sigma ?? null, counts: totals, ...board, ...spend,
    utilization: utilization ?? null, duplicates, ...(gateFailures.length > 0 ? { gateFailures } : {}), ...describeTrustJson(checked),
    ...(judge ? { judge: judge.spend } : {}),
  };
  const duplicated = duplicates.answered > 0 ? [describeDuplicates(duplicates)] : [];
  const gates = describeGateFailures(gateFailures);
  const judged = judge ? [describeJudgeSpend(judge.spend), ...explainJudgeSpend(judge.spend, judge.maxCost)] : [];
  const notes = [...judged, ...(gates ? [gates] : []), ...describeTrust(checked), ...duplicated, ...(utilization ? [describeUtilization(utilization)] : [])];
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
  const record = await readOptionalRecord(root).catch(() => undefined);
  const input = record && (await readVerifierInput(root, record.agents.map((agent) => agent.name)));
  if (!input) return [];
  const view = buildVerifierView(input);
  return [...(started ? [] : [formatVerifierLine(view)]), ...describeCrashedBaselines(view, root)];
}

/** σ pooled over the baselines recorded in every agent's ledger. */
async function readNoise(root: string): Promise<{ sigma: number | undefined; runs: number }> {
  const { state } = orgPaths(root);
  const agents = await readdir(join(state, "agents")).catch(() => [] as string[]);
  const ledgers = await readAgentLedgers(state, agents);
  const samples = ledgers.flatMap((ledger) => [ledger?.baseline?.samples ?? [], ...(ledger?.noise ?? [])]);
  return { sigma: pooledSigma(samples), runs: samples.reduce((sum, group) => sum + group.length, 0) };
}

/** For --json, only where there is something to say: the tampered rows, the count of unchecked legacy ones, a broken journal. */
function describeTrustJson(checked: Awaited<ReturnType<typeof readCheckedResults>>) {
  const tampered = listTamperedRows(checked).map(({ line, number, trust }) => ({ line: number, row: line, reason: trust.reason }));
  const unjournaled = checked.rows.filter((row) => row.trust.kind === "legacy").length;
  return { ...(tampered.length > 0 ? { tampered } : {}), ...(unjournaled > 0 ? { unjournaled } : {}), ...(checked.broken ? { journalBroken: checked.broken } : {}) };
}
