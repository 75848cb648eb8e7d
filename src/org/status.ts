import { OrgError } from "./errors.js";
import { agentPaths, orgPaths } from "./paths.js";
import { buildSnapshot, type OrgSnapshot } from "./snapshot.js";
import type { AgentStatus, OrgRecord } from "./state.js";
import type { World } from "./world.js";

/** Read state, one tmux call and the branch heads into a snapshot. */
export async function readSnapshot(world: World, root: string): Promise<OrgSnapshot> {
  const paths = orgPaths(root);
  const text = await world.files.readText(paths.orgFile);
  if (!text) throw new OrgError(`no org state in ${paths.state} — run \`org up\` first`, "no-state");
  const record = JSON.parse(text) as OrgRecord;
  const tmux = world.tmux(record.socket, record.session);
  const panes = await tmux.listPanes();
  const running = panes.length > 0;
  const statuses = await readStatuses(world, paths.state, record.agents.map((agent) => agent.name));
  const branches = await world.git.branchHeads(record.repo, `org/${record.name}/`).catch(() => new Map<string, string>());
  const heads = new Map(record.agents.map((agent) => [agent.name, branches.get(agent.branch) ?? null]));
  return buildSnapshot({ record, running, panes, statuses, heads, isAlive: world.processes.isAlive, now: world.now() });
}

/** Every agent's status.json; a missing one (not written yet) is undefined. */
export async function readStatuses(world: World, state: string, agents: string[]): Promise<Map<string, AgentStatus | undefined>> {
  const entries = await Promise.all(agents.map(async (agent) => {
    const text = await world.files.readText(agentPaths(state, agent).status);
    return [agent, text ? (JSON.parse(text) as AgentStatus) : undefined] as const;
  }));
  return new Map(entries);
}
