// state/stop.json: what `org status` shows of the stop section, and where a stop has got to.
import type { StopDistance, StopFigures, StopKey } from "./stop.js";

/** grace: agents were told and write their progress; draining: their programs are stopped, queued runs finish; stopped: done. */
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
  /** The final report's path, or why none was written. */
  report?: { path: string } | { error: string };
}

export type StopFile = { kind: "running"; at: string; distances: StopDistance[] } | StopRecord;

/** stop.json's text as a StopFile; nothing readable is none. */
export function parseStopFile(text: string | undefined): StopFile | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as StopFile | null;
    return value && (value.kind === "running" || value.kind === "stop") ? value : undefined;
  } catch {
    return undefined;
  }
}
