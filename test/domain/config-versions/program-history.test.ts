import { describe, expect, test } from "vitest";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";
import { buildProgramHistory } from "../../../src/domain/config-versions/version-history.js";
import { parseAbSpans } from "../../../src/domain/config-versions/ab-run-record.js";
import type { ProgramEvent } from "../../../src/domain/config-versions/version-timeline.js";
import type { UsageRecord } from "../../../src/domain/usage/token-counts.js";
import { renderHistory } from "../../../src/ui/history-table.js";

const at = (hour: number, minute = 0) =>
  `2026-01-07T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00.000Z`;
const row = (hour: number, over: Partial<ResultRow>): ResultRow => ({
  commit: "c0ffee0", metric: 1, memoryGb: undefined, status: "discard", description: "idea", agent: "r-1", gpu: 0,
  seconds: 1800, time: at(hour, 30), ...over,
});
const reply = (hour: number, tokens: number): UsageRecord => ({
  id: `${hour}-${tokens}`, at: Date.parse(at(hour, 15)), model: "m", input: tokens, output: 0, cacheRead: 0,
  cacheWrite: 0,
});

// Unversioned rows before 10:00; program A from 10 to 12,
// B from 12 to 13, the org down, A again (a restore) from 14 on.
const events: ProgramEvent[] = [
  { at: at(10), kind: "use", version: "aaaaaaaa", by: "org up" },
  { at: at(12), kind: "use", version: "bbbbbbbb", by: "daemon" },
  { at: at(13), kind: "stop", by: "org down" },
  { at: at(14), kind: "use", version: "aaaaaaaa", by: "org program restore aaaaaaaa" },
];
const rows: ResultRow[] = [
  row(8, { description: "baseline", status: "keep", metric: 1.0 }),
  row(9, { status: "keep", metric: 0.95 }),
  row(10, { program: "aaaaaaaa", status: "crash", metric: undefined }),
  row(11, { program: "aaaaaaaa", status: "keep", metric: 0.9, gpu: 1 }),
  row(12, { program: "bbbbbbbb", status: "discard", metric: 0.97 }),
  row(14, { program: "aaaaaaaa", status: "keep", metric: 0.93 }),
];
const usage = new Map([["r-1", [reply(9, 100), reply(10, 20), reply(12, 5), reply(13, 1000), reply(14, 3)]]]);
const input = {
  events, rows, usage, pricing: { m: { input: 1_000_000, output: 0 } }, goal: "minimize" as const,
  saved: new Map([["aaaaaaaa", { by: "org up", agents: 2 }], ["bbbbbbbb", { by: "daemon", agents: 3 }]]),
};
// An A/B run's start record: A is org.yaml's aaaaaaaa on r-1, B is other.yaml's cccccccc on b-r-1.
const AB_START = {
  at: at(14),
  a: { version: "aaaaaaaa", file: "org.yaml", agents: ["r-1"] },
  b: { version: "cccccccc", file: "other.yaml", agents: ["b-r-1"] },
};

