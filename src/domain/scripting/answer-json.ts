import type { Verdict } from "../experiments/verdict.js";
import { formatAnswer, type SubmitAnswer } from "../experiments/submit-reply.js";

/** An experiment's answer as `org submit --json` and `org wait --json` give it; `lines` is what they print without. */
export interface AnswerJson {
  id: string;
  /** The commit submitted; `judged` differs when the verifier judged it moved onto the agent's best. */
  commit: string;
  judged: string;
  description: string;
  verdict: Verdict["kind"] | "cancelled";
  reason: string;
  metric: number | null;
  delta: number | null;
  best: { commit: string; metric: number } | null;
  /** Where the verifier left the agent's branch. */
  head: string | null;
  patch: string | null;
  logFile: string | null;
  /** The run log's last lines, for a crash; for a fail, the failed gate's alone. */
  logTail: string | null;
  /** The gate of verify.gates that failed, for a fail. */
  gate?: string;
  lines: string[];
}

export function describeAnswerJson(answer: SubmitAnswer): AnswerJson {
  const { lines } = formatAnswer(answer);
  if ("cancelled" in answer) {
    const none = { metric: null, delta: null, best: null, head: null, patch: null, logFile: null, logTail: null };
    const { id, commit, description, cancelled } = answer;
    return { id, commit, judged: commit, description, verdict: "cancelled", reason: cancelled, ...none, lines };
  }
  const { outcome, best } = answer;
  const { request, verdict } = outcome;
  return {
    id: answer.id,
    commit: request.rebased?.from ?? request.commit,
    judged: request.commit,
    description: request.description,
    verdict: verdict.kind,
    reason: verdict.reason,
    metric: outcome.metric ?? null,
    delta: "delta" in verdict ? verdict.delta : null,
    best: best ? { commit: best.commit, metric: best.metric } : null,
    head: outcome.head,
    patch: outcome.patch ?? null,
    logFile: outcome.logFile || null,
    logTail: (verdict.kind === "crash" || verdict.kind === "fail") && outcome.logTail ? outcome.logTail : null,
    ...(verdict.kind === "fail" ? { gate: verdict.gate } : {}),
    lines,
  };
}
