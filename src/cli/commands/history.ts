import { join } from "node:path";
import { orgPaths } from "../../org/paths.js";
import { parseResults } from "../../org/experiments/results.js";
import { buildProgramHistory, type SavedProgram } from "../../org/programs/history.js";
import { listDir } from "../../adapters/fs/dir.js";
import { readText } from "../../adapters/fs/files.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { listSavedVersions, readProgramEvents, readSavedProgram } from "../../adapters/store/programs.js";
import { readLedgers } from "../../adapters/usage/store.js";
import { ATTRIBUTION, renderHistory } from "../../ui/history-table.js";
import type { Io } from "../io.js";

/** `org history [--json]`: every program version in order of first use, with what the org did while it ran. */
export async function runHistory(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const state = orgPaths(opts.root).state;
  const table = parseResults((await readText(orgPaths(opts.root).results)) ?? "");
  const { goal, metricName, pricing } = await readMetricSetting(opts.root);
  const saved = new Map<string, SavedProgram>();
  for (const version of await listSavedVersions(state)) {
    const copy = await readSavedProgram(state, version);
    const agents = Object.values(copy?.config?.roles ?? {}).reduce((sum, role) => sum + role.count, 0);
    if (copy) saved.set(version, { by: copy.meta.by, agents });
  }
  // Every agent that ever ran here, removed ones too: their tokens were spent under some program.
  const usage = await readLedgers(state, await listDir(join(state, "agents")));
  const rows = buildProgramHistory({ events: await readProgramEvents(state), saved, rows: table.rows, usage, pricing, goal });
  io.out(opts.json ? JSON.stringify({ metric: table.metricName ?? metricName, goal, attribution: ATTRIBUTION, programs: rows }, null, 2) : renderHistory(rows, table.metricName ?? metricName));
  return 0;
}
