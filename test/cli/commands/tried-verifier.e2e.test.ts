// The experiment ledger on the verifier's real loop and real git: a change judged on the same tree is answered, never
// run again.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { verifierOrgPerTest } from "../../helpers/test-org/verifier-loop.js";

const createOrg = verifierOrgPerTest();

const SAVED = String.raw`not run again \(\d+\.\ds of GPU time saved; \`org tried\` lists every idea tried\)`;

describe("the experiment ledger answers what was tried", () => {
  test("another agent's same change on the same tree, and an agent's " +
    "own plain commit of it, are answered without a run", async () => {
    const org = createOrg(["r-1", "r-2"]);
    const base = org.record.baseCommit;
    const loop = org.daemon();
    await org.settle(loop);
    const first = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value");
    const judged = org.submit("r-1", first, "raise the value");
    await org.settle(loop);
    expect(org.verdictOf(judged).outcome.verdict.kind).toBe("discard");
    expect(org.runs).toHaveLength(3);
    const original = org.entries()[0]!;
    expect(original).toMatchObject({
      commit: first,
      agent: "r-1",
      status: "discard",
      metric: 1.5,
      delta: 0.5,
      description: "raise the value",
      change: { tree: git(org.root, ["rev-parse", `${base}^{tree}`]).trim() },
    });

    // r-2, on the same base, makes the same edit and queues it with --no-wait: the verdict goes to its inbox.
    const twin = org.commit("r-2", { "value.txt": "1.5\n" }, "try a higher value");
    const request = org.submit("r-2", twin, "try a higher value", { reply: "message" });
    await org.settle(loop);
    expect(org.runs).toHaveLength(3);
    const reason = new RegExp(
      `^discard: already tried as ${first.slice(0, 7)} by r-1: discard, score 1\\.500000; ${SAVED}$`,
    );
    const verdict = org.verdictOf(request).outcome;
    expect(verdict.verdict.reason).toMatch(reason);
    expect(verdict.seconds).toBe(0);
    expect(org.inbox("r-2")).toContain(`already tried as ${first.slice(0, 7)} by r-1: discard, score 1.500000`);
    expect(org.rows().at(-1)!.slice(0, 8)).toEqual([
      twin.slice(0, 7),
      "1.500000",
      "0.0",
      "discard",
      `duplicate of ${first.slice(0, 7)} by r-1: raise the value`,
      "r-2",
      "cpu",
      "0.0",
    ]);
    // No program recorded (no org up here), and no lines added or removed: nothing ran.
    expect(org.rows().at(-1)!.slice(9)).toEqual(["", "", ""]);
    // Reset as for a discard, its diff kept.
    expect(org.branch("r-2")).toBe(base);
    expect(verdict.patch).toMatch(/r-2-[0-9a-f]{7}-discard\.patch$/);
    expect(readFileSync(verdict.patch!, "utf8")).toContain("+1.5");
    expect(org.entries()[1]).toEqual({
      commit: twin,
      agent: "r-2",
      description: `duplicate of ${first.slice(0, 7)} by r-1: raise the value`,
      status: "discard",
      metric: 1.5,
      delta: 0.5,
      reason: expect.stringMatching(reason),
      seconds: 0,
      time: expect.any(String),
      change: original.change,
      duplicateOf: {
        commit: first,
        agent: "r-1",
        status: "discard",
        description: "raise the value",
        seconds: original.seconds,
      },
    });

    // r-1 commits the same edit again with plain git: the verifier picks it up and answers it too.
    const again = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value once more");
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return org.entries().length === 3;
    }, { what: "the plain commit answered", timeoutMs: 30_000 });
    expect(org.runs).toHaveLength(3);
    expect(org.entries()[2]).toMatchObject({
      commit: again,
      agent: "r-1",
      duplicateOf: { commit: first, agent: "r-1" },
    });
    expect(org.inbox("r-1")).toContain(`already tried as ${first.slice(0, 7)} by r-1: discard`);
    expect(org.branch("r-1")).toBe(base);
  });

  test("two agents submit the very same commit in the same second: one runs, the other is held " +
    "while it is in flight, then answered from it (adopted, as the same kept commit)", async () => {
    const org = createOrg(["r-1", "r-2"]);
    await org.settle(org.daemon());
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Every run waits for the gate: the first is surely in flight when the second is looked at.
    const slow: VerifierPort = {
      ...org.port,
      runCommand: async (argv, options) => (await gate, org.port.runCommand(argv, options)),
    };
    const loop = org.daemon(slow);
    const date = "2026-01-01T00:00:00Z";
    const a = org.commit("r-1", { "value.txt": "0.5\n" }, "halve the value", { date });
    const b = org.commit("r-2", { "value.txt": "0.5\n" }, "halve the value", { date });
    expect(b).toBe(a);
    const requests = [org.submit("r-1", a, "halve the value"), org.submit("r-2", b, "halve the value")];
    await loop.tick(new Date());
    const held = await pollUntil(() => org.log.find((line) => line.includes("running now: held")), {
      what: "one request held",
    });
    const [waiter, runner] = held.startsWith("r-2") ? ["r-2", "r-1"] : ["r-1", "r-2"];
    expect(held).toBe(
      `${waiter} ${a.slice(0, 7)} is the same change as ${a.slice(0, 7)}, running now: ` +
        `held until its verdict answers it`,
    );
    // The runner reaches its verify command only after its clean checkout: wait for that, not for the tick.
    await pollUntil(() => org.runs.length === 3, { what: "the runner's verify run started" });
    // Held: another tick does not start it while the first runs (the run count after settling proves it).
    await loop.tick(new Date());
    open();
    await org.settle(loop);
    expect(org.runs).toHaveLength(3);
    const verdicts = Object.fromEntries(
      requests.map((request) => [request.agent, org.verdictOf(request).outcome.verdict]),
    );
    expect(verdicts[runner]!.kind).toBe("keep");
    // The very commit the other kept: the waiter adopts it, a keep without a run, and its branch stays on it.
    expect(verdicts[waiter]!.reason).toMatch(
      new RegExp(`^keep: adopted ${a.slice(0, 7)}, kept by ${runner} with score 0\\.500000; ${SAVED}$`),
    );
    expect(org.branch(runner)).toBe(a);
    expect(org.branch(waiter)).toBe(a);
    expect(
      org
        .rows()
        .filter((row) => row[0] === a.slice(0, 7))
        .map((row) => [row[3], row[4], row[5]]),
    ).toEqual([
      ["keep", "halve the value", runner],
      ["keep", `adopt ${a.slice(0, 7)} kept by ${runner}: halve the value`, waiter],
    ]);
    expect(org.entries().map((entry) => [entry.agent, entry.duplicateOf?.agent])).toEqual([
      [runner, undefined],
      [waiter, runner],
    ]);
  });

  test("verify.ledger false: another agent's same change runs again, and the ledger still lists both", async () => {
    const org = createOrg(["r-1", "r-2"], { ledger: false });
    const loop = org.daemon();
    await org.settle(loop);
    org.submit("r-1", org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value"), "raise the value");
    await org.settle(loop);
    const twin = org.submit(
      "r-2",
      org.commit("r-2", { "value.txt": "1.5\n" }, "try a higher value"),
      "try a higher value",
    );
    await org.settle(loop);
    expect(org.runs).toHaveLength(4);
    expect(org.verdictOf(twin).outcome.verdict.reason).not.toContain("already tried");
    const [first, second] = org.entries();
    expect(second).toMatchObject({ agent: "r-2", status: "discard", change: first!.change });
    expect(second!.duplicateOf).toBeUndefined();
  });

  test("a discard within the noise band k·σ is answered as inconclusive " +
    "when another agent tries it: no second run", async () => {
    // Seeds 0 and 1 score value and value + 0.01: σ ≈ 0.007, so the band 2σ ≈ 0.014 holds a change of 0.005.
    const command = ["sh", "-c", 'awk -v s="$ORG_SEED" \'{ printf "score: %.6f\\n", $1 + (s % 2) * 0.01 }\' value.txt'];
    const org = createOrg(["r-1", "r-2"], { command, repeats: 2, keep: { k: 2, min_delta: 0, confirm: 0 } });
    const loop = org.daemon();
    await org.settle(loop);
    const baselineRuns = org.runs.length;
    const first = org.commit("r-1", { "value.txt": "1.005\n" }, "nudge the value");
    const judged = org.submit("r-1", first, "nudge the value");
    await org.settle(loop);
    expect(org.verdictOf(judged).outcome.verdict.kind).toBe("discard");
    const second = org.commit("r-2", { "value.txt": "1.005\n" }, "nudge the value too");
    const answered = org.submit("r-2", second, "nudge the value too");
    await org.settle(loop);
    expect(org.runs).toHaveLength(baselineRuns + 1);
    expect(org.verdictOf(answered).outcome.verdict.reason).toMatch(
      new RegExp(
        `^discard: already tried as ${first.slice(0, 7)} by r-1: discard, score \\S+ — ` +
          `within the noise \\(\\|Δ\\| \\S+ ≤ k·σ \\S+\\): inconclusive`,
      ),
    );
    expect(org.entries().map((entry) => [entry.agent, entry.duplicateOf?.commit])).toEqual([
      ["r-1", undefined],
      ["r-2", first],
    ]);
  });
});
