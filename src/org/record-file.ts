import { OrgError } from "./errors.js";
import { orgPaths } from "./paths.js";
import type { FilesPort } from "./ports.js";
import type { OrgRecord } from "./state.js";

/** state/org.json as `org up` wrote it; undefined when the org was never started here. */
export async function readOptionalOrgRecord(files: Pick<FilesPort, "readText">, root: string): Promise<OrgRecord | undefined> {
  const text = await files.readText(orgPaths(root).orgFile);
  return text ? (JSON.parse(text) as OrgRecord) : undefined;
}

/** state/org.json; a missing one is an error that says so, then `fix`. */
export async function readOrgRecord(files: Pick<FilesPort, "readText">, root: string, fix = "run `org up` first"): Promise<OrgRecord> {
  const record = await readOptionalOrgRecord(files, root);
  if (!record) throw new OrgError(`no org state in ${orgPaths(root).state} — ${fix}`, "no-state");
  return record;
}
