// A commit is judged once, whatever dies when: the verifier's loop
// on a real git repo, with the crash injected at the exact step.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { findJudgedRow } from "../../../src/adapters/verifier/judged-row.js";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import type { Runner } from "../../../src/adapters/process.js";
import type { AgentLedger, ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeAfterEachTest, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";
import { parseScoreConfig } from "../../helpers/test-org/verifier-loop.js";

const AGENT = "r-1";
const config = parseScoreConfig({ parallel: 1 });
const removeAfterTest = removeAfterEachTest();

/** A research repo whose metric is value.txt, one agent worktree on its branch, and the org's state next to them. */
function createOrg() {
  const files = { "score.sh": 'echo "score: $(cat value.txt)"\n', "value.txt": "1.0\n" };
  const { root, worktree, record, state } = createTestOrg({ daemon: false, agents: [AGENT], files });
  removeAfterTest(root);
  const port = createVerifierPort({ repo: root, state });
  /** A daemon: a fresh loop, as `org up` starts after a kill. */
  const daemon = (hands: VerifierPort = port) => new VerifierLoop(record, config, hands, () => undefined);
  /** The agent commits a new value on its branch. */
  const commit = (value: string, message: string) => {
    writeFileSync(join(worktree, "value.txt"), `${value}\n`);
    git(worktree, ["commit", "-qam", message]);
    return git(worktree, ["rev-parse", "HEAD"]).trim();
  };
  /** What `org submit` hands the daemon: a request file in state/queue. */
  const submit = (commit: string, description: string): ExperimentRequest => {
    const now = new Date();
    const request: ExperimentRequest = {
      id: `${now.toISOString().replace(/[:.]/g, "-")}-${AGENT}-${commit.slice(0, 7)}`,
      agent: AGENT,
      commit,
      description,
      kind: "candidate",
      submittedAt: now.toISOString(),
    };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  const rowsOf = (commit: string) =>
    readFileSync(join(state, "results.tsv"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith(`${commit.slice(0, 7)}\t`));
  const verdictOf = (request: ExperimentRequest) =>
    JSON.parse(readFileSync(join(state, "verdicts", `${request.id}.json`), "utf8")) as {
      outcome: { verdict: { kind: string; reason: string } };
    };
  const ledger = () => JSON.parse(readFileSync(join(state, "agents", AGENT, "ledger.json"), "utf8")) as AgentLedger;
  const ranFor = (request: ExperimentRequest) =>
    readdirSync(join(state, "runs")).some((name) => name.startsWith(request.id));
  const branch = () => git(root, ["rev-parse", `org/t/${AGENT}`]).trim();
  return { record, state, worktree, port, daemon, commit, submit, rowsOf, verdictOf, ledger, ranFor, branch };
}

/** Tick and wait for the runs until the queue is empty: what the daemon does between two looks at it. */
async function settle(loop: VerifierLoop, state: string): Promise<void> {
  await pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    return (
      existsSync(join(state, "agents", AGENT, "ledger.json")) &&
      readdirSync(join(state, "queue")).every((name) => !name.endsWith(".json"))
    );
  }, { what: "an empty queue", timeoutMs: 30_000 });
}

/** The verifier's hands with one step that dies right after `step` did its work, as kill -9 would leave it. */
function dyingAfter(port: VerifierPort, step: "appendResult"): VerifierPort {
  return { ...port, [step]: async (...args: Parameters<VerifierPort[typeof step]>) => {
    await port[step](...args);
    throw new Error(`killed after ${step}`);
  } };
}

describe("a commit is judged exactly once", () => {
  test("a daemon killed right after the row: the next one answers that request, " +
    "and a re-run submit's second request for the commit, from the row", async () => {
    const org = createOrg();
    await settle(org.daemon(), org.state);
    const worse = org.commit("1.5", "raise the value");
    const first = org.submit(worse, "raise the value");
    const killed = org.daemon(dyingAfter(org.port, "appendResult"));
    await killed.tick(new Date());
    await killed.drain();
    expect(org.rowsOf(worse)).toHaveLength(1);
    expect(org.branch()).toBe(worse);
    // `org up`: a new daemon; the agent's submit, killed with the old
    // one, runs again and reads the ledger before the verdict lands.
    const next = org.daemon();
    await settle(next, org.state);
    const again = org.submit(worse, "raise the value");
    await settle(next, org.state);
    expect(org.rowsOf(worse)).toHaveLength(1);
    expect(org.verdictOf(first).outcome.verdict.reason).toMatch(
      /^discard: recorded in results.tsv at \S+ before the daemon stopped; not run again$/,
    );
    expect(org.verdictOf(again).outcome.verdict.reason).toMatch(
      /^discard: recorded in results.tsv at \S+ for an earlier request; not run again$/,
    );
    expect(org.ranFor(again)).toBe(false);
    expect(org.branch()).toBe(org.record.baseCommit);
    expect(org.ledger()).toMatchObject({
      best: { commit: org.record.baseCommit, metric: 1, runs: 1 },
      lastVerified: org.record.baseCommit,
    });
  });

  test("a reset that fails after the row (a stale index.lock in the worktree) " +
    "is retried without running the commit again", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const worse = org.commit("2.0", "double the value");
    const lock = join(org.record.repo, ".git", "worktrees", AGENT, "index.lock");
    writeFileSync(lock, "");
    const request = org.submit(worse, "double the value");
    for (let tick = 0; tick < 3; tick++) {
      await loop.tick(new Date());
      await loop.drain();
    }
    expect(org.rowsOf(worse)).toHaveLength(1);
    removeDir(lock);
    await settle(loop, org.state);
    expect(org.rowsOf(worse)).toHaveLength(1);
    expect(org.verdictOf(request).outcome.verdict.kind).toBe("discard");
    expect(org.branch()).toBe(org.record.baseCommit);
  });

  test("a kept commit the branch is set back to after a better keep is not run again, " +
    "not made best again, and the branch goes back to the best", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const good = org.commit("0.8", "lower the value");
    org.submit(good, "lower the value");
    await settle(loop, org.state);
    const better = org.commit("0.6", "lower it more");
    org.submit(better, "lower it more");
    await settle(loop, org.state);
    git(org.worktree, ["reset", "-q", "--hard", good]);
    // A plain commit on the branch, as the daemon sees it: found by its own ticks.
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return org.ledger().lastVerified === better && org.branch() === better;
    }, { what: "the branch back at the best", timeoutMs: 30_000 });
    expect(org.rowsOf(good)).toHaveLength(1);
    expect(org.ledger().best).toEqual({ commit: better, metric: 0.6, runs: 1 });
    const log = readFileSync(join(org.state, "log.md"), "utf8");
    expect(log).toContain(`discard: kept in results.tsv at `);
    expect(log).toContain(`but best ${better.slice(0, 7)} (0.6) has beaten it since; not run again`);
  });

  test("seven hex digits another commit shares too: only a row written since the request counts", async () => {
    const org = createOrg();
    await settle(org.daemon(), org.state);
    const ambiguous: Runner = {
      run: async (argv) => ({
        argv,
        exitCode: 128,
        signal: null,
        stdout: "",
        stderr: "error: short object ID is ambiguous",
        timedOut: false,
        durationMs: 1,
      }),
    };
    const base = org.record.baseCommit;
    const lookup = (submittedAt: string) =>
      findJudgedRow({
        repo: org.record.repo,
        state: org.state,
        request: { id: "x", agent: AGENT, commit: base, description: "again", kind: "candidate", submittedAt },
        runner: ambiguous,
      });
    expect(await lookup("2000-01-01T00:00:00.000Z")).toMatchObject({
      commit: base.slice(0, 7),
      description: "baseline",
    });
    expect(await lookup("2999-01-01T00:00:00.000Z")).toBeUndefined();
    expect(
      await findJudgedRow({
        repo: org.record.repo,
        state: org.state,
        request: {
          id: "x",
          agent: AGENT,
          commit: base,
          description: "again",
          kind: "candidate",
          submittedAt: "2999-01-01T00:00:00.000Z",
        },
      }),
    ).toMatchObject({ description: "baseline" });
  });
});
