// What a results.tsv row is: the one definition of "an experiment" that results, history, compare and stop count by.
import type { ResultRow } from "./results.js";
import { isLedgerAnswer } from "./tried-answer.js";

/** A baseline measured the base; an answer came from the ledger with no run; a run is an experiment that ran. */
export type RowKind = "baseline" | "answer" | "run";

// Exactly as the verifier writes a baseline's row: a candidate described "baseline tweak" is still an experiment.
const BASELINE_ROW = /^baseline(?: \(mean of \d+ seeds\))?$/;

export function classifyRow(row: Pick<ResultRow, "description">): RowKind {
  if (BASELINE_ROW.test(row.description)) return "baseline";
  return isLedgerAnswer(row.description) ? "answer" : "run";
}

/** A row that ran as an experiment: neither a baseline nor one of the ledger's answers. */
export function ranAsExperiment(row: Pick<ResultRow, "description">): boolean {
  return classifyRow(row) === "run";
}

/** How many rows are of each kind. */
export function countRows(rows: readonly Pick<ResultRow, "description">[]): Record<RowKind, number> {
  const counts: Record<RowKind, number> = { baseline: 0, answer: 0, run: 0 };
  for (const row of rows) counts[classifyRow(row)] += 1;
  return counts;
}
