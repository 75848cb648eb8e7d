// Focus mode of `org watch` for an org without tmux: one agent fills the dashboard and typed keys go to it.
import type { Rect } from "./dashboard-layout.js";
import { escapeTags, truncate } from "./dashboard-text.js";
import { narrowText } from "./dashboard-width.js";

/** Ctrl-] leaves focus, as in telnet: Esc and Ctrl-C belong to the agent's own program. */
const LEAVE_FOCUS = "\x1d";

/** The focused agent's screen: its rows, and its cursor in cells from the top left. */
export interface FocusScreen {
  lines: string[];
  cursor: { x: number; y: number };
}

export interface FocusLayout {
  kind: "focus";
  header: Rect;
  /** Bordered: the agent's terminal is sized to its inside. */
  pane: Rect;
  footer: Rect;
}

/** Header, the focused pane and footer; undefined when the terminal is too small for a pane of 2×2. */
export function computeFocusLayout(cols: number, rows: number): FocusLayout | undefined {
  const width = Math.max(0, Math.floor(cols));
  const height = Math.max(0, Math.floor(rows));
  if (width < 20 || height < 6) return undefined;
  return {
    kind: "focus",
    header: { left: 0, top: 0, width, height: 1 },
    pane: { left: 0, top: 1, width, height: height - 2 },
    footer: { left: 0, top: height - 1, width, height: 1 },
  };
}

/** The terminal size an agent gets inside the pane's border. */
export function focusTerminalSize(layout: FocusLayout): { cols: number; rows: number } {
  return { cols: Math.max(2, layout.pane.width - 2), rows: Math.max(2, layout.pane.height - 2) };
}

/** What of a chunk of typed input goes to the agent, and whether it also asked to leave focus (the rest is dropped). */
export function splitFocusInput(data: string): { forward: string; leave: boolean } {
  const at = data.indexOf(LEAVE_FOCUS);
  return at < 0 ? { forward: data, leave: false } : { forward: data.slice(0, at), leave: true };
}

/**
 * The screen as blessed tag text cut to width×height, the cursor cell in inverse video so a
 * person sees where typing lands.
 */
export function renderFocusScreen(screen: FocusScreen, width: number, height: number): string {
  const rows: string[] = [];
  for (let y = 0; y < height; y++) {
    const chars = [...narrowText((screen.lines[y] ?? "").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ""))].slice(0, width);
    const x = screen.cursor.x;
    if (y !== screen.cursor.y || x < 0 || x >= width) {
      rows.push(escapeTags(chars.join("")));
      continue;
    }
    while (chars.length <= x) chars.push(" ");
    const [before, after] = [escapeTags(chars.slice(0, x).join("")), escapeTags(chars.slice(x + 1).join(""))];
    rows.push(`${before}{inverse}${escapeTags(chars[x]!)}{/inverse}${after}`);
  }
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  return rows.join("\n");
}

export function renderFocusFooter(agent: string, message: string | undefined, width: number): string {
  return escapeTags(truncate(message ?? `typing goes to ${agent} · Ctrl-] back to the dashboard`, width));
}
