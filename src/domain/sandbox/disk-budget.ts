import { DiskSchema, formatSize, parseDuration, parseSize, type OrgConfig } from "../config/index.js";
import type { AgentDiskUse } from "./disk-floor.js";

// The floor in a module of its own (`org status` judges it without zod); here too for the daemon's callers.
export { judgeFloor, type AgentDiskUse, type FloorDecision } from "./disk-floor.js";

export type BudgetDecision = { kind: "within" } | { kind: "over"; reason: string };

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
