// state/verdicts/<id>.json read through the journal: the file must be one the verifier journaled for that id.
import { hashText, type JournalEntry } from "./journal.js";

export type VerdictTrust =
  | { kind: "journaled" }
  | { kind: "legacy"; reason: string }
  | { kind: "tampered"; reason: string };

/** Whether `text` is a verdict the verifier wrote for `id`; `chain` undefined means there is no journal file. */
export function checkVerdict(
  id: string, text: string, chain: { entries: readonly JournalEntry[] } | undefined,
): VerdictTrust {
  if (!chain) return { kind: "legacy", reason: "the org has no journal (started by an older org)" };
  const written = chain.entries.flatMap((entry) => (entry.kind === "verdict" && entry.payload.id === id
    ? [entry.payload.sha256]
    : []));
  if (written.includes(hashText(text))) return { kind: "journaled" };
  if (written.length > 0) return {
    kind: "tampered", reason: `state/verdicts/${id}.json is not the verdict the verifier wrote: it was changed since`,
  };
  // Ids start with the time of their request: one from before the journal began has no entry, and needs none.
  const submitted = parseIdTime(id);
  const began = chain.entries[0]?.kind === "genesis" ? Date.parse(chain.entries[0].time) : NaN;
  if (submitted !== undefined && submitted < began) return {
    kind: "legacy", reason: "judged before the journal began",
  };
  return {
    kind: "tampered",
    reason: `the verifier never wrote a verdict for ${id}: state/verdicts/${id}.json was made by hand`,
  };
}

function parseIdTime(id: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(id);
  if (!match) return undefined;
  const time = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(time) ? undefined : time;
}
