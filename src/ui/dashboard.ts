// `org watch` on the terminal: blessed paints the model; layout, text and keys are pure modules beside this one.
import blessed from "blessed";
import type { DashboardAgent, DashboardModel } from "../org/dashboard-model.js";
import { decideRestart, type RestartDecision } from "../org/dashboard-restart.js";
import { computeLayout, type DashboardLayout, type Rect } from "./dashboard-layout.js";
import { handleKey, INITIAL_VIEW, type ViewState } from "./dashboard-keys.js";
import { escapeTags, fitScreen, HELP_LINES, renderFeed, renderFooter, renderHeader, renderListRow, renderPaneLabel, renderStandings, truncate, type Theme } from "./dashboard-text.js";

type Box = blessed.Widgets.BoxElement;

export interface DashboardOptions {
  read(): Promise<DashboardModel>;
  restart(decision: Exclude<RestartDecision, { kind: "refuse" }>): Promise<string>;
  theme: Theme;
  refreshMs: number;
  /** Selected first, e.g. the agent attached to before coming back. */
  select?: string;
}

export type DashboardOutcome = { kind: "quit" } | { kind: "attach"; agent: DashboardAgent };

interface Widgets {
  signature: string;
  layout: DashboardLayout;
  boxes: Box[];
  help: Box | undefined;
}

/** Runs until q (quit) or enter (attach); the terminal is restored either way. */
export async function runDashboard(opts: DashboardOptions): Promise<DashboardOutcome> {
  let model = await opts.read();
  // blessed cannot parse Debian's extended-format terminfo; its bundled xterm-256color entry works, and
  // NCURSES_NO_UTF8_ACS makes it draw borders as Unicode lines rather than raw ACS letters.
  process.env.NCURSES_NO_UTF8_ACS = "1";
  const screen = blessed.screen({ terminal: "xterm-256color", smartCSR: true, fullUnicode: false, warnings: false, autoPadding: false, title: `org watch ${model.org}` });
  let view: ViewState = { ...INITIAL_VIEW, selected: Math.max(0, model.agents.findIndex((agent) => agent.name === opts.select)) };
  let widgets: Widgets | undefined;
  let busy = false;
  let closed = false;

  const draw = () => {
    const layout = computeLayout(Number(screen.width), Number(screen.height), model.agents.length, view.selected);
    const signature = JSON.stringify(layout);
    const rebuilt = widgets?.signature !== signature;
    if (rebuilt) widgets = build(screen, layout, signature);
    // Repainting an unchanged screen still walks every cell: skip it when no text changed.
    if (fill(widgets!, model, view, opts.theme) || rebuilt) screen.render();
  };
  const refresh = async () => {
    if (busy) return;
    busy = true;
    try {
      const next = await opts.read();
      // Read the selection after the await: a key pressed meanwhile has moved it.
      const selectedName = model.agents[view.selected]?.name;
      model = next;
      const index = model.agents.findIndex((agent) => agent.name === selectedName);
      view = { ...view, selected: index >= 0 ? index : Math.min(view.selected, Math.max(0, model.agents.length - 1)) };
    } catch (error) {
      view = { ...view, message: `refresh failed: ${(error as Error).message}` };
    } finally {
      busy = false;
    }
    if (!closed) draw();
  };

  const outcome = await new Promise<DashboardOutcome>((resolve) => {
    const timer = setInterval(() => void refresh(), opts.refreshMs);
    const finish = (result: DashboardOutcome) => {
      closed = true;
      clearInterval(timer);
      process.off("SIGTERM", quit).off("SIGHUP", quit);
      resolve(result);
    };
    const quit = () => finish({ kind: "quit" });
    process.on("SIGTERM", quit).on("SIGHUP", quit);
    screen.on("resize", draw);
    screen.on("keypress", (ch: string | undefined, key: { full?: string } | undefined) => {
      const name = key?.full ?? ch ?? "";
      // blessed reports Enter twice (return, then enter); only one may attach.
      if (name === "return") return;
      const columns = widgets?.layout.kind === "grid" ? widgets.layout.columns : 1;
      const result = handleKey(view, name, {
        count: model.agents.length,
        columns,
        decideRestart: (index) => decideRestart(model.agents[index]!, model.running),
        hasPane: (index) => model.running && Boolean(model.agents[index]?.paneId),
      });
      view = result.state;
      const effect = result.effect;
      if (effect.kind === "quit") return quit();
      if (effect.kind === "attach") return finish({ kind: "attach", agent: model.agents[effect.agent]! });
      if (effect.kind === "restart") {
        const show = (message: string) => {
          view = { ...view, message };
          if (!closed) draw();
        };
        void opts.restart(effect.decision).then(show, (error: Error) => show(error.message));
      }
      draw();
    });
    draw();
  });
  screen.destroy();
  return outcome;
}

