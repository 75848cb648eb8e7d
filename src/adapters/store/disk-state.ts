import { join } from "node:path";
import { judgeFloor, type AgentDiskUse } from "../../domain/sandbox/disk-floor.js";
import { readFreeBytes } from "../fs/disk-space.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";

/** state/disk.json: the disk watch's last look, written by the daemon, read by `org status`. */
export interface DiskRecord {
  at: string;
  /** Free bytes on the disk of state/, and the floor verify runs keep. */
  free: number | null;
  floor: number;
  /** Why no verify run starts now, or null while there is room. */
  low: string | null;
  agents: AgentDiskUse[];
  /** How long the last walk of every agent's folders took. */
  sweepMs: number | null;
}

export function diskFile(state: string): string {
  return join(state, "disk.json");
}

export function writeDiskRecord(state: string, record: DiskRecord): Promise<void> {
  return writeJsonAtomic(diskFile(state), record);
}

export async function readDiskRecord(state: string): Promise<DiskRecord | undefined> {
  const raw = await readJson<DiskRecord>(diskFile(state)).catch(() => undefined);
  return raw && typeof raw === "object" && Array.isArray(raw.agents) ? raw : undefined;
}

/**
 * The disk watch's last look with the free space as it is now: on a disk too full for the daemon to write disk.json,
 * the floor and the agents it last measured still say why verify runs wait.
 */
export async function readDiskView(state: string): Promise<DiskRecord | undefined> {
  const [record, free] = await Promise.all([readDiskRecord(state), readFreeBytes(state)]);
  if (!record || free === undefined) return record;
  const decision = judgeFloor(free, record.floor, record.agents);
  return { ...record, free, low: decision.kind === "low" ? decision.reason : null };
}
