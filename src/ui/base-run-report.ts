// `org validate --run`'s account of its one verify run on the base: what ran, how it ended, what the patterns read.
import {
  formatPath, formatProblems, type LoadedConfig, type Problem, type VerifyConfig,
} from "../domain/config/index.js";
import type { RunMeasure } from "../domain/experiments/verifier-port.js";
import { readMetricRun } from "../domain/preflight/index.js";

export interface BaseRunReport {
  ok: boolean;
  out: string[];
  err: string[];
}

/**
 * Pass: the run exited 0, the metric pattern read a number, and so did every budget's (a budget not printed is a
 * crash too). Otherwise every reason at once, the run's last lines and a fix.
 */
export function renderBaseRun(loaded: LoadedConfig, verify: VerifyConfig, measure: RunMeasure): BaseRunReport {
  const seconds = `${measure.runSeconds.toFixed(1)} s`;
  const ended = describeFailure(measure, verify, seconds);
  const fix = "the verifier records such a base as a crash and judges nothing: make it run (output below)";
  const message = `the verify command ${ended} on the base`;
  const problems: Problem[] = ended ? [{ path: ["verify", "command"], message, fix }] : [];
  const reading = readMetricRun(measure.log, verify.metric);
  if (!ended) {
    problems.push(...checkPattern(["verify", "metric", "pattern"], verify.metric, measure.log, true));
    for (const [name, budget] of Object.entries(verify.budgets)) {
      const path = ["verify", "budgets", name, "pattern"];
      problems.push(...checkPattern(path, { name, pattern: budget.pattern }, measure.log, false));
    }
  }
  if (problems.length === 0 && reading.kind === "matched") {
    const line = `verify run on the base: exit 0 after ${seconds}; metric ${verify.metric.name} = ${reading.value}`;
    return { ok: true, out: [`${line} (from "${reading.line}")`], err: [] };
  }
  const tail = reading.kind === "unmatched" ? reading.tail : lastLines(measure.log);
  const shown = tail.length > 0 ? tail.map((line) => `  | ${line}`) : ["  (none: it printed nothing)"];
  const lines = formatProblems(loaded.file, loaded.text, problems);
  return { ok: false, out: [], err: [...lines, "last lines of the run's output:", ...shown] };
}

/** What is wrong with one pattern on this log, with a pattern that would read it when one is obvious. */
function checkPattern(
  path: string[], metric: { name: string; pattern: string }, log: string, anyName: boolean,
): Problem[] {
  const reading = readMetricRun(log, metric, anyName);
  if (reading.kind === "matched") return [];
  const key = formatPath(path);
  if (reading.kind === "not-a-number") {
    const message = `${key} matched "${reading.line}", whose capture is not a finite number`;
    return [{ path, message, fix: "capture the number alone in the first group, and print a finite one" }];
  }
  const { proposal } = reading;
  const fix = proposal
    ? `set pattern: '${proposal.pattern}', which reads ${proposal.value} from "${proposal.line}"`
    : `print it on a line such as "${metric.name}: 0.123", or change the pattern to match a line below`;
  const message = `${key} '${metric.pattern}' matched no line of the run's output, so every run would be a crash`;
  return [{ path, message, fix }];
}

/** How the run failed before its output could be read: not started, killed at the timeout, or a non-zero exit. */
function describeFailure(measure: RunMeasure, verify: VerifyConfig, seconds: string): string | undefined {
  const { outcome } = measure;
  if (outcome.spawnError) return `could not start: ${outcome.spawnError}`;
  if (outcome.timedOut) return `was killed at verify.timeout (${verify.timeout}) after ${seconds}`;
  if (outcome.exitCode !== 0) return `exited ${outcome.exitCode ?? `on signal ${outcome.signal}`} after ${seconds}`;
  return undefined;
}

function lastLines(log: string): string[] {
  const lines = log.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  return lines.slice(-10);
}
