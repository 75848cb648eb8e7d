// The dashboard's text, as blessed tag strings: pure, so NO_COLOR and every width are unit tests.
import type { DashboardAgent, DashboardModel, FeedEvent, Standing } from "../domain/views/dashboard-model.js";
import { narrowText } from "./dashboard-width.js";
import { renderSparkline } from "./sparkline.js";
import { formatUptime } from "./uptime.js";
import { formatUsageCell } from "./usage-format.js";
import { cleanLine, cleanText } from "../domain/safe-text.js";
import { describeCrashedBaselines, formatVerifierLine } from "./verifier-line.js";

export interface Theme {
  color: boolean;
}

const STATE_COLORS: Record<string, string> = {
  running: "green",
  starting: "yellow",
  restarting: "yellow",
  failed: "red",
  stopped: "gray",
  blocked: "magenta",
};
const OP_COLORS: Record<string, string> = {
  keep: "green",
  baseline: "green",
  discard: "gray",
  crash: "red",
  fail: "red",
  reject: "yellow",
  restart: "yellow",
  failed: "red",
  up: "cyan",
  down: "cyan",
};

// Short enough for a 40-column terminal inside the help box's border.
export const HELP_LINES = [
  "org watch — keys",
  "",
  " ←↑↓→ tab  select an agent",
  " enter     attach; Ctrl-b d returns",
  " r         restart it (asks first)",
  " ? esc     show or close this help",
  " q         quit; the org keeps running",
];

/** The help of an org without tmux: enter focuses the agent inside the dashboard. */
export const FOCUS_HELP_LINES = HELP_LINES.map((line) =>
  (line.startsWith(" enter") ? " enter     type to it; Ctrl-] returns" : line));

/** `{` and `}` are blessed's tag delimiters: text from agents and logs must not open tags, nor pass escapes on. */
export function escapeTags(text: string): string {
  return cleanText(text).replace(/[{}]/g, (brace) => (brace === "{" ? "{open}" : "{close}"));
}

export function paint(text: string, color: string | undefined, theme: Theme): string {
  return theme.color && color ? `{${color}-fg}${text}{/${color}-fg}` : text;
}

/** At most `width` characters; a cut line ends in … so it never reads as complete. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (width <= 0) return "";
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join("")}…`;
}

function formatMetric(value: number | undefined): string {
  if (value === undefined) return "-";
  // Six significant digits with trailing zeros kept, so a column of metrics lines up.
  return Math.abs(value) >= 1e6 || (value !== 0 && Math.abs(value) < 1e-4)
    ? value.toExponential(3)
    : value.toPrecision(6);
}

function formatDelta(value: number | undefined): string {
  if (value === undefined) return "-";
  const text = value === 0 || (Math.abs(value) >= 1e-4 && Math.abs(value) < 1e6)
    ? value.toPrecision(4)
    : value.toExponential(2);
  return `${value > 0 ? "+" : ""}${text}`;
}

export function renderHeader(model: DashboardModel, width: number, theme: Theme): string {
  const state = model.running ? paint("running", "green", theme) : paint("down", "red", theme);
  const leases = model.cpuMode
    ? ["CPU mode"]
    : model.pool.length > 0
      ? [`GPU pool ${model.pool.join(",")}: every agent's runs`]
      : model.gpus.map((lease) => `GPU ${lease.gpu}: ${lease.agents.join(", ")}`);
  const parts = [`org ${model.org}`, model.running
    ? `up ${formatUptime(model.uptimeMs)}`
    : "", `${model.agents.length} agents`, ...leases].filter(Boolean);
  const plainState = model.running ? "running" : "down";
  const text = truncate([`org ${model.org}`, plainState, ...parts.slice(1)].join(" · "), width);
  const at = `org ${model.org} · `.length;
  if (text.slice(at, at + plainState.length) !== plainState) return escapeTags(text);
  return `${escapeTags(text.slice(0, at))}${state}${escapeTags(text.slice(at + plainState.length))}`;
}

export function renderPaneLabel(agent: DashboardAgent, selected: boolean, width: number): string {
  const gpu = agent.gpu !== null ? `gpu ${agent.gpu}` : agent.pooled ? "gpu pool" : "cpu";
  const restarts = agent.restarts > 0 ? ` · ${agent.restarts} restart${agent.restarts === 1 ? "" : "s"}` : "";
  // The border keeps its corner and one line each side of the label's padding.
  const program = agent.program ? ` · ${agent.program}` : "";
  return truncate(
    `${selected ? "▶ " : ""}${agent.name} · ${agent.state} · ${gpu}${restarts}${program}`,
    Math.max(0, width - 6),
  );
}

/** The pane's last `height` lines cut to `width`; a pane with nothing yet says why. */
export function fitScreen(agent: DashboardAgent, width: number, height: number): string {
  if (height <= 0 || width <= 0) return "";
  const lines = agent.screen.length > 0
    ? agent.screen
    : [agent.state === "running" ? "(no output yet)" : `(${agent.reason})`];
  return lines.slice(-height).map((line) => truncate(narrowText(cleanLine(line)), width)).join("\n");
}

