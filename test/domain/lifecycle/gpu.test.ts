import { describe, expect, test } from "vitest";
import { allocateGpus, parseNvidiaSmi, selectGpus } from "../../../src/domain/lifecycle/select-gpus.js";

const CSV = [
  "0, GPU-aaaa, NVIDIA H100 80GB HBM3, 1, 81559",
  "1, GPU-bbbb, NVIDIA H100 80GB HBM3, 40213, 81559",
  "2, GPU-cccc, NVIDIA H100 80GB HBM3, [N/A], [N/A]",
  "",
].join("\n");

describe("parseNvidiaSmi", () => {
  test("reads index, uuid, name and memory; N/A memory counts as free", () => {
    expect(parseNvidiaSmi(CSV)).toEqual([
      { index: 0, uuid: "GPU-aaaa", name: "NVIDIA H100 80GB HBM3", memoryUsedMb: 1, memoryTotalMb: 81559 },
      { index: 1, uuid: "GPU-bbbb", name: "NVIDIA H100 80GB HBM3", memoryUsedMb: 40213, memoryTotalMb: 81559 },
      { index: 2, uuid: "GPU-cccc", name: "NVIDIA H100 80GB HBM3", memoryUsedMb: 0, memoryTotalMb: 0 },
    ]);
  });
  test("ignores garbage lines", () => {
    expect(parseNvidiaSmi("No devices were found\n")).toEqual([]);
  });
});

describe("selectGpus", () => {
  const gpus = parseNvidiaSmi(CSV);
  test("auto skips a GPU busy with someone else's memory, with a warning", () => {
    expect(selectGpus("auto", gpus)).toEqual({
      kind: "gpus",
      free: [0, 2],
      warnings: ["GPU 1 (NVIDIA H100 80GB HBM3) is busy: 40213 MiB in use by another process; skipped"],
    });
  });
  test("a GPU we already lease is not 'busy' to us", () => {
    expect(selectGpus("auto", gpus, [1])).toMatchObject({ free: [0, 1, 2], warnings: [] });
  });
  test("an explicit list keeps its order and warns about unknown indices", () => {
    expect(selectGpus([2, 7, 0], gpus)).toEqual({
      kind: "gpus",
      free: [2, 0],
      warnings: ["GPU 7 is listed in org.yaml but nvidia-smi does not show it; skipped"],
    });
  });
  test("none, a missing nvidia-smi and an empty list mean CPU mode", () => {
    expect(selectGpus("none", gpus)).toEqual({ kind: "cpu", reason: "gpus: none in org.yaml" });
    expect(selectGpus("auto", { error: "nvidia-smi not found on PATH" })).toEqual({
      kind: "cpu",
      reason: "no GPU found (nvidia-smi not found on PATH)",
    });
    expect(selectGpus("auto", [])).toEqual({ kind: "cpu", reason: "nvidia-smi lists no GPU" });
  });
});

describe("allocateGpus", () => {
  const agents = [
    { name: "chief-1", gpu: false },
    { name: "junior-1", gpu: true },
    { name: "junior-2", gpu: true },
  ];
  test("one distinct GPU per agent that needs one; none for the rest", () => {
    const result = allocateGpus(agents, { kind: "gpus", free: [3, 1, 2], warnings: [] });
    expect(result.ok && Object.fromEntries(result.leases)).toEqual({ "chief-1": null, "junior-1": 1, "junior-2": 2 });
  });
  test("a resume keeps the leases agents already hold", () => {
    const result = allocateGpus(agents, { kind: "gpus", free: [0, 1, 2], warnings: [] }, new Map([["junior-2", 0]]));
    expect(result.ok && Object.fromEntries(result.leases)).toEqual({ "chief-1": null, "junior-1": 1, "junior-2": 0 });
  });
  test("too few free GPUs is an error that says how many", () => {
    expect(allocateGpus(agents, { kind: "gpus", free: [5], warnings: [] })).toEqual({
      ok: false,
      needed: 2,
      free: [5],
      reason: "2 agents need a GPU each but only 1 GPU is free (5)",
    });
  });
  test("CPU mode leases nothing and never fails", () => {
    const result = allocateGpus(agents, { kind: "cpu", reason: "x" });
    expect(result.ok && [...result.leases.values()]).toEqual([null, null, null]);
  });
});
