import { describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import {
  detectNewCommits, gpuOfSlot, pickNext, poolSlots, slotsFor, type Served,
} from "../../../src/domain/experiments/schedule.js";

const request = (
  id: string,
  agent: string,
  kind: ExperimentRequest["kind"] = "candidate",
  at = id,
): ExperimentRequest => ({
  id, agent, commit: `c-${id}`, description: id, kind, submittedAt: `2026-11-29T00:00:0${at}Z`,
});
const agents = new Map([["a-1", { gpu: 0 }], ["a-2", { gpu: 0 }], ["b-1", { gpu: null }], ["b-2", { gpu: null }]]);

describe("pickNext", () => {
  test("slots are the GPU, or one of the CPU slots", () => {
    expect(slotsFor({ gpu: 3 }, 2)).toEqual(["gpu3"]);
    expect(slotsFor({ gpu: null }, 2)).toEqual(["cpu0", "cpu1"]);
  });
  test("baselines first, then the oldest request", () => {
    const decision = pickNext({
      pending: [request("2", "b-1"), request("3", "b-2", "baseline"), request("1", "b-2")], runningAgents: new Set(),
      busySlots: new Set(), agents, cpuSlots: 1,
    });
    expect(decision).toEqual({ kind: "start", request: request("3", "b-2", "baseline"), slot: "cpu0" });
  });
  test("one run per GPU: the second agent on GPU 0 waits", () => {
    expect(pickNext({
      pending: [request("1", "a-2")], runningAgents: new Set(["a-1"]), busySlots: new Set(["gpu0"]),
      agents, cpuSlots: 2,
    })).toEqual({ kind: "wait", reason: "1 queued, every usable slot busy" });
  });
  test("an agent's runs go one at a time even when a slot is free", () => {
    expect(
      pickNext({
        pending: [request("2", "b-1")], runningAgents: new Set(["b-1"]), busySlots: new Set(["cpu0"]), agents,
        cpuSlots: 2,
      }).kind,
    ).toBe("wait");
  });
  test("requests of unknown agents are ignored", () => {
    expect(
      pickNext({
        pending: [request("1", "ghost")], runningAgents: new Set(), busySlots: new Set(), agents, cpuSlots: 2,
      }).kind,
    ).toBe("wait");
  });
});

describe("pickNext in pool mode", () => {
  const crew = new Map([["a", { gpu: null }], ["b", { gpu: null }], ["c", { gpu: null }]]);
  const pool = ["gpu0", "gpu1"];
  const pick = (
    pending: ExperimentRequest[],
    extra: { running?: string[]; busy?: string[]; served?: [string, Served][]; pool?: string[] } = {},
  ) => pickNext({
    pending, runningAgents: new Set(extra.running ?? []), busySlots: new Set(extra.busy ?? []), agents: crew,
    cpuSlots: 2, pool: extra.pool ?? pool, served: new Map(extra.served ?? []),
  });

  test("the pool's slots are its GPUs less the lost ones, or the CPU slots with no GPU; a slot names its GPU", () => {
    expect(poolSlots([0, 2, 3], new Set([2]), 2)).toEqual(["gpu0", "gpu3"]);
    expect(poolSlots([], new Set(), 3)).toEqual(["cpu0", "cpu1", "cpu2"]);
    expect(poolSlots([1], new Set([1]), 2)).toEqual([]);
    expect([gpuOfSlot("gpu12"), gpuOfSlot("cpu0")]).toEqual([12, null]);
    expect(slotsFor({ gpu: 5 }, 2, pool)).toEqual(pool);
  });

  test("any agent's run takes any free GPU, never one that is busy", () => {
    expect(pick([request("1", "a")], { busy: ["gpu0"] })).toEqual({
      kind: "start",
      request: request("1", "a"),
      slot: "gpu1",
    });
    expect(pick([request("1", "a")], { busy: ["gpu0", "gpu1"], running: ["b", "c"] })).toEqual({
      kind: "wait",
      reason: "1 queued, every usable slot busy",
    });
  });

  test("fair share: the agent with the fewest runs started goes first, however old the others' requests", () => {
    const served: [string, Served][] = [
      ["a", { runs: 3, last: 5 }],
      ["b", { runs: 1, last: 6 }],
      ["c", { runs: 2, last: 4 }],
    ];
    expect(pick([request("1", "a"), request("2", "c"), request("3", "b")], { served })).toMatchObject({
      kind: "start",
      request: { id: "3" },
    });
  });

  test("round robin: among equal shares, the agent served least recently goes first; "
    + "one never served before anyone", () => {
    const served: [string, Served][] = [["a", { runs: 2, last: 7 }], ["b", { runs: 2, last: 3 }]];
    expect(pick([request("1", "a"), request("2", "b")], { served })).toMatchObject({ request: { id: "2" } });
    expect(
      pick([request("1", "a"), request("2", "b"), request("3", "c")], {
        served: [["a", { runs: 0, last: -1 }], ["b", { runs: 0, last: 0 }]],
      }),
    ).toMatchObject({ request: { id: "1" } });
  });

  test("among agents never served, the oldest request goes first", () => {
    expect(pick([request("5", "a"), request("2", "c"), request("4", "b")])).toMatchObject({ request: { id: "2" } });
  });

  test("an agent's own requests go one at a time, in submit order, whatever its share", () => {
    const served: [string, Served][] = [["a", { runs: 0, last: -1 }], ["b", { runs: 9, last: 9 }]];
    expect(
      pick([request("3", "a"), request("1", "a"), request("2", "b")], { served, running: ["a"], busy: ["gpu0"] }),
    ).toMatchObject({ request: { id: "2" }, slot: "gpu1" });
    expect(pick([request("3", "a"), request("1", "a"), request("2", "b")], { served })).toMatchObject({
      request: { id: "1" },
    });
  });

  test("baselines first, even from an agent with a bigger share", () => {
    const served: [string, Served][] = [["a", { runs: 5, last: 5 }], ["b", { runs: 0, last: -1 }]];
    expect(pick([request("1", "b"), request("2", "a", "baseline")], { served })).toMatchObject({
      request: { id: "2", kind: "baseline" },
    });
  });

  test("a pool whose every GPU is gone waits and says why", () => {
    expect(pick([request("1", "a")], { pool: [] })).toEqual({
      kind: "wait",
      reason: "1 queued, every GPU of the pool is gone",
    });
  });

  test("three agents on two GPUs, each run's end freeing its GPU: "
    + "every agent gets its turn and no GPU ever runs two", () => {
    const pending = ["a", "b", "c"].flatMap((agent) =>
      [1, 2, 3].map((n) => request(`${n}`, agent, "candidate", `${n}`))).map((r) =>
      ({ ...r, id: `${r.agent}${r.id}` }));
    const served = new Map<string, Served>();
    const running = new Map<string, string>();
    const order: string[] = [];
    let turn = 0;
    while (pending.length > 0) {
      const decision = pickNext({
        pending, runningAgents: new Set(running.values()), busySlots: new Set(running.keys()), agents: crew,
        cpuSlots: 2, pool, served,
      });
      if (decision.kind === "wait") {
        // The run that started first ends.
        running.delete([...running.keys()][0]!);
        continue;
      }
      expect(running.has(decision.slot)).toBe(false);
      running.set(decision.slot, decision.request.agent);
      served.set(decision.request.agent, { runs: (served.get(decision.request.agent)?.runs ?? 0) + 1, last: turn++ });
      pending.splice(pending.indexOf(decision.request), 1);
      order.push(decision.request.id);
    }
    expect(order).toEqual(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]);
  });
});

describe("detectNewCommits", () => {
  const now = new Date("2026-11-29T10:00:00.000Z");
  test("a head past the last verdict becomes a request named by its subject", () => {
    const requests = detectNewCommits({
      heads: new Map([["a-1", "abcdef1234"], ["a-2", "same"], ["b-1", "new"]]),
      ledgers: new Map([
        ["a-1", { lastVerified: "old" }],
        ["a-2", { lastVerified: "same" }],
        ["b-1", { lastVerified: "old" }],
      ]),
      queuedAgents: new Set(["b-1"]),
      now,
      subjects: new Map([["a-1", "wider MLP"]]),
    });
    expect(requests).toEqual([
      {
        id: "2026-11-29T10-00-00-000Z-a-1-abcdef1", agent: "a-1", commit: "abcdef1234", description: "wider MLP",
        kind: "candidate", submittedAt: "2026-11-29T10:00:00.000Z",
      },
    ]);
  });
  test("no ledger yet means the baseline has not run: nothing is detected", () => {
    expect(
      detectNewCommits({
        heads: new Map([["a-1", "x"]]), ledgers: new Map(), queuedAgents: new Set(), now, subjects: new Map(),
      }),
    ).toEqual([]);
  });
});
