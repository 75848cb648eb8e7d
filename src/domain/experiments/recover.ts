// results.tsv is the record of every verdict: a commit with a row is answered from it and never runs again.
import type { AgentLedger, ExperimentRequest } from "./request.js";
import type { ResultRow } from "./results-table.js";
import type { Goal, Verdict } from "./verdict.js";

/**
 * The rows that may be this request's commit's, newest first: the agent's, under the commit's short sha. A candidate's
 * counts whenever written (the commit may come back under another request); a baseline's only from its request on,
 * because a crashed baseline is run again by the next daemon.
 */
export function findRowsOfCommit(rows: ResultRow[], request: ExperimentRequest): ResultRow[] {
  const short = request.commit.slice(0, 7);
  const baseline = request.kind === "baseline";
  const ofRequest = (row: ResultRow) => row.description.startsWith("baseline") && row.time >= request.submittedAt;
  return rows
    .filter((row) => row.agent === request.agent && row.commit.startsWith(short) && (!baseline || ofRequest(row)))
    .reverse();
}

/** Whether the row was written for this very request (by a daemon killed before it cleared it), not an earlier one. */
export function isOwnRow(row: ResultRow, request: ExperimentRequest): boolean {
  return row.time >= request.submittedAt;
}

/** The verdict a recorded row stands for; its run is not repeated, so the row stays the only one. */
export function verdictOfRow(
  row: ResultRow, request: ExperimentRequest, best: AgentLedger["best"], goal: Goal,
): Verdict {
  const when = isOwnRow(row, request) ? "before the daemon stopped" : "for an earlier request";
  const reason = `${row.status}: recorded in results.tsv at ${row.time} ${when}; not run again`;
  const metric = row.metric ?? 0;
  if (row.status === "crash" || row.status === "reject") return { kind: row.status, reason };
  if (row.status === "fail") {
    return { kind: "fail", gate: row.gate ?? "", reason: `${reason} (gate ${row.gate ?? "unknown"})` };
  }
  if (request.kind === "baseline") {
    return { kind: "baseline", metric, reason: `baseline${reason.slice(row.status.length)}` };
  }
  const delta = metric - (best?.metric ?? metric);
  // A keep the agent's best has since beaten (its branch set back to it) is no improvement now: never the best again.
  if (row.status === "keep" && best && best.commit !== request.commit && !isBetter(metric, best.metric, goal)) {
    const beaten = `best ${best.commit.slice(0, 7)} (${best.metric}) has beaten it since`;
    const why = `discard: kept in results.tsv at ${row.time}, but ${beaten}; not run again`;
    return { kind: "discard", metric, delta, reason: why };
  }
  return { kind: row.status, metric, delta, reason };
}

function isBetter(metric: number, best: number, goal: Goal): boolean {
  return goal === "minimize" ? metric < best : metric > best;
}
