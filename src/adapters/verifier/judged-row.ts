import type { ExperimentRequest } from "../../org/experiments/experiment.js";
import { findRowsOfCommit, isOwnRow } from "../../org/experiments/recover.js";
import { parseResults, type ResultRow } from "../../org/experiments/results.js";
import { readText } from "../fs/files.js";
import type { Runner } from "../process.js";
import { resolveCommit } from "../git/run.js";

/** The row results.tsv already holds for this request's commit, if any; an `org confirm` re-run is never one. */
export async function findJudgedRow(input: { repo: string; resultsFile: string; request: ExperimentRequest; runner?: Runner }): Promise<ResultRow | undefined> {
  const { request } = input;
  if (request.kind === "confirm") return undefined;
  const rows = findRowsOfCommit(parseResults((await readText(input.resultsFile)) ?? "").rows, request);
  if (rows.length === 0) return undefined;
  // A row keeps 7 hex digits: git says whether they name this commit alone, or also another one of the repo's.
  const resolved = await resolveCommit(input.repo, rows[0]!.commit, { runner: input.runner });
  if (resolved !== undefined) return resolved === request.commit ? rows[0] : undefined;
  // Shared digits: only a row written since the request was made can be this commit's.
  return rows.find((row) => isOwnRow(row, request));
}
