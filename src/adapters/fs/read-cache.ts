import { stat } from "node:fs/promises";
import { readText } from "./files.js";

/**
 * readText for files read again and again but seldom changed (status.json, launch.json), where a stat decides whether
 * to read: our atomic writes replace the inode and appends change the size, so each of our writes changes the key.
 */
export function cachedReadText(): (path: string) => Promise<string | undefined> {
  const cache = new Map<string, { key: string; text: string | undefined }>();
  return async (path) => {
    // Plain numbers, not bigint: this runs for every agent every refresh, and bigints were most of
    // the daemon's garbage.
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      cache.delete(path);
      return undefined;
    }
    const key = `${info.ino} ${info.size} ${info.mtimeMs}`;
    const hit = cache.get(path);
    if (hit?.key === key) return hit.text;
    const text = await readText(path);
    cache.set(path, { key, text });
    return text;
  };
}
