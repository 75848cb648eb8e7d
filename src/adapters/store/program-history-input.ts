// What `org history`, `org compare` and `org report` read besides results.tsv: the timeline, the saved versions,
// every agent's replies.
import type { SavedProgram } from "../../domain/config-versions/version-history.js";
import type { ProgramEvent } from "../../domain/config-versions/version-timeline.js";
import type { UsageRecord } from "../../domain/usage/token-counts.js";
import { listDir } from "../fs/dir.js";
import { readLedgers } from "../usage/store.js";
import { listSavedVersions, readProgramEvents, readSavedProgram } from "./programs.js";
import { readAbSpans } from "./ab-run.js";
import type { AbSpan } from "../../domain/config-versions/ab-run-record.js";
import { agentsDir } from "../../domain/paths.js";

export async function readHistoryInput(state: string): Promise<{
  events: ProgramEvent[]; saved: Map<string, SavedProgram>; usage: Map<string, UsageRecord[]>; ab: AbSpan[];
}> {
  const saved = new Map<string, SavedProgram>();
  for (const version of await listSavedVersions(state)) {
    const copy = await readSavedProgram(state, version);
    const agents = Object.values(copy?.config?.roles ?? {}).reduce((sum, role) => sum + role.count, 0);
    if (copy) saved.set(version, { by: copy.meta.by, agents });
  }
  // Every agent that ever ran here, removed ones too: their tokens were spent under some program.
  const usage = await readLedgers(state, await listDir(agentsDir(state)));
  return { events: await readProgramEvents(state), saved, usage, ab: await readAbSpans(state) };
}
