import { formatSize } from "../units/index.js";

// Less than this free and a write of ours (a heartbeat, a run's log, a sandboxed command's request) may already have
// failed or been cut short: the disk is full.
export const FULL_BYTES = 1024 * 1024;

/** What one agent has written, in the folders it may write (`places`, as the person sees them). */
export interface AgentDiskUse {
  agent: string;
  bytes: number;
  places: string[];
  /** The place of `places` that holds the most. */
  largest: string;
  /** The walk stopped at its cap: `bytes` is a floor of the truth. */
  partial: boolean;
}

export type FloorDecision = { kind: "ok"; free: number } | { kind: "low"; free: number; reason: string };

/** Below the floor no verify run starts; the reason names the agents that wrote the most, the likeliest culprits. */
export function judgeFloor(free: number, floor: number, uses: AgentDiskUse[]): FloorDecision {
  if (free >= floor) return { kind: "ok", free };
  const top = [...uses].filter((use) => use.bytes > 0).sort((a, b) => b.bytes - a.bytes).slice(0, 3);
  const each = top.map((use) => `${use.agent} ${formatSize(use.bytes)} (${use.largest})`);
  const named = top.length > 0 ? `; most written: ${each.join(", ")}` : "";
  return {
    kind: "low",
    free,
    reason: `only ${formatSize(free)} free on the disk of state/, below sandbox.disk.floor (${formatSize(floor)}): `
      + `no verify run starts, queued ones wait and nothing is lost${named} — `
      + "free space on that disk and runs resume by themselves",
  };
}
