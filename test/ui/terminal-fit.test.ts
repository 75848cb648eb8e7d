// Tables and notes fitted to a terminal's width (display columns, not string length), whole in a pipe or with --wide.
import { describe, expect, test } from "vitest";
import { readColumns } from "../../src/cli/terminal-width.js";
import { renderTable } from "../../src/ui/fit-table.js";
import { renderStatus } from "../../src/ui/status-table.js";
import { renderLeaderboard } from "../../src/ui/leaderboard.js";
import { buildLeaderboard, parseResults } from "../../src/domain/experiments/results-table.js";
import { buildResultsUsage } from "../../src/domain/usage/windows.js";
import type { OrgSnapshot } from "../../src/domain/views/snapshot.js";
import type { AgentUsage } from "../../src/domain/usage/summary.js";
import { cutToWidth, measureWidth } from "../../src/ui/text-width.js";
import { wrapLine } from "../../src/ui/wrap-text.js";

/** The lines of `text` wider than `width` display columns. */
export function overWide(text: string, width: number): string[] {
  return text.split("\n").filter((line) => measureWidth(line) > width);
}

describe("display width", () => {
  test("CJK and emoji take two columns, combining marks and escapes none", () => {
    expect(measureWidth("abc")).toBe(3);
    expect(measureWidth("学習率")).toBe(6);
    expect(measureWidth("go 🚀")).toBe(5);
    expect(measureWidth("e\u0301")).toBe(1);
    expect(measureWidth("\x1b[31mred\x1b[0m")).toBe(3);
  });

  test("a cut ends in … within the width, never halfway through a wide character or an escape", () => {
    expect(cutToWidth("abcdef", 6)).toBe("abcdef");
    expect(cutToWidth("abcdef", 4)).toBe("abc…");
    expect(cutToWidth("学習率を上げる", 6)).toBe("学習…");
    expect(cutToWidth("学習率を上げる", 7)).toBe("学習率…");
    expect(cutToWidth("\x1b[31mredder\x1b[0m", 4)).toBe("red…");
  });

  test("a note wraps at spaces with its continuation lines further in; a word too long is broken", () => {
    expect(wrapLine("one two three four", 9)).toEqual(["one two", "  three", "  four"]);
    expect(wrapLine("  indented note here", 12)).toEqual(["  indented", "    note", "    here"]);
    expect(wrapLine("short", 80)).toEqual(["short"]);
    expect(overWide(wrapLine("see state/agents/researcher-1/own/run.log", 16).join("\n"), 16)).toEqual([]);
  });
});

describe("the table renderer", () => {
  const header = ["AGENT", "STATE", "NOTE"];
  const rows = [["r-1", "running", "学習率を上げる and then some more words about it"], ["r-2", "exited", "🚀 launched"]];

  test("no width: every row whole, aligned by display columns", () => {
    expect(renderTable(header, rows, { cut: ["NOTE"] }).split("\n")).toEqual([
      "AGENT  STATE    NOTE",
      "r-1    running  学習率を上げる and then some more words about it",
      "r-2    exited   🚀 launched",
    ]);
  });

  test("a width: the cut column gives way with …, the rest stay whole", () => {
    expect(renderTable(header, rows, { width: 30, cut: ["NOTE"] }).split("\n")).toEqual([
      "AGENT  STATE    NOTE",
      "r-1    running  学習率を上げ…",
      "r-2    exited   🚀 launched",
    ]);
  });

  test("a wrapped column breaks between a cell's parts; a column still too wide is left out and named", () => {
    const value = ["0.01", "[0.007, 0.013]"];
    const fit = { width: 24, wrap: ["VALUE"], drop: ["EXTRA"] };
    const text = renderTable(["M", "VALUE", "EXTRA"], [["a", value, "x".repeat(30)]], fit);
    expect(text.split("\n")).toEqual([
      "M  VALUE",
      "a  0.01 [0.007, 0.013]",
      "(EXTRA left out to fit",
      "  24 columns: --wide",
      "  shows every column)",
    ]);
    const narrow = (width: number) => renderTable(["M", "VALUE"], [["a", value]], { width, wrap: ["VALUE"] })
      .split("\n");
    expect(narrow(18)).toEqual(["M  VALUE", "a  0.01", "   [0.007, 0.013]"]);
    // Narrower than a part: the line is cut, the last resort that still fits.
    expect(narrow(12)).toEqual(["M  VALUE", "a  0.01 [0.…"]);
  });

  test("any table, any width from 1 to 120: no line over it", () => {
    const cells = ["学習率を上げる", "🚀🚀 emoji", "plain words here", "x".repeat(50), "e\u0301te", "-0.012345", "r-1"];
    for (let width = 1; width <= 120; width += 3) {
      const rows = cells.map((_, row) => [0, 1, 2, 3].map((column) => cells[(row + column) % cells.length]!));
      const table = renderTable(["A", "B", "C", "D"], rows, { width, cut: ["B"], wrap: ["C"], drop: ["D"] });
      expect(overWide(table, width)).toEqual([]);
    }
  });
});

