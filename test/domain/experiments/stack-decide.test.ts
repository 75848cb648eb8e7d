// Stacking's pure decisions: when a keep is offered to the org best,
// onto which best, and whether its paths may go there.
import { describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { Frontier } from "../../../src/domain/experiments/frontier.js";
import { pickNext } from "../../../src/domain/experiments/schedule.js";
import {
  checkStackPaths, decideStackOffer, decideStackTarget, toStackRequest, type StackAttempt,
} from "../../../src/domain/experiments/stack.js";
import type { Verdict } from "../../../src/domain/experiments/verdict.js";

const KEPT = "b".repeat(40);
const PREVIOUS = "a".repeat(40);
const BEST = "c".repeat(40);
const candidate: ExperimentRequest = {
  id: "1", agent: "rb-1", commit: KEPT, description: "b 2", kind: "candidate", submittedAt: "2026-01-01T00:00:00.000Z",
};
const keep: Verdict = { kind: "keep", metric: 3, delta: 1, reason: "keep" };
const frontier: Frontier = { commit: BEST, metric: 4, agent: "ra-1", at: "2026-01-01T00:00:00.000Z" };
const offer = (overrides: Partial<Parameters<typeof decideStackOffer>[0]> = {}) =>
  decideStackOffer({
    enabled: true, request: candidate, verdict: keep, after: PREVIOUS, frontier, goal: "maximize", metricName: "score",
    ...overrides,
  });
const target = (overrides: Partial<Parameters<typeof decideStackTarget>[0]> = {}) =>
  decideStackTarget({
    kept: KEPT, frontier, bestRuns: 3, tried: [], ancestry: { bestHoldsKept: false, keptHoldsBest: false },
    ...overrides,
  });

describe("decideStackOffer", () => {
  test("a kept candidate that does not beat the org best offers its change since the agent's previous best", () => {
    expect(offer()).toEqual({ kind: "offer", after: PREVIOUS });
  });

  test("no offer when off, for anything but a kept candidate, for a keep that advances the org itself, with no change, "
    + "or for the org best itself (adopted)", () => {
    expect(offer({ enabled: false })).toEqual({ kind: "skip", reason: "verify.stack is false" });
    expect(offer({ verdict: { kind: "discard", metric: 1, delta: -1, reason: "discard" } }).kind).toBe("skip");
    expect(offer({ request: { ...candidate, kind: "baseline" } }).kind).toBe("skip");
    expect(offer({ verdict: { ...keep, metric: 5 } })).toEqual({
      kind: "skip",
      reason: "score 5 by rb-1 beats the org's best 4 (ra-1)",
    });
    expect(offer({ frontier: undefined })).toEqual({ kind: "skip", reason: "the org has no best yet" });
    expect(offer({ after: KEPT })).toEqual({ kind: "skip", reason: "no change over the agent's previous best" });
    expect(offer({ frontier: { ...frontier, commit: KEPT } })).toEqual({ kind: "skip", reason: "it is the org best" });
  });
});

describe("decideStackTarget", () => {
  test("onto the org best, with its metric and runs", () => {
    expect(target()).toEqual({ kind: "stack", target: { onto: BEST, metric: 4, runs: 3 } });
  });

  test("not when the best holds the kept commit, the kept commit builds on the best, or the pair was tried", () => {
    expect(target({ ancestry: { bestHoldsKept: true, keptHoldsBest: false } })).toEqual({
      kind: "skip",
      reason: "the org best ccccccc already holds bbbbbbb",
    });
    expect(target({ frontier: { ...frontier, commit: KEPT } }).kind).toBe("skip");
    expect(target({ ancestry: { bestHoldsKept: false, keptHoldsBest: true } })).toEqual({
      kind: "skip",
      reason: "bbbbbbb already builds on the org best ccccccc",
    });
    const tried: StackAttempt = {
      kept: KEPT, onto: BEST, outcome: "conflict", reason: "conflicts", at: "2026-01-02T00:00:00.000Z",
    };
    expect(target({ tried: [tried] })).toEqual({
      kind: "skip",
      reason: "stack bbbbbbb onto ccccccc was tried at 2026-01-02T00:00:00.000Z (conflict)",
    });
    // Another org best is another pair.
    expect(target({ tried: [{ ...tried, onto: PREVIOUS }] }).kind).toBe("stack");
  });
});

describe("checkStackPaths", () => {
  const rules = { protected: ["prepare.sh"], edits: ["b.txt"] };
  test("the change must add something, within the agent's role", () => {
    expect(checkStackPaths([{ path: "b.txt", status: "M" }], rules)).toEqual({ kind: "judge" });
    expect(checkStackPaths([], rules)).toEqual({
      kind: "skip",
      outcome: "empty",
      reason: "not stacked: the org best already holds the change",
    });
    expect(checkStackPaths([{ path: "a.txt", status: "M" }], rules)).toEqual({
      kind: "skip",
      outcome: "paths",
      reason: "not stacked: the change changes a.txt, outside edits [b.txt]",
    });
    expect(checkStackPaths([{ path: "prepare.sh", status: "D" }], rules)).toEqual({
      kind: "skip",
      outcome: "paths",
      reason: "not stacked: the change touches protected prepare.sh",
    });
  });
});

describe("a stack's request", () => {
  const stack = toStackRequest({
    agent: "rb-1", kept: KEPT, after: PREVIOUS, target: { onto: BEST, metric: 4, runs: 3 },
    now: new Date("2026-01-03T00:00:00.000Z"),
  });

  test("is the agent's, named for the pair", () => {
    expect(stack).toEqual({
      id: "2026-01-03T00-00-00-000Z-rb-1-stack-bbbbbbb", agent: "rb-1", commit: KEPT, after: PREVIOUS,
      description: "stack bbbbbbb onto ccccccc",
      kind: "stack", submittedAt: "2026-01-03T00:00:00.000Z", stack: { onto: BEST, metric: 4, runs: 3 },
    });
  });

  test("runs in its agent's turn and slot, or any slot of a pool", () => {
    const agents = new Map([["ra-1", { gpu: 0 }], ["rb-1", { gpu: 1 }]]);
    expect(pickNext({ pending: [stack], runningAgents: new Set(), busySlots: new Set(), agents, cpuSlots: 1 })).toEqual(
      { kind: "start", request: stack, slot: "gpu1" },
    );
    expect(
      pickNext({
        pending: [stack], runningAgents: new Set(["rb-1"]), busySlots: new Set(["gpu1"]), agents, cpuSlots: 1,
      }).kind,
    ).toBe("wait");
    expect(pickNext({
      pending: [stack], runningAgents: new Set(), busySlots: new Set(["gpu0"]), agents, cpuSlots: 1,
      pool: ["gpu0", "gpu2"],
    })).toEqual({ kind: "start", request: stack, slot: "gpu2" });
  });
});
