// The verifier's decision for one experiment: pure, so every rule is a unit test and every reason is exact.
import type { PathCheck } from "./path-rules.js";

export type Goal = "minimize" | "maximize";

export type Verdict =
  | { kind: "keep"; metric: number; delta: number; reason: string }
  | { kind: "discard"; metric: number; delta: number; reason: string }
  | { kind: "crash"; reason: string }
  /** A gate of verify.gates did not pass: the metric was never run, or does not count. */
  | { kind: "fail"; gate: string; reason: string }
  | { kind: "reject"; reason: string }
  | { kind: "baseline"; metric: number; reason: string };

/** A judge-error's verdict is a fail whose gate is the judge: every view that names a failed gate names it. */
export const JUDGE_GATE = "judge";

/** How the run ended, as the Runner reported it. */
export interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  spawnError?: string;
  /** Why the run failed that is not the command's doing, e.g. the GPU it ran on fell off the machine. */
  fault?: string;
}

const COMPARISONS = {
  minimize: { better: "<", worse: ">=" },
  maximize: { better: ">", worse: "<=" },
} as const;

export interface JudgeInput {
  metric: { name: string; pattern: string; goal: Goal };
  timeoutMs: number;
  /** The agent's best kept metric; undefined means this run is its baseline. */
  best: number | undefined;
  /** The metric parsed from the run log; undefined when no line matched. */
  candidate: number | undefined;
  run: RunOutcome;
  paths: PathCheck;
  /** Set when `run` is a gate's (one that did not pass), not the metric command's. */
  gate?: { name: string; timeoutMs: number };
  /** verify.judge's answer could not be had: the judge-error, a fail at the judge, never a keep. */
  judgeError?: string;
}

/**
 * Judge one candidate: reject > fail (a gate) > crash > baseline > keep (strictly better) > discard.
 * delta is candidate − best.
 */
export function judge(input: JudgeInput): Verdict {
  const { metric, best, candidate, run, paths } = input;
  if (!paths.ok) return { kind: "reject", reason: `reject: ${paths.reason}` };
  const failed = input.gate && judgeGate(input.gate, run);
  if (failed) return failed;
  if (input.judgeError !== undefined) return { kind: "fail", gate: JUDGE_GATE, reason: input.judgeError };
  if (run.spawnError !== undefined) return { kind: "crash", reason: `crash: could not start: ${run.spawnError}` };
  if (run.fault !== undefined) return { kind: "crash", reason: `crash: ${run.fault}` };
  if (run.timedOut) return {
    kind: "crash", reason: `crash: timed out after ${formatConfigDuration(input.timeoutMs)}; process group killed`,
  };
  if (candidate === undefined) return {
    kind: "crash", reason: `crash: no line matched /${metric.pattern}/; ${describeExit(run)}`,
  };
  // A metric printed by a run that then failed is not trusted: the script did not finish cleanly.
  if (run.exitCode !== 0) return {
    kind: "crash", reason: `crash: ${describeExit(run)} after printing ${metric.name} ${candidate.toFixed(4)}`,
  };
  if (best === undefined) return {
    kind: "baseline", metric: candidate, reason: `baseline: ${metric.name} ${candidate.toFixed(4)}`,
  };
  const delta = candidate - best;
  const better = metric.goal === "minimize" ? candidate < best : candidate > best;
  const digits = decimalsFor(delta);
  const comparison = COMPARISONS[metric.goal][better ? "better" : "worse"];
  const detail = `${metric.name} ${candidate.toFixed(digits)} ${comparison} best ${best.toFixed(digits)} (`
    + `${formatSigned(delta, digits)})`;
  if (better) return { kind: "keep", metric: candidate, delta, reason: `keep: ${detail}` };
  return { kind: "discard", metric: candidate, delta, reason: `discard: ${detail}` };
}

/**
 * A duration as org.yaml spells it, so a timeout reads back as configured: 600000 → "10m", 90000 → "90s",
 * 1500 → "1500ms".
 */
export function formatConfigDuration(ms: number): string {
  if (ms > 0 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms > 0 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms > 0 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** A gate's run as a verdict: undefined when it passed; a fault of the machine (not the gate's doing) stays a crash. */
export function judgeGate(gate: { name: string; timeoutMs: number }, run: RunOutcome): Verdict | undefined {
  const fail = (what: string): Verdict => {
    return { kind: "fail", gate: gate.name, reason: `fail: gate ${gate.name} ${what}` };
  };
  if (run.spawnError !== undefined) return fail(`could not start: ${run.spawnError}`);
  if (run.fault !== undefined) return { kind: "crash", reason: `crash: gate ${gate.name}: ${run.fault}` };
  if (run.timedOut) return fail(`timed out after ${formatConfigDuration(gate.timeoutMs)}; process group killed`);
  if (run.exitCode !== 0) return fail(`failed: ${describeExit(run)}`);
  return undefined;
}

function describeExit(run: RunOutcome): string {
  return run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode ?? "unknown"}`;
}

// Four decimals, or more when the delta would otherwise round to zero and hide why it was kept or discarded.
function decimalsFor(delta: number): number {
  if (delta === 0) return 4;
  return Math.min(12, Math.max(4, Math.ceil(-Math.log10(Math.abs(delta))) + 1));
}

function formatSigned(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  return value < 0 ? `-${text}` : `+${text}`;
}
