import { describe, expect, test } from "vitest";
import type { DashboardAgent, DashboardModel } from "../../src/domain/views/dashboard-model.js";
import type { RestartDecision } from "../../src/domain/views/dashboard-restart.js";
import { handleKey, INITIAL_VIEW, type KeyContext } from "../../src/ui/dashboard-keys.js";
import { computeLayout, moveSelection, type Rect } from "../../src/ui/dashboard-layout.js";
import {
  escapeTags, fitScreen, HELP_LINES, renderFeed, renderFooter, renderHeader, renderListRow, renderPaneLabel,
  renderStandings, truncate,
} from "../../src/ui/dashboard-text.js";
import { narrowText } from "../../src/ui/dashboard-width.js";
import { renderSparkline } from "../../src/ui/sparkline.js";

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

function inside(rect: Rect, cols: number, rows: number): boolean {
  return (
    rect.left >= 0 &&
    rect.top >= 0 &&
    rect.width >= 0 &&
    rect.height >= 0 &&
    rect.left + rect.width <= cols &&
    rect.top + rect.height <= rows
  );
}

describe("renderSparkline", () => {
  test("lowest ▁ to highest █, only the last `width` values", () => {
    expect(renderSparkline([1, 2, 3, 4, 5, 6, 7, 8], 8)).toBe("▁▂▃▄▅▆▇█");
    expect(renderSparkline([0, 10, 5], 8)).toBe("▁█▅");
    expect(renderSparkline([9, 1, 2, 3], 3)).toBe("▁▅█");
  });
  test("a flat series sits mid-height; nothing to draw is empty", () => {
    expect(renderSparkline([2, 2, 2], 5)).toBe("▄▄▄");
    expect(renderSparkline([], 5)).toBe("");
    expect(renderSparkline([1, 2], 0)).toBe("");
    expect(renderSparkline([Number.NaN, 1, Number.POSITIVE_INFINITY, 3], 5)).toBe("▁█");
  });
});

describe("computeLayout", () => {
  test("a big terminal: header, a grid with every agent, leaderboard and events side by side, footer", () => {
    const layout = computeLayout(120, 40, 3, 0);
    if (layout.kind !== "grid") throw new Error(`expected a grid, got ${layout.kind}`);
    expect(layout.cells.map((cell) => cell.agent)).toEqual([0, 1, 2]);
    expect(layout.columns).toBe(3);
    expect(layout.header).toEqual({ left: 0, top: 0, width: 120, height: 1 });
    expect(layout.footer).toEqual({ left: 0, top: 39, width: 120, height: 1 });
    expect(layout.board.top).toBe(layout.feed.top);
    expect(layout.board.width + layout.feed.width).toBe(120);
    expect(layout.board.height).toBe(7);
    for (const rect of [...layout.cells.map((cell) => cell.rect), layout.board, layout.feed])
      expect(inside(rect, 120, 40)).toBe(true);
    expect(layout.cells.reduce((sum, cell) => sum + cell.rect.width, 0)).toBe(120);
  });

  test("16 agents on 200×60 all fit without overlap, cells near 2:1 in characters (6 columns of 33×15)", () => {
    const layout = computeLayout(200, 60, 16, 0);
    if (layout.kind !== "grid") throw new Error("expected a grid");
    expect(layout.cells).toHaveLength(16);
    expect(layout.columns).toBe(6);
    expect(layout.cells[0]!.rect).toEqual({ left: 0, top: 1, width: 33, height: 15 });
    const covered = new Set<number>();
    let overlaps = 0;
    for (const { rect } of layout.cells) {
      expect(rect.width).toBeGreaterThanOrEqual(24);
      expect(rect.height).toBeGreaterThanOrEqual(5);
      for (let x = rect.left; x < rect.left + rect.width; x++) for (let y = rect.top; y < rect.top + rect.height; y++) {
        if (covered.has(y * 1000 + x)) overlaps += 1;
        covered.add(y * 1000 + x);
      }
    }
    expect(overlaps).toBe(0);
  });

  test("more agents than fit: the page holding the selected agent", () => {
    const first = computeLayout(80, 24, 16, 0);
    const later = computeLayout(80, 24, 16, 13);
    if (first.kind !== "grid" || later.kind !== "grid") throw new Error("expected grids");
    expect(first.cells.length).toBeLessThan(16);
    expect(first.cells[0]!.agent).toBe(0);
    expect(later.cells.map((cell) => cell.agent)).toContain(13);
  });

  test("40×12: a list of agents with the selected one's pane below, scrolled to keep it in view", () => {
    const layout = computeLayout(40, 12, 8, 6);
    if (layout.kind !== "list") throw new Error(`expected a list, got ${layout.kind}`);
    expect(layout.list).toEqual({ left: 0, top: 1, width: 40, height: 5 });
    expect(layout.first).toBe(2);
    expect(layout.preview).toEqual({ left: 0, top: 6, width: 40, height: 5 });
    expect(
      computeLayout(40, 12, 8, 0).kind === "list" && (computeLayout(40, 12, 8, 0) as { first: number }).first,
    ).toBe(0);
  });

  test("no size crashes: every rectangle stays on screen, tiny terminals get a message", () => {
    const sizes = [
      [0, 0], [1, 1], [19, 30], [30, 3], [20, 4], [40, 12], [59, 40], [60, 17], [60, 18], [300, 100], [33.7, 12.2],
    ] as const;
    for (const [cols, rows] of sizes) {
      for (const agents of [0, 1, 5, 40]) {
        const layout = computeLayout(cols, rows, agents, Math.max(0, agents - 1));
        const rects = layout.kind === "tiny" ? [layout.message] : layout.kind === "list"
          ? [layout.header, layout.list, layout.footer, ...(layout.preview ? [layout.preview] : [])]
          : [layout.header, layout.footer, layout.board, layout.feed, ...layout.cells.map((cell) => cell.rect)];
        for (const rect of rects)
          expect(inside(rect, Math.floor(cols), Math.floor(rows)), `${cols}x${rows} ${agents} agents`).toBe(true);
      }
    }
    expect(computeLayout(10, 5, 3, 0).kind).toBe("tiny");
  });
});

