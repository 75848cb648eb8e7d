import { describe, expect, test } from "vitest";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";
import { buildLeaderboard } from "../../../src/domain/experiments/results-table.js";
import { classifyRow, countRows } from "../../../src/domain/experiments/row-kind.js";
import { decideStop } from "../../../src/domain/experiments/stop.js";
import { buildProgramHistory } from "../../../src/domain/config-versions/version-history.js";
import { compareSamples } from "../../../src/domain/config-versions/compare-versions.js";
import { compareVersions } from "../../../src/domain/config-versions/compare-pick.js";
import { seededRng } from "../../../src/roles/index.js";
import { describeCounts, renderLeaderboard } from "../../../src/ui/leaderboard.js";
import { renderComparison } from "../../../src/ui/compare-table.js";

const START = Date.UTC(2026, 0, 7);
function row(index: number, fields: Partial<ResultRow>): ResultRow {
  return {
    commit: `c${String(index).padStart(6, "0")}`, metric: 1, memoryGb: undefined, status: "discard",
    description: "idea", agent: "r-1", gpu: 0, seconds: 60, time: new Date(START + index * 60_000).toISOString(),
    program: "aaaaaaaa", ...fields,
  };
}

// Two baselines, a candidate that only calls itself a baseline, two duplicates, an adopted keep and three plain runs.
const ROWS: ResultRow[] = [
  row(0, { status: "keep", description: "baseline (mean of 3 seeds)", seconds: 180 }),
  row(1, { status: "keep", description: "baseline", agent: "r-2", seconds: 60 }),
  row(2, { status: "keep", metric: 0.9, description: "baseline tweak: lr 2x" }),
  row(3, { description: "duplicate of c000002 by r-1: baseline tweak: lr 2x", agent: "r-2", seconds: 0 }),
  row(4, {
    status: "keep", metric: 0.9, description: "adopt c000002 kept by r-1: baseline tweak: lr 2x", agent: "r-2",
    seconds: 0,
  }),
  row(5, { description: "duplicate of c000002 by r-1: baseline tweak: lr 2x", agent: "r-2", seconds: 0 }),
  row(6, { status: "crash", metric: undefined, description: "batch 4096" }),
  row(7, { description: "wider", agent: "r-2" }),
];

describe("one definition of an experiment", () => {
  test("baselines as the verifier writes them, the ledger's answers, and every other row a run", () => {
    expect(ROWS.map(classifyRow)).toEqual(["baseline", "baseline", "run", "answer", "answer", "answer", "run", "run"]);
    expect(countRows(ROWS)).toEqual({ baseline: 2, answer: 3, run: 3 });
  });

  test("results, history, compare and the stop conditions count the same experiments", () => {
    const board = buildLeaderboard(ROWS, "minimize");
    const history = buildProgramHistory({
      events: [], saved: new Map(), rows: ROWS, usage: new Map(), pricing: {}, goal: "minimize",
    });
    const stop = decideStop({
      stop: { max_experiments: 100 } as never, metric: { name: "loss", goal: "minimize" }, rows: ROWS,
      baseCommit: "c000000",
      costs: [], startedAt: new Date(START), now: new Date(START),
    });
    const ran = board.agents.reduce((sum, agent) => sum + agent.runs, 0);
    expect(ran).toBe(3);
    expect(board.agents.reduce((sum, agent) => sum + agent.answered, 0)).toBe(3);
    expect(history.map((line) => [line.experiments, line.keeps, line.crashes])).toEqual([[3, 1, 1]]);
    expect(stop.figures.experiments).toBe(3);
    expect(board.agents.find((agent) => agent.agent === "r-2")).toMatchObject({
      runs: 1,
      answered: 3,
      counts: { keep: 0, discard: 1 },
    });
  });

  test("org results names runs and the ledger's answers apart", () => {
    const board = buildLeaderboard(ROWS, "minimize");
    expect(describeCounts(board)).toBe(
      "3 experiments ran (baselines left out); 3 more answered by the ledger without a run",
    );
    const text = renderLeaderboard(board, "loss");
    expect(text.split("\n")[0]).toMatch(/ RUNS {2}ANSWERED {2}KEEP /);
    expect(text).toContain("3 experiments ran (baselines left out); 3 more answered");
    expect(describeCounts(buildLeaderboard([ROWS[0]!, ROWS[6]!], "minimize")))
      .toBe("1 experiment ran (baselines left out)");
  });
});

describe("org compare's minimum-sample note", () => {
  const side = (program: string, n: number) => ({
    program, startBest: 1, costUsd: 10,
    experiments: Array.from({ length: n }, (_, index) =>
      ({ status: index % 7 === 0 ? "keep" as const : "discard" as const, metric: 1 - index / 1000, seconds: 60 })),
  });

  test("sides of 131 and 37 experiments: no word of a minimum they are over", () => {
    const text = renderComparison(
      compareSamples(side("aaaaaaaa", 131), side("bbbbbbbb", 37), "minimize", seededRng(18), 200),
      "loss",
    );
    expect(text).toContain("A = aaaaaaaa: 131 experiments");
    expect(text).toContain("B = bbbbbbbb: 37 experiments");
    expect(text).not.toContain("fewer than");
    expect(text).toContain("best gain is in loss\n");
  });

  test("a side under the minimum: the note and the measure's reason say so", () => {
    const text = renderComparison(
      compareSamples(side("aaaaaaaa", 131), side("bbbbbbbb", 3), "minimize", seededRng(18), 200),
      "loss",
    );
    expect(text).toContain("best gain is in loss; a side with fewer than 5 experiments names no winner");
    expect(text).toContain("bbbbbbbb has 3 experiments, fewer than 5: not enough data to tell them apart");
  });

  test("the ledger's answers are no experiments of a side: 5 runs and 40 duplicates are 5", () => {
    const runs = Array.from({ length: 5 }, (_, index) =>
      row(index, { program: "bbbbbbbb", description: `idea ${index}` }));
    const answers = Array.from({ length: 40 }, (_, index) =>
      row(10 + index, { program: "bbbbbbbb", seconds: 0, description: "duplicate of c000001 by r-1: idea 1" }));
    const rows = [
      ...Array.from({ length: 6 }, (_, index) => row(100 + index, { description: `a ${index}` })), ...runs, ...answers,
    ];
    const history = buildProgramHistory({
      events: [], saved: new Map(), rows, usage: new Map(), pricing: {}, goal: "minimize",
    });
    const result = compareVersions({ ids: [], history, rows, saved: [], goal: "minimize", random: seededRng(18) });
    expect(result.kind === "compared" && [result.comparison.a.experiments, result.comparison.b.experiments]).toEqual([
      6, 5,
    ]);
    expect(history.map((line) => line.experiments)).toEqual([6, 5]);
  });
});
