// state/gpu-runs.jsonl: one line as each verify run starts and one as it ends, so every run's busy interval is on disk.
import type { BusyInterval, Capacity } from "./utilization.js";
import { poolSlots, slotsFor } from "./schedule.js";

/** Which run of which experiment holds which slot; baseline repeats and confirmation runs each get their own. */
export interface RunSlot {
  slot: string;
  /** The GPU the run was given (CUDA_VISIBLE_DEVICES), null on a CPU slot. */
  gpu: number | null;
  agent: string;
  commit: string;
  kind: "baseline" | "candidate" | "confirmation" | "confirm" | "stack" | "ablate";
  /** 1-based: the run's place among its experiment's runs. */
  run: number;
}

/** Written at spawn: pid and kernel start time tell a run still going from one a killed daemon lost. */
export interface RunStarted extends RunSlot {
  id: string;
  start: string;
  pid: number;
  ticks: number | null;
}

/** Written when the run ends: the whole interval, so a reader never needs its start line. */
export interface RunEnded extends RunSlot {
  id: string;
  start: string;
  end: string;
}

/**
 * Ended runs, and started ones with no end yet (running, or lost with a killed daemon: the caller tells them apart).
 */
export function parseGpuRuns(text: string): { ended: RunEnded[]; open: RunStarted[] } {
  const ended = new Map<string, RunEnded>();
  const started = new Map<string, RunStarted>();
  for (const line of text.split("\n")) {
    const record = parseLine(line);
    if (!record) continue;
    if ("end" in record) ended.set(record.id, record);
    else started.set(record.id, record);
  }
  return { ended: [...ended.values()], open: [...started.values()].filter((run) => !ended.has(run.id)) };
}

/** Ended runs as intervals, with the open ones still running counted up to now. */
export function toBusyIntervals(ended: RunEnded[], running: RunStarted[]): BusyInterval[] {
  const intervals: BusyInterval[] = [
    ...ended.map((run) => ({ slot: run.slot, start: Date.parse(run.start), end: Date.parse(run.end) })),
    ...running.map((run) => ({ slot: run.slot, start: Date.parse(run.start) })),
  ];
  return intervals.filter((run) => !Number.isNaN(run.start) && !Number.isNaN(run.end ?? 0));
}

/**
 * The slots the verifier runs on: the pool's GPUs, every GPU an agent holds, or, in a CPU-only org, the
 * `parallel` CPU slots.
 */
export function listCapacity(agents: { gpu: number | null }[], parallel: number, pool?: readonly number[]): Capacity {
  if (pool) return pool.length > 0
    ? { unit: "gpu", slots: poolSlots(pool, new Set(), parallel) }
    : { unit: "slot", slots: slotsFor({ gpu: null }, parallel) };
  const gpuAgents = agents.filter((agent) => agent.gpu !== null);
  // A GPU org's agents without a GPU (a chief) add CPU slots that no GPU figure should count.
  const unit = gpuAgents.length > 0 ? "gpu" : "slot";
  const slots = new Set((unit === "gpu" ? gpuAgents : [{ gpu: null }]).flatMap((agent) => slotsFor(agent, parallel)));
  return { unit, slots: [...slots].sort((a, b) => a.localeCompare(b, "en", { numeric: true })) };
}

// A line cut short by a kill or a full disk is skipped, like a partial results.tsv row.
function parseLine(line: string): RunStarted | RunEnded | undefined {
  if (!line.trim()) return undefined;
  try {
    const record = JSON.parse(line) as Partial<RunStarted & RunEnded>;
    const keyed = typeof record.id === "string" && typeof record.slot === "string" && typeof record.start === "string";
    if (!keyed) return undefined;
    return record as RunStarted | RunEnded;
  } catch {
    return undefined;
  }
}
