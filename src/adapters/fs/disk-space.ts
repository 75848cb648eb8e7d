import type { StatsFs } from "node:fs";
import { stat, statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { FULL_BYTES } from "../../domain/sandbox/disk-floor.js";
import { formatSize } from "../../domain/units/index.js";

/**
 * Free bytes for an unprivileged writer on the filesystem holding `path` (it need not exist yet);
 * undefined if unknown.
 */
export async function readFreeBytes(path: string): Promise<number | undefined> {
  const info = await statNearest(path);
  return info && info.bavail * info.bsize;
}

/** The whole size of the filesystem holding `path` (it need not exist yet); undefined if unknown. */
export async function readDiskSize(path: string): Promise<number | undefined> {
  const info = await statNearest(path);
  return info && info.blocks * info.bsize;
}

/** Free and used bytes of the filesystem holding `path`: one statfs, cheap enough for every few seconds. */
export async function readDiskUse(path: string): Promise<{ free: number; used: number; total: number } | undefined> {
  const info = await statNearest(path);
  if (!info) return undefined;
  return {
    free: info.bavail * info.bsize, used: (info.blocks - info.bfree) * info.bsize, total: info.blocks * info.bsize,
  };
}

async function statNearest(path: string): Promise<StatsFs | undefined> {
  for (let dir = path; ; dir = dirname(dir)) {
    const info = await statfs(dir).catch(() => undefined);
    if (info) return info;
    if (dirname(dir) === dir) return undefined;
  }
}

export async function isDiskFull(path: string): Promise<boolean> {
  const free = await readFreeBytes(path);
  return free !== undefined && free < FULL_BYTES;
}

/** The error a write gets when the disk (or the user's quota on it) has no room left. */
function isNoSpaceError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

// One spelling of sizes everywhere: org.yaml's sizes and messages about the disk.
export const formatBytes = formatSize;

/** The mount point holding `path`: the highest existing ancestor still on the same device. */
export async function findMountPoint(path: string): Promise<string | undefined> {
  let dir = path;
  let info = await stat(dir).catch(() => undefined);
  while (!info && dirname(dir) !== dir) {
    dir = dirname(dir);
    info = await stat(dir).catch(() => undefined);
  }
  if (!info) return undefined;
  for (;;) {
    const parent = dirname(dir);
    if (parent === dir) return dir;
    const above = await stat(parent).catch(() => undefined);
    if (!above || above.dev !== info.dev) return dir;
    dir = parent;
  }
}

/** `no space left on the disk mounted at M (F free): <what> — free some space there`, for any write under `path`. */
export async function describeDiskFull(path: string, opts: { what?: string; free?: number } = {}): Promise<string> {
  const [mount, free] = await Promise.all([findMountPoint(path), opts.free ?? readFreeBytes(path)]);
  const what = opts.what ?? `could not write ${path}`;
  const disk = mount ? `the disk mounted at ${mount}` : `the disk holding ${path}`;
  return `no space left on ${disk} (${free === undefined ? "free space unknown" : `${formatBytes(free)} free`}): `
    + `${what} — free some space there`;
}

/** An ENOSPC or EDQUOT from writing `path` as the disk-full OrgError; any other error as it was. */
export async function convertNoSpace(error: unknown, path: string): Promise<unknown> {
  return isNoSpaceError(error) ? new OrgError(await describeDiskFull(path), "disk-full") : error;
}

/**
 * Rethrows a disk-full error with what became of the user's work (`nothing was committed`) after it; others
 * as they are.
 */
export function addOutcome(error: unknown, outcome: string): never {
  if (error instanceof OrgError && error.code === "disk-full") throw new OrgError(
    `${error.message}; ${outcome}`, "disk-full",
  );
  throw error;
}
