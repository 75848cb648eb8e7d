import { constants } from "node:os";
import type { LaunchSpec } from "../state.js";

/** Restart counters carried from one exit to the next. */
export interface RestartHistory {
  /** Every restart since the supervisor started. */
  restarts: number;
  /** Restarts since the last run that lasted healthyAfterMs. */
  consecutiveFailures: number;
}

/** How one run of the agent program ended. */
export interface ProgramExit {
  code: number | null;
  signal: string | null;
  /** Epoch ms when the program was started. */
  startedAt: number;
  /** Set when the program never ran (not found, not executable): replaces the exit description. */
  error?: string;
}

export type ExitDecision =
  | { kind: "restart"; delayMs: number; reason: string; history: RestartHistory }
  | { kind: "give-up"; reason: string; history: RestartHistory }
  | { kind: "done"; reason: string; history: RestartHistory };

// Checked by hand, not with zod: every pane starts a supervisor, and zod's import alone costs ~100 ms.
const FIELDS: [keyof LaunchSpec, (value: unknown) => boolean, string][] = [
  ["agent", (v) => typeof v === "string" && v !== "", "a non-empty string"],
  ["role", (v) => typeof v === "string", "a string"],
  [
    "argv",
    (v) => Array.isArray(v) && v.length > 0 && v.every((item) => typeof item === "string"),
    "a non-empty list of strings",
  ],
  ["cwd", (v) => typeof v === "string" && v !== "", "a non-empty string"],
  [
    "env",
    (v) =>
      typeof v === "object" && v !== null && !Array.isArray(v)
        && Object.values(v).every((item) => typeof item === "string"),
    "a map of strings",
  ],
  ["restart", (v) => v === "always" || v === "on-failure" || v === "never", "always, on-failure or never"],
  ["backoffMs", (v) => typeof v === "number" && v >= 0, "a number ≥ 0"],
  ["maxBackoffMs", (v) => typeof v === "number" && v >= 0, "a number ≥ 0"],
  ["maxRestarts", (v) => Number.isInteger(v) && (v as number) >= 0, "a whole number ≥ 0"],
  ["healthyAfterMs", (v) => typeof v === "number" && v >= 0, "a number ≥ 0"],
];

/** A launch.json's content as a LaunchSpec, or what is wrong with it as `field: problem`. */
export function parseLaunchSpec(raw: unknown): LaunchSpec | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "(root): expected an object";
  const record = raw as Record<string, unknown>;
  for (const [key, valid, expected] of FIELDS) {
    if (!valid(record[key])) return `${key}: expected ${expected}, got ${JSON.stringify(record[key]) ?? "nothing"}`;
  }
  const spec = Object.fromEntries(FIELDS.map(([key]) => [key, record[key]])) as unknown as LaunchSpec;
  // Optional parts: a preset's resume and watch settings, and the names of secrets the program receives.
  if (typeof record.runtime === "object" && record.runtime !== null) {
    spec.runtime = record.runtime as LaunchSpec["runtime"];
  }
  if (Array.isArray(record.passEnv) && record.passEnv.every((name) =>
    typeof name === "string")) spec.passEnv = record.passEnv as string[];
  return spec;
}

type RestartPolicy = Pick<LaunchSpec, "restart" | "backoffMs" | "maxBackoffMs" | "maxRestarts" | "healthyAfterMs"> & {
  runtime?: { relaunchCode?: number };
};

/** Whether the program ended with its CLI's own relaunch code: it asks to be started again. */
export function asksRelaunch(spec: Pick<RestartPolicy, "runtime">, code: number | null): boolean {
  return code !== null && code === spec.runtime?.relaunchCode;
}

