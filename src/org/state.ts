/** What `org up` wrote for one agent: everything its supervisor needs, with no org.yaml parsing. */
export interface LaunchSpec {
  agent: string;
  role: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  restart: "always" | "on-failure" | "never";
  backoffMs: number;
  maxBackoffMs: number;
  maxRestarts: number;
  healthyAfterMs: number;
}

export type AgentState = "starting" | "running" | "restarting" | "failed" | "stopped" | "blocked";

/** Written by the supervisor after every start and exit: the truth `org status` reads. */
export interface AgentStatus {
  agent: string;
  state: AgentState;
  /** The supervisor's own pid (its pane's process group leader). */
  supervisorPid: number;
  /** The agent program's pid while it runs. */
  pid: number | null;
  startedAt: string | null;
  restarts: number;
  consecutiveFailures: number;
  lastExit: { code: number | null; signal: string | null; at: string } | null;
  reason: string;
  updatedAt: string;
}

/** One agent of the applied plan, as recorded in state/org.json. */
export interface AgentRecord {
  name: string;
  role: string;
  runtime: string;
  branch: string;
  worktree: string;
  gpu: number | null;
  paneId?: string;
}

/** state/org.json: the org as last applied by `org up`. */
export interface OrgRecord {
  version: 1;
  name: string;
  root: string;
  repo: string;
  base: string;
  baseCommit: string;
  socket: string;
  session: string;
  cpuMode: boolean;
  agents: AgentRecord[];
  controlPaneId?: string;
  upAt: string;
}
