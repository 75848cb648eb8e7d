import { describe, expect, test } from "vitest";
import type { DashboardAgent, DashboardModel } from "../../src/domain/views/dashboard-model.js";
import {
  escapeTags, fitScreen, HELP_LINES, renderFeed, renderFooter, renderHeader, renderListRow, renderPaneLabel,
  renderStandings, truncate,
} from "../../src/ui/dashboard-text.js";
import { narrowText } from "../../src/ui/dashboard-width.js";

const agent = (name: string, overrides: Partial<DashboardAgent> = {}): DashboardAgent => ({
  name,
  role: "researcher",
  gpu: 0,
  pooled: false,
  pid: 10,
  state: "running",
  restarts: 0,
  uptimeMs: 1000,
  branch: `org/toy/${name}`,
  head: null,
  reason: "running",
  paneId: "%1",
  screen: [],
  ...overrides,
});

const model = (overrides: Partial<DashboardModel> = {}): DashboardModel => ({
  org: "toy", running: true, cpuMode: false, socket: "org-toy-1", uptimeMs: 3 * 3600_000 + 5 * 60_000,
  gpus: [{ gpu: 0, agents: ["researcher-1"] }, { gpu: 1, agents: ["researcher-2"] }],
  pool: [],
  agents: [agent("researcher-1"), agent("researcher-2", { gpu: 1 })],
  metricName: "val_bpb", goal: "minimize",
  standings: [
    { agent: "researcher-2", best: 0.9, delta: -0.1, runs: 4, keeps: 2, series: [1, 1.1, 0.95, 0.9] },
    { agent: "researcher-1", best: undefined, delta: undefined, runs: 0, keeps: 0, series: [] },
  ],
  orgBest: { agent: "researcher-2", metric: 0.9 },
  events: [{ date: "2026-01-01", op: "keep", title: "researcher-2 {x} 0.9" }],
  ...overrides,
});

const plain = { color: false };
const color = { color: true };