describe("moveSelection", () => {
  test("arrows move through the grid and stop at its edges; tab wraps", () => {
    expect(moveSelection(0, "right", 6, 3)).toBe(1);
    expect(moveSelection(0, "left", 6, 3)).toBe(0);
    expect(moveSelection(1, "down", 6, 3)).toBe(4);
    expect(moveSelection(4, "down", 6, 3)).toBe(4);
    expect(moveSelection(4, "up", 6, 3)).toBe(1);
    expect(moveSelection(5, "next", 6, 3)).toBe(0);
    expect(moveSelection(0, "previous", 6, 3)).toBe(5);
    expect(moveSelection(0, "down", 0, 3)).toBe(0);
  });
});

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

describe("handleKey", () => {
  const signal: RestartDecision = { kind: "signal", agent: "researcher-2", pid: 7, reason: "SIGTERM to researcher-2" };
  const context = (overrides: Partial<KeyContext> = {}): KeyContext => ({
    count: 4,
    columns: 2,
    decideRestart: () => signal,
    hasPane: () => true,
    ...overrides,
  });

  test("arrows, tab and vi keys move the selection", () => {
    let state = INITIAL_VIEW;
    for (const [key, expected] of [["right", 1], ["down", 3], ["tab", 0], ["S-tab", 3], ["k", 1], ["h", 0]] as const) {
      state = handleKey(state, key, context()).state;
      expect(state.selected, key).toBe(expected);
    }
  });

  test("? opens help, any key but q closes it; q and C-c quit from anywhere", () => {
    const open = handleKey(INITIAL_VIEW, "?", context()).state;
    expect(open.help).toBe(true);
    expect(handleKey(open, "escape", context()).state.help).toBe(false);
    expect(handleKey(open, "q", context()).effect).toEqual({ kind: "quit" });
    expect(handleKey(INITIAL_VIEW, "C-c", context()).effect).toEqual({ kind: "quit" });
  });

  test("enter attaches to the selected agent, unless it has no pane", () => {
    const state = { ...INITIAL_VIEW, selected: 2 };
    expect(handleKey(state, "enter", context()).effect).toEqual({ kind: "attach", agent: 2 });
    const refused = handleKey(state, "enter", context({ hasPane: () => false }));
    expect(refused.effect).toEqual({ kind: "none" });
    expect(refused.state.message).toBe("this agent has no pane to attach to — is the org up?");
  });

  test("r asks first: y restarts, any other key cancels; a refusal says why", () => {
    const asked = handleKey(INITIAL_VIEW, "r", context());
    expect(asked.effect).toEqual({ kind: "none" });
    expect(asked.state.message).toBe("restart? SIGTERM to researcher-2 — y confirms, any other key cancels");
    expect(handleKey(asked.state, "y", context()).effect).toEqual({ kind: "restart", decision: signal });
    const cancelled = handleKey(asked.state, "n", context());
    expect(cancelled.effect).toEqual({ kind: "none" });
    expect(cancelled.state).toEqual({ ...INITIAL_VIEW, message: "restart cancelled" });
    const refused = handleKey(
      INITIAL_VIEW,
      "r",
      context({ decideRestart: () => ({ kind: "refuse", agent: "a", reason: "the org is down" }) }),
    );
    expect(refused.state.message).toBe("cannot restart: the org is down");
    expect(refused.state.confirm).toBeNull();
  });

  test("with no agents, enter and r do nothing", () => {
    expect(handleKey(INITIAL_VIEW, "enter", context({ count: 0 })).effect).toEqual({ kind: "none" });
    expect(handleKey(INITIAL_VIEW, "r", context({ count: 0 })).state.confirm).toBeNull();
  });
});
