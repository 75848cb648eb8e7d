// A one-agent org on disk, with no daemon process: the test plays the daemon (its heartbeat, its answers) around `org submit`.
import { join } from "node:path";
import type { OrgRecord } from "../../src/org/state.js";
import { createRepo, git, writeFiles } from "./temp-repo.js";

export interface SubmitOrg {
  dir: string;
  base: string;
  worktree: string;
}

/** researcher-1's worktree on org/t/researcher-1, its baseline judged, and `state` files (daemon.json among them) written. */
export function createSubmitOrg(state: Record<string, string>): SubmitOrg {
  const dir = createRepo({ "org.yaml": "name: t\nrepo: .\nbase: main\ngpus: none\nruntimes:\n  idle: { command: [sleep, \"1\"] }\nroles:\n  researcher: { prompt: p.md, runtime: idle, edits: [value.txt] }\n", "p.md": "# r\n", "value.txt": "1\n" });
  const base = git(dir, ["rev-parse", "HEAD"]).trim();
  const worktree = join(dir, "worktrees", "researcher-1");
  git(dir, ["worktree", "add", "-q", "-b", "org/t/researcher-1", worktree, "main"]);
  const record: OrgRecord = {
    version: 1, name: "t", root: dir, repo: dir, base: "main", baseCommit: base, socket: "none", session: "none", cpuMode: true,
    agents: [{ name: "researcher-1", role: "researcher", runtime: "idle", branch: "org/t/researcher-1", worktree, gpu: null }], upAt: new Date().toISOString(),
  };
  writeFiles(dir, {
    "state/org.json": JSON.stringify(record),
    "state/agents/researcher-1/ledger.json": JSON.stringify({ best: { commit: base, metric: 1 }, lastVerified: base }),
    ...state,
  });
  return { dir, base, worktree };
}
