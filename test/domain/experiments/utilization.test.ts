import { describe, expect, test } from "vitest";
import { listCapacity, parseGpuRuns, toBusyIntervals } from "../../../src/domain/experiments/gpu-runs.js";
import {
  measureUtilization, seriesUtilization, type BusyInterval, type Capacity,
} from "../../../src/domain/experiments/utilization.js";

const T = Date.parse("2026-01-01T10:00:00Z");
const min = (minutes: number) => T + minutes * 60_000;
const GPUS: Capacity = { unit: "gpu", slots: ["gpu0", "gpu1"] };
const run = (slot: string, from: number, to?: number): BusyInterval =>
  ({ slot, start: min(from), ...(to === undefined ? {} : { end: min(to) }) });

describe("measureUtilization", () => {
  test("no runs: 0% over the org's life, with its wall time", () => {
    expect(measureUtilization({ runs: [], capacity: GPUS, since: min(0), now: min(120) })).toEqual({
      unit: "gpu", gpus: 2, overall: 0, busySeconds: 0, wallSeconds: 7200, lastHour: 0, lastHourBusySeconds: 0,
      lastHourWallSeconds: 3600,
    });
  });

  test("a run in flight counts up to now", () => {
    const measured = measureUtilization({ runs: [run("gpu0", 100)], capacity: GPUS, since: min(0), now: min(120) });
    expect([measured.busySeconds, measured.overall, measured.lastHour]).toEqual([1200, 1200 / 14_400, 1200 / 7200]);
  });

  test("a run crossing the one-hour boundary counts only its part inside the last hour", () => {
    const measured = measureUtilization({
      runs: [run("gpu0", 40, 80), run("gpu1", 0, 120)], capacity: GPUS, since: min(0), now: min(120),
    });
    expect(measured.busySeconds).toBe(160 * 60);
    expect(measured.lastHourBusySeconds).toBe(80 * 60);
    expect(measured.overall).toBeCloseTo(160 / 240, 12);
    expect(measured.lastHour).toBeCloseTo(80 / 120, 12);
  });

  test("overlapping runs on one GPU are counted once; runs on slots outside the capacity not at all", () => {
    const measured = measureUtilization({
      runs: [run("gpu0", 0, 30), run("gpu0", 20, 40), run("gpu0", 25, 35), run("cpu0", 0, 60)], capacity: GPUS,
      since: min(0), now: min(60),
    });
    expect(measured.busySeconds).toBe(40 * 60);
    expect(measured.overall).toBeCloseTo(40 / 120, 12);
  });

  test("more GPUs than runs: the idle ones count against it", () => {
    const measured = measureUtilization({
      runs: [run("gpu0", 0, 60)], capacity: { unit: "gpu", slots: ["gpu0", "gpu1", "gpu2", "gpu3"] }, since: min(0),
      now: min(60),
    });
    expect([measured.gpus, measured.overall, measured.lastHour]).toEqual([4, 0.25, 0.25]);
  });

  test("an org younger than an hour: the last hour is its whole life; runs from before it started are clipped", () => {
    const measured = measureUtilization({
      runs: [run("gpu0", -10, 15), run("gpu1", 5, 20)], capacity: GPUS, since: min(0), now: min(20),
    });
    expect(measured).toMatchObject({
      busySeconds: 1800, wallSeconds: 1200, lastHourBusySeconds: 1800, lastHourWallSeconds: 1200,
    });
    expect(measured.overall).toBe(0.75);
    expect(measured.lastHour).toBe(0.75);
  });

  test("no wall time yet, or no slot to fill: no figure rather than a division by zero", () => {
    expect(measureUtilization({ runs: [], capacity: GPUS, since: min(0), now: min(0) }).overall).toBeNull();
    const noSlots: Capacity = { unit: "gpu", slots: [] };
    expect(measureUtilization({ runs: [run("gpu0", 0, 5)], capacity: noSlots, since: min(0), now: min(10) }).lastHour)
      .toBeNull();
  });
});

describe("seriesUtilization", () => {
  test("5-minute buckets over two hours, the last clipped to now", () => {
    const series = seriesUtilization({
      runs: [run("gpu0", 0, 10), run("gpu1", 5, 7)], capacity: GPUS, since: min(0), now: min(121),
    });
    expect(series.bucketSeconds).toBe(300);
    expect(series.points).toHaveLength(25);
    expect(series.points.slice(0, 3).map((point) => point.utilization)).toEqual([0.5, 0.7, 0]);
    expect(series.points.at(-1)).toEqual({
      start: new Date(min(120)).toISOString(),
      end: new Date(min(121)).toISOString(),
      utilization: 0,
    });
  });

  test("a young org gets minute buckets; an old one hours", () => {
    expect(
      seriesUtilization({ runs: [], capacity: GPUS, since: min(0), now: min(3) }).points.map((point) =>
        point.utilization),
    ).toEqual([0, 0, 0]);
    expect(seriesUtilization({ runs: [], capacity: GPUS, since: min(0), now: min(60 * 48) }).bucketSeconds).toBe(3600);
  });
});

describe("state/gpu-runs.jsonl", () => {
  const slot = { slot: "gpu0", gpu: 0, agent: "r-1", commit: "abc", kind: "baseline" as const, run: 1 };
  const started = (id: string, at: number) =>
    JSON.stringify({ ...slot, id, start: new Date(min(at)).toISOString(), pid: 42, ticks: 7 });
  const ended = (id: string, from: number, to: number) =>
    JSON.stringify({ ...slot, id, start: new Date(min(from)).toISOString(), end: new Date(min(to)).toISOString() });

  test("an end line closes its start; a start alone is open; a line cut short is skipped", () => {
    const { ended: done, open } = parseGpuRuns(
      [started("a", 0), ended("a", 0, 5), started("b", 6), '{"id":"c","slot":"gp'].join("\n"),
    );
    expect(done.map((entry) => entry.id)).toEqual(["a"]);
    expect(open.map((entry) => [entry.id, entry.pid, entry.ticks])).toEqual([["b", 42, 7]]);
    expect(toBusyIntervals(done, open)).toEqual([run("gpu0", 0, 5), run("gpu0", 6)]);
  });

  test("capacity: the GPUs agents hold, or the parallel CPU slots of a CPU-only org", () => {
    expect(listCapacity([{ gpu: 1 }, { gpu: null }, { gpu: 0 }, { gpu: 10 }], 2)).toEqual({
      unit: "gpu",
      slots: ["gpu0", "gpu1", "gpu10"],
    });
    expect(listCapacity([{ gpu: null }, { gpu: null }, { gpu: null }], 2)).toEqual({
      unit: "slot",
      slots: ["cpu0", "cpu1"],
    });
    expect(listCapacity([], 3)).toEqual({ unit: "slot", slots: ["cpu0", "cpu1", "cpu2"] });
    // Pool mode: agents hold no GPU; the pool is what runs use, or the CPU slots when it is empty.
    expect(listCapacity([{ gpu: null }, { gpu: null }], 2, [0, 2, 3])).toEqual({
      unit: "gpu",
      slots: ["gpu0", "gpu2", "gpu3"],
    });
    expect(listCapacity([{ gpu: null }], 2, [])).toEqual({ unit: "slot", slots: ["cpu0", "cpu1"] });
  });
});
