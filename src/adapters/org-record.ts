import { readFile } from "node:fs/promises";
import { OrgError } from "../org/errors.js";
import { orgPaths } from "../org/paths.js";
import type { OrgRecord } from "../org/state.js";

/** state/org.json as `org up` wrote it; a missing one means the org was never started here. */
export async function readRecord(root: string): Promise<OrgRecord> {
  const path = orgPaths(root).orgFile;
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (!text) throw new OrgError(`no org state in ${orgPaths(root).state} — run \`org up\` first`, "no-state");
  return JSON.parse(text) as OrgRecord;
}
