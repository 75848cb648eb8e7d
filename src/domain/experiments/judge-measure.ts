// verify.judge as the metric: one headless judge run in the candidate's checkout, its answer read strictly.
import { parseDuration } from "../config/index.js";
import { OrgError } from "../errors.js";
import { readJudgeRun, recordJudgeUsage } from "../judge/index.js";
import type { ExperimentRequest } from "./request.js";
import type { ExperimentContext, RunMeasure, VerifierPort } from "./verifier-port.js";
import type { RunSlot } from "./gpu-runs.js";

/** The judge's measure of the checkout: its weighted score as the metric, or the judge-error that stands instead. */
export async function measureByJudge(port: VerifierPort, context: ExperimentContext, request: ExperimentRequest,
  at: { checkout: string; logFile: string; run: RunSlot; seed: number }): Promise<RunMeasure> {
  const judge = context.verify.judge!;
  if (!port.runJudge) throw new OrgError("this verifier cannot run verify.judge", "judge");
  const timeoutMs = parseDuration(judge.timeout);
  const gates = (context.verify.gates ?? []).map((gate) => gate.name);
  const work = { kind: "checkout" as const, commit: request.commit, gates };
  const options = { cwd: at.checkout, logFile: at.logFile, timeoutMs, signal: context.signal, run: at.run };
  const result = await port.runJudge(work, options);
  // Spent whatever the verdict: a run killed or malformed gave no usage, and is counted as unknown, not as free.
  const run = { at: new Date().toISOString(), kind: "verdict" as const, agent: at.run.agent, commit: request.commit };
  await port.recordJudgeRun?.(recordJudgeUsage({ ...run, run: at.run.run, cli: result.cli }, result.output.usage));
  const what = `judge run of ${request.commit.slice(0, 7)} for ${request.agent}`;
  if (result.aborted) throw new OrgError(`${what} interrupted by shutdown; it stays queued`, "aborted");
  // The answer's text, not the CLI's JSON around it: a judge-error's tail shows what the model said.
  const log = result.output.text;
  const answer = readJudgeRun(result, log, judge.dimensions, timeoutMs);
  const scored = answer.kind === "scored";
  return {
    seed: at.seed, outcome: result, log, logFile: at.logFile, runSeconds: result.durationMs / 1000,
    metric: scored ? answer.score : undefined, memoryGb: undefined, budgets: {},
    judge: scored ? { reason: answer.reason, scores: answer.scores } : { error: answer.reason },
  };
}

/** The judge-error a measure stands for, if the judge gave no answer. */
export function judgeErrorOf(measure: RunMeasure | undefined): string | undefined {
  return measure?.judge && "error" in measure.judge ? measure.judge.error : undefined;
}

/** The judge's paragraph on the gap, on one line. */
export function judgeReasonOf(measure: RunMeasure | undefined): string | undefined {
  if (!measure?.judge || !("reason" in measure.judge)) return undefined;
  return measure.judge.reason.replace(/\s+/g, " ").trim().slice(0, 600);
}
