import { join } from "node:path";
import type { AgentDiskUse } from "../../org/sandbox/disk-budget.js";
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
