// Several candidates of one agent queued on one branch (`org submit --no-wait`):
// the verifier's loop on a real git repo.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { AgentLedger, ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import {
  formatSubmitReply, formatVerdictMessage, type VerdictFile,
} from "../../../src/domain/experiments/submit-reply.js";
import { parseMessage, type Message } from "../../../src/domain/messages/message-head.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";

const AGENT = "r-1";
const config = ConfigSchema.parse({
  roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["a.txt", "b.txt"] } },
  verify: {
    command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 1,
    repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 },
  },
});

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

/** A repo whose score (lower is better) is a.txt + b.txt, one agent worktree on its branch,
 * the org's state beside them. */
function createOrg() {
  const files = { "score.sh": 'echo "score: $(( $(cat a.txt) + $(cat b.txt) ))"\n', "a.txt": "5\n", "b.txt": "5\n" };
  const { root: dir, worktree, base, record, state } = createTestOrg({ daemon: false, agents: [AGENT], files });
  root = dir;
  const port = createVerifierPort({ repo: root, state });
  const daemon = (hands: VerifierPort = port) => new VerifierLoop(record, config, hands, () => undefined);
  const commit = (file: "a.txt" | "b.txt", value: string, message: string) => {
    writeFileSync(join(worktree, file), `${value}\n`);
    git(worktree, ["commit", "-qam", message]);
    return git(worktree, ["rev-parse", "HEAD"]).trim();
  };
  let submits = 0;
  /** What `org submit` queues; `after` is the queued candidate the commit was made on. */
  const submit = (commit: string, description: string, extra: Partial<ExperimentRequest> = {}): ExperimentRequest => {
    const at = new Date(Date.now() + submits++);
    const request: ExperimentRequest = {
      id: `${at.toISOString().replace(/[:.]/g, "-")}-${AGENT}-${commit.slice(0, 7)}`, agent: AGENT, commit, description,
      kind: "candidate", submittedAt: at.toISOString(), ...extra,
    };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  const rowsOf = (commit: string) => readFileSync(join(state, "results.tsv"), "utf8").split("\n").filter((line) =>
    line.startsWith(`${commit.slice(0, 7)}\t`));
  const verdictOf = (request: ExperimentRequest) =>
    JSON.parse(readFileSync(join(state, "verdicts", `${request.id}.json`), "utf8")) as VerdictFile;
  const ledger = () => JSON.parse(readFileSync(join(state, "agents", AGENT, "ledger.json"), "utf8")) as AgentLedger;
  const branch = () => git(root!, ["rev-parse", `org/t/${AGENT}`]).trim();
  const show = (rev: string) => git(root!, ["show", "-s", "--format=%P|%an|%s", rev]).trim();
  const inbox = (): Message[] => {
    const dir = join(state, "agents", AGENT, "inbox");
    return readdirSync(dir).filter((name) => name.endsWith(".md")).sort().map((name) => {
      const parsed = parseMessage(readFileSync(join(dir, name), "utf8"));
      if (!parsed.ok) throw new Error(`${name}: ${parsed.reason}`);
      return parsed.message;
    });
  };
  return {
    record, base, state, worktree, port, daemon, commit, submit, rowsOf, verdictOf, ledger, branch, show, inbox,
  };
}

async function settle(loop: VerifierLoop, state: string): Promise<void> {
  await pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    return existsSync(join(state, "agents", AGENT, "ledger.json"))
      && readdirSync(join(state, "queue")).every((name) => !name.endsWith(".json"));
  }, { what: "an empty queue", timeoutMs: 30_000 });
}

/** The verifier's hands, dying right after the `times`-th results row is written, as kill -9 would leave them. */
function dyingAfterRow(port: VerifierPort, times = 1): VerifierPort {
  let rows = 0;
  return { ...port, appendResult: async (header, line) => {
    await port.appendResult(header, line);
    if (++rows === times) throw new Error("killed after appendResult");
  } };
}

