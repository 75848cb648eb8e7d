import { createHash } from "node:crypto";
import { join } from "node:path";

/** Every on-disk location of one org, derived from the folder holding org.yaml. */
export interface OrgPaths {
  root: string;
  state: string;
  worktrees: string;
  orgFile: string;
  log: string;
  results: string;
  runs: string;
  patches: string;
  queue: string;
  daemon: string;
  lock: string;
}

export function orgPaths(root: string): OrgPaths {
  const state = join(root, "state");
  return {
    root,
    state,
    worktrees: join(root, "worktrees"),
    orgFile: join(state, "org.json"),
    log: join(state, "log.md"),
    results: join(state, "results.tsv"),
    runs: join(state, "runs"),
    patches: join(state, "patches"),
    queue: join(state, "queue"),
    daemon: join(state, "daemon.json"),
    lock: join(state, "up.lock"),
  };
}

/** Files of one agent inside state/agents/<agent>/. */
export interface AgentPaths {
  dir: string;
  launch: string;
  status: string;
  events: string;
  prompt: string;
  inbox: string;
  paneLog: string;
  progress: string;
}

export function agentPaths(state: string, agent: string): AgentPaths {
  const dir = join(state, "agents", agent);
  return {
    dir,
    launch: join(dir, "launch.json"),
    status: join(dir, "status.json"),
    events: join(dir, "events.jsonl"),
    prompt: join(dir, "prompt.md"),
    inbox: join(dir, "inbox"),
    paneLog: join(dir, "pane.log"),
    progress: join(dir, "progress.md"),
  };
}

/** The tmux socket: the org name plus a short hash of its folder, so two checkouts never share a server. */
export function tmuxSocket(name: string, root: string): string {
  const hash = createHash("sha256").update(root).digest("hex").slice(0, 6);
  return `org-${name}-${hash}`;
}

export function branchName(org: string, agent: string): string {
  return `org/${org}/${agent}`;
}
