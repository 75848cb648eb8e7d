// Agents on a real git repo around the verifier's real loop, with no daemon process: the test plays the daemon's ticks
// (the ledger, journal, stack and red-team tests of the verifier's records). Not behind createTestOrg: imported by the
// files that use it, so no other file loads the verifier's modules (about a second of import each).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { parseTriedLedger } from "../../../src/domain/experiments/tried-ledger.js";
import { afterEach } from "vitest";
import { pollUntil } from "../poll.js";
import { createOrgOnDisk } from "./on-disk.js";
import { git, GIT_ENV, removeDir } from "../temp-repo.js";

const VERIFY = {
  command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 2,
  repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 },
};

export interface VerifierOptions {
  daemon: false;
  agents: readonly string[];
  /** `verify` keys over the defaults (score.sh prints value.txt's first line, 30 s, two slots, one run). */
  verify: Record<string, unknown>;
}

export type VerifierOrg = ReturnType<typeof createVerifierOrg>;

/** The config of an org whose score.sh prints "score: <n>" and whose researchers edit `edits`; `verify` over VERIFY. */
export function parseScoreConfig(verify: Record<string, unknown>, edits = ["value.txt"]) {
  return ConfigSchema.parse({
    roles: { researcher: { prompt: "p.md", runtime: "idle", edits } },
    verify: { ...VERIFY, ...verify },
  });
}

/**
 * An org on disk whose repo is scored by value.txt (lower is better), with a binary weights.bin; a loop per
 * "daemon"; `verify` keys over the defaults.
 */
export function createVerifierOrg({ agents, verify }: VerifierOptions) {
  const config = parseScoreConfig(verify, ["value.txt", "weights.bin"]);
  const files = {
    "score.sh": 'echo "score: $(head -n 1 value.txt)"\n', "value.txt": "1.0\n", "weights.bin": "\0\x01\x02\n",
  };
  const onDisk = createOrgOnDisk({ daemon: false, agents, files });
  const { root, state, worktreeOf: worktree, base: baseCommit, record } = onDisk;
  mkdirSync(join(state, "queue"), { recursive: true });
  const port = createVerifierPort({ repo: root, state });
  /** What the daemon said to the person, line by line. */
  const log: string[] = [];
  const runs: string[] = [];
  /** The verifier's hands, noting every verify run it starts. */
  const counted = (hands: VerifierPort): VerifierPort => ({
    ...hands,
    runCommand: (argv, options) => (runs.push(basename(options.logFile, ".log")), hands.runCommand(argv, options)),
  });
  /** A daemon: a fresh loop and a fresh journal read from disk, as `org up` starts after a kill. */
  const daemon = (hands: VerifierPort = port) =>
    new VerifierLoop(record, config, counted(hands), (line) => log.push(line));
  /** The agent commits these files; `date` pins the commit's time, so two agents can make the very same commit. */
  const commit = (
    agent: string, files: Record<string, string | Buffer>, message: string,
    options: { date?: string; allowEmpty?: boolean } = {},
  ) => {
    for (const [path, content] of Object.entries(files)) writeFileSync(join(worktree(agent), path), content);
    const dates = options.date ? { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date } : {};
    git(worktree(agent), ["add", "-A"]);
    const empty = options.allowEmpty ? ["--allow-empty"] : [];
    const env = { ...process.env, ...GIT_ENV, ...dates };
    const argv = ["-c", "commit.gpgsign=false", "commit", "-q", ...empty, "-m", message];
    execFileSync("git", argv, { cwd: worktree(agent), env });
    return git(worktree(agent), ["rev-parse", "HEAD"]).trim();
  };
  /** What `org submit` hands the daemon: a request file in state/queue. */
  const submit = (agent: string, commit: string, description: string, extra: Partial<ExperimentRequest> = {}) => {
    const now = new Date();
    const id = `${now.toISOString().replace(/[:.]/g, "-")}-${agent}-${commit.slice(0, 7)}`;
    const submittedAt = now.toISOString();
    const request: ExperimentRequest = { id, agent, commit, description, kind: "candidate", submittedAt, ...extra };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  /** A file under state/, or "" while it does not exist. */
  const read = (file: string) => (existsSync(join(state, file)) ? readFileSync(join(state, file), "utf8") : "");
  const rows = () => read("results.tsv").replace(/\n$/, "").split("\n").slice(1).map((line) => line.split("\t"));
  const verdictOf = (request: ExperimentRequest) => JSON.parse(read(`verdicts/${request.id}.json`)) as {
    outcome: { verdict: { kind: string; reason: string }; head: string; patch?: string; seconds: number };
  };
  const ledgerText = () => read("tried.jsonl");
  const entries = () => parseTriedLedger(ledgerText(), "state/tried.jsonl").entries;
  const branch = (agent: string) => git(root, ["rev-parse", `org/t/${agent}`]).trim();
  const best = () => git(root, ["rev-parse", "--verify", "--quiet", "refs/heads/org/t/best"]).trim();
  const ranFor = (request: ExperimentRequest) =>
    existsSync(join(state, "runs")) && readdirSync(join(state, "runs")).some((name) => name.startsWith(request.id));
  /** Every message in an agent's inbox, concatenated. */
  const inbox = (agent: string) => {
    const dir = join(state, "agents", agent, "inbox");
    if (!existsSync(dir)) return "";
    const names = readdirSync(dir).filter((name) => name.endsWith(".md"));
    return names.map((name) => readFileSync(join(dir, name), "utf8")).join("\n");
  };
  /** Tick and wait for the runs until every agent has its baseline and the queue is empty. */
  const settle = async (loop: VerifierLoop) => {
    await pollUntil(async () => {
      await tickOnce(loop);
      const queued = readdirSync(join(state, "queue")).some((name) => name.endsWith(".json"));
      return agents.every((agent) => existsSync(join(state, "agents", agent, "ledger.json"))) && !queued;
    }, { what: "an empty queue", timeoutMs: 30_000 });
  };
  return {
    root, state, record, port, baseCommit, log, runs, daemon, worktree, commit, submit, read, rows, verdictOf,
    ledgerText, entries, branch, best, ranFor, inbox, settle,
  };
}

/** For a file whose every test makes its own verifier org: each org's folder is removed after its test. */
export function verifierOrgPerTest(): (agents: readonly string[], verify?: Record<string, unknown>) => VerifierOrg {
  let root: string | undefined;
  afterEach(() => {
    if (root) removeDir(root);
    root = undefined;
  });
  return (agents, verify = {}) => {
    const org = createVerifierOrg({ daemon: false, agents, verify });
    root = org.root;
    return org;
  };
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
