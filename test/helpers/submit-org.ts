// A one-agent org on disk, with no daemon process: the test plays the daemon (heartbeat, answers) around `org submit`.
import { createOrgOnDisk } from "./org-on-disk.js";
import { writeFiles } from "./temp-repo.js";

export interface SubmitOrg {
  dir: string;
  base: string;
  worktree: string;
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

/** researcher-1's worktree on org/t/researcher-1, its baseline judged, and `state` files (daemon.json…) written. */
export function createSubmitOrg(state: Record<string, string>): SubmitOrg {
  const org = createOrgOnDisk({ "org.yaml": ORG_YAML, "p.md": "# r\n", "value.txt": "1\n" }, ["researcher-1"]);
  const base = org.baseCommit;
  writeFiles(org.root, {
    "state/agents/researcher-1/ledger.json": JSON.stringify({ best: { commit: base, metric: 1 }, lastVerified: base }),
    ...state,
  });
  return { dir: org.root, base, worktree: org.worktree("researcher-1") };
}
