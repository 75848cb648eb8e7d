import { dirname } from "node:path";
import type { ExperimentRequest } from "../../org/experiments/experiment.js";
import { checkResults, listTrustedRows } from "../../org/experiments/journal-check.js";
import { chainOf, journalPath, readChain, type JournalEntry } from "../../org/experiments/journal.js";
import { findRowsOfCommit, isOwnRow } from "../../org/experiments/recover.js";
import { parseResults, type ResultRow } from "../../org/experiments/results.js";
import { readText } from "../fs/files.js";
import type { Runner } from "../process.js";
import { resolveCommit } from "../git/run.js";

/**
 * The row the verifier already wrote for this request's commit, if any; an `org confirm` re-run is never one. Only a
 * journaled (or pre-journal) row counts: a forged one would otherwise be taken as the verdict and never run.
 */
export async function findJudgedRow(input: { repo: string; resultsFile: string; request: ExperimentRequest; runner?: Runner; journal?: readonly JournalEntry[] }): Promise<ResultRow | undefined> {
  const { request } = input;
  if (request.kind === "confirm") return undefined;
  const rows = findRowsOfCommit(await readTrustedRows(input), request);
  if (rows.length === 0) return undefined;
  // A row keeps 7 hex digits: git says whether they name this commit alone, or also another one of the repo's.
  const resolved = await resolveCommit(input.repo, rows[0]!.commit, { runner: input.runner });
  if (resolved !== undefined) return resolved === request.commit ? rows[0] : undefined;
  // Shared digits: only a row written since the request was made can be this commit's.
  return rows.find((row) => isOwnRow(row, request));
}

async function readTrustedRows(input: { resultsFile: string; journal?: readonly JournalEntry[] }): Promise<ResultRow[]> {
  const text = (await readText(input.resultsFile)) ?? "";
  const file = input.journal ? undefined : await readText(journalPath(dirname(input.resultsFile)));
  const checked = checkResults(text, input.journal ? chainOf(input.journal) : file === undefined ? undefined : readChain(file));
  // Journaled but not in results.tsv yet (a daemon killed between the two): the verifier's all the same.
  return [...listTrustedRows(checked), ...checked.missing.flatMap(({ record }) => parseResults(`${record.row}\n`).rows)];
}
