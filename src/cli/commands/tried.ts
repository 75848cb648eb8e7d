import { loadTried } from "../../flows/views/tried-view.js";
import { renderTried } from "../../ui/tried-table.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org tried [words…] [--json]`: every idea tried in the org, newest first, those whose text holds every word. */
export async function runTried(opts: { root: string; text: string; json: boolean }, io: Io): Promise<number> {
  const { shown, total, problems } = await loadTried(opts.root, opts.text);
  // A broken line is named, and the list goes on without it.
  for (const problem of problems) io.err(`org: ${problem}`);
  io.out(opts.json ? formatJson(shown) : renderTried(shown, total, opts.text, io.columns));
  return 0;
}
