import { parseDuration, type OrgConfig } from "../config/schema.js";
import { DiskSchema } from "../config/disk-schema.js";
import { formatSize, parseSize } from "../config/size.js";

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

export type BudgetDecision = { kind: "within" } | { kind: "over"; reason: string };
export type FloorDecision = { kind: "ok"; free: number } | { kind: "low"; free: number; reason: string };

/** sandbox.disk in bytes and milliseconds, with its defaults, present or not. */
export function readDiskSettings(config: OrgConfig | undefined): { perAgent: number; floor: number; everyMs: number } {
  const disk = config?.sandbox?.disk ?? DiskSchema.parse({});
  return { perAgent: parseSize(disk.per_agent), floor: parseSize(disk.floor), everyMs: parseDuration(disk.every) };
}

/** Over its budget an agent is stopped and waits for a person: the reason says what it wrote, where, the way out. */
export function judgeAgentDisk(use: AgentDiskUse, perAgent: number): BudgetDecision {
  if (use.bytes <= perAgent) return { kind: "within" };
  const wrote = `${use.partial ? "at least " : ""}${formatSize(use.bytes)}`;
  return {
    kind: "over",
    reason: `wrote ${wrote} in ${use.places.join(" and ")}, over sandbox.disk.per_agent (${formatSize(perAgent)}), `
      + "so its program was stopped — free space there or raise sandbox.disk.per_agent in org.yaml, "
      + "then restart it (r in `org watch`, or `org down && org up`)",
  };
}

/** A block of the disk watch's: only a person lifts it, never a screen that looks busy again while its program ends. */
export function isDiskBlock(reason: string): boolean {
  return reason.includes("over sandbox.disk.per_agent");
}

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
