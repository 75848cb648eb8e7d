// `org submit --no-wait` lets an agent queue a commit on top of one still waiting: each is judged as its own change
// on the agent's best.
import type { ExperimentRequest, Rebased } from "./request.js";

export type RebaseDecision = { kind: "as-is" } | { kind: "rebase"; after: string; onto: string };

/**
 * Whether a candidate moves onto the agent's best before it runs: only when the queued one it was made on is not
 * that best.
 */
export function decideRebase(request: ExperimentRequest, best: string): RebaseDecision {
  const { after } = request;
  if (request.kind !== "candidate" || !after || request.rebased || after === best) return { kind: "as-is" };
  return { kind: "rebase", after, onto: best };
}

/** The request as the verifier judges it: the rebased commit in place of the one submitted. */
export function toJudged(request: ExperimentRequest): ExperimentRequest {
  return request.rebased?.kind === "rebased" ? { ...request, commit: request.rebased.commit } : request;
}

export function describeRebase(rebased: Extract<Rebased, { kind: "rebased" }>, after: string | undefined): string {
  const ran = `its change ran on your best ${short(rebased.onto)} as ${short(rebased.commit)}`;
  return `${short(rebased.from)} was made on ${short(after)}, which is not your best: ${ran}`;
}

/** A reject's reason: the submitted commit whose change conflicts with the best, where, and how to go on. */
export function describeConflict(input: {
  from: string;
  after: string;
  onto: string;
  subject: string;
  files: string[];
}): string {
  const where = input.files.length > 0 ? ` in ${input.files.join(", ")}` : "";
  const onto = short(input.onto);
  const why = `(it was made on ${short(input.after)}, which is not your best)`;
  return `reject: ${short(input.from)} "${input.subject}" conflicts${where} with your best ${onto} ${why} — `
    + `redo the change on ${onto} and submit it again`;
}

function short(commit: string | undefined): string {
  return (commit ?? "?").slice(0, 7);
}
