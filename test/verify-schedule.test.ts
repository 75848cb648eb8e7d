import { describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../src/org/experiments/experiment.js";
import { detectNewCommits, pickNext, slotsFor } from "../src/org/experiments/schedule.js";

const request = (id: string, agent: string, kind: ExperimentRequest["kind"] = "candidate", at = id): ExperimentRequest => ({
  id, agent, commit: `c-${id}`, description: id, kind, submittedAt: `2026-11-29T00:00:0${at}Z`,
});
const agents = new Map([["a-1", { gpu: 0 }], ["a-2", { gpu: 0 }], ["b-1", { gpu: null }], ["b-2", { gpu: null }]]);

describe("pickNext", () => {
  test("slots are the GPU, or one of the CPU slots", () => {
    expect(slotsFor({ gpu: 3 }, 2)).toEqual(["gpu3"]);
    expect(slotsFor({ gpu: null }, 2)).toEqual(["cpu0", "cpu1"]);
  });
  test("baselines first, then the oldest request", () => {
    const decision = pickNext({ pending: [request("2", "b-1"), request("3", "b-2", "baseline"), request("1", "b-2")], runningAgents: new Set(), busySlots: new Set(), agents, cpuSlots: 1 });
    expect(decision).toEqual({ kind: "start", request: request("3", "b-2", "baseline"), slot: "cpu0" });
  });
  test("one run per GPU: the second agent on GPU 0 waits", () => {
    expect(pickNext({ pending: [request("1", "a-2")], runningAgents: new Set(["a-1"]), busySlots: new Set(["gpu0"]), agents, cpuSlots: 2 }))
      .toEqual({ kind: "wait", reason: "1 queued, every usable slot busy" });
  });
  test("an agent's runs go one at a time even when a slot is free", () => {
    expect(pickNext({ pending: [request("2", "b-1")], runningAgents: new Set(["b-1"]), busySlots: new Set(["cpu0"]), agents, cpuSlots: 2 }).kind).toBe("wait");
  });
  test("requests of unknown agents are ignored", () => {
    expect(pickNext({ pending: [request("1", "ghost")], runningAgents: new Set(), busySlots: new Set(), agents, cpuSlots: 2 }).kind).toBe("wait");
  });
});

describe("detectNewCommits", () => {
  const now = new Date("2026-11-29T10:00:00.000Z");
  test("a head past the last verdict becomes a request named by its subject", () => {
    const requests = detectNewCommits({
      heads: new Map([["a-1", "abcdef1234"], ["a-2", "same"], ["b-1", "new"]]),
      ledgers: new Map([["a-1", { lastVerified: "old" }], ["a-2", { lastVerified: "same" }], ["b-1", { lastVerified: "old" }]]),
      queuedAgents: new Set(["b-1"]),
      now,
      subjects: new Map([["a-1", "wider MLP"]]),
    });
    expect(requests).toEqual([{ id: "2026-11-29T10-00-00-000Z-a-1-abcdef1", agent: "a-1", commit: "abcdef1234", description: "wider MLP", kind: "candidate", submittedAt: "2026-11-29T10:00:00.000Z" }]);
  });
  test("no ledger yet means the baseline has not run: nothing is detected", () => {
    expect(detectNewCommits({ heads: new Map([["a-1", "x"]]), ledgers: new Map(), queuedAgents: new Set(), now, subjects: new Map() })).toEqual([]);
  });
});
