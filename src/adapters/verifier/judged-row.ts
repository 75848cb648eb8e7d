import type { ExperimentRequest } from "../../domain/experiments/request.js";
import type { JournalEntry } from "../../domain/experiments/journal.js";
import { findRowsOfCommit, isOwnRow } from "../../domain/experiments/recover.js";
import type { ResultRow } from "../../domain/experiments/results-table.js";
import type { Runner } from "../process.js";
import { resolveCommit } from "../git/run.js";
import { readTrustedRows } from "./checked-results.js";

/**
 * The row the verifier already wrote for this request's commit, if any; an `org confirm` re-run is never one. Only a
 * journaled (or pre-journal) row counts: a forged one would otherwise be taken as the verdict and never run.
 */
export async function findJudgedRow(
  input: {
    repo: string; state: string; request: ExperimentRequest; runner?: Runner; journal?: readonly JournalEntry[];
  },
): Promise<ResultRow | undefined> {
  const { request } = input;
  if (request.kind === "confirm") return undefined;
  const rows = findRowsOfCommit(await readTrustedRows(input.state, input.journal), request);
  if (rows.length === 0) return undefined;
  // A row keeps 7 hex digits: git says whether they name this commit alone, or also another one of the repo's.
  const resolved = await resolveCommit(input.repo, rows[0]!.commit, { runner: input.runner });
  if (resolved !== undefined) return resolved === request.commit ? rows[0] : undefined;
  // Shared digits: only a row written since the request was made can be this commit's.
  return rows.find((row) => isOwnRow(row, request));
}
