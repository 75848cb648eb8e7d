// A stop by a GPU-hour or cost limit: the verifier's loop on a real
// git repo cancels what is queued and lets a confirmation finish.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { StopRecord } from "../../../src/domain/experiments/stop-state.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";

const AGENT = "r-1";
const config = ConfigSchema.parse({
  roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["value.txt"] } },
  verify: {
    command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 1,
    repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 },
  },
});
const REASON = "max_gpu_hours reached: 1.0 of 1 GPU-hours of verify runs";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

describe("the verifier under a stop that cancels queued runs", () => {
  test("a queued experiment is cancelled with a log entry, a queued confirmation runs, " +
    "nothing new is queued; after the stop the commit is judged", async () => {
    const files = { "score.sh": 'echo "score: $(cat value.txt)"\n', "value.txt": "1.0\n" };
    const onDisk = createTestOrg({ daemon: false, agents: [AGENT], files });
    root = onDisk.root;
    const { worktree, base, record, state } = onDisk;
    const loop = new VerifierLoop(record, config, createVerifierPort({ repo: root, state }), () => undefined);
    const queued = () => readdirSync(join(state, "queue")).filter((name) => name.endsWith(".json"));
    const look = async (now = new Date()) => {
      await loop.tick(now);
      await loop.drain();
    };
    await pollUntil(async () =>
      (await look(), existsSync(join(state, "agents", AGENT, "ledger.json")) && queued().length === 0), {
      what: "the baseline",
      timeoutMs: 30_000,
    });

    writeFileSync(join(state, "stop.json"), JSON.stringify(
      {
        kind: "stop", phase: "grace", key: "max_gpu_hours", reason: REASON, cancel: true, metAt: "", graceUntil: "",
        figures: {},
      } as unknown as StopRecord,
    ));
    writeFileSync(join(worktree, "value.txt"), "0.5\n");
    git(worktree, ["commit", "-qam", "halve the value"]);
    const commit = git(worktree, ["rev-parse", "HEAD"]).trim();
    const request = (id: string, kind: ExperimentRequest["kind"], at: string): ExperimentRequest => ({
      id, agent: AGENT, commit: kind === "confirm" ? base : commit,
      description: kind === "confirm" ? "confirm" : "halve the value", kind, submittedAt: at,
      ...(kind === "confirm" ? { runs: 2 } : {}),
    });
    writeFileSync(join(state, "queue", "a-candidate.json"), JSON.stringify({
      ...request("a-candidate", "candidate", new Date().toISOString()),
      reply: "message",
    }));
    writeFileSync(join(state, "queue", "b-confirm.json"), JSON.stringify(
      request("b-confirm", "confirm", new Date().toISOString()),
    ));
    // The same commit queued again (a plain commit seen just before its submit): one answer for both.
    writeFileSync(join(state, "queue", "c-twin.json"), JSON.stringify(
      request("c-twin", "candidate", new Date().toISOString()),
    ));
    // Several looks 5 s apart on the verifier's clock: the candidate's head stands, and would be queued as a plain
    // commit were the verifier not held.
    for (let tick = 0; tick < 3; tick++) await look(new Date(Date.now() + tick * 5_000));

    expect(queued()).toEqual([]);
    expect(existsSync(join(state, "confirmations", "b-confirm.json"))).toBe(true);
    const log = readFileSync(join(state, "log.md"), "utf8");
    expect(log).toContain(`cancel | ${AGENT} ${commit.slice(0, 7)} halve the value\n`
      + `not run: the org stopped (${REASON}); its request was removed — `
      + `raise the limit in org.yaml and the commit is judged\n`);
    // `org submit` and `org wait` are answered, not left waiting; `--no-wait` gets it as a message too.
    const why = `the org stopped (${REASON}) — raise the limit in org.yaml, or \`org up --resume\`; `
      + `the commit is judged then`;
    for (const id of ["a-candidate", "c-twin"]) {
      expect(JSON.parse(readFileSync(join(state, "verdicts", `${id}.json`), "utf8"))).toEqual({
        id, commit, description: "halve the value", cancelled: why,
      });
    }
    const inbox = readdirSync(join(state, "agents", AGENT, "inbox")).map((name) =>
      readFileSync(join(state, "agents", AGENT, "inbox", name), "utf8")).join("");
    expect(inbox).toContain(`not run: ${commit.slice(0, 7)} "halve the value" was cancelled: ${why}`);
    expect(inbox.match(/was cancelled/g)).toHaveLength(1);
    const rows = () => readFileSync(join(state, "results.tsv"), "utf8").split("\n").filter((line) =>
      line.startsWith(commit.slice(0, 7)));
    expect(rows()).toEqual([]);

    // The limit raised: the stop watch replaces stop.json, and the branch's head is judged as a plain commit.
    writeFileSync(join(state, "stop.json"), JSON.stringify({ kind: "running", at: "", distances: [] }));
    await pollUntil(async () => (await look(), rows().length === 1), {
      what: "the commit judged after the stop",
      timeoutMs: 30_000,
    });
    expect(rows()[0]).toContain("\tkeep\t");
  });
});