describe("the views at 80 columns", () => {
  const crashed = "exited 1: the agent's CLI crashed; the supervisor restarts it in 30 s";
  const snapshot: OrgSnapshot = {
    name: "toy", root: "/org", running: true, mode: "tmux", socket: "org-toy-1a2b3c4d", cpuMode: true,
    upAt: "2026-01-01T10:00:00Z",
    agents: ["researcher-1", "researcher-2", "researcher-3"].map((name, index) => ({
      name, role: "researcher", gpu: null, pooled: false, pid: 4_123_456 + index, restarts: index, uptimeMs: 3_723_000,
      state: index === 2 ? "restarting" as const : "running" as const, reason: index === 2 ? crashed : "",
      branch: `org/toy/${name}`, head: "3f2a9c1e0d",
    })),
  };
  const spent: AgentUsage = {
    input: 1_200_000, output: 30_000, cacheRead: 0, cacheWrite: 0, costUsd: 123.4, priced: true,
  };
  const usage = new Map<string, AgentUsage | null>(snapshot.agents.map((agent) => [agent.name, spent]));
  const warnings = [
    "reload rejected: org.yaml:12:3: roles.researcher.count must be a whole number — set it to 1, 2, …; "
      + "the org runs as before",
  ];

  test("org status fits, its note cut and tokens left out; whole rows without a width", () => {
    const wide = renderStatus(snapshot, warnings, usage);
    expect(overWide(wide, 80).length).toBeGreaterThan(0);
    const fitted = renderStatus(snapshot, warnings, usage, { width: 80 });
    expect(overWide(fitted, 80)).toEqual([]);
    expect(fitted).toMatch(/^researcher-3 +cpu +4123458 +restarting +1h02m +3f2a9c1 +exited 1: the agent's …$/m);
    expect(fitted).toContain("(TOKENS $, ROLE, RESTARTS left out to fit 80 columns: --wide shows every column)");
    expect(wide).toContain(crashed);
  });

  test("org results fits, spend columns first to go; whole without a width", () => {
    const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
    const rows = parseResults([
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
      ...["researcher-1", "researcher-2"].flatMap((agent, side) => [
        `a${side}aaaaa\t1.000000\t1.0\tkeep\tbaseline\t${agent}\t0\t5.0\t${at(side)}`,
        `b${side}bbbbb\t0.900000\t1.0\tkeep\tlr 2x\t${agent}\t0\t5.0\t${at(10 + side)}`,
      ]),
      "",
    ].join("\n")).rows;
    const reply = {
      id: "r1", at: Date.parse(at(5)), model: "m", input: 1_000_000, output: 10, cacheRead: 0, cacheWrite: 0,
    };
    const spend = buildResultsUsage(rows, new Map([["researcher-1", [reply]]]), { m: { input: 10, output: 20 } });
    const board = buildLeaderboard(rows, "minimize");
    const noise = { sigma: 0.0012, runs: 4 };
    const render = (width?: number) => renderLeaderboard(board, "val_bpb", "minimize", noise, spend, width);
    expect(overWide(render(), 80).length).toBeGreaterThan(0);
    expect(overWide(render(80), 80)).toEqual([]);
    expect(render(80)).toMatch(/^AGENT +BEST val_bpb +DELTA +COMMIT +RUNS +KEEP +CRASH +REJECT$/m);
    expect(render(80)).toContain(
      "(COST/KEEP, TOKENS, COST, DISCARD, BASELINE, ANSWERED left out to fit 80\n  columns: --wide shows every column)",
    );
    expect(render().split("\n")[0]).toMatch(/REJECT {2}TOKENS {2}COST {4}COST\/KEEP$/);
  });
});

describe("the terminal's width", () => {
  test("$COLUMNS, else a TTY's width, 80 when a TTY says none; a pipe gets none", () => {
    expect(readColumns({ COLUMNS: "100" }, { isTTY: false })).toBe(100);
    expect(readColumns({}, { isTTY: true, columns: 132 })).toBe(132);
    expect(readColumns({}, { isTTY: true })).toBe(80);
    expect(readColumns({ COLUMNS: "" }, { isTTY: false })).toBeUndefined();
    expect(readColumns({ COLUMNS: "wide" }, {})).toBeUndefined();
    expect(readColumns({ COLUMNS: "0" }, { isTTY: true, columns: 90 })).toBe(90);
  });
});
