import { formatConfigDuration, type RunOutcome } from "../experiments/verdict.js";
import { parseJudgeAnswer, type JudgeAnswer } from "./answer.js";

/** How a judge run ended, as an answer: anything but a clean exit with a whole answer is a judge-error. */
export function readJudgeRun(
  run: RunOutcome, output: string, weights: Readonly<Record<string, number>>, timeoutMs: number,
): JudgeAnswer {
  const fail = (what: string): JudgeAnswer => ({ kind: "error", reason: `judge-error: the judge ${what}` });
  if (run.spawnError !== undefined) return fail(`could not start: ${run.spawnError}`);
  if (run.fault !== undefined) return fail(`run failed: ${run.fault}`);
  if (run.timedOut) return fail(`timed out after ${formatConfigDuration(timeoutMs)}; process group killed`);
  const exit = run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode ?? "unknown"}`;
  if (run.exitCode !== 0) return fail(`failed: ${exit}`);
  return parseJudgeAnswer(output, weights);
}
