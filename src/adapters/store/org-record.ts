import { readOptionalOrgRecord, readOrgRecord, removeOrgRecord } from "../../domain/lifecycle/org-record-file.js";
import type { OrgRecord } from "../../domain/state.js";
import { filesPort } from "../fs/files-port.js";
import { pathExists } from "../fs/files.js";
import { cachedReadText } from "../fs/read-cache.js";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { hasResults } from "./results-file.js";

/** state/org.json as `org up` wrote it; a missing one means the org was never started here. */
export async function readRecord(root: string): Promise<OrgRecord> {
  return readOrgRecord(filesPort, root);
}

// The daemon's services read org.json every few seconds; it changes on up and reload (an atomic write: a new inode).
const statFirst = { ...filesPort, readText: cachedReadText() };

/**
 * state/org.json, or undefined for a caller that works on without one; read again only after a stat says it changed.
 */
export async function readOptionalRecord(root: string): Promise<OrgRecord | undefined> {
  return readOptionalOrgRecord(statFirst, root);
}

/** Removes state/org.json: `org down`, once what an unreadable one could have named is stopped. */
export async function removeRecord(root: string): Promise<void> {
  await removeOrgRecord(filesPort, orgPaths(root));
}

/**
 * For the views of state (results, history, tried): a folder where `org up` never ran is an error, as for `org status`;
 * results.tsv alone (brought from elsewhere) is state enough.
 */
export async function assertOrgState(root: string): Promise<void> {
  const paths = orgPaths(root);
  if ((await pathExists(paths.orgFile)) || (await hasResults(paths.state))) return;
  throw new OrgError(`no org state in ${paths.state} — run \`org up\` first`, "no-state");
}
