// state/agents/<agent>/resume-kickoff.json: a resumed CLI's kickoff still to type, or typed. The daemon writes and
// reads it here; `org up` and a reload step remove it through their file port (src/domain cannot import adapters).
import { isFields, isString } from "../../domain/json-fields.js";
import { agentPaths } from "../../domain/paths.js";
import type { ResumeKickoff } from "../../domain/screens/resume-kickoff.js";
import { removeFile } from "../fs/dir.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";

function isDone(value: unknown): boolean {
  return value === null
    || (isFields(value) && isString(value.at) && (value.outcome === "typed" || value.outcome === "gave-up"));
}

function parseResumeKickoff(value: unknown): ResumeKickoff | undefined {
  const valid = isFields(value) && isString(value.pane) && isString(value.resumedAt) && isDone(value.done);
  return valid ? (value as unknown as ResumeKickoff) : undefined;
}

/**
 * The agent's pending (or done) kickoff; undefined when none, or the file is unreadable or of another shape: no
 * kickoff is typed then, and the idle nudge recovers a CLI left at its prompt, never a kickoff typed twice.
 */
export async function readResumeKickoff(state: string, agent: string): Promise<ResumeKickoff | undefined> {
  return parseResumeKickoff(await readJson(agentPaths(state, agent).resumeKickoff).catch(() => undefined));
}

/** Written whole or not at all: a daemon killed mid-write leaves the record before or after, never half. */
export async function writeResumeKickoff(state: string, agent: string, record: ResumeKickoff): Promise<void> {
  await writeJsonAtomic(agentPaths(state, agent).resumeKickoff, record);
}

export async function removeResumeKickoff(state: string, agent: string): Promise<void> {
  await removeFile(agentPaths(state, agent).resumeKickoff);
}
