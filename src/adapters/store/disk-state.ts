import { join } from "node:path";
import { judgeFloor, type AgentDiskUse } from "../../domain/sandbox/disk-floor.js";
import { readFreeBytes } from "../fs/disk-space.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";
import { isArrayOf, isBoolean, isFields, isNullable, isNumber, isString } from "../../domain/json-fields.js";

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

function diskFile(state: string): string {
  return join(state, "disk.json");
}

export function writeDiskRecord(state: string, record: DiskRecord): Promise<void> {
  return writeJsonAtomic(diskFile(state), record);
}

function isAgentUse(value: unknown): value is AgentDiskUse {
  return isFields(value) && isString(value.agent) && isNumber(value.bytes) && isArrayOf(isString)(value.places)
    && isString(value.largest) && isBoolean(value.partial);
}

/** disk.json's JSON as a record; undefined when of another shape. Plain checks: `org status` reads it. */
function parseDiskRecord(value: unknown): DiskRecord | undefined {
  if (!isFields(value)) return undefined;
  const valid = isString(value.at) && isNullable(isNumber)(value.free) && isNumber(value.floor)
    && isNullable(isString)(value.low) && isArrayOf(isAgentUse)(value.agents) && isNullable(isNumber)(value.sweepMs);
  return valid ? (value as unknown as DiskRecord) : undefined;
}

/**
 * The disk watch's last look; undefined when missing, unreadable or of another shape: the watch rewrites it within
 * a sweep, and `org status` shows no disk line until then rather than failing whole.
 */
export async function readDiskRecord(state: string): Promise<DiskRecord | undefined> {
  return parseDiskRecord(await readJson(diskFile(state)).catch(() => undefined));
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
