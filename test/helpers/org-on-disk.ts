// An org on disk with no daemon process: a repo, one worktree per agent and state/org.json, as `org up` leaves them.
import { join } from "node:path";
import type { OrgRecord } from "../../src/domain/state.js";
import { createRepo, git, writeFiles } from "./temp-repo.js";

/** These files committed on main, a worktree per agent on org/t/<agent>, and state/org.json naming them (org "t"). */
export function createOrgOnDisk(files: Record<string, string>, agents: readonly string[]) {
  const root = createRepo(files);
  const worktree = (agent: string) => join(root, "worktrees", agent);
  for (const agent of agents) git(root, ["worktree", "add", "-q", "-b", `org/t/${agent}`, worktree(agent), "main"]);
  const baseCommit = git(root, ["rev-parse", "main"]).trim();
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit, socket: "none", session: "none", cpuMode: true,
    agents: agents.map((name) => ({
      name, role: "researcher", runtime: "idle", branch: `org/t/${name}`, worktree: worktree(name), gpu: null,
    })),
    upAt: new Date().toISOString(),
  };
  writeFiles(root, { "state/org.json": JSON.stringify(record) });
  return { root, state: join(root, "state"), worktree, baseCommit, record };
}
