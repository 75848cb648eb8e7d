// What a results.tsv row is: the one definition of "an experiment" that results, history, compare and stop count by.

/** What telling a row's kind reads of a results row. */
type Described = { description: string };

/** A baseline measured the base; an answer came from the ledger with no run; a run is an experiment that ran. */
export type RowKind = "baseline" | "answer" | "run";

// Exactly as the verifier writes a baseline's row: a candidate described "baseline tweak" is still an experiment.
const BASELINE_ROW = /^baseline(?: \(mean of \d+ seeds\))?$/;

// The descriptions of rows answered without a run, as tried-answer.ts's decideTried writes them.
const ANSWERED_ROW = /^(duplicate of [0-9a-f]{7} by |adopt [0-9a-f]{7} kept by )[^\s:]+: /;

/** A row the ledger answered (a duplicate, an adopted keep): no run, no GPU time, so no experiment to count. */
function isLedgerAnswer(description: string): boolean {
  return ANSWERED_ROW.test(description);
}

export function classifyRow(row: Described): RowKind {
  if (BASELINE_ROW.test(row.description)) return "baseline";
  return isLedgerAnswer(row.description) ? "answer" : "run";
}

/** A row that ran as an experiment: neither a baseline nor one of the ledger's answers. */
export function ranAsExperiment(row: Described): boolean {
  return classifyRow(row) === "run";
}

/** How many rows are of each kind. */
export function countRows(rows: readonly Described[]): Record<RowKind, number> {
  const counts: Record<RowKind, number> = { baseline: 0, answer: 0, run: 0 };
  for (const row of rows) counts[classifyRow(row)] += 1;
  return counts;
}
