import { readOptionalOrgRecord, readOrgRecord } from "../../org/record-file.js";
import type { OrgRecord } from "../../org/state.js";
import { filesPort } from "../fs/files-port.js";

/** state/org.json as `org up` wrote it; a missing one means the org was never started here. */
export async function readRecord(root: string): Promise<OrgRecord> {
  return readOrgRecord(filesPort, root);
}

/** state/org.json, or undefined for a caller that works on without one. */
export async function readOptionalRecord(root: string): Promise<OrgRecord | undefined> {
  return readOptionalOrgRecord(filesPort, root);
}
