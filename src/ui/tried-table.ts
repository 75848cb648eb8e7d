import type { TriedEntry } from "../domain/experiments/tried-ledger.js";
import { formatUptime } from "./uptime.js";
import { renderTable } from "./fit-table.js";
import { fitLines } from "./wrap-text.js";
import { cleanLine } from "../domain/safe-text.js";

/**
 * `org tried`: newest first, one idea a line; `shown` are the entries that matched `text` out of `total`. Fitted to
 * `width`, a terminal's, descriptions are cut, and under 24 columns of one the time goes; whole without (`--wide`,
 * a pipe an agent greps).
 */
export function renderTried(shown: TriedEntry[], total: number, text: string, width?: number): string {
  if (total === 0) return "nothing tried yet: state/tried.jsonl has no entries";
  if (shown.length === 0) return `no tried idea matches "${text}" (${total} tried in all)`;
  const rows = shown.map((entry) => [
    entry.time.slice(0, 16).replace("T", " "),
    entry.commit.slice(0, 7),
    entry.agent,
    entry.status === "fail" && entry.gate ? `fail (${cleanLine(entry.gate)})` : entry.status,
    entry.delta === undefined ? "-" : `${entry.delta > 0 ? "+" : ""}${entry.delta.toFixed(6)}`,
    cleanLine(entry.description).replace(/\s+/g, " ").trim(),
  ]);
  const footer = text.trim() === "" ? `${total} tried` : `${shown.length} of ${total} tried match "${text}"`;
  const fit = { width, cut: ["DESCRIPTION"], floor: 24, drop: ["WHEN"] };
  const table = renderTable(["WHEN", "COMMIT", "AGENT", "VERDICT", "DELTA", "DESCRIPTION"], rows, fit);
  return `${table}\n${fitLines(footer, width)}`;
}

/** `org results`' line once the ledger answered a duplicate: how many, and the GPU time their originals took. */
export function describeDuplicates(summary: { answered: number; savedSeconds: number }): string {
  return `duplicates: ${summary.answered} answered from the experiment ledger without a `
    + `run, ${formatUptime(summary.savedSeconds * 1000)} of GPU time saved`;
}
