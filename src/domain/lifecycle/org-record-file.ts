// state/org.json, the org as `org up` (and each reload step) last applied it: the only module that reads or writes
// it, over the caller's file port (up, reload and the views are in src/domain, which cannot import adapters).
import { OrgError } from "../errors.js";
import { orgPaths, type OrgPaths } from "../paths.js";
import type { FilesPort } from "../ports.js";
import type { AgentRecord, OrgRecord } from "../state.js";

const STRINGS = ["name", "root", "repo", "base", "baseCommit", "socket", "session", "controlPaneId", "upAt"] as const;
const AGENT_STRINGS = ["role", "runtime", "branch", "worktree", "paneId"] as const;

/** state/org.json as `org up` wrote it; undefined when the org was never started here. */
export async function readOptionalOrgRecord(
  files: Pick<FilesPort, "readText">, root: string,
): Promise<OrgRecord | undefined> {
  const file = orgPaths(root).orgFile;
  const text = await files.readText(file);
  if (!text) return undefined;
  const problem = await checkRecord(text);
  // A writer killed mid-write (or a hand edit) leaves a record nothing can act on: said, never an internal error.
  const fix = "run `org down`, then `org up`";
  if (problem !== undefined) {
    throw new OrgError(`${file} is unreadable (not an org record: ${problem}) — ${fix}`, "state");
  }
  return JSON.parse(text) as OrgRecord;
}

/** state/org.json; a missing one is an error that says so, then `fix`. */
export async function readOrgRecord(
  files: Pick<FilesPort, "readText">, root: string, fix = "run `org up` first",
): Promise<OrgRecord> {
  const record = await readOptionalOrgRecord(files, root);
  if (!record) throw new OrgError(`no org state in ${orgPaths(root).state} — ${fix}`, "no-state");
  return record;
}

/** An agent's entry in org.json: the agent as `org up` or a reload planned it, and the pane it runs in. */
export function toAgentRecord(agent: Omit<AgentRecord, "paneId">, paneId: string | undefined): AgentRecord {
  const { name, role, runtime, branch, worktree, gpu } = agent;
  return { name, role, runtime, branch, worktree, gpu, paneId };
}

/** org.json's text already read (a watcher's copy): the record, or undefined when it is none (absent, cut short). */
export function parseOrgRecordText(text: string | undefined): OrgRecord | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isOrgRecord(value) ? (value as OrgRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: an `org up` killed mid-write leaves the record before or after, never half. */
export async function writeOrgRecord(
  files: Pick<FilesPort, "writeAtomic">, paths: Pick<OrgPaths, "orgFile">, record: OrgRecord,
): Promise<void> {
  await files.writeAtomic(paths.orgFile, `${JSON.stringify(record, null, 2)}\n`);
}

/** `org down`: the org is no longer up here. */
export async function removeOrgRecord(
  files: Pick<FilesPort, "removeFile">, paths: Pick<OrgPaths, "orgFile">,
): Promise<void> {
  await files.removeFile(paths.orgFile);
}

// The quick check holds what the schema holds; the schema (and zod) loads only to say what a bad record lacks.
async function checkRecord(text: string): Promise<string | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (isOrgRecord(value)) return undefined;
  const { explainOrgRecord } = await import("./org-record-schema.js");
  return explainOrgRecord(value) || "not an object with agents";
}

function isOrgRecord(value: unknown): boolean {
  const record = value as Record<string, unknown> | null;
  if (typeof record !== "object" || record === null || !Array.isArray(record.agents)) return false;
  if (!STRINGS.every((key) => record[key] === undefined || typeof record[key] === "string")) return false;
  const typed = (key: string, type: string) => record[key] === undefined || typeof record[key] === type;
  if (!typed("cpuMode", "boolean") || (record.version !== undefined && record.version !== 1)) return false;
  if (record.mode !== undefined && record.mode !== "tmux" && record.mode !== "pty") return false;
  if (record.backend !== undefined && record.backend !== "local" && record.backend !== "slurm") return false;
  const numbers = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === "number");
  if (record.pool !== undefined && !numbers(record.pool)) return false;
  return record.agents.every(isAgentRecord);
}

function isAgentRecord(value: unknown): boolean {
  const agent = value as Record<string, unknown> | null;
  if (typeof agent !== "object" || agent === null || typeof agent.name !== "string") return false;
  if (!AGENT_STRINGS.every((key) => agent[key] === undefined || typeof agent[key] === "string")) return false;
  return agent.gpu === undefined || agent.gpu === null || typeof agent.gpu === "number";
}
