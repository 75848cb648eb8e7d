import { resolve } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { buildLeaderboard, resultsPath } from "../../domain/experiments/results-table.js";
import { listTamperedRows, listTrustedRows } from "../../domain/experiments/journal-check.js";
import { readCheckedResults } from "../../adapters/verifier/checked-results.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { writeFileAtomic } from "../../adapters/fs/files.js";
import { readLedgers } from "../../adapters/usage/store.js";
import { buildResultsUsage } from "../../domain/usage/windows.js";
import { addCounts, totalTokens, ZERO_COUNTS } from "../../domain/usage/token-counts.js";
import { formatTokens, formatUsd } from "../../ui/usage-format.js";
import { renderReportHtml } from "../../ui/report-html.js";
import { buildProgress, buildVersionMarks } from "../../ui/report-points.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { buildProgramHistory } from "../../domain/config-versions/version-history.js";
import { seededRng } from "../../roles/index.js";
import { COMPARE_SEED } from "../../domain/config-versions/compare-versions.js";
import { compareVersions } from "../../domain/config-versions/compare-pick.js";
import { buildComparisonCells, describeComparison } from "../../ui/compare-table.js";
import { buildProgressSpec, type ProgressAxis } from "../../ui/report-spec.js";
import { readUtilizationInput, type UtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { measureUtilization, seriesUtilization } from "../../domain/experiments/utilization.js";
import { buildUtilizationSpec } from "../../ui/report-utilization-spec.js";
import { describeUtilization } from "../../ui/utilization-format.js";
import type { TopLevelSpec } from "vega-lite";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { describeJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { buildLineage } from "../../domain/lineage/index.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { renderLineage } from "../../ui/lineage-tree.js";
import { readLatestAblationView } from "../../adapters/verifier/ablation-view.js";
import { readRunConfig } from "../../adapters/store/run-config.js";
import { renderAblation } from "../../ui/ablation-table.js";
import { renderWaterfallSvg } from "../../ui/ablation-waterfall.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import { describeGateFailures } from "../../ui/gate-failure-line.js";

/** `org report`: state/report.html (chart + leaderboard, self-contained) and state/progress.svg from results.tsv. */
export async function runReport(opts: { root: string; out?: string; svg?: string; x: ProgressAxis }, io: Io): Promise<number> {
  const paths = orgPaths(opts.root);
  // Only the verifier's rows are plotted and ranked; a tampered one is named in the summary and told.
  const checked = await readCheckedResults(opts.root, (line) => io.err(line));
  const table = { metricName: checked.metricName, rows: listTrustedRows(checked) };
  const tampered = listTamperedRows(checked).length;
  if (table.rows.length === 0) throw new OrgError(`no results yet in ${resultsPath(paths.state)} — nothing to plot; run experiments first (agents call \`org submit\`)`, "no-results");
  const untimed = table.rows.findIndex((row) => Number.isNaN(Date.parse(row.time)));
  if (opts.x === "time" && untimed >= 0) {
    throw new OrgError(`row ${untimed + 1} of ${resultsPath(paths.state)} has no time (an autoresearch five-column file?) — plot by experiment with --x index`, "no-time");
  }
  const setting = await readMetricSetting(opts.root);
  const metricName = table.metricName ?? setting.metricName;
  const progress = buildProgress(table.rows, setting.goal);
  const board = buildLeaderboard(table.rows, setting.goal);
  const title = `org ${setting.org ?? "report"}`;
  // vega is heavy to import; only this command needs it.
  const { readVegaRuntime, renderChart } = await import("../../adapters/render/vega-chart.js");
  // The same comparison `org compare` prints for the last two versions, and where each version started.
  const history = await readHistoryInput(paths.state);
  const compared = compareVersions({ ids: [], history: buildProgramHistory({ ...history, rows: table.rows, pricing: setting.pricing, goal: setting.goal }), rows: table.rows, saved: [...history.saved.keys()], goal: setting.goal, random: seededRng(COMPARE_SEED) });
  const versions = compared.kind === "compared" ? { ...buildComparisonCells(compared.comparison), notes: describeComparison(compared.comparison, metricName) } : { header: [], cells: [], notes: [compared.reason] };
  const chart = await renderChart(buildProgressSpec(progress, { title: `${title}: ${metricName} per experiment`, metricName, goal: setting.goal, x: opts.x, versions: buildVersionMarks(table.rows, history.events) }));
  const kept = table.rows.filter((row) => row.status === "keep").length;
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const ledgers = await readLedgers(paths.state, table.rows.map((row) => row.agent));
  const usage = ledgers.size > 0 ? buildResultsUsage(table.rows, ledgers, setting.pricing) : undefined;
  // The verifier's judge spends apart from the agents: its own clause of the summary.
  const judge = await readJudgeSpendView(opts.root);
  const judged = judge ? `; ${describeJudgeSpend(judge.spend)}` : "";
  // Which gate of verify.gates stopped how many experiments, as `org results` names them.
  const gates = describeGateFailures(tallyGateFailures(table.rows));
  const summary = `${count(table.rows.length, "experiment")} by ${count(progress.agents.length, "agent")}: ${progress.measured.length} measured, ${kept} kept, ${progress.failed.length} ${gates ? `crashed, rejected or failed a gate (${gates})` : "crashed or rejected"}; ${setting.goal} ${metricName}${usage ? `; ${describeSpend(usage)}` : ""}${judged}${tampered > 0 ? `; ${count(tampered, "tampered row")} left out (see \`org results\`)` : ""}`;
  const htmlPath = opts.out ? resolve(opts.out) : `${paths.state}/report.html`;
  const svgPath = opts.svg ? resolve(opts.svg) : `${paths.state}/progress.svg`;
  // How busy the GPUs were over the org's life, where the verifier recorded its runs.
  const input = await readUtilizationInput(paths.state, new Date());
  const utilization = input && await renderUtilization(input, title, renderChart);
  const lineage = buildLineage(await readLineageInput(opts.root));
  const tree = lineage.nodes.length > 0 ? renderLineage(lineage, metricName) : undefined;
  const ablation = await readAblationSection(opts.root, [...new Set(table.rows.map((row) => row.agent))]);
  const html = renderReportHtml({
    title: `${title}: progress report`, summary, metricName, board, vegaSpec: chart.vega, runtime: await readVegaRuntime(),
    svg: chart.svg, usage, utilization, versions, ...(tree ? { lineage: tree } : {}), ...(ablation ? { ablation } : {}),
  });
  await writeFileAtomic(htmlPath, html);
  await writeFileAtomic(svgPath, `${chart.svg}\n`);
  io.out(`wrote ${htmlPath} and ${svgPath}: ${summary}`);
  return 0;
}

/** The utilization figures as one line, and their plot over time. */
async function renderUtilization(input: UtilizationInput, title: string, renderChart: (spec: TopLevelSpec) => Promise<{ vega: unknown; svg: string }>) {
  const measured = measureUtilization(input);
  const spec = buildUtilizationSpec(seriesUtilization(input), { title: `${title}: utilization`, unit: measured.unit, gpus: measured.gpus });
  const chart = await renderChart(spec);
  return { summary: describeUtilization(measured), vegaSpec: chart.vega, svg: chart.svg };
}

/** "1.2M tokens, $3.40" over every agent with a ledger; "unpriced" when any agent's models lack a price. */
function describeSpend(usage: NonNullable<ReturnType<typeof buildResultsUsage>>): string {
  const spends = Object.values(usage.agents);
  const tokens = totalTokens(spends.reduce((sum, spend) => addCounts(sum, spend), ZERO_COUNTS));
  const unpriced = spends.some((spend) => spend.costUsd === null);
  return `${formatTokens(tokens)} tokens, ${unpriced ? "unpriced" : formatUsd(spends.reduce((sum, spend) => sum + (spend.costUsd ?? 0), 0))}`;
}

// The latest `org ablate` (of the org best when there is one): its waterfall and its table, as `org ablate` prints it.
async function readAblationSection(root: string, agents: string[])
  : Promise<{ table: string; svg?: string } | undefined> {
  const config = await readRunConfig(root).catch(() => undefined);
  const keep = config && "loaded" in config ? config.loaded.config.verify?.keep : undefined;
  const view = await readLatestAblationView({ root, keep, agents });
  if (!view) return undefined;
  const { metric, goal } = view.ablation;
  const svg = view.waterfall ? { svg: renderWaterfallSvg(view.waterfall, metric, goal) } : {};
  return { table: renderAblation(view), ...svg };
}
