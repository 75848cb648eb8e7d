import { orgPaths } from "../../org/paths.js";
import { describeReloadWarning } from "../../org/reload-record.js";
import { readSnapshot } from "../../org/status.js";
import { readReloadRecord } from "../../adapters/reload-state.js";
import { createWorld } from "../../adapters/world.js";
import { renderStatus } from "../../ui/status-table.js";
import type { Io } from "../io.js";

/** `org status [--json]`: every agent with role, GPU, pid, state, restarts, uptime and branch head. */
export async function runStatus(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const snapshot = await readSnapshot(createWorld(), opts.root);
  const reload = await readReloadRecord(orgPaths(opts.root).state);
  io.out(opts.json ? JSON.stringify({ ...snapshot, reload: reload ?? null }, null, 2) : renderStatus(snapshot, describeReloadWarning(reload)));
  return 0;
}
