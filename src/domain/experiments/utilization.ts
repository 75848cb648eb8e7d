// How busy the org kept its GPUs: busy GPU-seconds of verify runs over wall time × GPUs, overall and over
// the last hour.

const HOUR_MS = 3_600_000;
/**
 * Bucket sizes for the plot, smallest first: the first that gives at most MAX_BUCKETS points over the
 * org's life wins.
 */
const BUCKETS_MS = [60_000, 300_000, 900_000, HOUR_MS, 6 * HOUR_MS, 24 * HOUR_MS];
const MAX_BUCKETS = 60;

/** One verify run's hold on a slot, in epoch ms; no end: still running, counted up to now. */
export interface BusyInterval {
  slot: string;
  start: number;
  end?: number;
}

/** What runs could fill: the GPUs the verifier schedules on, or in a CPU-only org its `parallel` slots. */
export interface Capacity {
  unit: "gpu" | "slot";
  slots: string[];
}

export interface Utilization {
  unit: Capacity["unit"];
  /** How many GPUs (or CPU slots) the wall time is multiplied by. */
  gpus: number;
  /** busySeconds / (wallSeconds × gpus); null while there is no wall time or no GPU to fill. */
  overall: number | null;
  busySeconds: number;
  wallSeconds: number;
  /** The same over the last hour, or over the org's whole life while it is younger than an hour. */
  lastHour: number | null;
  lastHourBusySeconds: number;
  lastHourWallSeconds: number;
}

export interface UtilizationPoint {
  /** ISO times of the bucket, clipped to the org's life. */
  start: string;
  end: string;
  /** 0–1. */
  utilization: number;
}

/** Overall since `since` and over the last hour, up to `now`. */
export function measureUtilization(
  input: { runs: BusyInterval[]; capacity: Capacity; since: number; now: number },
): Utilization {
  const { runs, capacity, since, now } = input;
  const hourAgo = Math.max(since, now - HOUR_MS);
  const overall = measureWindow(runs, capacity.slots, since, now);
  const lastHour = measureWindow(runs, capacity.slots, hourAgo, now);
  return {
    unit: capacity.unit, gpus: capacity.slots.length,
    overall: overall.ratio, busySeconds: overall.busyMs / 1000, wallSeconds: overall.wallMs / 1000,
    lastHour: lastHour.ratio, lastHourBusySeconds: lastHour.busyMs / 1000, lastHourWallSeconds: lastHour.wallMs / 1000,
  };
}

/** Utilization per bucket from `since` to `now`, for the report's plot; the bucket size grows with the org's age. */
export function seriesUtilization(
  input: { runs: BusyInterval[]; capacity: Capacity; since: number; now: number },
): { bucketSeconds: number; points: UtilizationPoint[] } {
  const { runs, capacity, since, now } = input;
  const span = now - since;
  const bucket = BUCKETS_MS.find((size) => span / size <= MAX_BUCKETS) ?? BUCKETS_MS[BUCKETS_MS.length - 1]!;
  const points: UtilizationPoint[] = [];
  for (let from = since; from < now; from += bucket) {
    const to = Math.min(from + bucket, now);
    const { ratio } = measureWindow(runs, capacity.slots, from, to);
    points.push({ start: new Date(from).toISOString(), end: new Date(to).toISOString(), utilization: ratio ?? 0 });
  }
  return { bucketSeconds: bucket / 1000, points };
}

function measureWindow(
  runs: BusyInterval[], slots: string[], from: number, to: number,
): { busyMs: number; wallMs: number; ratio: number | null } {
  const wallMs = Math.max(0, to - from);
  const busyMs = slots.reduce((sum, slot) => sum + busyOnSlot(runs.filter((run) => run.slot === slot), from, to), 0);
  return { busyMs, wallMs, ratio: wallMs > 0 && slots.length > 0 ? busyMs / (wallMs * slots.length) : null };
}

// Two runs on one slot at once (a killed daemon's orphan beside its rerun) hold it once, not twice.
function busyOnSlot(runs: BusyInterval[], from: number, to: number): number {
  const clipped = runs
    .map((run) => [Math.max(run.start, from), Math.min(run.end ?? to, to)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let reached = from;
  for (const [start, end] of clipped) {
    if (end <= reached) continue;
    busy += end - Math.max(start, reached);
    reached = end;
  }
  return busy;
}
