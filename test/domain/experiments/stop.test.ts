import { describe, expect, it } from "vitest";
import { decideStop, describeFigures, type StopInput } from "../../../src/domain/experiments/stop.js";
import { decideStoppedUp } from "../../../src/domain/lifecycle/stopped-up.js";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";

const BASE = "b0b0b0b0b0b0b0b0";
const START = new Date("2030-01-01T00:00:00Z");
const GRACE = "2m";

function row(
  commit: string,
  status: ResultRow["status"],
  metric: number | undefined,
  agent = "researcher-1",
  seconds = 600,
): ResultRow {
  return {
    commit, metric, memoryGb: undefined, status,
    description: commit === BASE.slice(0, 7) ? "baseline (mean of 3 seeds)" : "idea", agent, gpu: 0, seconds,
    time: START.toISOString(),
  };
}

// Two baselines (not experiments), then four experiments:
// a keep that beats the org, a discard, a crash, a keep that beats only its agent.
const ROWS = [
  row(BASE.slice(0, 7), "keep", 1.0), row(BASE.slice(0, 7), "keep", 1.01, "researcher-2"),
  row("abc1234", "keep", 0.948, "researcher-2"), row("ccc0001", "discard", 0.99), row("ccc0002", "crash", undefined),
  row("ccc0003", "keep", 0.96),
];

const input = (stop: StopInput["stop"], extra: Partial<StopInput> = {}): StopInput => ({
  stop, metric: { name: "val_bpb", goal: "minimize" }, rows: ROWS, baseCommit: BASE, costs: [12.4, 0], startedAt: START,
  now: new Date("2030-01-01T17:00:00Z"), ...extra,
});

describe("the stop decision", () => {
  it("measures the distance to every condition configured while none is met", () => {
    const decision = decideStop(input({
      target: 0.9, max_experiments: 500, max_gpu_hours: 100, max_cost: 200, deadline: "48h", stall: 100, grace: GRACE,
    }));
    expect(decision.kind).toBe("running");
    expect(decision.kind === "running" && decision.distances.map((distance) => distance.text)).toEqual([
      "best 0.948 → target 0.9", "4/500 experiments", "1.0/100 GPU-h", "$12.40/$200", "31h left", "stall 3/100",
    ]);
  });

  it("counts experiments without baselines, GPU time over every row, "
    + "and the stall since the org's best last improved", () => {
    const decision = decideStop(input({ grace: GRACE }));
    expect(decision.figures).toEqual({
      experiments: 4, gpuHours: 1, costUsd: 12.4, costPartial: false, sinceBest: 3, deadline: undefined,
      best: { name: "val_bpb", metric: 0.948, agent: "researcher-2", commit: "abc1234" },
    });
    expect(describeFigures(decision.figures)).toBe(
      "4 experiments · 1.0 GPU-h · $12.40 · best val_bpb 0.948 (researcher-2 abc1234)",
    );
  });

  it("stops at the target, in the metric's direction", () => {
    expect(decideStop(input({ target: 0.95, grace: GRACE }))).toMatchObject({
      kind: "stop", key: "target", cancel: false, reason: "target reached: val_bpb 0.948 ≤ 0.95 (researcher-2 abc1234)",
    });
    const maximize = input({ target: 1.005, grace: GRACE }, { metric: { name: "acc", goal: "maximize" } });
    expect(decideStop(maximize)).toMatchObject({
      kind: "stop",
      reason: "target reached: acc 1.01 ≥ 1.005 (researcher-2 b0b0b0b)",
    });
  });

  it("stops at max_experiments", () => {
    expect(decideStop(input({ max_experiments: 4, grace: GRACE }))).toMatchObject({
      kind: "stop", key: "max_experiments", cancel: false, reason: "max_experiments reached: 4 experiments of 4",
    });
    expect(decideStop(input({ max_experiments: 5, grace: GRACE })).kind).toBe("running");
  });

  it("does not count the ledger's answers (a duplicate, an adopted keep) "
    + "as experiments or as a stall: nothing ran", () => {
    const answered = [
      {
        ...row("ddd0001", "discard", 0.99, "researcher-2"),
        seconds: 0,
        description: "duplicate of ccc0001 by researcher-1: idea",
      },
      {
        ...row("abc1234", "keep", 0.948, "researcher-1"),
        seconds: 0,
        description: "adopt abc1234 kept by researcher-2: idea",
      },
    ];
    const decision = decideStop(input({ max_experiments: 5, stall: 4, grace: GRACE }, {
      rows: [...ROWS, ...answered],
    }));
    expect(decision).toMatchObject({ kind: "running", figures: { experiments: 4, sinceBest: 3, gpuHours: 1 } });
    // An agent's own description that merely starts alike is an experiment.
    const own = { ...row("eee0001", "discard", 0.99), description: "duplicate of the warmup, by hand: idea" };
    expect(decideStop(input({ max_experiments: 5, grace: GRACE }, { rows: [...ROWS, own] }))).toMatchObject({
      kind: "stop",
      key: "max_experiments",
    });
  });

  it("stops at max_gpu_hours and cancels queued runs", () => {
    expect(decideStop(input({ max_gpu_hours: 1, grace: GRACE }))).toMatchObject({
      kind: "stop", key: "max_gpu_hours", cancel: true,
      reason: "max_gpu_hours reached: 1.0 of 1 GPU-hours of verify runs",
    });
  });

  it("stops at max_cost, a floor when an agent is unpriced, and cancels queued runs", () => {
    expect(decideStop(input({ max_cost: 12, grace: GRACE }, { costs: [12.4, null] }))).toMatchObject({
      kind: "stop", key: "max_cost", cancel: true, reason: "max_cost reached: $12.40+ of $12 in tokens",
    });
    expect(decideStop(input({ max_cost: 13, grace: GRACE })).kind).toBe("running");
  });

  it("stops at a deadline, a duration from org up or an ISO time", () => {
    expect(decideStop(input({ deadline: "17h", grace: GRACE }))).toMatchObject({
      kind: "stop",
      key: "deadline",
      reason: "deadline passed: 2030-01-01T17:00:00.000Z (17h after org up)",
    });
    expect(decideStop(input({ deadline: "2030-01-01T16:00:00Z", grace: GRACE }))).toMatchObject({
      kind: "stop",
      reason: "deadline passed: 2030-01-01T16:00:00.000Z",
    });
    expect(decideStop(input({ deadline: "2030-01-04T00:00:00Z", grace: GRACE }))).toMatchObject({
      kind: "running",
      distances: [{ key: "deadline", text: "2d7h left" }],
    });
  });

  it("stops at a stall", () => {
    expect(decideStop(input({ stall: 3, grace: GRACE }))).toMatchObject({
      kind: "stop",
      key: "stall",
      reason: "stall: 3 experiments without an org-best improvement (best val_bpb 0.948, researcher-2 abc1234)",
    });
  });

  it("names the first condition in order when several are met, and lists them all", () => {
    expect(decideStop(input({ stall: 1, max_experiments: 2, target: 0.95, grace: GRACE }))).toMatchObject({
      key: "target",
      met: ["target", "max_experiments", "stall"],
    });
  });

  it("skips a condition waived at its org.yaml value, and applies a new value", () => {
    expect(decideStop(input({ max_experiments: 4, grace: GRACE }, { waived: { max_experiments: 4 } }))).toMatchObject({
      kind: "running",
      distances: [{ text: "4/4 experiments (waived)" }],
    });
    expect(decideStop(input({ max_experiments: 3, grace: GRACE }, { waived: { max_experiments: 4 } })).kind)
      .toBe("stop");
  });
});

