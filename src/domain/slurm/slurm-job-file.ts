// state/slurm/<agent>/slurm.json (the job request `org up` writes) and slurm-job.json (the job `org slurm-run` last
// saw): the only module that reads or writes them, checked field by field (`org status` reads the job), over the
// caller's file port (`org up` writes the request in src/domain, which cannot import adapters).
import { isArrayOf, isBoolean, isFields, isNumber, isOptional, isString, type Fields } from "../json-fields.js";
import type { FilesPort } from "../ports.js";
import type { SlurmJobRequest } from "./job-argv.js";
import type { SlurmJob } from "./job.js";
import { slurmAgentPaths } from "./slurm-paths.js";

/** The job as `org status` and `org watch` read it. */
export interface SlurmJobRecord {
  id: string;
  status: string;
  job: SlurmJob;
  updatedAt: string;
}

const KINDS: ReadonlySet<unknown> = new Set<SlurmJob["kind"]>(["pending", "running", "suspended", "ending", "ended"]);

/** A job as squeue showed it, in slurm-job.json or the org's shared listing. */
export function isSlurmJob(value: unknown): value is SlurmJob {
  if (!isFields(value) || !isString(value.id) || !isString(value.name) || !isString(value.comment)) return false;
  if (!KINDS.has(value.kind)) return false;
  return value.kind !== "running" || (isString(value.node) && isArrayOf(isNumber)(value.gpus));
}

function isLaunch(value: unknown): boolean {
  return isFields(value) && isArrayOf(isString)(value.argv) && isString(value.cwd) && isFields(value.env)
    && Object.values(value.env).every(isString);
}

function isRequest(value: unknown): value is Fields {
  return isFields(value) && isString(value.org) && isString(value.agent) && isBoolean(value.gpu)
    && isString(value.output) && isString(value.cwd) && isFields(value.settings) && isLaunch(value.launch)
    && isOptional(isArrayOf(isString))(value.resume);
}

async function readValue(files: Pick<FilesPort, "readText">, path: string): Promise<unknown> {
  const text = await files.readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The agent's job request, or why there is none to run, with the fix: `org slurm-run` says it in the pane and runs
 * nothing, since the request is the only word on what to submit.
 */
export async function loadJobRequest(files: Pick<FilesPort, "readText">, state: string, agent: string):
  Promise<SlurmJobRequest | string> {
  const path = slurmAgentPaths(state, agent).request;
  const value = await readValue(files, path).catch((error: Error) => error);
  if (value === undefined) return `no ${path} — run \`org up\` again`;
  if (value instanceof Error) return `cannot read ${path}: ${value.message} — run \`org up\` again`;
  const why = value === null ? "cut short or not JSON" : "of another shape";
  return isRequest(value) ? (value as unknown as SlurmJobRequest) : `${path} is ${why} — run \`org up\` again`;
}

export async function writeJobRequest(
  files: Pick<FilesPort, "writeAtomic">, state: string, agent: string, request: SlurmJobRequest,
): Promise<void> {
  await files.writeAtomic(slurmAgentPaths(state, agent).request, `${JSON.stringify(request, null, 2)}\n`);
}

/**
 * The job the agent's `org slurm-run` last saw; undefined when none, or the file is unreadable or of another shape:
 * `org status` shows no job and a verify run goes on the submitting host until the next look rewrites it.
 */
export async function readJobRecord(files: Pick<FilesPort, "readText">, state: string, agent: string):
  Promise<SlurmJobRecord | undefined> {
  const value = await readValue(files, slurmAgentPaths(state, agent).job).catch(() => undefined);
  const valid = isFields(value) && isString(value.id) && isString(value.status) && isSlurmJob(value.job)
    && isString(value.updatedAt);
  return valid ? (value as unknown as SlurmJobRecord) : undefined;
}

export async function writeJobRecord(
  files: Pick<FilesPort, "writeAtomic">, state: string, agent: string, record: SlurmJobRecord,
): Promise<void> {
  await files.writeAtomic(slurmAgentPaths(state, agent).job, `${JSON.stringify(record, null, 2)}\n`);
}
