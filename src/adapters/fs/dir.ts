import { constants } from "node:fs";
import { access, mkdir, readdir, rm, stat } from "node:fs/promises";

/** Create `path` and its parents; nothing when it exists. */
export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
}

/** The names in `dir`; none when it does not exist (yet). */
export function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Remove one file; a file already gone is not an error. */
export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Size in bytes, 0 for a file that is not there. */
export function fileSize(path: string): Promise<number> {
  return stat(path).then((info) => info.size, () => 0);
}

/** Last modification in ms since the epoch, 0 for a file that is not there. */
export function modifiedMs(path: string): Promise<number> {
  return stat(path).then((info) => info.mtimeMs, () => 0);
}

export function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

/** Whether `path` exists, or, with "execute", whether this user may run it. */
export function canAccess(path: string, mode: "exists" | "execute"): Promise<boolean> {
  return access(path, mode === "execute" ? constants.X_OK : constants.F_OK).then(() => true, () => false);
}
