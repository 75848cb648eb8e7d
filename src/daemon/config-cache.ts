import type { ReadConfigResult } from "../adapters/store/config-file.js";
import type { ConfigReader } from "../adapters/store/run-config.js";

// Hot reload's watch loads org.yaml anew within 200 ms of a save, and each load serves every service at once; this
// is how long a load serves before org.yaml, state/ab.json and program B's file are read again regardless.
export const CONFIG_FRESH_MS = 5000;

/**
 * The daemon's services share one look at org.yaml: the disk watch (every second), the stop watch, standups and
 * usage each read it, and each read was a digest of the files. A load serves for `freshMs`, or until the next reload.
 */
export function shareConfigReads(reader: ConfigReader, freshMs = CONFIG_FRESH_MS, now = Date.now): ConfigReader {
  let last: { at: number; result: Promise<ReadConfigResult> } | undefined;
  const keep = (result: Promise<ReadConfigResult>) => {
    const kept = { at: now(), result };
    last = kept;
    // A load that threw (git gone for a moment) is tried again by the next read, not served.
    result.catch(() => {
      if (last === kept) last = undefined;
    });
    return result;
  };
  return {
    read: () => (last && now() - last.at < freshMs ? last.result : keep(reader.read())),
    reload: () => keep(reader.reload()),
  };
}
