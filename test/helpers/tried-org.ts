// Agents on a real git repo around the verifier's real loop, with no daemon process: for the experiment ledger's tests.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createVerifierPort } from "../../src/adapters/verifier/port.js";
import { VerifierLoop } from "../../src/daemon/verifier/loop.js";
import { ConfigSchema } from "../../src/org/config/schema.js";
import type { ExperimentRequest } from "../../src/org/experiments/request.js";
import type { VerifierPort } from "../../src/org/experiments/verifier-port.js";
import { parseTriedLedger } from "../../src/org/experiments/tried-ledger.js";
import type { OrgRecord } from "../../src/org/state.js";
import { pollUntil } from "./poll.js";
import { createRepo, git, GIT_ENV } from "./temp-repo.js";

const VERIFY = { command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 2, repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 } };

/** A repo scored by value.txt (lower is better), with a binary weights.bin; one worktree per agent; a loop per "daemon"; `verify` keys over the defaults. */
export function createTriedOrg(agents: string[], verify: Record<string, unknown> = {}) {
  const config = ConfigSchema.parse({ roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["value.txt", "weights.bin"] } }, verify: { ...VERIFY, ...verify } });
  const root = createRepo({ "score.sh": 'echo "score: $(head -n 1 value.txt)"\n', "value.txt": "1.0\n", "weights.bin": "\0\x01\x02\n" });
  for (const agent of agents) git(root, ["worktree", "add", "-q", "-b", `org/t/${agent}`, join(root, "worktrees", agent), "main"]);
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit: git(root, ["rev-parse", "main"]).trim(), socket: "none", session: "none", cpuMode: true,
    agents: agents.map((name) => ({ name, role: "researcher", runtime: "idle", branch: `org/t/${name}`, worktree: join(root, "worktrees", name), gpu: null })), upAt: new Date().toISOString(),
  };
  const state = join(root, "state");
  mkdirSync(join(state, "queue"), { recursive: true });
  const port = createVerifierPort({ repo: root, state });
  const log: string[] = [];
  const runs: string[] = [];
  /** The verifier's hands, noting every verify run it starts. */
  const counted = (hands: VerifierPort): VerifierPort => ({ ...hands, runCommand: (argv, options) => (runs.push(basename(options.logFile, ".log")), hands.runCommand(argv, options)) });
  /** A daemon: a fresh loop, as `org up` starts after a kill. */
  const daemon = (hands: VerifierPort = port) => new VerifierLoop(record, config, counted(hands), (line) => log.push(line));
  const worktree = (agent: string) => join(root, "worktrees", agent);
  /** The agent writes these files and commits them; `date` pins the commit's time, so two agents can make the very same commit. */
  const commit = (agent: string, files: Record<string, string | Buffer>, message: string, options: { date?: string; allowEmpty?: boolean } = {}) => {
    for (const [path, content] of Object.entries(files)) writeFileSync(join(worktree(agent), path), content);
    const dates = options.date ? { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date } : {};
    git(worktree(agent), ["add", "-A"]);
    execFileSync("git", ["-c", "commit.gpgsign=false", "commit", "-q", ...(options.allowEmpty ? ["--allow-empty"] : []), "-m", message], { cwd: worktree(agent), env: { ...process.env, ...GIT_ENV, ...dates } });
    return git(worktree(agent), ["rev-parse", "HEAD"]).trim();
  };
  /** What `org submit` hands the daemon: a request file in state/queue. */
  const submit = (agent: string, commit: string, description: string, extra: Partial<ExperimentRequest> = {}): ExperimentRequest => {
    const now = new Date();
    const request: ExperimentRequest = { id: `${now.toISOString().replace(/[:.]/g, "-")}-${agent}-${commit.slice(0, 7)}`, agent, commit, description, kind: "candidate", submittedAt: now.toISOString(), ...extra };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  const rows = () => readFileSync(join(state, "results.tsv"), "utf8").replace(/\n$/, "").split("\n").slice(1).map((line) => line.split("\t"));
  const verdictOf = (request: ExperimentRequest) => JSON.parse(readFileSync(join(state, "verdicts", `${request.id}.json`), "utf8")) as { outcome: { verdict: { kind: string; reason: string }; head: string; patch?: string; seconds: number } };
  const ledgerText = () => (existsSync(join(state, "tried.jsonl")) ? readFileSync(join(state, "tried.jsonl"), "utf8") : "");
  const entries = () => parseTriedLedger(ledgerText(), "state/tried.jsonl").entries;
  const branch = (agent: string) => git(root, ["rev-parse", `org/t/${agent}`]).trim();
  const inbox = (agent: string) => {
    const dir = join(state, "agents", agent, "inbox");
    return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".md")).map((name) => readFileSync(join(dir, name), "utf8")).join("\n") : "";
  };
  /** Tick and wait for the runs until every agent has its baseline and the queue is empty. */
  const settle = async (loop: VerifierLoop) => {
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return agents.every((agent) => existsSync(join(state, "agents", agent, "ledger.json"))) && readdirSync(join(state, "queue")).every((name) => !name.endsWith(".json"));
    }, { what: "an empty queue", timeoutMs: 30_000 });
  };
  return { root, record, state, port, log, runs, daemon, worktree, commit, submit, rows, verdictOf, ledgerText, entries, branch, inbox, settle };
}

