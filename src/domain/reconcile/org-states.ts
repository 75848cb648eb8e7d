import type { PlannedAgent } from "../lifecycle/plan-agents.js";
import type { PaneInfo } from "../ports.js";
import type { AgentRecord, LaunchSpec } from "../state.js";

/** One agent as the new org.yaml wants it, down to the bytes of its launch.json and prompt.md. */
export interface DesiredAgent extends PlannedAgent {
  /** launch.json as written: under Slurm, the pane command that runs `raw` as a job step. */
  launch: LaunchSpec;
  /** The agent's own launch, as its runtime and role build it. */
  raw: LaunchSpec;
  prompt: string;
}

/** The org the edited org.yaml describes. */
export interface DesiredOrg {
  name: string;
  /** Absolute research repo folder. */
  repo: string;
  base: string;
  cpuMode: boolean;
  /** verify.gpus: pool: the GPUs verify runs share; absent in own mode. */
  pool?: number[];
  agents: DesiredAgent[];
}

/** One agent of the running org: its record, what its files say and its pane. */
export interface ObservedAgent {
  record: AgentRecord;
  /** launch.json as written, or null when missing or unreadable. */
  launch: LaunchSpec | null;
  /** prompt.md as written, or null when missing. */
  prompt: string | null;
  pane: PaneInfo | undefined;
  /** From status.json: the program's group, to stop when the pane is already gone. */
  programPid: number | null;
  /** From status.json: a stop condition ended its program, and only the stop's resume starts it again. */
  heldByStop?: boolean;
}

/** The running org: state/org.json, each agent's files and the tmux panes. */
export interface ObservedOrg {
  name: string;
  repo: string;
  base: string;
  agents: ObservedAgent[];
  /** org.json's verify pool: absent in own mode. */
  pool?: number[];
  /** Panes in the grid, the control pane included. */
  paneCount: number;
}

/** One step that brings the running org to what org.yaml says. */
export type Action =
  | { kind: "add-agent"; agent: DesiredAgent; reason: string }
  | { kind: "remove-agent"; agent: ObservedAgent; reason: string }
  | { kind: "restart-agent"; agent: DesiredAgent; observed: ObservedAgent; changes: string[]; reason: string }
  /**
   * A change to an agent the stop holds: its files are rewritten, it stays stopped, and the
   * resume starts it with them.
   */
  | { kind: "update-held-agent"; agent: DesiredAgent; observed: ObservedAgent; changes: string[]; reason: string }
  | { kind: "retile"; panes: number; reason: string }
  /** verify.gpus or the pool's GPUs changed: org.json's pool is rewritten and the verifier takes it up between runs. */
  | { kind: "set-pool"; from: number[] | undefined; to: number[] | undefined; reason: string }
  | { kind: "nothing-to-do"; reason: string };

/** A key of org.yaml that cannot change while the org runs, as a problem at that key. */
export interface Refusal {
  key: "name" | "repo" | "base";
  message: string;
  fix: string;
}

export type ReconcileResult =
  | { kind: "refused"; refusals: Refusal[] }
  | { kind: "actions"; actions: Action[] };
