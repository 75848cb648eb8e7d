// `org watch` on the terminal: blessed paints the model; layout, text and keys are pure modules beside this one.
import blessed from "blessed";
import type { DashboardAgent, DashboardModel } from "../domain/views/dashboard-model.js";
import { decideRestart, type RestartDecision } from "../domain/views/dashboard-restart.js";
import {
  computeFocusLayout, focusTerminalSize, renderFocusFooter, renderFocusScreen, type FocusLayout, type FocusScreen,
} from "./dashboard-focus.js";
import { FocusSession, type FocusPort } from "./dashboard-focus-session.js";
import { computeLayout, type DashboardLayout, type Rect } from "./dashboard-layout.js";
import { handleKey, INITIAL_VIEW, type ViewState } from "./dashboard-keys.js";
import {
  escapeTags, fitScreen, FOCUS_HELP_LINES, HELP_LINES, renderFeed, renderFooter, renderHeader, renderListRow,
  renderPaneLabel, renderStandings, truncate, type Theme,
} from "./dashboard-text.js";

type Box = blessed.Widgets.BoxElement;

export interface DashboardOptions {
  read(): Promise<DashboardModel>;
  restart(decision: Exclude<RestartDecision, { kind: "refuse" }>): Promise<string>;
  theme: Theme;
  refreshMs: number;
  /** Selected first, e.g. the agent attached to before coming back. */
  select?: string;
  /** An org without tmux: enter focuses the agent inside the dashboard instead of returning to attach. */
  focus?: FocusPort;
}

export type DashboardOutcome = { kind: "quit" } | { kind: "attach"; agent: DashboardAgent };

interface Widgets {
  signature: string;
  layout: DashboardLayout | FocusLayout;
  boxes: Box[];
  help: Box | undefined;
}

/** Runs until q (quit) or enter (attach, unless `focus` keeps it inside); the terminal is restored either way. */
export async function runDashboard(opts: DashboardOptions): Promise<DashboardOutcome> {
  let model = await opts.read();
  // blessed cannot parse Debian's extended-format terminfo; its bundled xterm-256color entry works, and
  // NCURSES_NO_UTF8_ACS makes it draw borders as Unicode lines rather than raw ACS letters.
  process.env.NCURSES_NO_UTF8_ACS = "1";
  const screen = blessed.screen({
    terminal: "xterm-256color",
    smartCSR: true,
    fullUnicode: false,
    warnings: false,
    autoPadding: false,
    title: `org watch ${model.org}`,
  });
  let view: ViewState = {
    ...INITIAL_VIEW,
    selected: Math.max(0, model.agents.findIndex((agent) => agent.name === opts.select)),
  };
  let widgets: Widgets | undefined;
  let busy = false;
  let closed = false;

  const show = (message: string) => {
    view = { ...view, message };
    if (!closed) draw();
  };
  const draw = () => {
    const focusLayout = focus?.agent !== undefined
      ? computeFocusLayout(Number(screen.width), Number(screen.height))
      : undefined;
    const layout = focusLayout
      ?? computeLayout(Number(screen.width), Number(screen.height), model.agents.length, view.selected);
    const signature = JSON.stringify(layout);
    const rebuilt = widgets?.signature !== signature;
    if (rebuilt) widgets = build(screen, layout, signature, opts.focus ? FOCUS_HELP_LINES : HELP_LINES);
    if (rebuilt && focusLayout) {
      const { cols, rows } = focusTerminalSize(focusLayout);
      focus!.resize(cols, rows);
    }
    // Repainting an unchanged screen still walks every cell: skip it when no text changed.
    const focused = focus?.agent === undefined ? undefined : { agent: focus.agent, screen: focus.screen };
    if (fill(widgets!, model, view, opts.theme, focused, opts.focus ? "focus" : "attach") || rebuilt) screen.render();
  };
  // In an org without tmux, enter keeps the dashboard and hands the keys to the agent.
  const focus = opts.focus
    ? new FocusSession(opts.focus, screen.program.input, () => !closed && draw(), show)
    : undefined;
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
    // An agent removed by a reload cannot stay focused.
    if (focus?.agent !== undefined && !model.agents.some((agent) => agent.name === focus.agent)) focus.leave();
    if (!closed) draw();
  };

  const outcome = await new Promise<DashboardOutcome>((resolve) => {
    const timer = setInterval(() => void refresh(), opts.refreshMs);
    const finish = (result: DashboardOutcome) => {
      closed = true;
      clearInterval(timer);
      focus?.dispose();
      process.off("SIGTERM", quit).off("SIGHUP", quit);
      resolve(result);
    };
    const quit = () => finish({ kind: "quit" });
    process.on("SIGTERM", quit).on("SIGHUP", quit);
    screen.on("resize", draw);
    screen.on("keypress", (ch: string | undefined, key: { full?: string } | undefined) => {
      // Focused, the session passes raw bytes on (escape sequences, Ctrl keys): blessed's parse of them is not ours.
      if (focus?.agent !== undefined) return;
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
      if (effect.kind === "attach" && focus) focus.enter(model.agents[effect.agent]!.name);
      else if (effect.kind === "attach") return finish({ kind: "attach", agent: model.agents[effect.agent]! });
      if (effect.kind === "restart") {
        void opts.restart(effect.decision).then(show, (error: Error) => show(error.message));
      }
      draw();
    });
    draw();
  });
  screen.destroy();
  return outcome;
}

