import { agentPaths, type OrgPaths } from "../paths.js";
import type { PanesPort } from "../ports.js";
import type { OrgRecord } from "../state.js";
import { readAgentStatus } from "../lifecycle/agent-status-file.js";
import { readLaunchSpec } from "../lifecycle/launch-file.js";
import { findRecordedProgram } from "../lifecycle/recorded-program.js";
import type { World } from "../world.js";
import type { ObservedOrg } from "./org-states.js";
import { isHeldByStop } from "../experiments/stop-state.js";

/** The running org as its files and its panes show it. */
export async function observeOrg(
  world: World, paths: OrgPaths, record: OrgRecord, tmux: PanesPort,
): Promise<ObservedOrg> {
  const panes = await tmux.listPanes();
  const byId = new Map(panes.map((pane) => [pane.id, pane]));
  const agents = await Promise.all(record.agents.map(async (agent) => {
    const [launch, prompt] = await Promise.all([
      readLaunchSpec(world.files, paths.state, agent.name).then((spec) => spec ?? null),
      world.files.readText(agentPaths(paths.state, agent.name).prompt),
    ]);
    const status = await readAgentStatus(world.files, paths.state, agent.name);
    return {
      record: agent,
      launch,
      prompt: prompt ?? null,
      pane: agent.paneId ? byId.get(agent.paneId) : undefined,
      programPid: findRecordedProgram(world.processes, status) ?? null,
      heldByStop: isHeldByStop(status),
    };
  }));
  return {
    name: record.name,
    repo: record.repo,
    base: record.base,
    agents,
    paneCount: panes.length,
    ...(record.pool ? { pool: record.pool } : {}),
  };
}