function build(screen: blessed.Widgets.Screen, layout: DashboardLayout, signature: string): Widgets {
  for (const child of [...screen.children]) child.destroy();
  const box = (rect: Rect, options: blessed.Widgets.BoxOptions = {}) =>
    blessed.box({ parent: screen, left: rect.left, top: rect.top, width: rect.width, height: rect.height, tags: true, wrap: false, ...options });
  const bordered = { border: { type: "line" as const }, style: { border: {}, label: {} } };
  if (layout.kind === "tiny") return { signature, layout, boxes: [box(layout.message)], help: undefined };
  const boxes = layout.kind === "grid"
    ? [box(layout.header), box(layout.footer), box(layout.board, { ...bordered, label: " leaderboard " }), box(layout.feed, { ...bordered, label: " events " }),
      ...layout.cells.map((cell) => box(cell.rect, { ...bordered, tags: false, style: { border: {}, label: {} } }))]
    : [box(layout.header), box(layout.footer), box(layout.list), ...(layout.preview ? [box(layout.preview)] : [])];
  const width = Math.min(44, layout.header.width);
  const height = Math.min(HELP_LINES.length + 2, layout.footer.top);
  const content = HELP_LINES.map((line) => truncate(line, width - 2)).join("\n");
  const help = blessed.box({ parent: screen, top: "center", left: "center", width, height, border: { type: "line" }, tags: false, wrap: false, hidden: true, content });
  return { signature, layout, boxes, help };
}

// What each box shows now, so an unchanged box is neither re-parsed by blessed nor repainted.
const shown = new WeakMap<object, string>();

function update(target: object, key: string, apply: () => void): boolean {
  if (shown.get(target) === key) return false;
  shown.set(target, key);
  apply();
  return true;
}

const setText = (box: Box, text: string) => update(box, text, () => box.setContent(text));

/** Sets every box's text; true when any of it changed. */
function fill(widgets: Widgets, model: DashboardModel, view: ViewState, theme: Theme): boolean {
  const { layout, boxes } = widgets;
  if (layout.kind === "tiny") return setText(boxes[0]!, escapeTags(`org watch: ${layout.message.width}×${layout.message.height} is too small\nq quits`));
  const [header, footer] = boxes as [Box, Box];
  const selected = model.agents[view.selected];
  const help = widgets.help!;
  const changes = [
    setText(header, renderHeader(model, layout.header.width, theme)),
    setText(footer, renderFooter(view.message, layout.footer.width, layout.kind === "grid" ? pageOf(layout, model.agents.length) : undefined)),
    update(help.style as object, String(view.help), () => (help.hidden = !view.help)),
  ];
  if (layout.kind === "grid") {
    const [, , board, feed, ...cells] = boxes as Box[];
    changes.push(
      setText(board!, renderStandings(model, selected?.name, layout.board.width - 2, layout.board.height - 2, theme)),
      setText(feed!, renderFeed(model.events, layout.feed.width - 2, layout.feed.height - 2, theme)),
      ...layout.cells.map((cell, index) => paintCell(cells[index]!, model.agents[cell.agent]!, cell.agent === view.selected, cell.rect, theme)),
    );
    return changes.includes(true);
  }
  const [, , list, preview] = boxes as Box[];
  const standings = new Map(model.standings.map((standing) => [standing.agent, standing]));
  const rows = model.agents.slice(layout.first, layout.first + layout.list.height)
    .map((agent, offset) => renderListRow(agent, standings.get(agent.name), layout.first + offset === view.selected, layout.list.width, theme));
  changes.push(setText(list!, rows.length > 0 ? rows.join("\n") : "no agents in this org"));
  if (preview && layout.preview && selected) {
    const label = `{inverse}${escapeTags(renderPaneLabel(selected, false, layout.preview.width + 6))}{/inverse}`;
    changes.push(setText(preview, `${label}\n${escapeTags(fitScreen(selected, layout.preview.width, layout.preview.height - 1))}`));
  }
  return changes.includes(true);
}

function pageOf(layout: Extract<DashboardLayout, { kind: "grid" }>, total: number): { first: number; last: number; total: number } {
  return { first: layout.cells[0]!.agent, last: layout.cells[layout.cells.length - 1]!.agent, total };
}

function paintCell(cell: Box, agent: DashboardAgent, selected: boolean, rect: Rect, theme: Theme): boolean {
  const label = ` ${renderPaneLabel(agent, selected, rect.width)} `;
  const border = theme.color ? (selected ? "cyan" : agent.state === "failed" ? "red" : undefined) : undefined;
  const styled = update(cell.style as object, `${label}|${border}|${selected}`, () => {
    cell.setLabel(label);
    const style = cell.style as { border: Record<string, unknown>; label: Record<string, unknown> };
    style.border.fg = border;
    style.border.bold = selected;
    style.label.inverse = selected;
    style.label.bold = selected;
  });
  return setText(cell, fitScreen(agent, rect.width - 2, rect.height - 2)) || styled;
}
