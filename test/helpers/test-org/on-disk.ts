// An org on disk with no daemon process: a repo, one worktree per agent and state/org.json, as `org up` leaves them.
// The test plays the daemon (heartbeat, answers, ticks).
import { join } from "node:path";
import type { OrgRecord } from "../../../src/domain/state.js";
import { createRepo, git, writeFiles } from "../temp-repo.js";

export interface OnDiskOptions {
  daemon: false;
  /** Default: researcher-1 alone. */
  agents?: readonly string[];
  /** Committed on main; default: a one-role org.yaml (idle runtime, edits value.txt), p.md and value.txt. */
  files?: Record<string, string>;
  /** Each agent's baseline judged: its ledger names the base as best and last verified. */
  judged?: boolean;
  /** Files written after the worktrees, relative to the repo (state/daemon.json…). */
  state?: Record<string, string>;
}

const ORG_YAML = `name: t
repo: .
base: main
gpus: none
runtimes:
  idle: { command: [sleep, "1"] }
roles:
  researcher: { prompt: p.md, runtime: idle, edits: [value.txt] }
`;

export type OrgOnDisk = ReturnType<typeof createOrgOnDisk>;

/** The files committed on main, a worktree per agent on org/t/<agent>, and state/org.json naming them (org "t"). */
export function createOrgOnDisk(options: OnDiskOptions) {
  const agents = options.agents ?? ["researcher-1"];
  const root = createRepo(options.files ?? { "org.yaml": ORG_YAML, "p.md": "# r\n", "value.txt": "1\n" });
  const worktreeOf = (agent: string) => join(root, "worktrees", agent);
  for (const agent of agents) git(root, ["worktree", "add", "-q", "-b", `org/t/${agent}`, worktreeOf(agent), "main"]);
  const base = git(root, ["rev-parse", "main"]).trim();
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit: base, socket: "none", session: "none",
    cpuMode: true,
    agents: agents.map((name) => ({
      name, role: "researcher", runtime: "idle", branch: `org/t/${name}`, worktree: worktreeOf(name), gpu: null,
    })),
    upAt: new Date().toISOString(),
  };
  const ledger = JSON.stringify({ best: { commit: base, metric: 1 }, lastVerified: base });
  const judged = options.judged ? agents.map((agent) => [`state/agents/${agent}/ledger.json`, ledger]) : [];
  writeFiles(root, { "state/org.json": JSON.stringify(record), ...Object.fromEntries(judged), ...options.state });
  /** `worktree` is the first agent's. */
  return { dir: root, root, state: join(root, "state"), worktree: worktreeOf(agents[0]!), worktreeOf, base, record };
}
