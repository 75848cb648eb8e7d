import type { TriedEntry } from "../org/experiments/tried-ledger.js";
import { formatUptime } from "./duration.js";
import { renderTable } from "./status-table.js";
import { cleanLine } from "../org/safe-text.js";

/** A description is cut here so one idea stays one line of the table. */
const DESCRIPTION_WIDTH = 100;

/** `org tried`: newest first, one idea a line; `shown` are the entries that matched `text` out of `total`. */
export function renderTried(shown: TriedEntry[], total: number, text: string): string {
  if (total === 0) return "nothing tried yet: state/tried.jsonl has no entries";
  if (shown.length === 0) return `no tried idea matches "${text}" (${total} tried in all)`;
  const rows = shown.map((entry) => [
    entry.time.slice(0, 16).replace("T", " "),
    entry.commit.slice(0, 7),
    entry.agent,
    entry.status,
    entry.delta === undefined ? "-" : `${entry.delta > 0 ? "+" : ""}${entry.delta.toFixed(6)}`,
    // Cleaned before the cut: an escape's bytes would take the width, and a cut one would swallow the rest.
    cut(cleanLine(entry.description).replace(/\s+/g, " ").trim()),
  ]);
  const footer = text.trim() === "" ? `${total} tried` : `${shown.length} of ${total} tried match "${text}"`;
  return `${renderTable(["WHEN", "COMMIT", "AGENT", "VERDICT", "DELTA", "DESCRIPTION"], rows)}\n${footer}`;
}

/** `org results`' line once the ledger answered a duplicate: how many, and the GPU time their originals took. */
export function describeDuplicates(summary: { answered: number; savedSeconds: number }): string {
  return `duplicates: ${summary.answered} answered from the experiment ledger without a run, ${formatUptime(summary.savedSeconds * 1000)} of GPU time saved`;
}

function cut(text: string): string {
  return text.length <= DESCRIPTION_WIDTH ? text : `${text.slice(0, DESCRIPTION_WIDTH - 1)}…`;
}
