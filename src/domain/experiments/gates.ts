// verify.gates: commands that must pass, in order, in the candidate's checkout before its metric is measured.
import { parseDuration, type VerifyConfig } from "../config/index.js";
import { OrgError } from "../errors.js";
import type { ExperimentContext, RunMeasure, VerifierPort } from "./verifier-port.js";
import type { ExperimentRequest } from "./request.js";
import type { RunSlot } from "./gpu-runs.js";
import { judgeGate } from "./verdict.js";

/** Whether verify.gates names any gate, or a judge may fail (a judge-error): then results.tsv has a gate column. */
export function hasGates(verify: Pick<VerifyConfig, "gates" | "judge">): boolean {
  return (verify.gates ?? []).length > 0 || verify.judge !== undefined;
}

/** Where the gates stopped: the measure of the one that did not pass, if any, and the seconds all of them ran. */
export interface GatesRun {
  failed?: RunMeasure;
  seconds: number;
}

/**
 * Each gate in order, in the same sandbox and environment as the metric command, each log of its own; the first that
 * does not pass ends them. Its process group goes with it, at its exit or its timeout (the port reaps the group).
 */
export async function runGates(port: VerifierPort, context: ExperimentContext, request: ExperimentRequest,
  at: { checkout: string; env: Record<string, string>; run: RunSlot; seed: number }): Promise<GatesRun> {
  let seconds = 0;
  for (const gate of context.verify.gates ?? []) {
    const logFile = `${context.runsDir}/${request.id}-gate-${gate.name}.log`;
    const timeoutMs = parseDuration(gate.timeout);
    const options = { cwd: at.checkout, env: at.env, logFile, timeoutMs, signal: context.signal, run: at.run };
    const result = await port.runCommand(gate.command, options);
    const what = `gate ${gate.name} of ${request.commit.slice(0, 7)} for ${request.agent}`;
    if (result.aborted) throw new OrgError(`${what} interrupted by shutdown; it stays queued`, "aborted");
    seconds += result.durationMs / 1000;
    if (!judgeGate({ name: gate.name, timeoutMs }, result)) continue;
    const log = await port.readLog(logFile);
    const failed: RunMeasure = {
      seed: at.seed, outcome: result, metric: undefined, memoryGb: undefined, budgets: {}, log, logFile,
      runSeconds: seconds,
      gate: { name: gate.name, timeoutMs },
    };
    return { failed, seconds };
  }
  return { seconds };
}
