// `org report`'s page: one self-contained HTML file, the chart drawn by the inlined Vega
// runtime, the leaderboard as a table.
import type { Leaderboard } from "../domain/experiments/results-table.js";
import type { ResultsUsage } from "../domain/usage/windows.js";
import { totalTokens } from "../domain/usage/token-counts.js";
import { describeSpan, formatTokens, formatUsd } from "./usage-format.js";
import { describeBoardRow } from "./leaderboard.js";

export interface ReportPage {
  title: string;
  summary: string;
  metricName: string;
  board: Leaderboard;
  /** The compiled Vega spec the page renders. */
  vegaSpec: unknown;
  /** Vega's browser build, inlined. */
  runtime: string;
  /** The same chart pre-rendered, shown when scripts are off. */
  svg: string;
  /** Tokens and dollars per agent and per kept improvement, where the daemon kept ledgers. */
  usage?: ResultsUsage;
  /** The utilization plot, its compiled Vega spec and pre-rendered SVG, where the verifier recorded its runs. */
  utilization?: { summary: string; vegaSpec: unknown; svg: string };
  /** The last two program versions as `org compare` puts them (no cells: why there is no comparison). */
  versions?: { header: string[]; cells: string[][]; notes: string[] };
  /** `org lineage` as text: which keep built on which, then the share built on another agent's result. */
  lineage?: string;
  /** The latest `org ablate`: its table as text, and its waterfall (an SVG) when the baseline is known. */
  ablation?: { table: string; svg?: string };
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1000px;padding:0 16px;color:#222}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}.summary{color:#555;margin:0 0 16px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#f4f4f4}#chart{min-height:420px}#utilization-chart{min-height:220px}`;

// Counts what was drawn, not what was meant to be: a test reads these back from the rendered page.
const RENDER = `(async () => {
  const draw = async (specId, container) => {
    const spec = JSON.parse(document.getElementById(specId).textContent);
    const view = new vega.View(vega.parse(spec), { renderer: "svg", container, hover: true });
    await view.runAsync();
  };
  await draw("spec", "#chart");
  const count = (name) => document.querySelectorAll("g." + name + "_marks > path").length;
  if (document.getElementById("utilization-spec")) {
    await draw("utilization-spec", "#utilization-chart");
    document.body.dataset.utilization = String(count("utilization"));
  }
  document.body.dataset.points = String(count("experiments"));
  document.body.dataset.failures = String(count("failures"));
  // #selftest hovers the first point, so a headless browser can check the tooltip shows its description.
  const first = document.querySelector("#chart g.experiments_marks > path");
  if (location.hash === "#selftest" && first) {
    for (const type of ["pointerover", "pointermove", "mouseover", "mousemove"]) {
      first.dispatchEvent(new MouseEvent(type, { bubbles: true, clientX: 1, clientY: 1 }));
    }
    const title = (selector) => document.querySelector(selector)?.getAttribute("title");
    document.body.dataset.hover = title("#chart") || title("#chart svg") || "";
  }
  document.body.dataset.rendered = "1";
})().catch((error) => {
  document.body.dataset.rendered = "error";
  document.getElementById("chart").textContent = "the chart could not be drawn: " + error.message;
});`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

// Inside <script>, "</script" ends the element early; in a JS string or regex "<\/" means the same.
function inlineScript(code: string): string {
  return code.replace(/<\/script/gi, "<\\/script");
}

export function renderReportHtml(page: ReportPage): string {
  const spec = inlineJson(page.vegaSpec);
  const utilizationSpec = page.utilization
    ? `<script type="application/json" id="utilization-spec">${inlineJson(page.utilization.vegaSpec)}</script>\n`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body data-rendered="0">
<h1>${escapeHtml(page.title)}</h1>
<p class="summary">${escapeHtml(page.summary)}</p>
<div id="chart" role="img" aria-label="${escapeHtml(`${page.metricName} per experiment`)}"></div>
<noscript>${page.svg}</noscript>
${page.utilization ? renderUtilization(page.utilization) : ""}<h2>Leaderboard</h2>
${renderBoardTable(page.board, page.metricName, page.usage)}
${page.usage ? renderKeepCosts(page.usage, page.metricName) : ""}${page.versions ? renderVersions(page.versions) : ""}
${page.lineage ? renderLineage(page.lineage) : ""}${page.ablation ? renderAblation(page.ablation) : ""}
<script>${inlineScript(page.runtime)}</script>
<script type="application/json" id="spec">${spec}</script>
${utilizationSpec}<script>${RENDER}</script>
</body>
</html>
`;
}

// JSON inside <script>: a "<" escaped, so no string in it can end the element.
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

// How busy the GPUs were, under the progress chart: the figures, then the plot over time.
function renderUtilization(utilization: NonNullable<ReportPage["utilization"]>): string {
  return `<h2>Utilization</h2>\n<p class="summary">${escapeHtml(utilization.summary)}</p>\n<div id="utilization-chart" `
    + `role="img" aria-label="utilization over time"></div>\n<noscript>${utilization.svg}</noscript>\n`;
}

function renderBoardTable(board: Leaderboard, metricName: string, usage: ResultsUsage | undefined): string {
  // A fail column only where a gate of verify.gates failed something, as in `org results`.
  const fails = board.agents.some((agent) => agent.counts.fail > 0);
  const counts = ["keep", "discard", "crash", "reject", ...(fails ? ["fail"] : [])];
  const head = [
    "agent",
    "baseline",
    `best ${metricName}`,
    "delta",
    "commit",
    "runs",
    "answered",
    ...counts,
    ...(usage ? ["tokens", "cost", "cost per keep"] : []),
  ];
  const rows = board.agents.map((agent) => [
    ...describeBoardRow(agent, fails),
    ...(usage ? spendCells(usage.agents[agent.agent]) : []),
  ]);
  const cells = (row: string[], tag: "th" | "td") =>
    `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("")}</tr>`;
  const best = board.best
    ? `org best: ${metricName} ${board.best.metric.toFixed(6)} by ${board.best.agent} `
      + `at ${board.best.commit.slice(0, 7)}`
    : "org best: none yet";
  const body = rows.map((row) => cells(row, "td")).join("\n");
  return `<table id="leaderboard">\n<thead>${cells(head, "th")}</thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`
    + `<p>${escapeHtml(best)}</p>`;
}

function spendCells(spend: ResultsUsage["agents"][string] | undefined): string[] {
  if (!spend) return ["-", "-", "-"];
  return [
    formatTokens(totalTokens(spend)),
    spend.costUsd === null ? "unpriced" : formatUsd(spend.costUsd),
    spend.costPerKeepUsd === null ? "-" : formatUsd(spend.costPerKeepUsd),
  ];
}

// Every kept improvement with what its agent spent since its previous keep, up to its submit.
function renderKeepCosts(usage: ResultsUsage, metricName: string): string {
  if (usage.keeps.length === 0) return "";
  const rows = usage.keeps.map((keep) => {
    const metric = keep.metric === undefined ? "-" : keep.metric.toFixed(6);
    return `<tr><td>${escapeHtml(keep.commit.slice(0, 7))}</td><td>${escapeHtml(keep.agent)}</td><td>${metric}</td>`
      + `<td>${keep.experiments}</td><td>${escapeHtml(describeSpan(keep.usage))}</td></tr>`;
  });
  const head = `<tr><th>commit</th><th>agent</th><th>${escapeHtml(metricName)}</th><th>experiments</th>`
    + `<th>tokens and cost</th></tr>`;
  return `<h2>Cost per kept improvement</h2>\n<table id="keep-costs">\n<thead>${head}</thead>\n<tbody>\n`
    + `${rows.join("\n")}\n</tbody>\n</table>\n`;
}

// The last two program versions, as `org compare` prints them.
function renderVersions(versions: NonNullable<ReportPage["versions"]>): string {
  const cells = (row: string[], tag: "th" | "td") =>
    `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("")}</tr>`;
  const body = versions.cells.map((row) => cells(row, "td")).join("\n");
  const table = versions.cells.length === 0
    ? ""
    : `<table id="versions">\n<thead>${cells(versions.header, "th")}</thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
  const notes = versions.notes.map((note) => `<p class="summary">${escapeHtml(note)}</p>`).join("\n");
  return `<h2>Program versions compared</h2>\n${table}${notes}\n`;
}

// The tree as `org lineage` prints it, whole: a page scrolls sideways where a terminal would cut.
function renderLineage(lineage: NonNullable<ReportPage["lineage"]>): string {
  return `<h2>Lineage</h2>\n<pre id="lineage">${escapeHtml(lineage)}</pre>\n`;
}

// The waterfall drawn, then the table as `org ablate` prints it, whole.
function renderAblation(ablation: NonNullable<ReportPage["ablation"]>): string {
  const chart = ablation.svg ? `${ablation.svg}\n` : "";
  return `<h2>Ablation</h2>\n${chart}<pre id="ablation">${escapeHtml(ablation.table)}</pre>\n`;
}
