import { orgPaths } from "../../org/paths.js";
import { describeReloadWarning } from "../../org/reload-record.js";
import { readSnapshot } from "../../org/status.js";
import { readUsageViews } from "../../org/usage/summary.js";
import { readReloadRecord } from "../../adapters/reload-state.js";
import { createWorld } from "../../adapters/world.js";
import { renderStatus } from "../../ui/status-table.js";
import type { Io } from "../io.js";

/** `org status [--json]`: every agent with role, GPU, pid, state, restarts, uptime, branch head, tokens and dollars. */
export async function runStatus(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const world = createWorld();
  const snapshot = await readSnapshot(world, opts.root);
  const reload = await readReloadRecord(orgPaths(opts.root).state);
  // Each agent's tokens and dollars as the daemon last summed them (null: its program records none).
  const usage = await readUsageViews(world.files, orgPaths(opts.root).state, snapshot.agents.map((agent) => agent.name));
  const agents = snapshot.agents.map((agent) => ({ ...agent, usage: usage.get(agent.name) ?? null }));
  io.out(opts.json ? JSON.stringify({ ...snapshot, agents, reload: reload ?? null }, null, 2) : renderStatus(snapshot, describeReloadWarning(reload), usage));
  return 0;
}
