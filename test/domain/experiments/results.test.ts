import { describe, expect, test } from "vitest";
import {
  buildLeaderboard, formatHeader, formatRow, parseResults, toResultStatus, type ResultRow,
} from "../../../src/domain/experiments/results-table.js";

const time = "2026-04-02T10:00:00.000Z";
function row(overrides: Partial<ResultRow>): ResultRow {
  return {
    commit: "a1b2c3d4e5f6", metric: 0.9979, memoryGb: 44, status: "keep", description: "baseline", agent: "alice",
    gpu: 0, seconds: 325.94, time, ...overrides,
  };
}

describe("formatHeader and formatRow", () => {
  test("autoresearch's five columns first, then agent, gpu, seconds, time, program", () => {
    expect(formatHeader("val_bpb")).toBe(
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram",
    );
  });
  test("a kept row: 7-char commit, 6 decimals, 1 decimal memory", () => {
    expect(formatRow(row({}))).toBe(`a1b2c3d\t0.997900\t44.0\tkeep\tbaseline\talice\t0\t325.9\t${time}\t`);
  });
  test("a crash row is zeroed like autoresearch, and CPU mode says cpu", () => {
    expect(formatRow(row({
      status: "crash", metric: undefined, memoryGb: undefined, description: "double the width", gpu: null, seconds: 12,
    }))).toBe(`a1b2c3d\t0.000000\t0.0\tcrash\tdouble the width\talice\tcpu\t12.0\t${time}\t`);
  });
  test("tabs and newlines in the description become spaces", () => {
    expect(formatRow(row({ status: "discard", description: "try\tthis\nand\r\nthat" })).split("\t")[4])
      .toBe("try this and that");
  });
  test("a baseline verdict is recorded as keep", () => {
    expect([toResultStatus("baseline"), toResultStatus("keep"), toResultStatus("reject")]).toEqual([
      "keep", "keep", "reject",
    ]);
  });
});

describe("parseResults", () => {
  test("round-trips formatted rows", () => {
    const rows = [
      row({ commit: "a1b2c3d" }),
      row({ commit: "b2c3d4e", status: "crash", metric: undefined, memoryGb: undefined, gpu: null, seconds: 1.5 }),
    ];
    const text = `${formatHeader("val_bpb")}\n${rows.map(formatRow).join("\n")}\n`;
    expect(parseResults(text)).toEqual({ metricName: "val_bpb", rows: [{ ...rows[0], seconds: 325.9 }, rows[1]] });
  });
  test("a trailing partial line is skipped", () => {
    const text = `${formatHeader("val_loss")}\n${formatRow(row({}))}\nb2c3d4e\t0.98`;
    expect(parseResults(text).rows.map((r) => r.commit)).toEqual(["a1b2c3d"]);
  });
  test("malformed lines are skipped, autoresearch's five columns are read", () => {
    const text = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\nc3d4e5f\t0.993200\t44.2\tkeep\tincrease LR\n"
      + "not a row\nd4e5f6a\tx\t44.2\tkeep\tbad number\n\n";
    expect(parseResults(text).rows).toEqual([
      {
        commit: "c3d4e5f", metric: 0.9932, memoryGb: 44.2, status: "keep", description: "increase LR", agent: "",
        gpu: null, seconds: 0, time: "",
      },
    ]);
  });
  test("an empty file has no rows", () => {
    expect(parseResults("")).toEqual({ metricName: undefined, rows: [] });
  });
});

describe("buildLeaderboard", () => {
  const rows = [
    row({ agent: "alice", commit: "a000001", metric: 1.0 }),
    row({ agent: "bob", commit: "b000001", metric: 1.02 }),
    row({ agent: "alice", commit: "a000002", metric: 0.97, status: "keep", description: "wider" }),
    row({ agent: "alice", commit: "a000003", metric: 0.99, status: "discard", description: "deeper" }),
    row({ agent: "bob", commit: "b000002", metric: undefined, status: "crash", description: "batch 4096" }),
    row({ agent: "bob", commit: "b000003", metric: 0.95, status: "keep", description: "cosine" }),
    row({ agent: "carol", commit: "c000001", metric: undefined, status: "reject", description: "edit prepare" }),
  ];
  test("per agent: baseline, best, best commit, delta and counts, best first", () => {
    const board = buildLeaderboard(rows, "minimize");
    expect(board.agents).toEqual([
      {
        agent: "bob", runs: 2, answered: 0, counts: { keep: 1, discard: 0, crash: 1, reject: 0, fail: 0 },
        baseline: 1.02, best: 0.95, bestCommit: "b000003", delta: expect.closeTo(-0.07, 10),
      },
      {
        agent: "alice", runs: 2, answered: 0, counts: { keep: 1, discard: 1, crash: 0, reject: 0, fail: 0 },
        baseline: 1.0, best: 0.97, bestCommit: "a000002", delta: expect.closeTo(-0.03, 10),
      },
      {
        agent: "carol", runs: 1, answered: 0, counts: { keep: 0, discard: 0, crash: 0, reject: 1, fail: 0 },
        baseline: undefined, best: undefined, bestCommit: undefined, delta: undefined,
      },
    ]);
    expect(board.best).toEqual({ agent: "bob", commit: "b000003", metric: 0.95 });
  });
  test("maximizing flips the order", () => {
    const board = buildLeaderboard(rows, "maximize");
    expect(board.agents.map((a) => [a.agent, a.best])).toEqual([["bob", 1.02], ["alice", 1.0], ["carol", undefined]]);
    expect(board.best).toEqual({ agent: "bob", commit: "b000001", metric: 1.02 });
  });
  test("no rows, no best", () => {
    expect(buildLeaderboard([], "minimize")).toEqual({ agents: [], best: undefined });
  });
});
