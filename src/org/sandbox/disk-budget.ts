import { DiskSchema, formatSize, parseDuration, parseSize, type OrgConfig } from "../config/index.js";
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

/** sandbox.disk in bytes and milliseconds, with its defaults, present or not; `floor` only when org.yaml sets one. */
export function readDiskSettings(config: OrgConfig | undefined): { perAgent: number; floor?: number; everyMs: number } {
  const disk = config?.sandbox?.disk ?? DiskSchema.parse({});
  const floor = disk.floor === undefined ? {} : { floor: parseSize(disk.floor) };
  return { perAgent: parseSize(disk.per_agent), ...floor, everyMs: parseDuration(disk.every) };
}

// Room for verify runs' logs, checkouts and results; a disk this close to full fails runs anyway. A small disk (a
// tmpfs for state/) keeps a twentieth of itself, so the default never holds runs on a disk that is merely small.
const FLOOR = 1024 ** 3;

/** The floor verify runs keep: org.yaml's, else 1 GiB or a twentieth of the disk, whichever is less. */
export function chooseFloor(floor: number | undefined, diskBytes: number): number {
  return floor ?? Math.min(FLOOR, Math.floor(diskBytes / 20));
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