describe("candidates queued on top of each other", () => {
  test("A discarded, B made on it: the branch waits at B, B's own change runs on the best as B', "
    + "is kept and takes B's place; uncommitted work stays", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const a = org.commit("a.txt", "7", "raise a");
    const first = org.submit(a, "raise a");
    const b = org.commit("b.txt", "3", "lower b");
    const second = org.submit(b, "lower b", { after: a, reply: "message" });
    writeFileSync(join(org.worktree, "b.txt"), "4\n");
    await settle(loop, org.state);

    expect(org.verdictOf(first).outcome).toMatchObject({ verdict: { kind: "discard" }, head: a, movedTo: b });
    expect(formatSubmitReply(org.verdictOf(first)).at(-1)).toBe(`your branch has moved on to ${b.slice(0, 7)}, `
      + `so it was left there; that commit gets its own verdict (the diff is saved in `
      + `${join(org.state, "patches", `${AGENT}-${a.slice(0, 7)}-discard.patch`)})`);
    const judged = org.verdictOf(second).outcome;
    const rebased = judged.request.commit;
    expect(judged.request.rebased).toEqual({ kind: "rebased", from: b, onto: org.base, commit: rebased });
    expect(judged).toMatchObject({ verdict: { kind: "keep" }, metric: 8, head: rebased });
    // Only its own change, on the best: a.txt as the base has it,
    // b.txt as B made it; the agent's message and authorship.
    expect(org.show(rebased)).toBe(`${org.base}|org-test|lower b`);
    expect(git(org.record.repo, ["show", `${rebased}:a.txt`])).toBe("5\n");
    expect(git(org.record.repo, ["show", `${rebased}:b.txt`])).toBe("3\n");
    expect(org.rowsOf(a)).toHaveLength(1);
    expect(org.rowsOf(rebased)).toEqual([expect.stringMatching(/^\w{7}\t8\.000000\t.*\tkeep\tlower b\t/)]);
    expect(org.rowsOf(b)).toHaveLength(0);
    expect(org.branch()).toBe(rebased);
    expect(org.ledger()).toMatchObject({ best: { commit: rebased, metric: 8 }, lastVerified: rebased });
    expect(readFileSync(join(org.worktree, "a.txt"), "utf8")).toBe("5\n");
    expect(git(org.worktree, ["status", "--porcelain"])).toBe(" M b.txt\n");
    expect(readFileSync(join(org.worktree, "b.txt"), "utf8")).toBe("4\n");

    // One message per verdict: the waiting submit's short one for A; the whole reply, announced, for B's --no-wait.
    const messages = org.inbox().filter((message) => !message.body.includes("] verdict baseline for "));
    expect(messages.map((message) => message.extra)).toEqual([{}, { experiment: second.id, notify: "always" }]);
    expect(messages[0]!.body).toMatch(new RegExp(`^## \\[\\S+\\] verdict discard for ${a.slice(0, 7)}\\n`));
    const reply = formatSubmitReply(org.verdictOf(second));
    expect(reply.slice(2)).toEqual([
      `${b.slice(0, 7)} was made on ${a.slice(0, 7)}, which is not your best: its change ran on your best `
        + `${org.base.slice(0, 7)} as ${rebased.slice(0, 7)}`,
      `your branch now points at ${rebased.slice(0, 7)}`,
    ]);
    const heading = `## verdict keep for ${b.slice(0, 7)} "lower b" (\`org wait ${second.id}\` prints it again)`;
    expect(messages[1]!.body).toBe(`${[heading, ...reply].join("\n")}\n`);
  });

  test("A kept, B made on it: B is judged as it is, nothing rebased", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const a = org.commit("a.txt", "3", "lower a");
    org.submit(a, "lower a");
    const b = org.commit("b.txt", "4", "lower b");
    const second = org.submit(b, "lower b", { after: a });
    await settle(loop, org.state);
    expect(org.verdictOf(second).outcome.request).not.toHaveProperty("rebased");
    expect(org.verdictOf(second).outcome).toMatchObject({ verdict: { kind: "keep" }, metric: 7, head: b });
    expect(org.branch()).toBe(b);
    expect(org.rowsOf(a)).toHaveLength(1);
    expect(org.rowsOf(b)).toHaveLength(1);
  });

  test("B's change conflicts with the best once A is discarded: a reject naming B and the file, its own diff saved, "
    + "the branch back at the best", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const a = org.commit("a.txt", "7", "raise a");
    org.submit(a, "raise a");
    const b = org.commit("a.txt", "3", "then lower a");
    const second = org.submit(b, "then lower a", { after: a });
    await settle(loop, org.state);
    const { outcome } = org.verdictOf(second);
    expect(outcome.verdict).toEqual({
      kind: "reject",
      reason: `reject: ${b.slice(0, 7)} "then lower a" conflicts in a.txt with your best ${org.base.slice(0, 7)} (it `
        + `was made on ${a.slice(0, 7)}, which is not your best) — `
        + `redo the change on ${org.base.slice(0, 7)} and submit it again`,
    });
    expect(outcome.request.rebased).toMatchObject({ kind: "conflict", from: b, onto: org.base });
    const patch = join(org.state, "patches", `${AGENT}-${b.slice(0, 7)}-reject.patch`);
    expect(outcome).toMatchObject({ head: org.base, patch });
    expect(readFileSync(patch, "utf8")).toMatch(/-7\n\+3\n/);
    expect(org.rowsOf(b)).toEqual([expect.stringMatching(/\treject\tthen lower a\t/)]);
    expect(org.branch()).toBe(org.base);
    expect(org.ledger()).toMatchObject({ best: { commit: org.base }, lastVerified: org.base });
    // The verifier's checkout is left clean for the next run.
    expect(git(join(org.state, "verifier", "cpu0"), ["status", "--porcelain"])).toBe("");
  });

  test("daemons killed after A's row and after B's: each is judged once, B rebased once, "
    + "and the last daemon applies it", async () => {
    const org = createOrg();
    await settle(org.daemon(), org.state);
    const a = org.commit("a.txt", "7", "raise a");
    const first = org.submit(a, "raise a", { reply: "message" });
    const b = org.commit("b.txt", "3", "lower b");
    const second = org.submit(b, "lower b", { after: a, reply: "message" });
    // The first daemon dies right after A's row; the next answers A from it, then dies right after B's.
    for (const [hands, ticks] of [[dyingAfterRow(org.port), 1], [dyingAfterRow(org.port), 2]] as const) {
      const killed = org.daemon(hands);
      for (let tick = 0; tick < ticks; tick++) {
        await killed.tick(new Date());
        await killed.drain();
      }
    }
    const queued = JSON.parse(readFileSync(join(org.state, "queue", `${second.id}.json`), "utf8")) as ExperimentRequest;
    expect(queued).toMatchObject({ commit: b, rebased: { kind: "rebased", from: b, onto: org.base } });
    const rebased = (queued.rebased as { commit: string }).commit;
    expect(org.rowsOf(rebased)).toHaveLength(1);

    await settle(org.daemon(), org.state);
    expect(org.rowsOf(a)).toHaveLength(1);
    expect(org.rowsOf(rebased)).toHaveLength(1);
    expect(org.rowsOf(b)).toHaveLength(0);
    expect(org.verdictOf(first).outcome.verdict.kind).toBe("discard");
    expect(org.verdictOf(second).outcome.verdict.reason).toMatch(
      /^keep: recorded in results.tsv at \S+ before the daemon stopped; not run again$/,
    );
    expect(org.verdictOf(second).outcome.request.commit).toBe(rebased);
    expect(org.show(rebased).split("|")[0]).toBe(org.base);
    expect(org.branch()).toBe(rebased);
    expect(org.ledger().best).toMatchObject({ commit: rebased, metric: 8 });
    // Each experiment's verdict message went out once, however many daemons handled it.
    const replies = org.inbox().filter((message) => message.extra.experiment);
    expect(replies.map((message) => message.extra.experiment)).toEqual([first.id, second.id]);
    expect(replies[1]!.body).toBe(`${formatVerdictMessage(org.verdictOf(second), 16384)}\n`);
  });
});
