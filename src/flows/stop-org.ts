import { downOrg, type DownResult } from "../domain/lifecycle/down-org.js";
import type { OrgRecord } from "../domain/state.js";
import { orgPaths } from "../domain/paths.js";
import { cancelOrgJobs, createSlurm, type SlurmResult } from "../adapters/slurm/slurm.js";
import { createWorld } from "../adapters/real-world.js";
import { readOptionalRecord, removeRecord } from "../adapters/store/org-record.js";
import { findOrgLeftovers } from "../adapters/store/org-leftovers.js";
import { recordProgramStop } from "../adapters/store/program-record.js";
import { removeAbRun } from "../adapters/store/ab-run.js";
import { stopKeeper } from "../adapters/keeper-process.js";

/** What `org down` is told as it goes: each step's name, and each phase an interrupt may arrive in. */
export interface StopHooks {
  step(what: string): void;
  enter(phase: string): Promise<void>;
}

/** A half-written org.json (a killed writer, a full disk) is no record: down goes on by socket and folders. */
export type RecordMissing = { file: string; why: string; unreadable: boolean };

export type Stopped =
  | { kind: "stopped"; record: OrgRecord; result: DownResult; cancelled?: SlurmResult<string[]> }
  | { kind: "found"; missing: RecordMissing; result: DownResult; keeper: boolean };

/**
 * `org down [--clean]`: stop everything of ours; with `clean` remove clean worktrees, never branches. Without a
 * readable org.json (an interrupted `org up`) the org's own sockets and agent folders say what is ours.
 */
export async function stopOrg(input: { root: string; clean: boolean }, hooks: StopHooks): Promise<Stopped> {
  const paths = orgPaths(input.root);
  const read = await readRecordOrWhy(input.root);
  const record = "record" in read ? read.record : undefined;
  // First the keeper, which would otherwise restart the daemon that down stops next.
  hooks.step("stopping the keeper");
  const keeper = await stopKeeper(input.root, paths.state);
  await hooks.enter("stop");
  const found = await findOrgLeftovers(input.root);
  const result = await downOrg(createWorld(), input.root, { clean: input.clean, record, ...found, onStep: hooks.step });
  if (record || result.wasRunning) await recordProgramStop(paths.state, new Date());
  // Both halves of an A/B run end together; their rows keep their programs.
  await removeAbRun(paths.state);
  if (!("record" in read)) {
    // Everything it could name is stopped: an unreadable org.json would only make every later command fail on it.
    if (read.unreadable) await removeRecord(input.root);
    return { kind: "found", missing: read, result, keeper };
  }
  // Jobs hold GPUs after their panes are gone: cancel ours, found by our comment, never by user.
  const cancelled = read.record.backend === "slurm" ? await cancelOrgJobs(createSlurm(), read.record.name) : undefined;
  return { kind: "stopped", record: read.record, result, ...(cancelled ? { cancelled } : {}) };
}

async function readRecordOrWhy(root: string): Promise<{ record: OrgRecord } | RecordMissing> {
  const file = orgPaths(root).orgFile;
  const record = await readOptionalRecord(root).catch((error: Error) => error);
  if (record === undefined) return { file, why: `no ${file}`, unreadable: false };
  if (record instanceof Error) {
    return { file, why: `${file} is unreadable (half-written, or not an org record)`, unreadable: true };
  }
  if (typeof record.socket !== "string" || !Array.isArray(record.agents)) {
    return { file, why: `${file} is incomplete`, unreadable: true };
  }
  return { record };
}
