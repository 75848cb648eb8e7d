import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { runExperiment } from "../../../src/domain/experiments/experiment.js";
import type { ExperimentContext, VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { judge, judgeGate, type RunOutcome } from "../../../src/domain/experiments/verdict.js";
import { formatHeader, formatRow, parseResults } from "../../../src/domain/experiments/results-table.js";
import { decideTried } from "../../../src/domain/experiments/tried-answer.js";
import type { TriedEntry } from "../../../src/domain/experiments/tried-ledger.js";

const ok: RunOutcome = { exitCode: 0, signal: null, timedOut: false };
const types = { name: "types", timeoutMs: 300_000 };
const metric = { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)", goal: "minimize" as const };

describe("a gate's verdict", () => {
  test("a gate that exits 0 passes; a non-zero exit, a signal, a timeout or a missing program fails naming it", () => {
    expect(judgeGate(types, ok)).toBeUndefined();
    expect(judgeGate(types, { ...ok, exitCode: 2 })).toEqual({
      kind: "fail",
      gate: "types",
      reason: "fail: gate types failed: exit code 2",
    });
    expect(judgeGate(types, { exitCode: null, signal: "SIGSEGV", timedOut: false })?.reason).toBe(
      "fail: gate types failed: killed by SIGSEGV",
    );
    expect(judgeGate(types, { exitCode: null, signal: "SIGKILL", timedOut: true })?.reason).toBe(
      "fail: gate types timed out after 5m; process group killed",
    );
    expect(judgeGate(types, { ...ok, exitCode: null, spawnError: "spawn tsc ENOENT" })?.reason).toBe(
      "fail: gate types could not start: spawn tsc ENOENT",
    );
    // The machine's fault is not the candidate's: a crash, run again like any crash.
    expect(judgeGate(types, { ...ok, exitCode: null, fault: "GPU 1 fell off the bus" })).toEqual({
      kind: "crash",
      reason: "crash: gate types: GPU 1 fell off the bus",
    });
  });

  test("judge: a path reject comes before the gate, the gate before anything the metric says", () => {
    const input = { metric, timeoutMs: 60_000, best: 1, candidate: 0.5, paths: { ok: true } as const };
    expect(judge({ ...input, run: { ...ok, exitCode: 1 }, gate: types }).kind).toBe("fail");
    expect(
      judge({
        ...input, run: { ...ok, exitCode: 1 }, gate: types, paths: { ok: false, reason: "touches prepare.sh" },
      }).kind,
    ).toBe("reject");
    expect(judge({ ...input, run: ok }).kind).toBe("keep");
  });
});

describe("results.tsv's gate column", () => {
  test("written only where gates are set, and read back for a fail", () => {
    const row = {
      commit: "abc1234", metric: undefined, memoryGb: undefined, status: "fail" as const, description: "lr up",
      agent: "r-1", gpu: null, seconds: 3, time: "2026-12-05T02:00:00.000Z",
    };
    expect(formatHeader("val_bpb", [], true)).toBe(
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tgate",
    );
    expect(formatHeader("val_bpb")).not.toContain("gate");
    const text = `${formatHeader("val_bpb", ["lines_added"], true)}\n`
      + `${formatRow({ ...row, gate: "types", extras: { lines_added: 3 } })}\n`;
    expect(parseResults(text).rows).toEqual([{ ...row, gate: "types" }]);
  });
});

describe("the ledger and a repeated failing change", () => {
  test("answers it without a run, naming the gate", () => {
    const key = { patchId: "p1", tree: "t1" };
    const original: TriedEntry = {
      commit: "a".repeat(40), agent: "r-1", description: "lr up", status: "fail", gate: "types",
      reason: "fail: gate types failed: exit code 2", seconds: 4, time: "2026-12-05T02:00:00.000Z", change: key,
    };
    const decision = decideTried({
      commit: "b".repeat(40), agent: "r-2", description: "lr up again", change: { kind: "change", key },
      entries: [original], best: { metric: 1 }, metricName: "val_bpb", goal: "minimize",
    });
    expect(decision).toMatchObject({
      kind: "answer",
      status: "fail",
      verdict: {
        kind: "fail",
        gate: "types",
        reason: "fail: already tried as aaaaaaa by r-1: fail at gate types; not run again (4.0s of GPU time saved; "
          + "`org tried` lists every idea tried)",
      },
    });
  });
});

const verify = (gates: unknown[]) => ConfigSchema.parse({
  roles: { r: { prompt: "p.md", runtime: "x" } },
  verify: {
    command: ["sh", "train.sh"], protected: ["gates/lint.sh"],
    metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" }, gates,
  },
}).verify!;

/** A port whose runs answer from `exits` by argv[0]; every call recorded in order. */
function fakePort(exits: Record<string, number>) {
  const calls: string[] = [];
  const logs = new Map<string, string>();
  const port: VerifierPort = {
    prepareCheckout: async () => (calls.push("checkout"), "/co"),
    changedPaths: async () => [],
    restoreProtected: async () => void calls.push("restore"),
    admit: async () => undefined,
    publish: async () => undefined,
    runCommand: async (argv, opts) => {
      calls.push(`run ${argv.join(" ")} > ${opts.logFile} (${opts.timeoutMs}ms)`);
      const code = exits[argv[0]!] ?? 0;
      logs.set(
        opts.logFile,
        argv[0] === "sh"
          ? "val_bpb: 0.9\n"
          : Array.from({ length: 60 }, (_, i) => `${argv[0]} line ${i + 1}`).join("\n"),
      );
      return { exitCode: code, signal: null, timedOut: false, durationMs: 1000 };
    },
    readLog: async (file) => logs.get(file) ?? "",
    savePatch: async () => undefined,
    branchHead: async () => "cand1234567",
    resetBranch: async () => undefined,
    appendResult: async (header, line) => {
      const cells = line.split("\t");
      calls.push(`header …${header.split("\t").slice(9, 11).join(",")}`,
        `row ${cells.slice(3, 4).concat(cells.slice(10, 11)).join(" ")}`);
    },
    diffStat: async () => ({ added: 1, removed: 0 }),
    appendLog: async () => undefined,
    appendInbox: async (_agent, text) => void calls.push(`inbox ${text.split("\n")[1]}`),
  };
  return { port, calls };
}

const context = (config: ReturnType<typeof verify>): ExperimentContext => ({
  verify: config, baseCommit: "base000", slot: "cpu1", runsDir: "/s/runs", patchesDir: "/s/patches", sigma: 0.01,
  agent: { name: "r-1", branch: "org/t/r-1", worktree: "/w/r-1", gpu: null, edits: [] },
  ledger: { best: { commit: "best000", metric: 1.0, runs: 3 }, lastVerified: "best000", runs: 3 },
  now: () => new Date("2026-12-05T02:00:00.000Z"),
});
const request = {
  id: "x", agent: "r-1", commit: "cand1234567", description: "lr up", kind: "candidate" as const,
  submittedAt: "2026-12-05T02:00:00.000Z",
};
const GATES = [{ name: "types", command: ["tsc"], timeout: "5m" }, { name: "lint", command: ["lint"], timeout: 30 }];

describe("an experiment with gates", () => {
  test("the first gate that fails ends the run: verdict fail naming it, "
    + "its own log's last 50 lines, no metric run", async () => {
    const { port, calls } = fakePort({ lint: 1 });
    const outcome = await runExperiment(port, context(verify(GATES)), request);
    expect(outcome.verdict).toEqual({ kind: "fail", gate: "lint", reason: "fail: gate lint failed: exit code 1" });
    expect(calls.slice(0, 6)).toEqual([
      "checkout", "restore",
      "run tsc > /s/runs/x-gate-types.log (300000ms)",
      "run lint > /s/runs/x-gate-lint.log (30000ms)",
      "header …program,gate", "row fail lint",
    ]);
    expect(outcome.logFile).toBe("/s/runs/x-gate-lint.log");
    expect(outcome.logTail.split("\n")).toEqual(Array.from({ length: 50 }, (_, i) => `lint line ${i + 11}`));
    expect(outcome.head).toBe("best000");
  });

  test("every gate passing lets the metric decide, the scorer restored again after the gates", async () => {
    const { port, calls } = fakePort({});
    const outcome = await runExperiment(port, context(verify(GATES)), request);
    expect(outcome.verdict.kind).toBe("keep");
    expect(calls.slice(0, 8)).toEqual([
      "checkout", "restore", "run tsc > /s/runs/x-gate-types.log (300000ms)",
      "run lint > /s/runs/x-gate-lint.log (30000ms)",
      "restore", "run sh train.sh > /s/runs/x.log (600000ms)", "checkout", "restore",
    ]);
    // The gates ran once: the confirmation runs measure the metric alone.
    expect(calls.filter((call) => call.startsWith("run tsc"))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith("row"))).toEqual(["row keep "]);
  });

  test("a base that fails a gate is a broken base: the baseline's verdict is fail, "
    + "and nothing is tried on it", async () => {
    const { port } = fakePort({ tsc: 2 });
    const outcome = await runExperiment(port, {
      ...context(verify(GATES)),
      ledger: { best: null, lastVerified: null },
    }, { ...request, kind: "baseline" });
    expect(outcome.verdict).toEqual({ kind: "fail", gate: "types", reason: "fail: gate types failed: exit code 2" });
    expect(outcome.ledger).toMatchObject({
      best: null,
      baselineCrash: "fail: gate types failed: exit code 2",
      baselineLog: "/s/runs/x-gate-types.log",
    });
  });
});