describe("org history", () => {
  test("one line per version in order of first use, rows before versions as unversioned", () => {
    const history = buildProgramHistory(input);
    expect(
      history.map((line) => [
        line.program, line.from, line.to, line.runs, line.agents, line.experiments, line.keeps, line.crashes,
        line.bestBefore, line.bestAfter, line.gpuHours,
      ]),
    ).toEqual([
      ["unversioned", at(8), at(9, 30), 0, 1, 1, 1, 0, null, 0.95, 1],
      ["aaaaaaaa", at(10), null, 2, 2, 3, 2, 1, 0.95, 0.9, 1.5],
      ["bbbbbbbb", at(12), at(13), 1, 3, 1, 0, 0, 0.9, 0.9, 0.5],
    ]);
  });

  test("the ledger's answers (a duplicate, an adopted keep) ran nothing: no experiment, no keep", () => {
    const answered = [
      row(14, { program: "bbbbbbbb", seconds: 0, description: "duplicate of c0ffee0 by r-1: idea" }),
      row(14, {
        program: "bbbbbbbb", seconds: 0, status: "keep", metric: 0.93, description: "adopt c0ffee0 kept by r-1: idea",
      }),
    ];
    const history = buildProgramHistory({ ...input, rows: [...rows, ...answered] });
    expect(history.find((line) => line.program === "bbbbbbbb")).toMatchObject({
      experiments: 1,
      keeps: 0,
      gpuHours: 0.5,
    });
  });

  test("tokens and dollars by time window: a reply while the org was down belongs to no program", () => {
    const history = buildProgramHistory(input);
    expect(history.map((line) => [line.program, line.usage.input, line.usage.replies, line.usage.costUsd])).toEqual([
      ["unversioned", 100, 1, 100], ["aaaaaaaa", 23, 2, 23], ["bbbbbbbb", 5, 1, 5],
    ]);
  });

  test("an A/B run: while it ran, each reply belongs to its agent's half, not to A's window alone", () => {
    // From 14 on A runs beside B (b-r-1): B's 7 tokens at 14:15 are B's,
    // r-1's 3 are A's; before the run, windows as ever.
    const ab = parseAbSpans(`${JSON.stringify(AB_START)}\n{"end": "${at(15)}"}\nnot json\n`);
    expect(ab).toEqual([
      {
        from: Date.parse(at(14)), to: Date.parse(at(15)),
        programs: new Map([["r-1", "aaaaaaaa"], ["b-r-1", "cccccccc"]]), b: "cccccccc",
      },
    ]);
    const history = buildProgramHistory({
      ...input, rows: [...rows, row(14, { agent: "b-r-1", program: "cccccccc" })],
      usage: new Map([...usage, ["b-r-1", [reply(14, 7)]]]), ab,
    });
    expect(history.map((line) => [line.program, line.usage.input, line.usage.replies])).toEqual([
      ["unversioned", 100, 1], ["aaaaaaaa", 23, 2], ["bbbbbbbb", 5, 1], ["cccccccc", 7, 1],
    ]);
  });

  test("an A/B run: B's half keeps a best of its own, and A's best goes on from the org's", () => {
    const ab = parseAbSpans(`${JSON.stringify(AB_START)}\n`);
    const during = [
      row(14, { agent: "b-r-1", program: "cccccccc", status: "keep", metric: 0.96, time: at(14, 40) }),
      row(14, { agent: "b-r-1", program: "cccccccc", status: "keep", metric: 0.94, time: at(14, 50) }),
    ];
    const history = buildProgramHistory({ ...input, rows: [...rows, ...during], ab });
    // A's 0.93 at 14:30 does not beat the org's 0.9; B's first keep starts its own best, which a later one improves.
    expect(history.map((line) => [line.program, line.bestBefore, line.bestAfter])).toEqual([
      ["unversioned", null, 0.95], ["aaaaaaaa", 0.95, 0.9], ["bbbbbbbb", 0.9, 0.9], ["cccccccc", null, 0.94],
    ]);
  });

  test("a version in results.tsv with no saved folder still gets its line, and says so", () => {
    const history = buildProgramHistory({
      ...input,
      rows: [...rows, row(15, { program: "cccccccc", status: "keep", metric: 0.8 })],
    });
    expect(history.at(-1)).toMatchObject({
      program: "cccccccc", saved: false, by: null, runs: 0, agents: 1, from: at(15), to: at(15, 30), bestBefore: 0.9,
      bestAfter: 0.8,
    });
    expect(renderHistory(history, "val_bpb").split("\n").at(-2)).toMatch(
      /^cccccccc \(not saved\)\s+2026-01-07 15:00\s+2026-01-07 15:30\s+1\s+1\s+1\s+0\s+0\.9→0\.8\s+0\.50\s+-\s+-\s+-$/,
    );
  });

  test("the table: when, who, best moved or not, and how tokens were matched", () => {
    const lines = renderHistory(buildProgramHistory(input), "val_bpb").split("\n");
    expect(lines[0]).toMatch(
      /^PROGRAM\s+FROM\s+TO\s+AGENTS\s+EXPTS\s+KEEPS\s+CRASHES\s+BEST val_bpb\s+GPU-H\s+TOKENS\s+\$\s+BY$/,
    );
    expect(lines[1]).toMatch(
      /^unversioned\s+2026-01-07 08:00\s+2026-01-07 09:30\s+1\s+1\s+1\s+0\s+-→0\.95\s+1\.00\s+100\s+\$100\s+-$/,
    );
    expect(lines[2]).toMatch(
      new RegExp(/^aaaaaaaa\s+2026-01-07 /.source
        + /10:00\s+running\s+2\s+3\s+2\s+1\s+0\.95→0\.9\s+1\.50\s+23\s+\$23\.00\s+`org up` \(ran 2 times\)$/.source),
    );
    expect(lines[3]).toMatch(
      new RegExp(/^bbbbbbbb\s+2026-01-07 12:00\s+2026-01-07 /.source
        + /13:00\s+3\s+1\s+0\s+0\s+0\.9=\s+0\.50\s+5\s+\$5\.00\s+a person's save, applied by hot reload$/.source),
    );
    expect(lines[4]).toContain("tokens and $: every agent's replies while the program ran");
  });

  test("nothing recorded and no rows: one line that says how to get one", () => {
    expect(renderHistory(buildProgramHistory({ ...input, events: [], rows: [], saved: new Map() }), "val_bpb")).toBe(
      "no program recorded yet: `org up` records the first, and results.tsv has no rows",
    );
  });
});
