// What the verifier found that it did not write: told to log.md, every agent and the person, once each.
import type { JournalEntry, ChainRead } from "./journal.js";

/**
 * tampered: someone else wrote the verifier's record; recovered: a write a killed daemon left half
 * done, now completed.
 */
export interface Incident {
  kind: "tampered" | "recovered";
  /** One line, stable for the same finding: what log.md is searched for so it is told once. */
  title: string;
  body: string;
}

/** How the journal on disk differs from the daemon's copy of it, in one line. */
export function describeJournalChange(expected: readonly JournalEntry[], found: ChainRead, foundText: string): string {
  if (foundText === "") return `the journal was emptied or deleted (it held ${expected.length} entries)`;
  const same = countShared(expected, found.entries);
  if (found.broken && same === found.entries.length) return `the journal breaks at line ${found.broken.line}: `
    + `${found.broken.reason}`;
  if (same === found.entries.length && same < expected.length) return `the journal was cut after entry ${same - 1}: `
    + `entries ${same}..${expected.length - 1} removed`;
  if (same === expected.length && found.entries.length > same) return `${found.entries.length - same} entries were `
    + `added after entry ${same - 1} by someone other than the verifier`;
  if (same === expected.length && found.torn) return `a partial line was added after entry ${same - 1} by someone `
    + `other than the verifier`;
  return `the journal was rewritten from entry ${same} on`;
}

/** The message every agent gets for a tampering incident. */
export function formatIncidentMessage(incident: Incident, now: Date): string {
  return `## [${now.toISOString()}] tampering found: ${incident.title}\n${incident.body}\nThe verifier's record `
    + `stands: only its verdicts count, and the org best moves only by them.\n`;
}

function countShared(expected: readonly JournalEntry[], found: readonly JournalEntry[]): number {
  let same = 0;
  while (same < expected.length && same < found.length && expected[same]!.hash === found[same]!.hash) same++;
  return same;
}
