import { selectTried } from "../../domain/experiments/tried-list.js";
import type { TriedEntry } from "../../domain/experiments/tried-ledger.js";
import { orgPaths } from "../../domain/paths.js";
import { assertOrgState } from "../../adapters/store/org-record.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";

/** What `org tried` shows: the ideas whose text holds every word of `text`, newest first, of `total` tried. */
export async function loadTried(
  root: string, text: string,
): Promise<{ shown: TriedEntry[]; total: number; problems: string[] }> {
  await assertOrgState(root);
  const ledger = await readTriedLedger(orgPaths(root).state);
  return { shown: selectTried(ledger.entries, text), total: ledger.entries.length, problems: ledger.problems };
}
