import type { AbRun } from "../config-versions/ab-run-record.js";
import { PTY_SOCKET_PREFIX } from "../paths.js";
import type { PaneInfo } from "../ports.js";
import type { AgentState, AgentStatus, OrgRecord } from "../state.js";

/** One agent as every view shows it. */
export interface AgentView {
  name: string;
  role: string;
  gpu: number | null;
  /** verify.gpus: pool — the agent holds no GPU of its own; its runs take any GPU of the org's pool. */
  pooled: boolean;
  pid: number | null;
  state: AgentState;
  restarts: number;
  uptimeMs: number | null;
  branch: string;
  head: string | null;
  reason: string;
  /** Under Slurm: the agent's job, and the node it runs on once it runs. */
  job?: { id: string; node: string | null };
  /** During an A/B run: the program version of the agent's half. */
  program?: string;
}

export interface OrgSnapshot {
  name: string;
  /** The org's folder. */
  root: string;
  running: boolean;
  /** What holds the panes: a tmux server, or node-pty in the org's `org pty-host`. */
  mode: "tmux" | "pty";
  /** The tmux socket name, or `pty:` and the path of the pty host's unix socket. */
  socket: string;
  cpuMode: boolean;
  upAt: string;
  agents: AgentView[];
  /** An A/B run (`org up --ab`): both programs and their agents. */
  ab?: AbRun;
}

/** An agent's Slurm job: "pending (Resources)", "running on node1 GPU 2", and the GPUs it holds. */
export interface JobView {
  status: string;
  gpus: number[];
  id?: string;
  node?: string;
}

/** Join what org up recorded, what supervisors wrote and what tmux says into one view. */
export function buildSnapshot(input: {
  record: OrgRecord;
  running: boolean;
  panes: PaneInfo[];
  statuses: Map<string, AgentStatus | undefined>;
  heads: Map<string, string | null>;
  /** Under Slurm: each agent's job as its pane last described it. */
  jobs?: Map<string, JobView>;
  isAlive: (pid: number) => boolean;
  now: Date;
}): OrgSnapshot {
  const panes = new Map(input.panes.map((pane) => [pane.id, pane]));
  const agents = input.record.agents.map((agent): AgentView => {
    const status = input.statuses.get(agent.name);
    const pane = agent.paneId ? panes.get(agent.paneId) : undefined;
    const observed = observeState(input.running, pane, status, input.isAlive);
    const job = input.jobs?.get(agent.name);
    // The pane's program runs, but it waits in Slurm's queue: say so, with Slurm's reason.
    const view = observed.state === "running" && job?.status.startsWith("pending")
      ? { state: "pending" as const, reason: job.status }
      : observed;
    const startedAt = status?.startedAt ? Date.parse(status.startedAt) : NaN;
    return {
      name: agent.name,
      role: agent.role,
      // Under Slurm the job's allocation, not a lease of ours, says which GPU.
      gpu: job ? (job.gpus[0] ?? null) : agent.gpu,
      pooled: !job && agent.gpu === null && (input.record.pool?.length ?? 0) > 0,
      pid: view.state === "running" ? (status?.pid ?? null) : null,
      state: view.state,
      restarts: status?.restarts ?? 0,
      uptimeMs: view.state === "running" && !Number.isNaN(startedAt) ? input.now.getTime() - startedAt : null,
      branch: agent.branch,
      head: input.heads.get(agent.name) ?? null,
      reason: view.reason,
      ...(job?.id ? { job: { id: job.id, node: job.node ?? null } } : {}),
    };
  });
  const { record } = input;
  // The socket, not the record's mode, is what every command goes by (records before pty mode have no mode).
  const mode = record.socket.startsWith(PTY_SOCKET_PREFIX) ? "pty" : "tmux";
  return {
    name: record.name,
    root: record.root,
    running: input.running,
    mode,
    socket: record.socket,
    cpuMode: record.cpuMode,
    upAt: record.upAt,
    agents,
  };
}

// A status file can outlive its writer: trust it only while its supervisor and pane are alive.
function observeState(
  running: boolean, pane: PaneInfo | undefined, status: AgentStatus | undefined, isAlive: (pid: number) => boolean,
): { state: AgentState; reason: string } {
  if (!running) return { state: "stopped", reason: "org is down" };
  if (!pane) return { state: "stopped", reason: "its pane is gone" };
  // The pane runs the program itself: its death is news until the daemon's supervisor records it.
  if (!status) return pane.dead
    ? { state: "restarting", reason: "program exited; supervisor deciding" }
    : { state: "starting", reason: "no status yet" };
  const exited = pane.dead || (status.pid !== null && !isAlive(status.pid));
  if ((status.state === "running" || status.state === "starting") && exited) return {
    state: "restarting",
    reason: "program exited; supervisor deciding",
  };
  return { state: status.state, reason: status.reason };
}
