import { describe, expect, test } from "vitest";
import { computeLayout, moveSelection, type Rect } from "../../src/ui/dashboard-layout.js";
import { renderSparkline } from "../../src/ui/sparkline.js";

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
