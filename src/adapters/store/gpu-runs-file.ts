// Every verify run's busy interval (state/gpu-runs.jsonl) and the slots the verifier fills (state/gpu-slots.json).
import { appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readOptionalOrgRecord } from "../../domain/lifecycle/org-record-file.js";
import { filesPort } from "../fs/files-port.js";
import { parseGpuRuns, toBusyIntervals, type RunEnded, type RunStarted } from "../../domain/experiments/gpu-runs.js";
import type { BusyInterval, Capacity } from "../../domain/experiments/utilization.js";
import { readDaemonFile } from "../../domain/lifecycle/daemon-file.js";
import { orgPaths } from "../../domain/paths.js";
import { appendLines, readJson, readText, writeJsonAtomic } from "../fs/files.js";
import { isAlive, readStartTicks } from "../process.js";
import { isArrayOf, isFields, isString } from "../../domain/json-fields.js";

// Beats come every 2 s: older than this, the daemon is gone and the org's clock stopped at its last beat.
const STOPPED_AFTER_MS = 15_000;

function gpuRunsFile(state: string): string {
  return join(state, "gpu-runs.jsonl");
}

function slotsFile(state: string): string {
  return join(state, "gpu-slots.json");
}

/** gpu-slots.json's JSON as a capacity; undefined when it is of another shape. */
function parseCapacity(value: unknown): Capacity | undefined {
  const valid = isFields(value) && (value.unit === "gpu" || value.unit === "slot") && isArrayOf(isString)(value.slots);
  return valid ? (value as unknown as Capacity) : undefined;
}

/** Synchronous, right at spawn: a daemon killed a moment later still leaves the run's start on disk. */
export function recordRunStart(state: string, started: RunStarted): void {
  try {
    appendFileSync(gpuRunsFile(state), `${JSON.stringify(started)}\n`);
  } catch {
    // A full disk costs this run's place in the utilization figure, never the run itself.
  }
}

/** The runs started and not yet ended: some still going, some lost with a killed daemon (their process gone). */
export async function readOpenRuns(state: string): Promise<ReturnType<typeof parseGpuRuns>["open"]> {
  return parseGpuRuns((await readText(gpuRunsFile(state))) ?? "").open;
}

export async function recordRunEnd(state: string, ended: RunEnded): Promise<void> {
  await appendLines(gpuRunsFile(state), [JSON.stringify(ended)]).catch(() => undefined);
}

/**
 * Written by the verifier as it starts: what a run could fill, which only it knows (verify.parallel, the GPUs
 * it schedules on).
 */
export async function writeCapacity(state: string, capacity: Capacity): Promise<void> {
  await writeJsonAtomic(slotsFile(state), capacity);
}

/** What the verifier last said a run could fill; undefined when missing, unreadable or of another shape. */
export async function readCapacity(state: string): Promise<Capacity | undefined> {
  return parseCapacity(await readJson(slotsFile(state)).catch(() => undefined));
}

export interface UtilizationInput {
  runs: BusyInterval[];
  capacity: Capacity;
  since: number;
  now: number;
}

/**
 * What the utilization figures are computed from; undefined before the verifier of this org first started, or while
 * gpu-slots.json is unreadable or of another shape: no figure rather than a wrong one, until the verifier's next start.
 */
export async function readUtilizationInput(state: string, now: Date): Promise<UtilizationInput | undefined> {
  const [capacity, record, daemon, text] = await Promise.all([
    readCapacity(state),
    readOptionalOrgRecord(filesPort, dirname(state)).catch(() => undefined),
    readDaemonFile(filesPort, orgPaths(dirname(state))),
    readText(gpuRunsFile(state)),
  ]);
  const since = Date.parse(record?.upAt ?? "");
  if (!capacity || Number.isNaN(since)) return undefined;
  const { ended, open } = parseGpuRuns(text ?? "");
  // A start with no end whose process is gone was lost with a killed daemon: its time is unknown, so it counts none.
  const running = open.filter((run) => (run.ticks === null ? isAlive(run.pid) : readStartTicks(run.pid) === run.ticks));
  const runs = toBusyIntervals(ended, running);
  const beat = Date.parse(daemon?.heartbeatAt ?? "");
  // `org down` removes daemon.json: the clock stops at the last run it recorded rather than run on
  // through the downtime.
  const lastRun = Math.max(since, ...runs.map((run) => run.end ?? now.getTime()));
  const end = daemon === undefined
    ? lastRun
    : !Number.isNaN(beat) && now.getTime() - beat > STOPPED_AFTER_MS ? beat : now.getTime();
  return { runs, capacity, since, now: Math.max(since, end) };
}
