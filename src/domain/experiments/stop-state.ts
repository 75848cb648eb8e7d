// state/stop.json: what `org status` shows of the stop section, and where a stop has got to.
import type { AgentStatus } from "../state.js";
import type { StopDistance, StopFigures, StopKey } from "./stop.js";
import { isArrayOf, isBoolean, isFields, isOptional, isString, parseJsonText } from "../json-fields.js";

// The reason a stop writes into status.json: what tells a program it ended from one that failed or finished.
const STOPPED_BY = "org stopped: ";

/** status.json's reason for an agent the stop ended. */
export function describeStopped(reason: string): string {
  return `${STOPPED_BY}${reason}`;
}

/**
 * Whether a stop ended this agent's program: only the stop's resume starts it again, never a restart
 * policy or reload.
 */
export function isHeldByStop(status: Pick<AgentStatus, "state" | "reason"> | null | undefined): boolean {
  return status?.state === "stopped" && status.reason.startsWith(STOPPED_BY);
}

/**
 * grace: agents were told and write their progress; draining: their programs are stopped, queued runs
 * finish; stopped: done.
 */
export type StopPhase = "grace" | "draining" | "stopped";

export interface StopRecord {
  kind: "stop";
  phase: StopPhase;
  key: StopKey;
  reason: string;
  figures: StopFigures;
  /** Queued experiments are cancelled (GPU-hour and cost limits) rather than run. */
  cancel: boolean;
  metAt: string;
  graceUntil: string;
  stoppedAt?: string;
  /** stop.ablate: the org best whose ablation was queued, or why none was; set once, so it runs once. */
  ablated?: { commit: string } | { skipped: string };
  /** The final report's path, or why none was written. */
  report?: { path: string } | { error: string };
}

export type StopFile = { kind: "running"; at: string; distances: StopDistance[] } | StopRecord;

const PHASES: ReadonlySet<unknown> = new Set<StopPhase>(["grace", "draining", "stopped"]);

const isDistance = (value: unknown): value is StopDistance => isFields(value) && isString(value.key)
  && isString(value.text);

function isStopFile(value: unknown): value is StopFile {
  if (!isFields(value)) return false;
  if (value.kind === "running") return isString(value.at) && isArrayOf(isDistance)(value.distances);
  return value.kind === "stop" && PHASES.has(value.phase) && isString(value.key) && isString(value.reason)
    && isFields(value.figures) && isBoolean(value.cancel) && isString(value.metAt) && isString(value.graceUntil)
    && isOptional(isString)(value.stoppedAt);
}

/**
 * stop.json's text as a StopFile, checked field by field (`org status` reads it, without zod); nothing readable, or
 * of another shape, is none: the stop watch decides afresh at its next look, and a condition still met stops again.
 */
export function parseStopFile(text: string | undefined): StopFile | undefined {
  const value = parseJsonText(text);
  return isStopFile(value) ? value : undefined;
}
