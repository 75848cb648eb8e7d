// The org best moves only by a journaled frontier move: any other position of the ref is put back.
import type { JournalEntry } from "./journal.js";

export type BestDecision =
  | { kind: "hold"; reason: string }
  | { kind: "complete"; commit: string; reason: string }
  | { kind: "restore"; commit: string | undefined; reason: string };

/**
 * Where `org/<name>/best` must point, given where it does (`actual`, undefined when absent) and the journal.
 * `starting`: this daemon's first look, the only time a move left half made by a killed one can be found.
 */
export function decideBest(
  actual: string | undefined, entries: readonly JournalEntry[], starting: boolean, half?: "b",
): BestDecision {
  // B's best in an A/B run is a frontier of its own: only its moves count, and the genesis frontier is the org's.
  const moves = entries.flatMap((entry) => (entry.kind === "frontier"
    ? (entry.payload.half === half ? [entry.payload.commit] : [])
    : entry.kind === "genesis" && entry.payload.frontier && !half ? [entry.payload.frontier.commit] : []));
  const expected = moves.at(-1);
  if (actual === expected) return {
    kind: "hold", reason: expected ? `at ${expected.slice(0, 7)}, as journaled` : "no best yet, as journaled",
  };
  // The verifier journals a move before it makes it: a ref one move behind is a daemon killed in between.
  if (starting && expected && actual === moves.at(-2)) return {
    kind: "complete", commit: expected,
    reason: `the move to ${expected.slice(0, 7)} was journaled but not made (the daemon stopped in between)`,
  };
  const where = actual ? `at ${actual.slice(0, 7)}` : "deleted";
  const judged = actual && entries.some((entry) => entry.kind === "row" && entry.payload.commit === actual)
    ? "a commit the verifier judged but never made the org best"
    : "a commit the verifier never judged";
  return {
    kind: "restore", commit: expected,
    reason: `the org best was moved by hand ${where}${actual ? ` (${judged})` : ""}; the journal has it `
      + `${expected ? `at ${expected.slice(0, 7)}` : "absent: no baseline yet"}`,
  };
}
