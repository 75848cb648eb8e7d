// A daemon killed after writing an experiment's row but before clearing its request leaves the row as the verdict.
import type { ExperimentRequest } from "./experiment.js";
import type { ResultRow } from "./results.js";
import type { Verdict } from "./verdict.js";

/** The row recorded for this request, if any: the agent's commit, written after the request was submitted. */
export function findRecordedRow(rows: ResultRow[], request: ExperimentRequest): ResultRow | undefined {
  const short = request.commit.slice(0, 7);
  // Twin requests for one commit are merged before they run, so a later row for it can only be this request's.
  return rows.find((row) => row.agent === request.agent && row.commit.startsWith(short) && row.time >= request.submittedAt);
}

/** The verdict a recorded row stands for; its run is not repeated, so the row stays the only one. */
export function verdictOfRow(row: ResultRow, request: ExperimentRequest, best: number | undefined): Verdict {
  const reason = `${row.status}: recorded in results.tsv at ${row.time} before the daemon stopped; not run again`;
  const metric = row.metric ?? 0;
  if (row.status === "crash" || row.status === "reject") return { kind: row.status, reason };
  if (request.kind === "baseline") return { kind: "baseline", metric, reason: `baseline${reason.slice(row.status.length)}` };
  return { kind: row.status, metric, delta: metric - (best ?? metric), reason };
}