describe("dashboard text", () => {
  test("header: org, state, uptime, agent count and each GPU lease", () => {
    expect(renderHeader(model(), 200, plain)).toBe(
      "org toy · running · up 3h05m · 2 agents · GPU 0: researcher-1 · GPU 1: researcher-2",
    );
    expect(renderHeader(model(), 200, color)).toContain("{green-fg}running{/green-fg}");
    expect(renderHeader(model({ cpuMode: true, gpus: [] }), 200, plain)).toBe(
      "org toy · running · up 3h05m · 2 agents · CPU mode",
    );
    // verify.gpus: pool — no agent holds a GPU; the header names the pool, each pane says its runs take any of it.
    expect(renderHeader(model({ gpus: [], pool: [0, 1, 2, 3] }), 200, plain)).toBe(
      "org toy · running · up 3h05m · 2 agents · GPU pool 0,1,2,3: every agent's runs",
    );
    expect(renderPaneLabel(agent("researcher-1", { gpu: null, pooled: true }), false, 80)).toBe(
      "researcher-1 · running · gpu pool",
    );
    expect(renderListRow(agent("researcher-1", { gpu: null, pooled: true }), undefined, false, 80, plain)).toMatch(
      /^ {2}researcher-1 running pool /,
    );
    expect(renderHeader(model({ running: false, uptimeMs: null }), 200, plain)).toBe(
      "org toy · down · 2 agents · GPU 0: researcher-1 · GPU 1: researcher-2",
    );
    expect(renderHeader(model(), 20, plain)).toBe("org toy · running ·…");
  });

  test("NO_COLOR: no color tags anywhere, only text", () => {
    const texts = [
      renderHeader(model(), 120, plain),
      renderStandings(model(), "researcher-1", 80, 6, plain),
      renderFeed(model().events, 60, 5, plain),
      renderListRow(model().agents[0]!, model().standings[0], true, 40, plain),
      renderFooter(undefined, 80),
    ];
    for (const text of texts) expect(text).not.toMatch(/\{\/?[a-z-]+-(fg|bg)\}/);
    expect(renderStandings(model(), "researcher-1", 80, 6, color)).toMatch(/\{green-fg\}/);
  });

  test("leaderboard: best, delta, runs and a sparkline; the selected agent marked; cut to the height", () => {
    const lines = renderStandings(model(), "researcher-1", 70, 6, plain).split("\n");
    expect(lines[0]).toBe("  AGENT             BEST     DELTA RUNS  TREND");
    expect(lines[1]).toBe("  researcher-2  0.900000   -0.1000    4  ▄█▃▁");
    expect(lines[2]).toBe("▶ researcher-1         -         -    0");
    expect(lines[3]).toBe("org best val_bpb 0.900000 by researcher-2");
    expect(renderStandings(model(), undefined, 70, 2, plain).split("\n")).toHaveLength(2);
    // Too little room for every row: the selected agent's row stays in view.
    expect(renderStandings(model(), "researcher-1", 70, 3, plain).split("\n")).toEqual([lines[0], lines[2], lines[3]]);
    expect(renderStandings(model({ orgBest: undefined }), undefined, 70, 6, plain)).toContain(
      "no val_bpb measured yet",
    );
  });

  test("text from agents and logs cannot open blessed tags", () => {
    expect(escapeTags("a {bold}b{/bold}")).toBe("a {open}bold{close}b{open}/bold{close}");
    expect(renderFeed(model().events, 60, 5, plain)).toBe("keep researcher-2 {open}x{close} 0.9");
    expect(renderFeed([], 60, 5, plain)).toBe("no events yet (state/log.md)");
  });

  test("pane text: last lines that fit, control characters dropped; an empty pane says why", () => {
    const busy = agent("a", { screen: ["one", "two\x07", "three is long"] });
    expect(fitScreen(busy, 8, 2)).toBe("two\nthree i…");
    expect(fitScreen(agent("a"), 20, 3)).toBe("(no output yet)");
    expect(fitScreen(agent("a", { state: "failed", reason: "gave up" }), 20, 3)).toBe("(gave up)");
    expect(fitScreen(busy, 0, 3)).toBe("");
  });

  test("wide and astral characters become ?, zero-width marks go: " +
    "one column per character keeps the borders put", () => {
    expect(narrowText("plain ascii, café")).toBe("plain ascii, café");
    expect(narrowText("日本 ok")).toBe("?? ok");
    expect(narrowText("done ✅ 🚀")).toBe("done ? ?");
    expect(narrowText("e\u0301 ⏺ ✻ ▶ — x\ufe0f")).toBe("e ⏺ ✻ ▶ — x");
    expect(fitScreen(agent("a", { screen: ["🚀🚀🚀🚀"] }), 3, 1)).toBe("??…");
  });

  test("pane labels and list rows fit their width", () => {
    expect(renderPaneLabel(agent("researcher-1", { restarts: 2 }), true, 80)).toBe(
      "▶ researcher-1 · running · gpu 0 · 2 restarts",
    );
    expect(renderPaneLabel(agent("researcher-1"), false, 20)).toBe("researcher-1 …");
    const row = renderListRow(model().agents[1]!, model().standings[0], true, 40, plain);
    expect(row).toBe("▶ researcher-2 running g1 0.900000 ▄█▃▁");
    expect([...renderListRow(model().agents[1]!, model().standings[0], false, 20, plain)]).toHaveLength(20);
  });

  test("help and footer fit 40 columns", () => {
    for (const line of HELP_LINES) expect([...line].length).toBeLessThanOrEqual(38);
    expect(renderFooter(undefined, 200)).toBe("←↑↓→ tab select · enter attach · r restart · ? help · q quit");
    expect(renderFooter("restart cancelled", 200)).toBe("restart cancelled");
    expect(renderFooter(undefined, 200, { first: 6, last: 11, total: 16 })).toBe(
      "agents 7–12 of 16 · ←↑↓→ tab select · enter attach · r restart · ? help · q quit",
    );
    expect(renderFooter(undefined, 200, { first: 0, last: 2, total: 3 })).toBe(
      "←↑↓→ tab select · enter attach · r restart · ? help · q quit",
    );
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(truncate("abc", 0)).toBe("");
  });
});
