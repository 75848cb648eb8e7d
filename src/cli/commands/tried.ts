import { orgPaths } from "../../domain/paths.js";
import { selectTried } from "../../domain/experiments/tried-list.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { renderTried } from "../../ui/tried-table.js";
import { assertOrgState } from "../../adapters/store/org-record.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org tried [words…] [--json]`: every idea tried in the org, newest first, those whose text holds every word. */
export async function runTried(opts: { root: string; text: string; json: boolean }, io: Io): Promise<number> {
  await assertOrgState(opts.root);
  const ledger = await readTriedLedger(orgPaths(opts.root).state);
  // A broken line is named, and the list goes on without it.
  for (const problem of ledger.problems) io.err(`org: ${problem}`);
  const shown = selectTried(ledger.entries, opts.text);
  io.out(opts.json ? formatJson(shown) : renderTried(shown, ledger.entries.length, opts.text, io.columns));
  return 0;
}
