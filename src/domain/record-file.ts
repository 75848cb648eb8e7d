import { OrgError } from "./errors.js";
import { orgPaths } from "./paths.js";
import type { FilesPort } from "./ports.js";
import type { OrgRecord } from "./state.js";

/** state/org.json as `org up` wrote it; undefined when the org was never started here. */
export async function readOptionalOrgRecord(files: Pick<FilesPort, "readText">, root: string): Promise<OrgRecord | undefined> {
  const file = orgPaths(root).orgFile;
  const text = await files.readText(file);
  if (!text) return undefined;
  const record = parseRecord(text);
  // A writer killed mid-write (or a hand edit) leaves a record nothing can act on: said, never an internal error.
  if (!record) throw new OrgError(`${file} is unreadable (not an org record) — run \`org down\`, then \`org up\``, "state");
  return record;
}

function parseRecord(text: string): OrgRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<OrgRecord> | null;
    return Array.isArray(record?.agents) ? (record as OrgRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** state/org.json; a missing one is an error that says so, then `fix`. */
export async function readOrgRecord(files: Pick<FilesPort, "readText">, root: string, fix = "run `org up` first"): Promise<OrgRecord> {
  const record = await readOptionalOrgRecord(files, root);
  if (!record) throw new OrgError(`no org state in ${orgPaths(root).state} — ${fix}`, "no-state");
  return record;
}
