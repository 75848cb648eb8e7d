// The keeper: a small process beside the daemon that brings it back when it dies; the daemon brings the keeper back.
import { formatDuration } from "./supervise.js";
import type { Check } from "../views/doctor-checks.js";
import { isFields, isNumber, isOptional, isString } from "../json-fields.js";

/** A daemon that dies sooner than this after its start died "at once": the next restart backs off. */
export const QUICK_DEATH_MS = 30_000;
const FIRST_BACKOFF_MS = 2000;
const MAX_BACKOFF_MS = 60_000;

/** The names of the secrets the daemon holds, so a keeper can hand the same ones to the daemon it restarts. */
export const DAEMON_SECRETS_VAR = "ORG_DAEMON_SECRETS";

/** state/keeper.json: what the keeper did since `org up`, written by the keeper alone. */
export interface KeeperRecord {
  pid: number;
  startedAt: string;
  /** org.json's upAt when this keeper started: counts carry over across keepers of one `org up`, never beyond it. */
  upAt: string;
  daemonRestarts: number;
  keeperRestarts: number;
  /** Daemons in a row that died within QUICK_DEATH_MS of their start. */
  quickDeaths: number;
  lastRestart?: { at: string; exit: string; livedMs: number };
  /** Set while a daemon that keeps dying at once waits out its backoff. */
  waitingUntil?: string;
}

export type RestartDecision =
  | { kind: "now"; quickDeaths: number; reason: string }
  | { kind: "back-off"; delayMs: number; quickDeaths: number; reason: string };

/** When to restart a daemon that died: at once, unless it keeps dying at once (2 s, 4 s, … 60 s). */
export function decideDaemonRestart(input: { livedMs: number; quickDeaths: number; exit: string }): RestartDecision {
  const lived = `it ran ${formatDuration(input.livedMs)} (${input.exit})`;
  if (input.livedMs >= QUICK_DEATH_MS) return { kind: "now", quickDeaths: 0, reason: lived };
  const quickDeaths = input.quickDeaths + 1;
  // The first death is restarted at once, however early: a kill from outside is not a crash loop.
  if (quickDeaths < 2) return { kind: "now", quickDeaths, reason: lived };
  const delayMs = Math.min(FIRST_BACKOFF_MS * 2 ** (quickDeaths - 2), MAX_BACKOFF_MS);
  const reason = `${lived}; ${quickDeaths} daemons in a row died within ${formatDuration(QUICK_DEATH_MS)}`;
  const next = `${reason}, so the next starts in ${formatDuration(delayMs)}`;
  return { kind: "back-off", delayMs, quickDeaths, reason: next };
}

/** "signal SIGKILL" or "exit 1", as the pane's end was reported. */
export function describeDaemonExit(pane: { deadStatus: number | null; deadSignal?: string | null }): string {
  if (pane.deadSignal) return `signal ${pane.deadSignal}`;
  return pane.deadStatus === null ? "exit status unknown" : `exit ${pane.deadStatus}`;
}

/** The record a starting keeper writes: counts carried over from an earlier keeper of the same `org up`, gone now. */
function isLastRestart(value: unknown): value is KeeperRecord["lastRestart"] {
  return isFields(value) && isString(value.at) && isString(value.exit) && isNumber(value.livedMs);
}

/** keeper.json's JSON as a record; undefined when it is of another shape. Plain checks: `org status` reads it. */
export function parseKeeperRecord(value: unknown): KeeperRecord | undefined {
  if (!isFields(value)) return undefined;
  const valid = isNumber(value.pid) && isString(value.startedAt) && isString(value.upAt)
    && isNumber(value.daemonRestarts) && isNumber(value.keeperRestarts) && isNumber(value.quickDeaths)
    && isOptional(isLastRestart)(value.lastRestart) && isOptional(isString)(value.waitingUntil);
  return valid ? (value as unknown as KeeperRecord) : undefined;
}

export function startKeeperRecord(previous: KeeperRecord | undefined, me: { pid: number; now: Date; upAt: string }): {
  record: KeeperRecord;
  replaced?: number;
} {
  const same = previous?.upAt === me.upAt ? previous : undefined;
  // A predecessor of this `org up` was replaced: counted, and said in log.md.
  const replaced = same && same.pid !== me.pid ? same.pid : undefined;
  const record: KeeperRecord = {
    pid: me.pid, startedAt: me.now.toISOString(), upAt: me.upAt, daemonRestarts: same?.daemonRestarts ?? 0,
    keeperRestarts: (same?.keeperRestarts ?? 0) + (replaced === undefined ? 0 : 1), quickDeaths: same?.quickDeaths ?? 0,
    ...(same?.lastRestart ? { lastRestart: same.lastRestart } : {}),
  };
  return replaced === undefined ? { record } : { record, replaced };
}

/** `org doctor`'s line on the keeper of a running org: none running means no one brings a dead daemon back. */
export function checkKeeper(record: KeeperRecord | undefined, alive: number | undefined): Check {
  const restarts = record ? `; restarted the daemon ${record.daemonRestarts} times since org up` : "";
  if (alive !== undefined) return { name: "daemon keeper", status: "ok", detail: `running (pid ${alive})${restarts}` };
  const detail = `not running${restarts}: a daemon that dies stays dead until \`org up\``;
  return {
    name: "daemon keeper",
    status: "warn",
    detail,
    fix: "org up (starts the keeper; touches nothing that runs)",
  };
}
