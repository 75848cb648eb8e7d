import type { AgentLedger } from "./request.js";
import type { ExperimentOutcome } from "./verifier-port.js";
import { describeRebase } from "./rebase.js";
import { EXIT } from "../scripting/exit-codes.js";

/** The verdict file `org submit` and `org wait` read, state/verdicts/<id>.json. */
export interface VerdictFile {
  id: string;
  outcome: Omit<ExperimentOutcome, "ledger">;
  best: AgentLedger["best"];
}

/** In place of a verdict: a queued experiment the org cancelled before it ran (a GPU-hour or cost stop), and why. */
export interface CancelledFile {
  id: string;
  commit: string;
  description: string;
  cancelled: string;
}

/** What `org submit` and `org wait` find in state/verdicts/<id>.json. */
export type SubmitAnswer = VerdictFile | CancelledFile;

/** The lines to print for an answer, and the exit code: 1 when the experiment never ran. */
export function formatAnswer(answer: SubmitAnswer): { lines: string[]; code: number } {
  if ("cancelled" in answer) return { lines: [describeCancel(answer)], code: EXIT.failure };
  return { lines: formatSubmitReply(answer), code: EXIT.ok };
}

/** One line for a cancelled experiment: what, why, and that the commit is judged once the org runs again. */
export function describeCancel(answer: CancelledFile): string {
  return `not run: ${answer.commit.slice(0, 7)} "${answer.description.replace(/\s+/g, " ").slice(0, 120)}" was `
    + `cancelled: ${answer.cancelled}`;
}

/**
 * The few lines an agent reads after `org submit`: metric, its best, delta, verdict; on a crash or a failed gate
 * the log's tail.
 */
export function formatSubmitReply(verdict: VerdictFile): string[] {
  const { outcome, best } = verdict;
  const { request } = outcome;
  const lines: string[] = [];
  const metric = outcome.metric === undefined ? "no metric" : outcome.metric.toFixed(6);
  const delta = "delta" in outcome.verdict
    ? `${outcome.verdict.delta >= 0 ? "+" : ""}${outcome.verdict.delta.toFixed(6)}`
    : "-";
  lines.push(
    `metric ${metric} · your best ${best ? `${best.metric.toFixed(6)} (${best.commit.slice(0, 7)})` : "none yet"} · `
      + `delta ${delta} · ${outcome.verdict.kind}`,
  );
  lines.push(outcome.verdict.reason);
  if (request.rebased?.kind === "rebased") lines.push(describeRebase(request.rebased, request.after));
  if (outcome.head !== request.commit) lines.push(
    `your branch was reset to ${outcome.head.slice(0, 7)}; the diff is saved in ${outcome.patch}`,
  );
  else if (outcome.movedTo) lines.push(
    `your branch has moved on to ${outcome.movedTo.slice(0, 7)}, so it was left there; that commit gets its own verdict`
      + `${outcome.patch ? ` (the diff is saved in ${outcome.patch})` : ""}`,
  );
  else if (request.rebased && outcome.verdict.kind === "keep") lines.push(
    `your branch now points at ${request.commit.slice(0, 7)}`
      + `${outcome.patch ? `; your uncommitted work is saved in ${outcome.patch}` : ""}`,
  );
  if ((outcome.verdict.kind === "crash" || outcome.verdict.kind === "fail") && outcome.logTail) {
    lines.push(`last lines of ${outcome.logFile}:`, outcome.logTail);
  }
  return lines;
}

/**
 * The verdict as a message for `org submit --no-wait`: a title naming the experiment, then the lines `org submit`
 * prints. A crash's log tail is cut from the top until the message fits messages.max_bytes: a refused message
 * would be lost.
 */
export function formatVerdictMessage(verdict: VerdictFile, maxBytes: number): string {
  const { request } = verdict.outcome;
  const title = `## verdict ${verdict.outcome.verdict.kind} for `
    + `${request.rebased?.from.slice(0, 7) ?? request.commit.slice(0, 7)} "`
    + `${request.description.replace(/\s+/g, " ").slice(0, 120)}" (\`org wait ${verdict.id}\` prints it again)`;
  for (let tail = verdict.outcome.logTail; ; tail = tail.includes("\n") ? tail.slice(tail.indexOf("\n") + 1) : "") {
    const body = [
      title, ...formatSubmitReply({ ...verdict, outcome: { ...verdict.outcome, logTail: tail } }),
    ].join("\n");
    if (Buffer.byteLength(body, "utf8") <= maxBytes) return body;
    // A UTF-16 unit is at most three bytes of UTF-8.
    if (tail === "") return `${body.slice(0, Math.floor(maxBytes / 3) - 1)}…`;
  }
}
