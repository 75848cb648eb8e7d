import { readSnapshot } from "../../org/status.js";
import { createWorld } from "../../adapters/world.js";
import { renderStatus } from "../../ui/status-table.js";
import type { Io } from "../io.js";

/** `org status [--json]`: every agent with role, GPU, pid, state, restarts, uptime and branch head. */
export async function runStatus(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const snapshot = await readSnapshot(createWorld(), opts.root);
  io.out(opts.json ? JSON.stringify(snapshot, null, 2) : renderStatus(snapshot));
  return 0;
}
