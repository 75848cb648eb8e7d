// A two-agent org on a real git repo with the verifier's loop played in-process: what the journal's red-team tests attack.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VerifierLoop } from "../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../src/adapters/verifier/port.js";
import { ConfigSchema } from "../../src/org/config/schema.js";
import type { ExperimentRequest } from "../../src/org/experiments/request.js";
import type { VerifierPort } from "../../src/org/experiments/verifier-port.js";
import type { OrgRecord } from "../../src/org/state.js";
import { pollUntil } from "./poll.js";
import { createRepo, git, writeFiles } from "./temp-repo.js";

export const AGENTS = ["r-1", "r-2"] as const;

const config = ConfigSchema.parse({
  roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["value.txt"] } },
  verify: { command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 1, repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 } },
});

export type JournalOrg = ReturnType<typeof createJournalOrg>;

/** value.txt is the metric (lower is better); each agent has a worktree on org/t/<agent>; state/org.json is written. */
export function createJournalOrg() {
  const root = createRepo({ "score.sh": 'echo "score: $(cat value.txt)"\n', "value.txt": "1.0\n" });
  const baseCommit = git(root, ["rev-parse", "main"]).trim();
  const agents = AGENTS.map((name) => {
    const worktree = join(root, "worktrees", name);
    git(root, ["worktree", "add", "-q", "-b", `org/t/${name}`, worktree, "main"]);
    return { name, role: "researcher", runtime: "idle", branch: `org/t/${name}`, worktree, gpu: null };
  });
  const record: OrgRecord = { version: 1, name: "t", root, repo: root, base: "main", baseCommit, socket: "none", session: "none", cpuMode: true, agents, upAt: new Date().toISOString() };
  const state = join(root, "state");
  writeFiles(root, { "state/org.json": JSON.stringify(record), "state/queue/.keep": "" });
  const port = createVerifierPort({ repo: root, state });
  const said: string[] = [];
  /** A daemon: a fresh loop and a fresh journal read from disk, as `org up` starts after a kill. */
  const daemon = (hands: VerifierPort = port) => new VerifierLoop(record, config, hands, (line) => void said.push(line));
  const commit = (agent: string, value: string, message: string) => {
    const worktree = join(root, "worktrees", agent);
    writeFileSync(join(worktree, "value.txt"), `${value}\n`);
    git(worktree, ["commit", "-qam", message]);
    return git(worktree, ["rev-parse", "HEAD"]).trim();
  };
  const submit = (agent: string, commit: string, description: string, reply?: "message"): ExperimentRequest => {
    const now = new Date();
    const request: ExperimentRequest = { id: `${now.toISOString().replace(/[:.]/g, "-")}-${agent}-${commit.slice(0, 7)}`, agent, commit, description, kind: "candidate", submittedAt: now.toISOString(), ...(reply ? { reply } : {}) };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  const read = (file: string) => (existsSync(join(state, file)) ? readFileSync(join(state, file), "utf8") : "");
  /** Every message in an agent's inbox, concatenated. */
  const inbox = (agent: string) => {
    const dir = join(state, "agents", agent, "inbox");
    return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".md")).map((name) => readFileSync(join(dir, name), "utf8")).join("\n") : "";
  };
  const best = () => git(root, ["rev-parse", "--verify", "--quiet", "refs/heads/org/t/best"]).trim();
  const ranFor = (request: ExperimentRequest) => existsSync(join(state, "runs")) && readdirSync(join(state, "runs")).some((name) => name.startsWith(request.id));
  return { root, state, record, port, said, daemon, commit, submit, read, inbox, best, ranFor, baseCommit };
}

/** Tick and wait for the runs until every agent has a ledger and the queue is empty. */
export async function settle(loop: VerifierLoop, state: string): Promise<void> {
  await pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    return AGENTS.every((agent) => existsSync(join(state, "agents", agent, "ledger.json"))) && readdirSync(join(state, "queue")).every((name) => !name.endsWith(".json"));
  }, { what: "an empty queue", timeoutMs: 30_000 });
}

/** One tick and its runs: what the daemon does every 2 s. */
export async function tickOnce(loop: VerifierLoop): Promise<void> {
  await loop.tick(new Date());
  await loop.drain();
}

/** How many log.md entries have this heading text (after the date). */
export function countLogEntries(log: string, heading: string): number {
  return log.split("\n").filter((line) => line.startsWith("## [") && line.includes(heading)).length;
}