export function renderStandings(
  model: DashboardModel, selectedAgent: string | undefined, width: number, height: number, theme: Theme,
): string {
  if (height <= 0) return "";
  const nameWidth = Math.min(18, Math.max(5, ...model.standings.map((standing) => standing.agent.length)));
  // The tokens and dollars column shows once any agent's program records usage.
  const spend = model.standings.some((standing) => standing.usage) ? SPEND_WIDTH : 0;
  const tokens = spend ? ` ${"TOKENS $".padStart(spend)}` : "";
  const numbers = `${"BEST".padStart(9)} ${"DELTA".padStart(9)} ${"RUNS".padStart(4)}`;
  const head = `  ${"AGENT".padEnd(nameWidth)} ${numbers}${tokens}  TREND`;
  const trendWidth = Math.max(0, width - head.length + 5);
  const measured = model.orgBest
    ? `org best ${model.metricName} ${formatMetric(model.orgBest.metric)} by ${model.orgBest.agent}`
    : `no ${model.metricName} measured yet`;
  // Before a first result, the verifier's queue is what says the org is working.
  const best = model.verifier ? `${measured} · ${formatVerifierLine(model.verifier)}` : measured;
  const crashes = model.verifier ? describeCrashedBaselines(model.verifier, model.verifier.root) : [];
  const rows = model.standings.map((standing) =>
    renderStanding(standing, standing.agent === selectedAgent, { nameWidth, trendWidth, spend }, model.goal, theme));
  // Scroll only as far as needed to keep the selected agent's row in view.
  const room = Math.max(0, height - 2 - crashes.length);
  const selected = model.standings.findIndex((standing) => standing.agent === selectedAgent);
  const first = Math.max(0, Math.min(selected - room + 1, rows.length - room));
  const shown = rows.slice(first, first + room);
  const notes = [best, ...crashes].map((line) => escapeTags(truncate(line, width)));
  const [last, ...crashNotes] = notes;
  return [truncate(head, width), ...shown, last!, ...crashNotes.map((note) => paint(note, "red", theme))].slice(
    0,
    height,
  )
    .join("\n");
}

const SPEND_WIDTH = 13;

function renderStanding(
  standing: Standing, selected: boolean, widths: { nameWidth: number; trendWidth: number; spend: number },
  goal: DashboardModel["goal"], theme: Theme,
): string {
  const { nameWidth, trendWidth } = widths;
  const improved = standing.delta !== undefined && standing.delta !== 0
    && (goal === "minimize" ? standing.delta < 0 : standing.delta > 0);
  const delta = formatDelta(standing.delta).padStart(9);
  const deltaColor = standing.delta === undefined || standing.delta === 0 ? undefined : improved ? "green" : "red";
  return [
    selected ? "▶" : " ",
    escapeTags(truncate(standing.agent, nameWidth).padEnd(nameWidth)),
    formatMetric(standing.best).padStart(9),
    paint(delta, deltaColor, theme),
    String(standing.runs).padStart(4),
    ...(widths.spend ? [truncate(formatUsageCell(standing.usage), widths.spend).padStart(widths.spend)] : []),
    ` ${paint(renderSparkline(standing.series, trendWidth), "cyan", theme)}`,
  ].join(" ").trimEnd();
}

export function renderFeed(events: FeedEvent[], width: number, height: number, theme: Theme): string {
  if (height <= 0) return "";
  if (events.length === 0) return "no events yet (state/log.md)";
  const opWidth = Math.min(8, Math.max(...events.map((event) => event.op.length)));
  return events.slice(-height).map((event) => {
    const op = truncate(event.op, opWidth).padEnd(opWidth);
    const title = truncate(narrowText(event.title), Math.max(0, width - opWidth - 1));
    return `${paint(escapeTags(op), OP_COLORS[event.op], theme)} ${escapeTags(title)}`;
  }).join("\n");
}

/** One agent per line for small terminals: state, GPU, best and trend. */
export function renderListRow(
  agent: DashboardAgent, standing: Standing | undefined, selected: boolean, width: number, theme: Theme,
): string {
  const marker = selected ? "▶" : " ";
  const gpu = agent.gpu !== null ? `g${agent.gpu}` : agent.pooled ? "pool" : "cpu";
  const plain = `${marker} ${agent.name} ${agent.state} ${gpu} ${formatMetric(standing?.best)}`;
  const spark = renderSparkline(standing?.series ?? [], Math.max(0, width - [...plain].length - 1));
  const text = truncate(spark ? `${plain} ${spark}` : plain, width);
  const state = paint(agent.state, STATE_COLORS[agent.state], theme);
  return escapeTags(text).replace(` ${agent.state} `, ` ${state} `);
}

/** The key hints, or a message; when not every agent fits, which ones are shown. */
export function renderFooter(
  message: string | undefined, width: number, page?: { first: number; last: number; total: number },
  enter: "attach" | "focus" = "attach",
): string {
  const shown = page && page.last - page.first + 1 < page.total
    ? `agents ${page.first + 1}–${page.last + 1} of ${page.total} · `
    : "";
  return escapeTags(truncate(
    message ?? `${shown}←↑↓→ tab select · enter ${enter} · r restart · ? help · q quit`,
    width,
  ));
}