describe("org up of a stopped org", () => {
  const stopped = decideStop(input({ max_experiments: 4, grace: GRACE }));
  const record = {
    kind: "stop" as const, phase: "stopped" as const, key: "max_experiments" as const,
    reason: "max_experiments reached: 4 experiments of 4", figures: stopped.figures, cancel: false, metAt: "",
    graceUntil: "",
  };

  it("refuses a plain org up, saying why it stopped and how to go on", () => {
    expect(decideStoppedUp({
      name: "toy", stop: { max_experiments: 4, grace: GRACE }, decision: stopped, record, resume: false, waived: {},
    })).toEqual({
      kind: "refuse",
      reason: "org toy stopped: max_experiments reached: 4 experiments of 4 — "
        + "to go on, raise stop.max_experiments (now 4) in org.yaml, or run `org up --resume` to go on past it",
    });
  });

  it("goes on past every condition met with --resume", () => {
    const both = decideStop(input({ max_experiments: 4, stall: 2, grace: GRACE }));
    expect(decideStoppedUp({
      name: "toy", stop: { max_experiments: 4, stall: 2, grace: GRACE }, decision: both, record, resume: true,
      waived: { max_cost: 5 },
    })).toEqual({
      kind: "waive", waivers: { max_cost: 5, max_experiments: 4, stall: 2 },
      reason: "going on past stop.max_experiments 4, stop.stall 2 (max_experiments reached: 4 experiments of 4)",
    });
  });

  it("starts an org whose limit was raised", () => {
    expect(decideStoppedUp({
      name: "toy", stop: { max_experiments: 10, grace: GRACE },
      decision: decideStop(input({ max_experiments: 10, grace: GRACE })), record, resume: false, waived: {},
    })).toEqual({ kind: "go" });
  });
});
