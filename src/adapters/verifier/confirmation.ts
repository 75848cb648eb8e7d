import { join } from "node:path";
import {
  buildConfirmReport, formatConfirmReport, type ConfirmReport,
} from "../../domain/experiments/confirm-report.js";
import type { AgentLedger, ExperimentRequest } from "../../domain/experiments/request.js";
import type { ExperimentContext, VerifierPort } from "../../domain/experiments/verifier-port.js";
import { measureRuns } from "../../domain/experiments/runs.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { appendLines, writeJsonAtomic } from "../fs/files.js";
import { logPath } from "../../domain/paths.js";
import { writeLedger } from "../store/agent-ledger.js";
import { waitForAnswer } from "../daemon-client.js";
import { isArrayOf, isFields, isNullable, isNumber, isString } from "../../domain/json-fields.js";

// state/confirmations/<id>.json, `org confirm`'s answer: the only module that names it.
function confirmationFile(state: string, id: string): string {
  return join(state, "confirmations", `${id}.json`);
}

// The fields `org confirm` prints from; a mean of no runs is NaN, which JSON writes as null.
function parseConfirmReport(value: unknown): ConfirmReport | undefined {
  const valid = isFields(value) && isString(value.commit) && isString(value.agent) && isString(value.metric)
    && isArrayOf(isNumber)(value.runs) && isNullable(isNumber)(value.mean) && isNullable(isNumber)(value.sd);
  return valid ? (value as unknown as ConfirmReport) : undefined;
}

/**
 * The report once the verifier wrote it; throws when the daemon went down meanwhile (the request stays queued), or
 * when the file is of another shape.
 */
export function waitForConfirmation(paths: { state: string; daemon: string }, id: string): Promise<ConfirmReport> {
  return waitForAnswer(confirmationFile(paths.state, id), paths.daemon, parseConfirmReport);
}

/** `org confirm`: re-run a commit with fresh seeds, compare with the baseline, record it; branches are untouched. */
export async function runConfirmation(
  port: VerifierPort, context: ExperimentContext, request: ExperimentRequest, state: string,
): Promise<ConfirmReport> {
  const { ledger, verify } = context;
  const first = ledger.runs ?? 0;
  const count = request.runs ?? 5;
  const measures = await measureRuns(
    port, context, request, Array.from({ length: count }, (_, index) => first + index), 0,
  );
  const last = measures.at(-1);
  const crashed = last && (last.outcome.exitCode !== 0 || last.metric === undefined)
    ? `run ${measures.length} `
      + (last.outcome.timedOut ? "timed out" : `exited ${last.outcome.exitCode ?? last.outcome.signal}`)
      + `${last.metric === undefined ? " with no metric" : ""}; log ${last.logFile}`
    : undefined;
  const report = buildConfirmReport({
    commit: request.commit, agent: context.agent.name, metric: verify.metric.name, goal: verify.metric.goal,
    runs: measures.map((measure) => measure.metric).filter((value): value is number => value !== undefined),
    baseline: ledger.baseline?.samples, sigma: context.sigma, crashed,
  });
  const next: AgentLedger = { ...ledger, runs: first + measures.length };
  await writeLedger(state, context.agent.name, next);
  await writeJsonAtomic(confirmationFile(state, request.id), report);
  await appendLines(logPath(state), [
    formatLogEntry({
      date: context.now(), op: "confirm", title: `${context.agent.name} ${request.commit.slice(0, 7)}`,
      body: formatConfirmReport(report).join("\n"),
    }),
  ]);
  return report;
}
