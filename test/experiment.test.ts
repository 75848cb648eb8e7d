import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../src/org/config/schema.js";
import { runExperiment, type ExperimentContext, type VerifierPort } from "../src/org/experiment.js";

const verify = ConfigSchema.parse({
  roles: { r: { prompt: "p.md", runtime: "x" } },
  verify: { command: ["sh", "train.sh"], protected: ["prepare.sh"], metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" }, timeout: "30s" },
}).verify!;

/** A port that records every call in order, with a scripted run log. */
function fakePort(log: string, changed: { path: string; status: string }[] = [], exitCode = 0) {
  const calls: string[] = [];
  const port: VerifierPort = {
    prepareCheckout: async (slot, commit) => (calls.push(`checkout ${slot} ${commit}`), "/co"),
    changedPaths: async () => (calls.push("diff"), changed),
    restoreProtected: async (_checkout, _base, paths) => void calls.push(`restore ${paths.join(",")}`),
    runCommand: async (argv, options) => (calls.push(`run ${argv.join(" ")} gpu=${options.env.CUDA_VISIBLE_DEVICES}`), { exitCode, signal: null, timedOut: false, durationMs: 1200 }),
    readLog: async () => log,
    branchHead: async () => "cand1234567",
    savePatch: async (from, to, file) => void calls.push(`patch ${from}..${to} ${file}`),
    resetBranch: async (agent, commit) => (calls.push(`reset ${agent.branch} ${commit}`), undefined),
    appendResult: async (_header, line) => void calls.push(`row ${line.split("\t").slice(0, 6).join(" ")}`),
    appendLog: async (entry) => void calls.push(`log ${entry.split("\n")[0]}`),
    appendInbox: async (agent, text) => void calls.push(`inbox ${agent} ${text.split("\n")[1]}`),
  };
  return { port, calls };
}

const context = (best: number | null): ExperimentContext => ({
  verify, baseCommit: "base000", slot: "gpu1", runsDir: "/s/runs", patchesDir: "/s/patches",
  agent: { name: "r-1", branch: "org/t/r-1", worktree: "/w/r-1", gpu: 1, edits: ["train.sh"] },
  ledger: { best: best === null ? null : { commit: "best000", metric: best }, lastVerified: "best000" },
  now: () => new Date("2026-11-29T10:00:00.000Z"),
});
const request = { id: "x", agent: "r-1", commit: "cand1234567", description: "lr up", kind: "candidate" as const, submittedAt: "2026-11-29T10:00:00.000Z" };

describe("runExperiment", () => {
  test("a worse candidate: row first, then the patch, the reset to best, log and inbox", async () => {
    const { port, calls } = fakePort("val_bpb: 1.0500\n");
    const outcome = await runExperiment(port, context(1.0), request);
    expect(outcome.verdict).toEqual({ kind: "discard", metric: 1.05, delta: expect.closeTo(0.05, 9), reason: "discard: val_bpb 1.0500 >= best 1.0000 (+0.0500)" });
    expect(calls).toEqual([
      "diff",
      "checkout gpu1 cand1234567",
      "restore prepare.sh",
      "run sh train.sh gpu=1",
      "row cand123 1.050000 0.0 discard lr up r-1",
      "patch best000..cand1234567 /s/patches/r-1-cand123-discard.patch",
      "reset org/t/r-1 best000",
      "log ## [2026-11-29] discard | r-1 cand123 lr up",
      "inbox r-1 discard: val_bpb 1.0500 >= best 1.0000 (+0.0500)",
    ]);
    expect(outcome.ledger).toEqual({ best: { commit: "best000", metric: 1 }, lastVerified: "best000" });
    expect(outcome.runSeconds).toBe(1.2);
  });

  test("a better candidate is kept and becomes the best; nothing is reset", async () => {
    const { port, calls } = fakePort("val_bpb: 0.9\n");
    const outcome = await runExperiment(port, context(1.0), request);
    expect(outcome.verdict.kind).toBe("keep");
    expect(outcome.ledger).toEqual({ best: { commit: "cand1234567", metric: 0.9 }, lastVerified: "cand1234567" });
    expect(calls.some((call) => call.startsWith("reset") || call.startsWith("patch"))).toBe(false);
  });

  test("a diff touching a protected path is rejected without running anything", async () => {
    const { port, calls } = fakePort("", [{ path: "prepare.sh", status: "D" }]);
    const outcome = await runExperiment(port, context(1.0), request);
    expect(outcome.verdict).toEqual({ kind: "reject", reason: "reject: touches protected prepare.sh" });
    expect(calls.filter((call) => call.startsWith("run") || call.startsWith("checkout"))).toEqual([]);
    expect(calls).toContain("reset org/t/r-1 best000");
  });

  test("the baseline runs the base unmodified and records it as keep", async () => {
    const { port, calls } = fakePort("val_bpb: 1.2\n");
    const outcome = await runExperiment(port, context(null), { ...request, kind: "baseline", commit: "base000", description: "baseline" });
    expect(outcome.verdict).toEqual({ kind: "baseline", metric: 1.2, reason: "baseline: val_bpb 1.2000" });
    expect(calls).not.toContain("diff");
    expect(calls).toContain("row base000 1.200000 0.0 keep baseline r-1");
  });
});
