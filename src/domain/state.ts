import type { LaunchRuntime } from "./runtimes/launch.js";

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
  /** Secret variables of `org up`'s environment this program receives; their values never go to disk. */
  passEnv?: string[];
  /** Set for agent CLIs (not builtins): resume argv, config folder and watch settings of its preset. */
  runtime?: LaunchRuntime;
}

export type AgentState = "starting" | "pending" | "running" | "restarting" | "failed" | "stopped" | "blocked";

/** Written by the daemon's supervisor after every start and exit: the truth `org status` reads. */
export interface AgentStatus {
  agent: string;
  state: AgentState;
  /** The agent program's pid while it runs: its pane's process, the leader of its own process group. */
  pid: number | null;
  startedAt: string | null;
  restarts: number;
  consecutiveFailures: number;
  /** `pid` tells a later run that died unseen (before a look found it alive) from the one recorded. */
  lastExit: { code: number | null; signal: string | null; at: string; pid?: number } | null;
  reason: string;
  updatedAt: string;
  /** While restarting: when the program is started again. */
  restartAt?: string | null;
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
  /** The grid: a tmux socket name, or in pty mode `pty:` and the pty host's socket path. */
  socket: string;
  session: string;
  /**
   * What holds the panes: tmux, or node-pty under `org pty-host`; absent in records written
   * before pty mode, meaning tmux.
   */
  mode?: "tmux" | "pty";
  cpuMode: boolean;
  /** Where agents run; absent in records written before Slurm support, meaning local. */
  backend?: "local" | "slurm";
  agents: AgentRecord[];
  /**
   * verify.gpus: pool: the GPUs every agent's verify runs share ([]: no GPU, the CPU slots);
   * absent: each agent's runs use its own lease.
   */
  pool?: number[];
  controlPaneId?: string;
  upAt: string;
}
