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
  const statuses = new Map<string, AgentStatus | undefined>();
  const heads = new Map<string, string | null>();
  await Promise.all(record.agents.map(async (agent) => {
    const status = await world.files.readText(agentPaths(paths.state, agent.name).status);
    statuses.set(agent.name, status ? (JSON.parse(status) as AgentStatus) : undefined);
    heads.set(agent.name, await world.git.revParse(record.repo, `refs/heads/${agent.branch}`));
  }));
  return buildSnapshot({ record, running, panes, statuses, heads, isAlive: world.processes.isAlive, now: world.now() });
}
