// `org tried`: every idea tried in the org, newest first, found by words; `org results`: what the
// ledger's answers saved.
import type { TriedEntry } from "./tried-ledger.js";

/** Entries whose description, agent, status or commit holds every word of `text` (any case), newest first. */
export function selectTried(entries: TriedEntry[], text = ""): TriedEntry[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (entry: TriedEntry) => {
    const haystack = `${entry.description} ${entry.agent} ${entry.status} ${entry.commit}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  return entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => matches(entry))
    .sort((a, b) => b.entry.time.localeCompare(a.entry.time) || b.index - a.index).map(({ entry }) => entry);
}

/** How many duplicates the ledger answered, and the GPU seconds their originals took: what was saved. */
export function summarizeDuplicates(entries: TriedEntry[]): { answered: number; savedSeconds: number } {
  const duplicates = entries.filter((entry) => entry.duplicateOf !== undefined);
  return {
    answered: duplicates.length, savedSeconds: duplicates.reduce((sum, entry) => sum + entry.duplicateOf!.seconds, 0),
  };
}
