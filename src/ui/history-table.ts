import type { ProgramHistoryRow } from "../domain/config-versions/version-history.js";
import { describeAuthor } from "../domain/config-versions/version-changes.js";
import { totalTokens } from "../domain/usage/token-counts.js";
import { renderTable } from "./fit-table.js";
import { fitLines } from "./wrap-text.js";
import { formatTokens, formatUsd } from "./usage-format.js";
import { formatGateCell } from "./gate-failure-line.js";

/** The note under the table: how rows and tokens were matched to programs. */
export const ATTRIBUTION = "experiments, keeps, crashes, failed gates and GPU-h: "
  + "results.tsv rows by their program column; tokens and $: every agent's replies while the program ran (usage is "
  + "recorded per agent and time, not per program)";

/**
 * `org history`: one line per program version in order of first use. Fitted to `width`, a terminal's, cells wrap,
 * and tokens, $, agents, the end time, then crashes are left out as it needs.
 */
export function renderHistory(rows: ProgramHistoryRow[], metricName: string, width?: number): string {
  if (rows.length === 0) return "no program recorded yet: `org up` records the first, and results.tsv has no rows";
  // A column only where some program's experiments failed a gate of verify.gates.
  const gates = rows.some((row) => row.gateFailures !== undefined);
  const header = [
    "PROGRAM",
    "FROM",
    "TO",
    "AGENTS",
    "EXPTS",
    "KEEPS",
    "CRASHES",
    ...(gates ? ["FAILED GATES"] : []),
    `BEST ${metricName}`,
    "GPU-H",
    "TOKENS",
    "$",
    "BY",
  ];
  const cells = rows.map((row) => [
    row.saved || row.program === "unversioned" ? row.program : [row.program, "(not saved)"],
    formatTime(row.from),
    row.to === null ? (row.from === null ? "-" : "running") : formatTime(row.to),
    String(row.agents),
    String(row.experiments),
    String(row.keeps),
    String(row.crashes),
    ...(gates ? [formatGateCell(row.gateFailures ?? [])] : []),
    formatBest(row.bestBefore, row.bestAfter),
    row.gpuHours.toFixed(2),
    row.usage.replies === 0 ? "-" : formatTokens(totalTokens(row.usage)),
    row.usage.replies === 0 ? "-" : row.usage.costUsd === null ? "unpriced" : formatUsd(row.usage.costUsd),
    `${row.by === null ? "-" : describeAuthor(row.by)}${row.runs > 1 ? ` (ran ${row.runs} times)` : ""}`,
  ]);
  const wrap = ["PROGRAM", "FROM", "TO", "FAILED GATES", `BEST ${metricName}`, "BY"];
  const fit = { width, wrap, drop: ["TOKENS", "$", "AGENTS", "TO", "CRASHES"] };
  return [renderTable(header, cells, fit), fitLines(ATTRIBUTION, width)].join("\n");
}

function formatTime(iso: string | null): string {
  return iso === null ? "-" : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** `-→0.99`, `0.99→0.97`, or `0.97=` when it did not move the org's best. */
function formatBest(before: number | null, after: number | null): string {
  const show = (value: number | null) => (value === null ? "-" : String(Number(value.toPrecision(6))));
  if (after === null) return "-";
  return before === after ? `${show(after)}=` : `${show(before)}→${show(after)}`;
}
