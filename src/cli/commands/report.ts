import { resolve } from "node:path";
import { orgPaths } from "../../domain/paths.js";
import { buildLeaderboard } from "../../domain/experiments/results-table.js";
import { buildResultsUsage } from "../../domain/usage/windows.js";
import { addCounts, totalTokens, ZERO_COUNTS } from "../../domain/usage/token-counts.js";
import { formatTokens, formatUsd } from "../../ui/usage-format.js";
import { renderReportHtml } from "../../ui/report-html.js";
import { buildProgress, buildVersionMarks } from "../../ui/report-points.js";
import { buildProgramHistory } from "../../domain/config-versions/version-history.js";
import { seededRng } from "../../roles/index.js";
import { COMPARE_SEED } from "../../domain/config-versions/compare-versions.js";
import { compareVersions } from "../../domain/config-versions/compare-pick.js";
import { buildComparisonCells, describeComparison } from "../../ui/compare-table.js";
import { buildProgressSpec, type ProgressAxis } from "../../ui/report-spec.js";
import { measureUtilization, seriesUtilization } from "../../domain/experiments/utilization.js";
import { buildUtilizationSpec } from "../../ui/report-utilization-spec.js";
import { describeUtilization } from "../../ui/utilization-format.js";
import type { TopLevelSpec } from "vega-lite";
import { describeJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { buildLineage } from "../../domain/lineage/index.js";
import { renderLineage } from "../../ui/lineage-tree.js";
import { renderAblation } from "../../ui/ablation-table.js";
import { renderWaterfallSvg } from "../../ui/ablation-waterfall.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import { describeGateFailures } from "../../ui/gate-failure-line.js";
import { loadReportView } from "../../flows/views/report-view.js";
import { loadChartRenderer, writeReportFiles } from "../../flows/report-files.js";

type ReportView = Awaited<ReturnType<typeof loadReportView>>;

/** `org report`: state/report.html (chart + leaderboard, self-contained) and state/progress.svg from results.tsv. */
export async function runReport(
  opts: { root: string; out?: string; svg?: string; x: ProgressAxis }, io: Io,
): Promise<number> {
  const paths = orgPaths(opts.root);
  const warn = (line: string) => io.err(line);
  const view = await loadReportView(opts.root, { byTime: opts.x === "time", warn, now: new Date() });
  const { setting, history, tampered } = view;
  const table = { metricName: view.metricName, rows: view.rows };
  const metricName = table.metricName ?? setting.metricName;
  const progress = buildProgress(table.rows, setting.goal);
  const board = buildLeaderboard(table.rows, setting.goal);
  const title = `org ${setting.org ?? "report"}`;
  const { readVegaRuntime, renderChart } = await loadChartRenderer();
  // The same comparison `org compare` prints for the last two versions, and where each version started.
  const compared = compareVersions({
    ids: [],
    history: buildProgramHistory({ ...history, rows: table.rows, pricing: setting.pricing, goal: setting.goal }),
    rows: table.rows, saved: [...history.saved.keys()], goal: setting.goal, random: seededRng(COMPARE_SEED),
  });
  const versions = compared.kind === "compared"
    ? { ...buildComparisonCells(compared.comparison), notes: describeComparison(compared.comparison, metricName) }
    : { header: [], cells: [], notes: [compared.reason] };
  const chart = await renderChart(
    buildProgressSpec(progress, {
      title: `${title}: ${metricName} per experiment`, metricName, goal: setting.goal, x: opts.x,
      versions: buildVersionMarks(table.rows, history.events),
    }),
  );
  const kept = table.rows.filter((row) => row.status === "keep").length;
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const { ledgers, judge } = view;
  const usage = ledgers.size > 0 ? buildResultsUsage(table.rows, ledgers, setting.pricing) : undefined;
  const judged = judge ? `; ${describeJudgeSpend(judge.spend)}` : "";
  // Which gate of verify.gates stopped how many experiments, as `org results` names them.
  const gates = describeGateFailures(tallyGateFailures(table.rows));
  const summary = `${count(table.rows.length, "experiment")} by ${count(progress.agents.length, "agent")}: `
    + `${progress.measured.length} measured, ${kept} kept, ${progress.failed.length} `
    + `${gates ? `crashed, rejected or failed a gate (${gates})` : "crashed or rejected"}; ${setting.goal} `
    + `${metricName}${usage ? `; ${describeSpend(usage)}` : ""}${judged}`
    + `${tampered > 0 ? `; ${count(tampered, "tampered row")} left out (see \`org results\`)` : ""}`;
  const htmlPath = opts.out ? resolve(opts.out) : `${paths.state}/report.html`;
  const svgPath = opts.svg ? resolve(opts.svg) : `${paths.state}/progress.svg`;
  const utilization = view.utilization && await renderUtilization(view.utilization, title, renderChart);
  const lineage = buildLineage(view.lineage);
  const tree = lineage.nodes.length > 0 ? renderLineage(lineage, metricName) : undefined;
  const ablation = view.ablation && renderAblationSection(view.ablation);
  const html = renderReportHtml({
    title: `${title}: progress report`, summary, metricName, board, vegaSpec: chart.vega,
    runtime: await readVegaRuntime(),
    svg: chart.svg, usage, utilization, versions, ...(tree ? { lineage: tree } : {}), ...(ablation ? { ablation } : {}),
  });
  await writeReportFiles({ htmlPath, html, svgPath, svg: chart.svg });
  io.out(`wrote ${htmlPath} and ${svgPath}: ${summary}`);
  return 0;
}

/** The utilization figures as one line, and their plot over time. */
type RenderChart = (spec: TopLevelSpec) => Promise<{ vega: unknown; svg: string }>;

type UtilizationInput = NonNullable<ReportView["utilization"]>;

async function renderUtilization(input: UtilizationInput, title: string, renderChart: RenderChart) {
  const measured = measureUtilization(input);
  const spec = buildUtilizationSpec(seriesUtilization(input), {
    title: `${title}: utilization`, unit: measured.unit, gpus: measured.gpus,
  });
  const chart = await renderChart(spec);
  return { summary: describeUtilization(measured), vegaSpec: chart.vega, svg: chart.svg };
}

/** "1.2M tokens, $3.40" over every agent with a ledger; "unpriced" when any agent's models lack a price. */
function describeSpend(usage: NonNullable<ReturnType<typeof buildResultsUsage>>): string {
  const spends = Object.values(usage.agents);
  const tokens = totalTokens(spends.reduce((sum, spend) => addCounts(sum, spend), ZERO_COUNTS));
  const unpriced = spends.some((spend) => spend.costUsd === null);
  return `${formatTokens(tokens)} tokens, `
    + `${unpriced ? "unpriced" : formatUsd(spends.reduce((sum, spend) => sum + (spend.costUsd ?? 0), 0))}`;
}

// The latest `org ablate` (of the org best when there is one): its waterfall and its table, as `org ablate` prints it.
function renderAblationSection(view: NonNullable<ReportView["ablation"]>): { table: string; svg?: string } {
  const { metric, goal } = view.ablation;
  const svg = view.waterfall ? { svg: renderWaterfallSvg(view.waterfall, metric, goal) } : {};
  return { table: renderAblation(view), ...svg };
}