/** Decide what the supervisor does after the agent program exits, by the spec's restart policy. */
export function decideAfterExit(
  spec: RestartPolicy, history: RestartHistory, exit: ProgramExit, now: number,
): ExitDecision {
  const durationMs = Math.max(0, now - exit.startedAt);
  const what = exit.error ?? `${describeExit(exit.code, exit.signal)} after ${formatDuration(durationMs)}`;
  const failed = exit.code !== 0 || exit.signal !== null;
  const consecutive = durationMs >= spec.healthyAfterMs ? 0 : history.consecutiveFailures;
  const settled = { restarts: history.restarts, consecutiveFailures: consecutive };
  const relaunch = asksRelaunch(spec, exit.code);
  // The CLI's own restart, whatever the policy (its own wrapper would start it again): at once, and still counted,
  // so one that asks at every start gives up as a crash loop does.
  if (relaunch && consecutive < spec.maxRestarts) {
    const next = { restarts: history.restarts + 1, consecutiveFailures: consecutive + 1 };
    const reason = `${what}: it asks to be started again; restarting it`;
    return { kind: "restart", delayMs: 0, reason, history: next };
  }
  if (spec.restart === "never" && !relaunch) {
    const verdict = failed ? "give-up" : "done";
    return { kind: verdict, reason: `${what}; restart policy is never`, history: settled };
  }
  if (spec.restart === "on-failure" && !failed) {
    return { kind: "done", reason: `${what}; not restarting (restart policy is on-failure)`, history: settled };
  }
  if (consecutive >= spec.maxRestarts) {
    const healthy = formatDuration(spec.healthyAfterMs);
    return {
      kind: "give-up",
      reason: `${what}; gave up after ${consecutive} restarts without a run lasting ${healthy}`,
      history: settled,
    };
  }
  const delayMs = Math.min(spec.backoffMs * 2 ** consecutive, spec.maxBackoffMs);
  const next = { restarts: history.restarts + 1, consecutiveFailures: consecutive + 1 };
  const reason = `${what}; restart ${next.consecutiveFailures}/${spec.maxRestarts} in ${formatDuration(delayMs)}`;
  return { kind: "restart", delayMs, reason, history: next };
}

// Shells report a child killed by signal N as exit 128+N; these are the ones agents die of.
const KNOWN_CODES: Record<number, string> = {
  126: "not executable",
  127: "command not found",
  130: "interrupted by SIGINT",
  137: "killed by SIGKILL, maybe out of memory",
  143: "terminated by SIGTERM",
};

/** An exit as a person reads it: `exited with code 1`, `exit 127: command not found`, `killed by SIGKILL (137)`. */
export function describeExit(code: number | null, signal: string | null): string {
  if (signal !== null) {
    const number = (constants.signals as Record<string, number | undefined>)[signal];
    return number === undefined ? `killed by ${signal}` : `killed by ${signal} (${128 + number})`;
  }
  if (code === null) return "exited";
  const known = KNOWN_CODES[code];
  return known ? `exit ${code}: ${known}` : `exited with code ${code}`;
}

/** A short duration: `50ms`, `0.2s`, `4s`, `2m 5s`, `1h 3m`. */
export function formatDuration(ms: number): string {
  if (ms < 100) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))}s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) return joinUnits(Math.floor(totalSeconds / 60), "m", totalSeconds % 60, "s");
  const totalMinutes = Math.round(totalSeconds / 60);
  return joinUnits(Math.floor(totalMinutes / 60), "h", totalMinutes % 60, "m");
}

function joinUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit} ${minor}${minorUnit}`;
}

/** Why the program never ran, as the exit a shell would report: 127 not found, 126 not executable. */
export function explainSpawnError(
  error: { code?: string; message: string }, spec: Pick<LaunchSpec, "argv" | "cwd">, cwdExists: boolean,
): { code: number; error: string } {
  const program = spec.argv[0] ?? "";
  if (!cwdExists) return { code: 127, error: `working directory "${spec.cwd}" does not exist` };
  if (error.code === "ENOENT") return {
    code: 127,
    error: `program "${program}" not found${program.includes("/") ? "" : " on PATH"}`,
  };
  if (error.code === "EACCES") return { code: 126, error: `program "${program}" is not executable` };
  return { code: 127, error: `cannot start "${program}": ${error.message}` };
}
