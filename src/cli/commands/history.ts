import { loadHistory } from "../../flows/views/history-view.js";
import { ATTRIBUTION, renderHistory } from "../../ui/history-table.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org history [--json]`: every program version in order of first use, with what the org did while it ran. */
export async function runHistory(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const { rows, metric, goal } = await loadHistory(opts.root);
  const json = () => formatJson({ metric, goal, attribution: ATTRIBUTION, programs: rows });
  io.out(opts.json ? json() : renderHistory(rows, metric, io.columns));
  return 0;
}
