import { describe, expect, test } from "vitest";
import { buildLeaderboard, type ResultRow } from "../../src/domain/experiments/results-table.js";
import { tallyGateFailures } from "../../src/domain/experiments/gate-failures.js";
import { buildProgramHistory } from "../../src/domain/config-versions/version-history.js";
import { describeGateFailures, describeSideFailures } from "../../src/ui/gate-failure-line.js";
import { renderHistory } from "../../src/ui/history-table.js";
import { renderLeaderboard } from "../../src/ui/leaderboard.js";
import { renderTried } from "../../src/ui/tried-table.js";
import { formatBoard, parseBoard } from "../../src/domain/claims/board.js";

const row = (over: Partial<ResultRow>): ResultRow => ({
  commit: "c0ffee0",
  metric: undefined,
  memoryGb: undefined,
  status: "fail",
  description: "idea",
  agent: "r-1",
  gpu: null,
  seconds: 5,
  time: "2026-12-05T02:00:00.000Z",
  program: "aaaaaaaa",
  ...over,
});
const rows: ResultRow[] = [
  row({ description: "baseline", status: "keep", metric: 1 }),
  row({ commit: "a000001", gate: "types" }),
  row({ commit: "a000002", gate: "lint", agent: "r-2" }),
  row({ commit: "a000003", gate: "types", agent: "r-2" }),
  // The ledger's answer ran nothing: not counted.
  row({ commit: "a000004", gate: "types", description: "duplicate of a000001 by r-1: idea" }),
  row({ commit: "a000005", status: "keep", metric: 0.9 }),
];

describe("which gate failed, as every view names it", () => {
  test("tallied per gate, the most failing first, with the latest fail", () => {
    expect(tallyGateFailures(rows)).toEqual([
      { gate: "types", count: 2, latest: { commit: "a000003", agent: "r-2" } },
      { gate: "lint", count: 1, latest: { commit: "a000002", agent: "r-2" } },
    ]);
    expect(describeGateFailures(tallyGateFailures(rows))).toBe(
      "gates failed: types 2 (latest a000003 by r-2), lint 1 (latest a000002 by r-2)",
    );
    expect(describeGateFailures([])).toBeUndefined();
  });

  test("org results: a FAIL column only where a gate failed", () => {
    const text = renderLeaderboard(
      buildLeaderboard(rows, "minimize"),
      "val_bpb",
      "minimize",
      undefined,
      undefined,
      200,
    ).split("\n");
    expect(text[0]).toMatch(/CRASH\s+REJECT\s+FAIL$/);
    expect(text.find((line) => line.startsWith("r-2"))).toMatch(/\s0\s+0\s+2$/);
    const none = renderLeaderboard(
      buildLeaderboard(
        rows.filter((one) => one.status !== "fail"),
        "minimize",
      ),
      "val_bpb",
      "minimize",
      undefined,
      undefined,
      200,
    );
    expect(none.split("\n")[0]).toMatch(/CRASH\s+REJECT$/);
  });

  test("org tried: the verdict names the gate", () => {
    const entry = {
      commit: "a".repeat(40),
      agent: "r-1",
      description: "idea",
      status: "fail" as const,
      gate: "types",
      reason: "fail: gate types failed: exit code 2",
      seconds: 5,
      time: "2026-12-05T02:00:00.000Z",
    };
    expect(renderTried([entry], 1, "", 200).split("\n")[1]).toMatch(
      /^2026-12-05 02:00\s+aaaaaaa\s+r-1\s+fail \(types\)\s+-\s+idea$/,
    );
  });

  test("org history: a FAILED GATES column per program, only where one failed", () => {
    const input = { events: [], rows, usage: new Map(), pricing: {}, goal: "minimize" as const, saved: new Map() };
    const history = buildProgramHistory(input);
    expect(history[0]!.gateFailures?.map((entry) => `${entry.gate} ${entry.count}`)).toEqual(["types 2", "lint 1"]);
    const lines = renderHistory(history, "val_bpb", 300).split("\n");
    expect(lines[0]).toMatch(/CRASHES\s+FAILED GATES\s+BEST val_bpb/);
    expect(lines[1]).toContain("types×2 lint×1");
    const clean = buildProgramHistory({ ...input, rows: rows.filter((one) => one.status !== "fail") });
    expect(renderHistory(clean, "val_bpb", 300)).not.toContain("FAILED GATES");
  });

  test("org compare: per side, or nothing when neither failed a gate", () => {
    const failures = tallyGateFailures(rows);
    expect(describeSideFailures([{ program: "aaaaaaaa", failures }, { program: "bbbbbbbb", failures: [] }])).toEqual([
      "aaaaaaaa: gates failed: types 2 (latest a000003 by r-2), lint 1 (latest a000002 by r-2)",
      "bbbbbbbb: no gate failed",
    ]);
    expect(
      describeSideFailures([
        { program: "aaaaaaaa", failures: [] },
        { program: "bbbbbbbb", failures: [] },
      ]),
    ).toEqual([]);
  });

  test("the claims board: a claim closed by a fail reads back as closed by that verdict", () => {
    const line = "- #4 r-1 2026-12-05T02:00:00Z closed 2026-12-05T02:10:00Z fail a1b2c3d: strict types";
    const parsed = parseBoard(`${line}\n`);
    expect(parsed).toEqual([
      {
        kind: "claim",
        claim: expect.objectContaining({
          closed: { reason: "verdict", time: "2026-12-05T02:10:00Z", status: "fail", commit: "a1b2c3d" },
        }),
      },
    ]);
    expect(formatBoard(parsed)).toContain(line);
  });
});
