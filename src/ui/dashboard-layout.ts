// Where everything goes on a cols×rows terminal: pure math, so every size is a unit test.

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type DashboardLayout =
  | {
      kind: "grid";
      header: Rect;
      /** One cell per shown agent: `agent` indexes the model's agents. */
      cells: { agent: number; rect: Rect }[];
      columns: number;
      board: Rect;
      feed: Rect;
      footer: Rect;
    }
  | { kind: "list"; header: Rect; list: Rect; first: number; preview: Rect | null; footer: Rect }
  | { kind: "tiny"; message: Rect };

// A pane cell below this is too small to read: border plus a few lines of a few words.
const MIN_CELL = { width: 24, height: 5 };
const MIN_GRID = { width: 60, height: 18 };

export function computeLayout(cols: number, rows: number, agents: number, selected: number): DashboardLayout {
  const width = Math.max(0, Math.floor(cols));
  const height = Math.max(0, Math.floor(rows));
  if (width < 20 || height < 4) return { kind: "tiny", message: { left: 0, top: 0, width, height } };
  const header = { left: 0, top: 0, width, height: 1 };
  const footer = { left: 0, top: height - 1, width, height: 1 };
  // Leaderboard: border, head, a row per agent (up to 8), the org's best.
  const bottom = Math.min(12, Math.max(6, Math.min(agents, 8) + 4));
  const gridHeight = height - 2 - bottom;
  if (width >= MIN_GRID.width && height >= MIN_GRID.height && gridHeight >= MIN_CELL.height && agents > 0) {
    const boardWidth = Math.ceil(width * 0.55);
    const grid = { left: 0, top: 1, width, height: gridHeight };
    const { cells, columns } = tileCells(grid, agents, selected);
    return {
      kind: "grid", header, cells, columns, footer,
      board: { left: 0, top: 1 + gridHeight, width: boardWidth, height: bottom },
      feed: { left: boardWidth, top: 1 + gridHeight, width: width - boardWidth, height: bottom },
    };
  }
  const body = height - 2;
  const listRows = Math.max(1, Math.min(agents, body >= 8 ? Math.ceil(body / 2) : body));
  // Scroll only as far as needed to keep the selected agent in view.
  const first = Math.max(0, Math.min(selected - listRows + 1, agents - listRows));
  const previewHeight = body - listRows;
  return {
    kind: "list", header, footer, first,
    list: { left: 0, top: 1, width, height: listRows },
    preview: previewHeight >= 2 ? { left: 0, top: 1 + listRows, width, height: previewHeight } : null,
  };
}

/** Cells for as many agents as fit at a readable size; with too many, the page holding `selected`. */
function tileCells(grid: Rect, agents: number, selected: number): {
  cells: { agent: number; rect: Rect }[]; columns: number;
} {
  const maxColumns = Math.max(1, Math.floor(grid.width / MIN_CELL.width));
  const maxRows = Math.max(1, Math.floor(grid.height / MIN_CELL.height));
  const perPage = Math.min(agents, maxColumns * maxRows);
  const start = Math.floor(Math.max(0, Math.min(selected, agents - 1)) / perPage) * perPage;
  const count = Math.min(perPage, agents - start);
  const columns = chooseColumns(grid, count, maxColumns, maxRows);
  const rowsUsed = Math.ceil(count / columns);
  const cells = Array.from({ length: count }, (_, index) => {
    const column = index % columns;
    const row = Math.floor(index / columns);
    const left = Math.floor((column * grid.width) / columns);
    const top = Math.floor((row * grid.height) / rowsUsed);
    return {
      agent: start + index,
      rect: {
        left: grid.left + left, top: grid.top + top,
        width: Math.floor(((column + 1) * grid.width) / columns) - left,
        height: Math.floor(((row + 1) * grid.height) / rowsUsed) - top,
      },
    };
  });
  return { cells, columns };
}

// Terminal cells are about twice as tall as wide: the best grid keeps cells near 2:1 in characters.
function chooseColumns(grid: Rect, count: number, maxColumns: number, maxRows: number): number {
  let best = Math.min(maxColumns, count);
  let bestScore = -Infinity;
  for (let columns = 1; columns <= Math.min(maxColumns, count); columns++) {
    const rows = Math.ceil(count / columns);
    if (rows > maxRows) continue;
    const score = Math.min(grid.width / columns / 2, grid.height / rows);
    if (score > bestScore) [best, bestScore] = [columns, score];
  }
  return best;
}

/** The selection after an arrow or tab: arrows move through the grid by `columns`, tab wraps around. */
export function moveSelection(
  selected: number, key: "left" | "right" | "up" | "down" | "next" | "previous", count: number, columns: number,
): number {
  if (count <= 0) return 0;
  const step = {
    left: -1,
    right: 1,
    up: -Math.max(1, columns),
    down: Math.max(1, columns),
    next: 1,
    previous: -1,
  }[key];
  const moved = selected + step;
  if (key === "next" || key === "previous") return (moved + count) % count;
  return moved < 0 || moved >= count ? selected : moved;
}
