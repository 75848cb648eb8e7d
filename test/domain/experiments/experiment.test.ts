import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { runExperiment } from "../../../src/domain/experiments/experiment.js";
import type { AgentLedger } from "../../../src/domain/experiments/request.js";
import type { ExperimentContext, VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { findRowsOfCommit } from "../../../src/domain/experiments/recover.js";
import { parseResults } from "../../../src/domain/experiments/results-table.js";

const config = (verify: Record<string, unknown> = {}) => ConfigSchema.parse({
  roles: { r: { prompt: "p.md", runtime: "x" } },
  verify: {
    command: ["sh", "train.sh"], protected: ["prepare.sh"], metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" },
    timeout: "30s", ...verify,
  },
}).verify!;

/** A port that records every call in order and answers runs from a script of logs, one per run. */
function fakePort(
  logs: string[],
  options: { changed?: { path: string; status: string }[]; added?: number; head?: string } = {},
) {
  const calls: string[] = [];
  let run = 0;
  const port: VerifierPort = {
    prepareCheckout: async (slot, commit) => (calls.push(`checkout ${slot} ${commit}`), "/co"),
    changedPaths: async () => (calls.push("diff"), options.changed ?? []),
    restoreProtected: async (_checkout, _base, paths) => void calls.push(`restore ${paths.join(",")}`),
    admit: async () => undefined,
    publish: async () => undefined,
    runCommand: async (argv, opts) =>
      (calls.push(`run ${argv.join(" ")} gpu=${opts.env.CUDA_VISIBLE_DEVICES} seed=${opts.env.ORG_SEED}`), {
        exitCode: logs[run]?.includes("FAIL") ? 1 : 0, signal: null, timedOut: false, durationMs: 1200,
      }),
    readLog: async () => logs[run++] ?? "",
    savePatch: async (from, to, file) => void calls.push(`patch ${from}..${to} ${file}`),
    branchHead: async () => options.head ?? "cand1234567",
    resetBranch: async (agent, commit) => (calls.push(`reset ${agent.branch} ${commit}`), undefined),
    appendResult: async (header, line) => {
      const cells = line.split("\t");
      calls.push(`header ${header.split("\t").slice(10).join(",")}`,
        `row ${cells.slice(0, 6).join(" ")} | ${cells.slice(10).join(",")}`);
    },
    diffStat: async () => ({ added: options.added ?? 3, removed: 1 }),
    appendLog: async (entry) => void calls.push(`log ${entry.split("\n")[0]}`),
    appendInbox: async (agent, text) => void calls.push(`inbox ${agent} ${text.split("\n")[1]}`),
  };
  return { port, calls };
}

const context = (
  verify: ReturnType<typeof config>,
  ledger: Partial<AgentLedger> = {},
  sigma?: number,
): ExperimentContext => ({
  verify, baseCommit: "base000", slot: "gpu1", runsDir: "/s/runs", patchesDir: "/s/patches", sigma,
  agent: { name: "r-1", branch: "org/t/r-1", worktree: "/w/r-1", gpu: 1, edits: ["train.sh"] },
  ledger: { best: { commit: "best000", metric: 1.0 }, lastVerified: "best000", runs: 3, ...ledger },
  now: () => new Date("2026-11-29T10:00:00.000Z"),
});
const request = {
  id: "x", agent: "r-1", commit: "cand1234567", description: "lr up", kind: "candidate" as const,
  submittedAt: "2026-11-29T10:00:00.000Z",
};
const metric = (value: number) => `val_bpb: ${value}\n`;

describe("runExperiment", () => {
  test("a worse candidate: row first, then the patch, the reset to best, log and inbox", async () => {
    const { port, calls } = fakePort([metric(1.05)]);
    const outcome = await runExperiment(port, context(config(), {}, 0.01), request);
    expect(outcome.verdict).toEqual({
      kind: "discard", metric: 1.05, delta: expect.closeTo(0.05, 9),
      reason: "discard: val_bpb 1.0500 not better than best 1.0000 (+0.0500)",
    });
    expect(calls).toEqual([
      "diff",
      "checkout gpu1 cand1234567",
      "restore prepare.sh",
      "run sh train.sh gpu=1 seed=3",
      "header lines_added,lines_removed",
      "row cand123 1.050000 0.0 discard lr up r-1 | 3,1",
      "patch best000..cand1234567 /s/patches/r-1-cand123-discard.patch",
      "reset org/t/r-1 best000",
      "log ## [2026-11-29] discard | r-1 cand123 lr up",
      "inbox r-1 discard: val_bpb 1.0500 not better than best 1.0000 (+0.0500)",
    ]);
    expect(outcome.ledger).toMatchObject({ best: { commit: "best000", metric: 1 }, lastVerified: "best000", runs: 4 });
    expect(outcome.runSeconds).toBe(1.2);
  });

  test("the lines the tried ledger's diff counted go in the row: no diff of their own", async () => {
    const { port, calls } = fakePort([metric(1.05)]);
    const counted = { ...port, diffStat: async () => (calls.push("numstat"), { added: 3, removed: 1 }) };
    await runExperiment(counted, { ...context(config(), {}, 0.01), lines: { added: 7, removed: 2 } }, request);
    expect(calls).toContain("row cand123 1.050000 0.0 discard lr up r-1 | 7,2");
    expect(calls).not.toContain("numstat");
  });

  test("a discard saves the tried ledger's diff from the same best as it is; from another, git writes it", async () => {
    const saved: (string | undefined)[] = [];
    const { port } = fakePort([metric(1.05), metric(1.05)]);
    const savePatch = async (_from: string, _to: string, _file: string, bytes?: Uint8Array) => {
      saved.push(bytes && Buffer.from(bytes).toString());
    };
    const withPatch = (from: string, text: string) => ({
      ...context(config(), {}, 0.01), patch: { from, bytes: Buffer.from(text) },
    });
    await runExperiment({ ...port, savePatch }, withPatch("best000", "diff --git a/x b/x\n"), request);
    await runExperiment({ ...port, savePatch }, withPatch("base000", "other\n"), request);
    expect(saved).toEqual(["diff --git a/x b/x\n", undefined]);
  });

  test("a clear improvement, confirmed by two more seeds, is kept and becomes the best; nothing is reset", async () => {
    const { port, calls } = fakePort([metric(0.9), metric(0.91), metric(0.89)]);
    const outcome = await runExperiment(port, context(config(), {}, 0.01), request);
    expect(outcome.verdict.reason).toBe(
      "keep: val_bpb 0.9000 (mean of 3) beats best 1.0000 by 0.1000 > 2σ·√(1/3+1/1) (0.0231)",
    );
    expect(outcome.ledger.best).toEqual({ commit: "cand1234567", metric: expect.closeTo(0.9, 9), runs: 3 });
    expect(outcome.ledger.noise).toEqual([[0.9, 0.91, 0.89]]);
    expect(calls.some((call) => call.startsWith("reset") || call.startsWith("patch"))).toBe(false);
  });

  test("better but within the noise: confirmed with fresh seeds, judged on the mean", async () => {
    const kept = fakePort([metric(0.99), metric(0.985), metric(0.98)]);
    const outcome = await runExperiment(kept.port, context(config(), {}, 0.01), request);
    expect(kept.calls.filter((call) => call.startsWith("run"))).toEqual([
      "run sh train.sh gpu=1 seed=3", "run sh train.sh gpu=1 seed=4", "run sh train.sh gpu=1 seed=5",
    ]);
    expect(outcome.verdict.reason).toBe("discard: val_bpb 0.9850 (mean of 3) -0.0150 < 2σ·√(1/3+1/1) (0.0231)");
    expect(outcome.samples).toEqual([0.99, 0.985, 0.98]);
    expect(kept.calls).toContain("row cand123 0.985000 0.0 discard lr up (mean of 3 runs) r-1 | 3,1");

    const noise = fakePort([metric(0.99), metric(1.01), metric(1.0)]);
    const discarded = await runExperiment(noise.port, context(config(), {}, 0.01), request);
    expect(discarded.verdict.reason).toBe("discard: val_bpb 1.0000 (mean of 3) not better than best 1.0000 (+0.0000)");
  });

  test("σ of zero falls back to min_delta and says so", async () => {
    const { port } = fakePort([metric(0.999), metric(0.999), metric(0.999)]);
    const verify = config({ keep: { k: 2, min_delta: 0.01, confirm: 2 } });
    const outcome = await runExperiment(port, context(verify, {}, 0), request);
    expect(outcome.verdict.reason).toBe(
      "discard: val_bpb 0.9990 (mean of 3) -0.0010 < min_delta 0.0100 (σ is 0: a deterministic task)",
    );
  });

  test("budgets: over a max is discarded whatever the metric; a budget never printed is a crash", async () => {
    const verify = config({ budgets: { training_seconds: { pattern: "^training_seconds: ([0-9.]+)", max: 300 } } });
    const over = fakePort([`${metric(0.5)}training_seconds: 320\n`]);
    const outcome = await runExperiment(over.port, context(verify, {}, 0.01), request);
    expect(outcome.verdict.reason).toBe("discard: over budget: training_seconds 320 > max 300");
    expect(over.calls).toContain("header training_seconds,lines_added,lines_removed");
    expect(over.calls).toContain("row cand123 0.500000 0.0 discard lr up r-1 | 320,3,1");
    const missing = fakePort([metric(0.5)]);
    expect((await runExperiment(missing.port, context(verify, {}, 0.01), request)).verdict.reason).toBe(
      "crash: budget training_seconds: no line matched /^training_seconds: ([0-9.]+)/",
    );
  });

  test("simplicity: a tiny gain that adds many lines is not kept", async () => {
    const { port } = fakePort([metric(0.95)]);
    const verify = config({
      simplicity: { max_lines: 20, min_improvement: 0.1 },
      keep: { k: 2, min_delta: 0, confirm: 0 },
    });
    const outcome = await runExperiment(port, context(verify, {}, 0.001), { ...request }, );
    expect(outcome.verdict.kind).toBe("keep");
    const many = fakePort([metric(0.95)], { added: 40 });
    expect((await runExperiment(many.port, context(verify, {}, 0.001), request)).verdict.reason).toBe(
      "discard: simplicity: gain 0.0500 < 0.1 with 40 lines added (max 20)",
    );
  });

  test("a diff touching a protected path is rejected without running anything", async () => {
    const { port, calls } = fakePort([], { changed: [{ path: "prepare.sh", status: "D" }] });
    const outcome = await runExperiment(port, context(config(), {}, 0.01), request);
    expect(outcome.verdict).toEqual({ kind: "reject", reason: "reject: touches protected prepare.sh" });
    expect(calls.filter((call) => call.startsWith("run") || call.startsWith("checkout"))).toEqual([]);
    expect(calls).toContain("reset org/t/r-1 best000");
  });

  test("the baseline runs the base `repeats` times with seeds 0, 1, 2 and records mean ± sd", async () => {
    const { port, calls } = fakePort([metric(1.2), metric(1.1), metric(1.0)]);
    const outcome = await runExperiment(port, context(config(), { best: null, runs: undefined }), {
      ...request, kind: "baseline", commit: "base000", description: "baseline",
    });
    expect(outcome.verdict).toEqual({
      kind: "baseline",
      metric: expect.closeTo(1.1, 9),
      reason: "baseline: val_bpb 1.100000 ± 0.100000 over 3 seeds",
    });
    expect(calls.filter((call) => call.startsWith("run"))).toEqual([
      "run sh train.sh gpu=1 seed=0", "run sh train.sh gpu=1 seed=1", "run sh train.sh gpu=1 seed=2",
    ]);
    expect(calls).not.toContain("diff");
    expect(outcome.ledger.baseline).toEqual({
      samples: [1.2, 1.1, 1.0],
      mean: expect.closeTo(1.1, 9),
      sd: expect.closeTo(0.1, 9),
    });
  });

  test("a crashed baseline blocks every experiment of the agent, with the reason", async () => {
    const { port } = fakePort(["FAIL\n"]);
    const crashed = await runExperiment(port, context(config(), { best: null, runs: undefined }), {
      ...request, kind: "baseline", commit: "base000", description: "baseline",
    });
    expect(crashed.ledger.baselineCrash).toBe("crash: no line matched /^val_bpb: ([0-9.]+)/; exit code 1");
    const blocked = fakePort([metric(0.5)]);
    const outcome = await runExperiment(blocked.port, context(config(), crashed.ledger), request);
    expect(outcome.verdict.reason).toBe("crash: not run: the baseline crashed, so the base is broken (crash: "
      + "no line matched /^val_bpb: ([0-9.]+)/; exit code 1) — fix it, then `org down && org up`");
    expect(blocked.calls.filter((call) => call.startsWith("run"))).toEqual([]);
  });
});

describe("a request whose row a daemon killed before clearing it left behind", () => {
  const tsv = (...rows: string[]) =>
    parseResults(`commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\n`
      + `${rows.map((row) => `${row}\n`).join("")}`).rows;
  const recorded = tsv("cand123\t1.050000\t0.0\tdiscard\tlr up\tr-1\t1\t4.0\t2026-11-29T10:00:05.000Z")[0]!;

  test("is found by agent and commit, newest first, whenever written; another agent's is not; "
    + "a baseline's only since its request", () => {
    const rows = tsv(
      "cand123\t0.000000\t0.0\tcrash\tlr up\tr-1\t1\t1.0\t2026-11-29T09:59:00.000Z",
      "cand123\t1.050000\t0.0\tdiscard\tlr up\tr-2\t1\t4.0\t2026-11-29T10:00:04.000Z",
      "cand123\t1.050000\t0.0\tdiscard\tlr up\tr-1\t1\t4.0\t2026-11-29T10:00:05.000Z",
    );
    expect(findRowsOfCommit(rows, request)).toEqual([recorded, rows[0]]);
    expect(findRowsOfCommit(rows.slice(1, 2), request)).toEqual([]);
    const baselines = tsv("base000\t0.000000\t0.0\tcrash\tbaseline\tr-1\t1\t1.0\t2026-11-29T09:59:00.000Z");
    const baseline = { ...request, kind: "baseline" as const, commit: "base000", description: "baseline" };
    expect(findRowsOfCommit(baselines, baseline)).toEqual([]);
    expect(findRowsOfCommit(baselines, { ...baseline, submittedAt: "2026-11-29T09:58:00.000Z" })).toEqual(baselines);
  });

  test("its row is the verdict: nothing runs and no second row is written; "
    + "the reset and the inbox still happen", async () => {
    const { port, calls } = fakePort([metric(0.5)]);
    const outcome = await runExperiment(port, { ...context(config(), {}, 0.01), recorded }, request);
    expect(outcome.verdict).toEqual({
      kind: "discard", metric: 1.05, delta: expect.closeTo(0.05, 9),
      reason: "discard: recorded in results.tsv at 2026-11-29T10:00:05.000Z before the daemon stopped; not run again",
    });
    expect(calls).toEqual([
      "patch best000..cand1234567 /s/patches/r-1-cand123-discard.patch",
      "reset org/t/r-1 best000",
      "log ## [2026-11-29] discard | r-1 cand123 lr up",
      "inbox r-1 discard: recorded in results.tsv at 2026-11-29T10:00:05.000Z before the daemon stopped; not run again",
    ]);
    expect(outcome.ledger).toMatchObject({ best: { commit: "best000", metric: 1 }, lastVerified: "best000", runs: 3 });
  });

  test("a branch the killed daemon had already reset stays at the best, and the ledger says so", async () => {
    const { port, calls } = fakePort([], { head: "best000" });
    const outcome = await runExperiment(port, { ...context(config(), {}, 0.01), recorded }, request);
    expect(calls).toContain("reset org/t/r-1 best000");
    expect(outcome.head).toBe("best000");
    expect(outcome.ledger.lastVerified).toBe("best000");
  });

  test("a recorded keep becomes the best; a recorded baseline becomes the baseline", async () => {
    const keep = tsv("cand123\t0.900000\t0.0\tkeep\tlr up\tr-1\t1\t4.0\t2026-11-29T10:00:05.000Z")[0]!;
    const kept = await runExperiment(fakePort([]).port, { ...context(config(), {}, 0.01), recorded: keep }, request);
    expect(kept.verdict).toMatchObject({ kind: "keep", metric: 0.9, delta: expect.closeTo(-0.1, 9) });
    expect(kept.ledger.best).toEqual({ commit: "cand1234567", metric: 0.9, runs: 1 });
    const base = tsv("base000\t1.000000\t0.0\tkeep\tbaseline\tr-1\t1\t4.0\t2026-11-29T10:00:05.000Z")[0]!;
    const baseline = await runExperiment(fakePort([]).port, {
      ...context(config(), { best: null, lastVerified: null }),
      recorded: base,
    }, { ...request, commit: "base000", description: "baseline", kind: "baseline" });
    expect(baseline.verdict.kind).toBe("baseline");
    expect(baseline.ledger).toMatchObject({
      best: { commit: "base000", metric: 1 },
      baseline: { samples: [1], mean: 1, sd: 0 },
      lastVerified: "base000",
    });
  });
});
