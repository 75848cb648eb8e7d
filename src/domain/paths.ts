import { createHash } from "node:crypto";
import { isAbsolute, join, relative } from "node:path";

/** Every on-disk location of one org, derived from the folder holding org.yaml. */
export interface OrgPaths {
  root: string;
  state: string;
  worktrees: string;
  orgFile: string;
  log: string;
  runs: string;
  patches: string;
  daemon: string;
  /** One file per process the daemon started that may outlive it (verify runs, its tmux waiter). */
  children: string;
  lock: string;
}

export function orgPaths(root: string): OrgPaths {
  const state = join(root, "state");
  return {
    root,
    state,
    worktrees: join(root, "worktrees"),
    orgFile: join(state, "org.json"),
    log: logPath(state),
    runs: join(state, "runs"),
    patches: join(state, "patches"),
    daemon: join(state, "daemon.json"),
    children: join(state, "children"),
    lock: join(state, "up.lock"),
  };
}

/** state/log.md, the org's timeline, for callers that hold the state folder rather than the root. */
export function logPath(state: string): string {
  return join(state, "log.md");
}

/**
 * Files of one agent inside state/agents/<agent>/: the daemon's records, read-only in the agent's sandbox, but for
 * the folders its sandbox lets it write (`writable`), whose files the daemon reads only through adapters/fs/untrusted.
 */
export interface AgentPaths {
  dir: string;
  /** Its CLI's config home, its own files (progress.md, scratch), the meta copy of the config, its outbox. */
  home: string;
  own: string;
  proposal: string;
  outbox: string;
  writable: readonly string[];
  /** Where progress.md lay before own/ (an org started by an older org): moved into own/ at `org up`. */
  legacyProgress: string;
  launch: string;
  status: string;
  events: string;
  /** A resumed CLI's kickoff still to be typed at its prompt, or typed already (screens/resume-kickoff.ts). */
  resumeKickoff: string;
  prompt: string;
  inbox: string;
  paneLog: string;
  progress: string;
  progressArchive: string;
  /** The current task from the agent's chief (`org task`), and every earlier one. */
  task: string;
  taskArchive: string;
  /** The verifier's ledger of the agent (its best, its baseline, its runs): the daemon's alone. */
  ledger: string;
}

// The daemon asks for every agent's paths several times a second; eleven joins each time showed in its idle profile.
const agentPathsCache = new Map<string, AgentPaths>();

export function agentPaths(state: string, agent: string): AgentPaths {
  const key = `${state}\0${agent}`;
  let paths = agentPathsCache.get(key);
  if (!paths) agentPathsCache.set(key, (paths = Object.freeze(buildAgentPaths(state, agent))));
  return paths;
}

/** state/agents/: a folder per agent the org has run, an agent a reload removed included. */
export function agentsDir(state: string): string {
  return join(state, "agents");
}

function buildAgentPaths(state: string, agent: string): AgentPaths {
  const dir = join(agentsDir(state), agent);
  const [home, own, proposal, outbox] = ["home", "own", "proposal", "outbox"].map((name) => join(dir, name)) as
    [string, string, string, string];
  return {
    dir,
    home,
    own,
    proposal,
    outbox,
    writable: Object.freeze([home, own, proposal, outbox]),
    legacyProgress: join(dir, "progress.md"),
    launch: join(dir, "launch.json"),
    status: join(dir, "status.json"),
    events: join(dir, "events.jsonl"),
    resumeKickoff: join(dir, "resume-kickoff.json"),
    prompt: join(dir, "prompt.md"),
    inbox: join(dir, "inbox"),
    paneLog: join(dir, "pane.log"),
    progress: join(own, "progress.md"),
    progressArchive: join(dir, "progress-archive.md"),
    task: join(dir, "task.md"),
    taskArchive: join(dir, "task-archive.md"),
    ledger: join(dir, "ledger.json"),
  };
}

/** Pipeline contracts, one per sprint, with the evaluator's latest review next to each; the lock serialises signers. */
export function contractPaths(state: string): {
  dir: string; lock: string; contract: (sprint: number) => string; review: (sprint: number) => string;
} {
  const dir = join(state, "contracts");
  return {
    dir,
    lock: join(state, "contracts.lock"),
    contract: (sprint) => join(dir, `sprint-${sprint}.md`),
    review: (sprint) => join(dir, `sprint-${sprint}.review.md`),
  };
}

/** When the last standup digest went out, and how many verdicts it had seen. */
export function standupFile(state: string): string {
  return join(state, "standup.json");
}

/**
 * state/stop.json (the stop's distances, or the stop itself, as the daemon last decided) and
 * the conditions waived by `org up --resume`.
 */
export function stopFiles(state: string): { stop: string; waivers: string } {
  return { stop: join(state, "stop.json"), waivers: join(state, "stop-waivers.json") };
}

/** The tmux socket: the org name plus a short hash of its folder, so two checkouts never share a server. */
export function tmuxSocket(name: string, root: string): string {
  return `org-${name}-${tmuxSocketHash(root)}`;
}

/** The tail of the org's tmux socket names, whatever its name: `org down` finds them by it without org.json. */
export function tmuxSocketHash(root: string): string {
  return createHash("sha256").update(root).digest("hex").slice(0, 6);
}

/** Marks org.json's socket of an org run without tmux: what follows is the path of its pty host's unix socket. */
export const PTY_SOCKET_PREFIX = "pty:";

/** The grid socket of an org without tmux: its `org pty-host` listens at state/pty.sock. */
export function ptyGridSocket(state: string): string {
  return `${PTY_SOCKET_PREFIX}${join(state, "pty.sock")}`;
}

/** What runs an agent's program when the org is sandboxed: state/sandbox/<agent>.json, out of every agent's reach. */
export function sandboxFile(state: string, agent: string): string {
  return join(state, "sandbox", `${agent}.json`);
}

/** Whether `path` is `top` or lies below it; both absolute. */
export function isInsideDir(path: string, top: string): boolean {
  const rel = relative(top, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function branchName(org: string, agent: string): string {
  return `org/${org}/${agent}`;
}

/**
 * The verifier's own git repository (objects taken from the research repo only through a checked fetch, out of every
 * agent's reach) and the base's protected files as recorded at `org up`.
 */
export function verifierStorePaths(state: string): { dir: string; repo: string; hashes: string } {
  const dir = join(state, "verifier");
  return { dir, repo: join(dir, "objects.git"), hashes: join(dir, "protected.json") };
}
