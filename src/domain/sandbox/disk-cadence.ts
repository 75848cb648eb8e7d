// How often the daemon's disk watch asks the disk (one statfs) how full it is.

/** The look's wait while the disk's use moves, or its free space nears the floor. */
export const DISK_LOOK_MS = 1000;
/** The longest wait: a look that finds the disk still doubles the next one's wait, up to this. */
export const QUIET_DISK_LOOK_MS = 4000;
// Less than this since the last look is still: a log line or a heartbeat moves the disk by a few KiB.
const STILL_BYTES = 1024 ** 2;

/** What one look saw, beside the one before it. */
export interface DiskLook {
  /** The disk's used bytes at the look before, or undefined for the first. */
  usedBefore: number | undefined;
  used: number;
  free: number;
  /** The free space below which no verify run starts. */
  floor: number;
  /** The wait that led to this look. */
  waitedMs: number;
}

/**
 * The wait before the next look: a second while anything writes (the disk's use moved) or the floor is near, so
 * a fast writer is caught within a second; an idle org's disk, still, is asked every few seconds.
 */
export function chooseNextDiskLook(look: DiskLook): number {
  const moved = look.usedBefore === undefined || Math.abs(look.used - look.usedBefore) >= STILL_BYTES;
  if (moved || look.free < 2 * look.floor) return DISK_LOOK_MS;
  return Math.min(QUIET_DISK_LOOK_MS, Math.max(DISK_LOOK_MS, look.waitedMs * 2));
}