function build(
  screen: blessed.Widgets.Screen, layout: DashboardLayout | FocusLayout, signature: string, helpLines: string[],
): Widgets {
  for (const child of [...screen.children]) child.destroy();
  const box = (rect: Rect, options: blessed.Widgets.BoxOptions = {}) =>
    blessed.box({
      parent: screen,
      left: rect.left,
      top: rect.top,
      width: rect.width,
      height: rect.height,
      tags: true,
      wrap: false,
      ...options,
    });
  const bordered = { border: { type: "line" as const }, style: { border: {}, label: {} } };
  if (layout.kind === "tiny") return { signature, layout, boxes: [box(layout.message)], help: undefined };
  if (layout.kind === "focus") return {
    signature,
    layout,
    boxes: [box(layout.header), box(layout.footer), box(layout.pane, bordered)],
    help: undefined,
  };
  const boxes = layout.kind === "grid"
    ? [box(layout.header), box(layout.footer), box(layout.board, { ...bordered, label: " leaderboard " }),
      box(layout.feed, { ...bordered, label: " events " }),
      ...layout.cells.map((cell) => box(cell.rect, { ...bordered, tags: false, style: { border: {}, label: {} } }))]
    : [box(layout.header), box(layout.footer), box(layout.list), ...(layout.preview ? [box(layout.preview)] : [])];
  const width = Math.min(44, layout.header.width);
  const height = Math.min(helpLines.length + 2, layout.footer.top);
  const content = helpLines.map((line) => truncate(line, width - 2)).join("\n");
  const help = blessed.box({
    parent: screen,
    top: "center",
    left: "center",
    width,
    height,
    border: { type: "line" },
    tags: false,
    wrap: false,
    hidden: true,
    content,
  });
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
function fill(
  widgets: Widgets, model: DashboardModel, view: ViewState, theme: Theme,
  focused: { agent: string; screen: FocusScreen | undefined } | undefined, enter: "attach" | "focus",
): boolean {
  const { layout, boxes } = widgets;
  if (layout.kind === "tiny") return setText(
    boxes[0]!,
    escapeTags(`org watch: ${layout.message.width}×${layout.message.height} is too small\nq quits`),
  );
  const [header, footer] = boxes as [Box, Box];
  if (layout.kind === "focus") {
    const agent = model.agents.find((candidate) => candidate.name === focused?.agent);
    const { width, height } = layout.pane;
    // Until its own screen arrives, the agent's pane text from the last refresh.
    const text = focused?.screen
      ? renderFocusScreen(focused.screen, width - 2, height - 2)
      : agent ? escapeTags(fitScreen(agent, width - 2, height - 2)) : "";
    return [
      setText(header, renderHeader(model, layout.header.width, theme)),
      setText(footer, renderFocusFooter(focused?.agent ?? "", view.message, layout.footer.width)),
      Boolean(agent) && paintCell(boxes[2]!, agent!, true, layout.pane, theme, text),
    ].includes(true);
  }
  const selected = model.agents[view.selected];
  const help = widgets.help!;
  const changes = [
    setText(header, renderHeader(model, layout.header.width, theme)),
    setText(
      footer,
      renderFooter(
        view.message,
        layout.footer.width,
        layout.kind === "grid" ? pageOf(layout, model.agents.length) : undefined,
        enter,
      ),
    ),
    update(help.style as object, String(view.help), () => (help.hidden = !view.help)),
  ];
  if (layout.kind === "grid") {
    const [, , board, feed, ...cells] = boxes as Box[];
    changes.push(
      setText(board!, renderStandings(model, selected?.name, layout.board.width - 2, layout.board.height - 2, theme)),
      setText(feed!, renderFeed(model.events, layout.feed.width - 2, layout.feed.height - 2, theme)),
      ...layout.cells.map((cell, index) =>
        paintCell(cells[index]!, model.agents[cell.agent]!, cell.agent === view.selected, cell.rect, theme)),
    );
    return changes.includes(true);
  }
  const [, , list, preview] = boxes as Box[];
  const standings = new Map(model.standings.map((standing) => [standing.agent, standing]));
  const rows = model.agents.slice(layout.first, layout.first + layout.list.height)
    .map((agent, offset) =>
      renderListRow(
        agent,
        standings.get(agent.name),
        layout.first + offset === view.selected,
        layout.list.width,
        theme,
      ));
  changes.push(setText(list!, rows.length > 0 ? rows.join("\n") : "no agents in this org"));
  if (preview && layout.preview && selected) {
    const label = `{inverse}${escapeTags(renderPaneLabel(selected, false, layout.preview.width + 6))}{/inverse}`;
    changes.push(setText(
      preview,
      `${label}\n${escapeTags(fitScreen(selected, layout.preview.width, layout.preview.height - 1))}`,
    ));
  }
  return changes.includes(true);
}

function pageOf(layout: Extract<DashboardLayout, { kind: "grid" }>, total: number): {
  first: number; last: number; total: number;
} {
  return { first: layout.cells[0]!.agent, last: layout.cells[layout.cells.length - 1]!.agent, total };
}

/** `text` replaces the pane's own lines (the focused pane's tagged screen). */
function paintCell(
  cell: Box, agent: DashboardAgent, selected: boolean, rect: Rect, theme: Theme, text?: string,
): boolean {
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
  return setText(cell, text ?? fitScreen(agent, rect.width - 2, rect.height - 2)) || styled;
}
