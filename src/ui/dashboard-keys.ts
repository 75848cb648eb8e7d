// What each key does to the dashboard: a pure reducer, so the key map is a unit test.
import type { RestartDecision } from "../domain/views/dashboard-restart.js";
import { moveSelection } from "./dashboard-layout.js";

export interface ViewState {
  selected: number;
  help: boolean;
  /** A restart waiting for `y`. */
  confirm: Exclude<RestartDecision, { kind: "refuse" }> | null;
  /** One line for the footer, replacing the key hints until the next key. */
  message: string | undefined;
}

export type KeyEffect =
  | { kind: "none" }
  | { kind: "quit" }
  | { kind: "attach"; agent: number }
  | { kind: "restart"; decision: Exclude<RestartDecision, { kind: "refuse" }> };

export interface KeyContext {
  count: number;
  columns: number;
  decideRestart(agent: number): RestartDecision;
  hasPane(agent: number): boolean;
}

const MOVES: Record<string, Parameters<typeof moveSelection>[1]> = {
  left: "left",
  right: "right",
  up: "up",
  down: "down",
  tab: "next",
  "S-tab": "previous",
  h: "left",
  l: "right",
  k: "up",
  j: "down",
};

export const INITIAL_VIEW: ViewState = { selected: 0, help: false, confirm: null, message: undefined };

export function handleKey(state: ViewState, key: string, context: KeyContext): { state: ViewState; effect: KeyEffect } {
  const none = (next: Partial<ViewState>) =>
    ({ state: { ...state, message: undefined, ...next }, effect: { kind: "none" } as const });
  if (key === "q" || key === "C-c") return { state, effect: { kind: "quit" } };
  if (state.confirm) {
    if (key === "y") return {
      state: { ...state, confirm: null, message: `restarting ${state.confirm.agent}…` },
      effect: { kind: "restart", decision: state.confirm },
    };
    return none({ confirm: null, message: "restart cancelled" });
  }
  if (state.help) return none({ help: false });
  if (key === "?") return none({ help: true });
  const move = MOVES[key];
  if (move) return none({ selected: moveSelection(state.selected, move, context.count, context.columns) });
  if (context.count === 0 || state.selected >= context.count) return none({});
  if (key === "enter" || key === "return") {
    if (!context.hasPane(state.selected)) return none({
      message: "this agent has no pane to attach to — is the org up?",
    });
    return { state: { ...state, message: undefined }, effect: { kind: "attach", agent: state.selected } };
  }
  if (key === "r") {
    const decision = context.decideRestart(state.selected);
    if (decision.kind === "refuse") return none({ message: `cannot restart: ${decision.reason}` });
    return none({ confirm: decision, message: `restart? ${decision.reason} — y confirms, any other key cancels` });
  }
  return none({});
}
