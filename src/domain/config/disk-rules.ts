import { join } from "node:path";
import type { ConfigProbe } from "./probe.js";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";
import { formatSize, parseSize } from "./size.js";

/**
 * sandbox.disk: a budget of 0 would stop every agent at once, and a floor the disk can never offer would hold every
 * verify run forever. The disk is the one holding the org's state folder; a probe that cannot tell its size skips that.
 */
export async function checkDiskSettings(raw: Raw, dir: string, probe: ConfigProbe): Promise<Problem[]> {
  const disk = asMap(asMap(raw.sandbox)?.disk);
  if (!disk) return [];
  const problems: Problem[] = [];
  const perAgent = readSize(disk.per_agent);
  if (perAgent === 0) {
    const path = ["sandbox", "disk", "per_agent"];
    const message = `${formatPath(path)} is 0, so every agent would be stopped as soon as it writes a byte`;
    problems.push({ path, message, fix: "give each agent a budget above 0, e.g. 20G" });
  }
  const floor = readSize(disk.floor);
  const total = floor ? await probe.diskSize?.(join(dir, "state")) : undefined;
  if (floor !== undefined && total !== undefined && floor >= total) {
    const path = ["sandbox", "disk", "floor"];
    const message = `${formatPath(path)} ${String(disk.floor)} is not below the size of the whole disk holding the org `
      + `(${formatSize(total)}), so no verify run would ever start`;
    problems.push({ path, message, fix: `set a floor well below ${formatSize(total)}, e.g. 1G` });
  }
  return problems;
}

// A value the schema refuses is the schema's problem: no second message for it here.
function readSize(value: unknown): number | undefined {
  if (typeof value !== "number" && typeof value !== "string") return undefined;
  try {
    return parseSize(value);
  } catch {
    return undefined;
  }
}
