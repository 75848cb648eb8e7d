// `org validate --run`'s account of its one verify run on the base: what ran, how it ended, what the pattern read.
import { formatProblems, type LoadedConfig, type VerifyConfig } from "../org/config/index.js";
import type { Problem } from "../org/config/locate.js";
import type { RunMeasure } from "../org/experiments/runs.js";
import { readMetricRun } from "../org/preflight/index.js";

export interface BaseRunReport {
  ok: boolean;
  out: string[];
  err: string[];
}

const PATTERN = ["verify", "metric", "pattern"];

/** Pass: the run exited 0 and the pattern read a number. Otherwise the reason, the run's last lines and a fix. */
export function renderBaseRun(loaded: LoadedConfig, verify: VerifyConfig, measure: RunMeasure): BaseRunReport {
  const seconds = `${measure.runSeconds.toFixed(1)} s`;
  const reading = readMetricRun(measure.log, verify.metric);
  const fail = (problem: Problem, tail: string[] = lastLines(measure.log)): BaseRunReport => {
    const shown = tail.length > 0 ? tail.map((line) => `  | ${line}`) : ["  (none: it printed nothing)"];
    const lines = [...formatProblems(loaded.file, loaded.text, [problem]), "last lines of the run's output:", ...shown];
    return { ok: false, out: [], err: lines };
  };
  const ended = describeFailure(measure, verify, seconds);
  if (ended) {
    const fix = "the verifier records such a base as a crash and judges nothing: make it run (output below)";
    return fail({ path: ["verify", "command"], message: `the verify command ${ended} on the base`, fix });
  }
  if (reading.kind === "matched") {
    const line = `verify run on the base: exit 0 after ${seconds}; metric ${verify.metric.name} = ${reading.value}`;
    return { ok: true, out: [`${line} (from "${reading.line}")`], err: [] };
  }
  if (reading.kind === "not-a-number") {
    const message = `verify.metric.pattern matched "${reading.line}", whose capture is not a finite number`;
    return fail({ path: PATTERN, message, fix: "capture the number alone in the first group, and print a finite one" });
  }
  const { proposal } = reading;
  const fix = proposal
    ? `set pattern: '${proposal.pattern}', which reads ${proposal.value} from "${proposal.line}"`
    : `print the metric on a line such as "${verify.metric.name}: 0.123", or change the pattern to match a line below`;
  const message = `verify.metric.pattern '${verify.metric.pattern}' matched no line of the run's output, `
    + "so every run would be a crash";
  return fail({ path: PATTERN, message, fix }, reading.tail);
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
