import type { PaneInfo } from "./ports.js";
import type { AgentState, AgentStatus, OrgRecord } from "./state.js";

/** One agent as every view shows it. */
export interface AgentView {
  name: string;
  role: string;
  gpu: number | null;
  pid: number | null;
  state: AgentState;
  restarts: number;
  uptimeMs: number | null;
  branch: string;
  head: string | null;
  reason: string;
}

export interface OrgSnapshot {
  name: string;
  running: boolean;
  socket: string;
  cpuMode: boolean;
  upAt: string;
  agents: AgentView[];
}

/** Join what org up recorded, what supervisors wrote and what tmux says into one view. */
export function buildSnapshot(input: {
  record: OrgRecord;
  running: boolean;
  panes: PaneInfo[];
  statuses: Map<string, AgentStatus | undefined>;
  heads: Map<string, string | null>;
  isAlive: (pid: number) => boolean;
  now: Date;
}): OrgSnapshot {
  const panes = new Map(input.panes.map((pane) => [pane.id, pane]));
  const agents = input.record.agents.map((agent): AgentView => {
    const status = input.statuses.get(agent.name);
    const pane = agent.paneId ? panes.get(agent.paneId) : undefined;
    const view = observeState(input.running, pane, status, input.isAlive);
    const startedAt = status?.startedAt ? Date.parse(status.startedAt) : NaN;
    return {
      name: agent.name,
      role: agent.role,
      gpu: agent.gpu,
      pid: view.state === "running" ? (status?.pid ?? null) : null,
      state: view.state,
      restarts: status?.restarts ?? 0,
      uptimeMs: view.state === "running" && !Number.isNaN(startedAt) ? input.now.getTime() - startedAt : null,
      branch: agent.branch,
      head: input.heads.get(agent.name) ?? null,
      reason: view.reason,
    };
  });
  return { name: input.record.name, running: input.running, socket: input.record.socket, cpuMode: input.record.cpuMode, upAt: input.record.upAt, agents };
}

// A status file can outlive its writer: trust it only while its supervisor and pane are alive.
function observeState(running: boolean, pane: PaneInfo | undefined, status: AgentStatus | undefined, isAlive: (pid: number) => boolean): { state: AgentState; reason: string } {
  if (!running) return { state: "stopped", reason: "org is down" };
  if (!pane) return { state: "stopped", reason: "its pane is gone" };
  if (pane.dead) return { state: "failed", reason: `supervisor exited (status ${pane.deadStatus ?? "?"})` };
  if (!status) return { state: "starting", reason: "no status yet" };
  if (status.state === "running" && status.pid !== null && !isAlive(status.pid)) return { state: "restarting", reason: "program exited; supervisor deciding" };
  return { state: status.state, reason: status.reason };
}
