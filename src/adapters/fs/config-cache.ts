import { stat } from "node:fs/promises";

/**
 * The last read of org.yaml, read again only when the file changes: loading it probes git twice, and the
 * daemon's periodic jobs (standups, progress caps) would otherwise pay that every few seconds.
 */
export function cacheConfigRead<T>(read: () => Promise<T>, file: string): () => Promise<T> {
  let last: { stamp: string; result: T } | undefined;
  return async () => {
    const info = await stat(file).catch(() => undefined);
    const stamp = info ? `${info.mtimeMs} ${info.size} ${info.ino}` : "missing";
    if (last?.stamp !== stamp) last = { stamp, result: await read() };
    return last.result;
  };
}
